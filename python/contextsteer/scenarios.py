"""Ready-made scenes for demos, notebooks and sweeps."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Scenario:
    """A scene: where agents start, where they go and what stands in the way.

    starts: ``(n, 2)`` start positions, metres. target: ``(2,)`` metres.
    obstacles: ``(m, 3)`` circles as x, y, radius in metres.
    bounds: ``(xmin, xmax, ymin, ymax)`` of the area worth plotting, metres.
    """

    name: str
    starts: np.ndarray
    target: np.ndarray
    obstacles: np.ndarray
    bounds: tuple[float, float, float, float]


def _wall(x0: float, x1: float, y: float, radius: float) -> np.ndarray:
    """A straight wall of touching circles from x0 to x1 at height y."""
    xs = np.arange(x0, x1 + 1e-9, radius * 1.5)
    return np.column_stack([xs, np.full_like(xs, y), np.full_like(xs, radius)])


def corridor(agents: int = 12, *, seed: int = 0) -> Scenario:
    """The path-finding corridor (seed 000): agents start at the west end of a corridor
    8 m wide and 40 m long and must reach a target at the east end, past pillars.

    agents: how many agents, scattered over the start area with ``seed``.
    """
    if agents < 1:
        raise ValueError(f"agents: expected a number of agents >= 1, got {agents}")
    rng = np.random.default_rng(seed)
    half_width = 4.0
    walls = np.concatenate([_wall(-2, 42, half_width + 0.6, 0.6), _wall(-2, 42, -half_width - 0.6, 0.6),
                            np.array([[-2.6, y, 0.6] for y in np.arange(-4.6, 4.7, 0.9)])])
    # Each pillar either closes one side of the corridor or leaves a gap over 2 m wide:
    # chase + avoid find their way past such pillars without a planner.
    pillars = np.array([
        [10.0, 2.2, 1.8],
        [17.0, -2.0, 1.8],
        [24.0, 0.0, 1.5],
        [31.0, -2.5, 1.5],
        [35.5, 2.6, 1.1],
    ])
    starts = np.column_stack([rng.uniform(0.5, 4.0, agents), rng.uniform(-3.0, 3.0, agents)])
    return Scenario(
        name="corridor",
        starts=starts,
        target=np.array([39.0, 0.0]),
        obstacles=np.concatenate([walls, pillars]),
        bounds=(-3.5, 42.5, -5.5, 5.5),
    )
