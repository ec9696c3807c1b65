"""Context behaviours: each fills interest or danger maps for every agent of a batch.

A behaviour knows nothing of the others; a :class:`~contextsteer.Pipeline` combines
them. Distances are in metres. Where a behaviour shapes by distance, ``falloff`` names
the curve over ``x = distance / max_distance`` (0 when ``max_distance`` is infinite):
``"step"`` 1; ``"linear"`` ``1 - x``; ``"smoothstep"`` ``1 - (3x^2 - 2x^3)``;
``"inverse_square"`` ``1 / (1 + 16 x^2)``; ``"exponential"`` ``exp(-4x)``.
"""

from __future__ import annotations

import math

import numpy as np

from . import _core
from . import _validation as check


class Behavior:
    """Base of every behaviour; wraps the C++ object that fills the maps."""

    _core: _core.Behavior

    @property
    def weight(self) -> float:
        """Factor applied to this behaviour's maps by the pipeline's combine rule."""
        return self._core.weight

    @property
    def fills_interest(self) -> bool:
        return self._core.fills_interest

    @property
    def fills_danger(self) -> bool:
        return self._core.fills_danger


class Chase(Behavior):
    """Interest toward targets.

    For an agent at ``p`` and a target ``t`` at distance ``d <= max_distance``, slot ``i``
    gets ``max(0, dot(u, d_i)) * falloff(d / max_distance)``, ``u = (t - p) / d``: closer
    targets are stronger. ``combine="max"`` goes for the best target; ``"sum"`` heads for
    the centre between targets.

    targets: ``(m, 2)`` positions, metres (or one ``(2,)`` position), shared by every
        agent; None: each agent chases its own target (its target agent, else its
        target point, see :meth:`World.add_agents`).
    max_distance: > 0, metres; farther targets are ignored. Infinite by default.
    """

    def __init__(self, targets=None, *, max_distance: float = math.inf, falloff: str = "linear",
                 combine: str = "max", weight: float = 1.0):
        own = targets is None
        self._core = _core.Chase(
            np.zeros((0, 2), np.float32) if own else check.points("targets", targets),
            own,
            check.number("max_distance", max_distance, above=0.0, allow_inf=True),
            check.name("falloff", falloff),
            check.name("combine", combine),
            check.number("weight", weight),
        )

    @property
    def targets(self) -> np.ndarray:
        """``(m, 2)`` target positions, metres (a copy; assign to change them)."""
        return self._core.targets

    @targets.setter
    def targets(self, value) -> None:
        self._core.targets = check.points("targets", value)


class Avoid(Behavior):
    """Danger toward circles, points, walls, polygons, bounds and other agents.

    Circles and agents: an obstacle of radius ``r`` at centre distance ``d`` from an agent
    of radius ``a`` has clearance ``max(0, d - r - a)`` and covers the directions within
    ``asin(min(1, (r + a) / d))`` of its bearing. Every slot whose arc (its direction
    +- half the slot spacing) overlaps that cone gets ``falloff(clearance / max_distance)``,
    so a coarse map never misses an obstacle.
    Walls (segments, polygon edges, bounds): slot ``i`` gets ``falloff(t_i / max_distance)``,
    ``t_i`` the least distance to the wall (inflated by ``a``) within the slot's arc, so the
    slots running along a wall stay nearly free. Everything combines by max.

    circles: ``(m, 3)`` as x, y, radius in metres; points: ``(m, 2)`` (radius 0).
    max_distance: > 0, metres of clearance beyond which an obstacle is ignored.
    world_obstacles: also avoid the obstacles of the scene (world or ``evaluate``) on
        the layers the agent senses.
    agents: also avoid the other agents it senses (through the world's neighbour grid).
    """

    def __init__(self, circles=None, *, points=None, max_distance: float = 5.0, falloff: str = "linear",
                 world_obstacles: bool = True, agents: bool = False, weight: float = 1.0):
        parts = [np.zeros((0, 3), dtype=np.float32)]
        if circles is not None:
            parts.append(check.points("circles", circles, columns=3))
        if points is not None:
            pts = check.points("points", points)
            parts.append(np.column_stack([pts, np.zeros(len(pts), dtype=np.float32)]))
        for flag, value in (("world_obstacles", world_obstacles), ("agents", agents)):
            if not isinstance(value, bool):
                raise TypeError(f"{flag}: expected a bool, got {type(value).__name__}")
        self._core = _core.Avoid(
            np.concatenate(parts),
            check.number("max_distance", max_distance, above=0.0),
            check.name("falloff", falloff),
            world_obstacles,
            agents,
            check.number("weight", weight),
        )

    @property
    def circles(self) -> np.ndarray:
        """``(m, 3)`` circles of this behaviour (points have radius 0)."""
        return self._core.circles
