"""How deep agents reach into walls and polygons along a trajectory."""

from __future__ import annotations

import numpy as np

from ..._internal import validation as check
from .checks import per_agent, trajectory_of


def _walls(segments, polygons) -> tuple[np.ndarray, list[np.ndarray]]:
    """The walls checked, in float64 (the checks give float32, as the core holds them):
    every wall as a segment ``(k, 4)``, polygon edges included, and the polygons."""
    walls = [np.zeros((0, 4))]
    if segments is not None and len(check.segments("segments", segments)):
        walls.append(np.asarray(segments, dtype=np.float64).reshape(-1, 4))
    check.polygons("polygons", polygons)
    shapes = [np.asarray(p, dtype=np.float64) for p in polygons or ()]
    walls += [np.column_stack([p, np.roll(p, -1, axis=0)]) for p in shapes]
    return np.concatenate(walls), shapes


def _distance_to_segment(points: np.ndarray, segment: np.ndarray) -> np.ndarray:
    a, b = segment[:2], segment[2:]
    ab = b - a
    t = np.clip(((points - a) @ ab) / max(float(ab @ ab), 1e-300), 0.0, 1.0)
    return np.linalg.norm(points - (a + t[..., None] * ab), axis=-1)


def _crosses(p0: np.ndarray, p1: np.ndarray, segment: np.ndarray) -> np.ndarray:
    """Whether the moves p0 -> p1 cross ``segment`` (each strictly on both sides of the other)."""
    a, b = segment[:2], segment[2:]

    def side(o, u, v):
        return (u[..., 0] - o[..., 0]) * (v[..., 1] - o[..., 1]) - (u[..., 1] - o[..., 1]) * (v[..., 0] - o[..., 0])

    return (side(a, b, p0) * side(a, b, p1) < 0) & (side(p0, p1, a) * side(p0, p1, b) < 0)


def _inside(points: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Whether each point lies inside ``polygon`` (even-odd rule)."""
    inside = np.zeros(points.shape[:-1], dtype=bool)
    x, y = points[..., 0], points[..., 1]
    for (x0, y0), (x1, y1) in zip(polygon, np.roll(polygon, -1, axis=0)):
        straddles = (y0 > y) != (y1 > y)
        with np.errstate(divide="ignore", invalid="ignore"):
            crossing_x = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
        inside ^= straddles & (x < crossing_x)
    return inside


def wall_penetration(positions, radius, *, segments=None, polygons=None) -> np.ndarray:
    """``(T + 1, n)`` metres each agent's disc reached into a wall in each frame: its
    radius less its centre's distance to the nearest wall (segments ``(k, 4)``, polygon
    edges), plus that distance when the centre is inside a polygon; negative when clear.
    A centre that crossed a wall between two frames (through it, too fast to be seen in
    either) counts as reaching its whole radius in on the second.

    Parameters
    ----------
    positions : array_like, shape (T + 1, n, 2)
        The trajectory, metres, frame 0 the start.
    radius : float or array_like, shape (n,)
        Metres.
    segments : array_like, shape (k, 4), optional
        Walls, x0, y0, x1, y1 in metres.
    polygons : list of array_like of shape (m, 2), optional
        Polygon obstacles, vertices in metres.

    Returns
    -------
    ndarray of float64, shape (T + 1, n)
        Metres; negative when clear.

    Examples
    --------
    >>> from contextsteer import metrics
    >>> positions = [[[0.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]]]
    >>> metrics.wall_penetration(positions, 0.5, segments=[[-1.0, 1.2, 3.0, 1.2]]).round(2)
    array([[-0.7,  0.3],
           [-0.7,  0.3]])
    """
    positions = trajectory_of(positions)
    radius = per_agent("radius", radius, positions.shape[1])
    walls, shapes = _walls(segments, polygons)
    depth = np.full(positions.shape[:2], -np.inf)
    for wall in walls:
        depth = np.maximum(depth, radius - _distance_to_segment(positions, wall))
        crossed = _crosses(positions[:-1], positions[1:], wall)
        depth[1:][crossed] = np.maximum(depth[1:][crossed], np.broadcast_to(radius, crossed.shape)[crossed])
    for shape in shapes:
        distance = np.min([_distance_to_segment(positions, edge) for edge in np.column_stack(
            [shape, np.roll(shape, -1, axis=0)])], axis=0)
        inside = _inside(positions, shape)
        depth[inside] = np.maximum(depth[inside], (radius + distance)[inside])
    return depth

