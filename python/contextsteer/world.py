"""A world of agents steered by a context pipeline among circle obstacles."""

from __future__ import annotations

import math

import numpy as np

from . import _core
from . import _validation as check
from .pipeline import Pipeline


class World:
    """Agents, static circle obstacles and a step that runs entirely in C++.

    Each :meth:`step` every agent senses the scene, its pipeline fills, merges and
    resolves its maps, and the decision becomes a desired velocity
    ``direction * strength * max_speed`` that the velocity approaches with at most
    ``max_acceleration``; positions then advance with the new velocity
    (semi-implicit Euler).

    pipeline: the :class:`Pipeline` every agent uses.
    positions: ``(n, 2)`` metres; velocities: ``(n, 2)`` m/s (zero if None).
    max_speed: m/s; max_acceleration: m/s^2 (inf: velocity jumps to the desired one);
    radius: metres. Each a number or ``(n,)``.
    obstacles: ``(m, 3)`` circles as x, y, radius in metres.

    State and maps are NumPy views of the world's memory, not copies: ``positions``,
    ``velocities``, ``max_speed``, ``max_acceleration`` and ``radius`` are writable;
    maps and decisions are read-only. A view stays valid after the world grows or is
    deleted; it then keeps the values it had, so read the property again for new ones.
    """

    def __init__(self, pipeline: Pipeline, positions=None, velocities=None, *, max_speed=1.0,
                 max_acceleration=math.inf, radius=0.5, obstacles=None):
        if not isinstance(pipeline, Pipeline):
            raise TypeError(f"pipeline: expected a contextsteer.Pipeline, got {type(pipeline).__name__}")
        self._pipeline = pipeline
        self._core = _core.World(pipeline._core)
        if obstacles is not None:
            self.obstacles = obstacles
        if positions is not None:
            self.add_agents(positions, velocities, max_speed=max_speed, max_acceleration=max_acceleration,
                            radius=radius)

    def add_agents(self, positions, velocities=None, *, max_speed=1.0, max_acceleration=math.inf,
                   radius=0.5) -> np.ndarray:
        """Append agents; returns their ids, shape ``(m,)``. Arguments as for the constructor."""
        pos = check.shaped("positions", positions, (None, 2))
        m = len(pos)
        vel = None if velocities is None else check.shaped("velocities", velocities, (m, 2))
        first = self._core.add_agents(
            pos, vel,
            check.per_agent("max_speed", max_speed, m),
            check.per_agent("max_acceleration", max_acceleration, m, allow_inf=True),
            check.per_agent("radius", radius, m),
        )
        return np.arange(first, first + m)

    def step(self, dt: float = 1 / 60) -> None:
        """Advance ``dt`` seconds (> 0) for every agent; the GIL is released meanwhile."""
        self._core.step(check.number("dt", dt, above=0.0))

    @property
    def pipeline(self) -> Pipeline:
        return self._pipeline

    @property
    def agent_count(self) -> int:
        return self._core.agent_count

    def __len__(self) -> int:
        return self._core.agent_count

    @property
    def slots(self) -> int:
        return self._core.slots

    @property
    def steps_taken(self) -> int:
        return self._core.steps_taken

    @property
    def time(self) -> float:
        """Simulated seconds since the world was made."""
        return self._core.time

    @property
    def obstacles(self) -> np.ndarray:
        """``(m, 3)`` circle obstacles, x, y, radius in metres (a copy; assign to change)."""
        return self._core.obstacles

    @obstacles.setter
    def obstacles(self, value) -> None:
        self._core.set_obstacles(check.points("obstacles", value, columns=3))

    # State: writable views, (n, 2) or (n,).
    @property
    def positions(self) -> np.ndarray:
        """``(n, 2)`` metres, writable view."""
        return self._core.positions

    @property
    def velocities(self) -> np.ndarray:
        """``(n, 2)`` m/s, writable view."""
        return self._core.velocities

    @property
    def max_speed(self) -> np.ndarray:
        """``(n,)`` m/s, writable view."""
        return self._core.max_speed

    @property
    def max_acceleration(self) -> np.ndarray:
        """``(n,)`` m/s^2, writable view (inf: no limit)."""
        return self._core.max_acceleration

    @property
    def radius(self) -> np.ndarray:
        """``(n,)`` metres, writable view."""
        return self._core.radius

    # Maps and decisions of the last step: read-only views.
    @property
    def interest(self) -> np.ndarray:
        """``(n, slots)`` combined interest of the last step, read-only view."""
        return self._core.interest

    @property
    def danger(self) -> np.ndarray:
        """``(n, slots)`` combined danger of the last step, read-only view."""
        return self._core.danger

    @property
    def final(self) -> np.ndarray:
        """``(n, slots)`` the map each agent decided on in the last step, read-only view."""
        return self._core.final

    @property
    def direction(self) -> np.ndarray:
        """``(n, 2)`` chosen unit directions ((0, 0) where blocked), read-only view."""
        return self._core.direction

    @property
    def strength(self) -> np.ndarray:
        """``(n,)`` chosen strengths in [0, 1], read-only view."""
        return self._core.strength

    @property
    def slot(self) -> np.ndarray:
        """``(n,)`` chosen fractional slots (-1 where blocked), read-only view."""
        return self._core.slot

    @property
    def blocked(self) -> np.ndarray:
        """``(n,)`` bool, True where no slot was left, read-only view."""
        return self._core.blocked
