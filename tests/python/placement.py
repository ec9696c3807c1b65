"""Places for test agents where their bodies clear the obstacles (a World warns, naming
them, about agents placed in one)."""

import numpy as np

from contextsteer.model.obstacle_overlap import bodies_in_obstacles


def clear(points, radius, **obstacles) -> np.ndarray:
    """``(m,)`` whether the disc of ``radius`` at each of ``points`` clears every obstacle
    (``circles``, ``segments``, ``polygons`` as World takes them)."""
    return ~bodies_in_obstacles(points, radius, **obstacles)


def clear_points(rng, low: float, high: float, count: int, radius: float, **obstacles) -> np.ndarray:
    """``(count, 2)`` points drawn uniformly from the square ``[low, high)^2``, each clear
    of the obstacles by ``radius``."""
    out = np.zeros((0, 2))
    while len(out) < count:
        drawn = rng.uniform(low, high, (2 * count, 2))
        out = np.vstack([out, drawn[clear(drawn, radius, **obstacles)]])
    return out[:count]
