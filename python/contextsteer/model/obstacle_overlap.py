"""Which bodies stand in an obstacle: discs of a radius at points, against circles, walls
and polygons, as a World holds them (metres)."""

from __future__ import annotations

import numpy as np

_CHUNK = 1024  # points measured at once, against every obstacle


def _segment_distances(points: np.ndarray, segments: np.ndarray) -> np.ndarray:
    """``(m, k)`` metres from each point to each segment ``x0, y0, x1, y1``."""
    a, b = segments[None, :, :2], segments[None, :, 2:]
    ab, ap = b - a, points[:, None, :] - a
    length2 = np.maximum((ab * ab).sum(-1), 1e-30)
    t = np.clip((ap * ab).sum(-1) / length2, 0.0, 1.0)
    return np.linalg.norm(ap - t[..., None] * ab, axis=-1)


def _inside_polygon(points: np.ndarray, vertices: np.ndarray) -> np.ndarray:
    """``(m,)`` whether each point lies inside the polygon (even-odd rule)."""
    x, y = points[:, :1], points[:, 1:]
    x0, y0 = vertices[None, :, 0], vertices[None, :, 1]
    x1, y1 = np.roll(vertices, -1, axis=0)[None, :, 0], np.roll(vertices, -1, axis=0)[None, :, 1]
    crosses = (y0 > y) != (y1 > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        at = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
    return ((crosses & (x < at)).sum(axis=1) % 2) == 1


def distances_to_obstacles(points, *, circles=None, segments=None, polygons=None) -> np.ndarray:
    """``(m,)`` metres from each of ``points`` ``(m, 2)`` to the nearest circle ``(x, y, r)``,
    wall ``(x0, y0, x1, y1)`` or polygon, 0 or less inside one (inf with no obstacle)."""
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    out = np.full(len(points), np.inf)
    circles = np.zeros((0, 3)) if circles is None else np.asarray(circles, dtype=np.float64).reshape(-1, 3)
    polygons = [np.asarray(p, dtype=np.float64).reshape(-1, 2) for p in polygons or ()]
    walls = np.vstack([np.zeros((0, 4)) if segments is None else np.asarray(segments, dtype=np.float64).reshape(-1, 4),
                       *(np.column_stack([v, np.roll(v, -1, axis=0)]) for v in polygons)])
    for begin in range(0, len(points), _CHUNK):  # (chunk, obstacles) at a time
        chunk = points[begin:begin + _CHUNK]
        best = out[begin:begin + _CHUNK]
        if len(circles):
            gaps = np.linalg.norm(chunk[:, None, :] - circles[None, :, :2], axis=-1) - circles[None, :, 2]
            best = np.minimum(best, gaps.min(axis=1))
        if len(walls):
            best = np.minimum(best, _segment_distances(chunk, walls).min(axis=1))
        for v in polygons:
            best = np.where(_inside_polygon(chunk, v), np.minimum(best, 0.0), best)
        out[begin:begin + _CHUNK] = best
    return out


def bodies_in_obstacles(points, radius, *, circles=None, segments=None, polygons=None) -> np.ndarray:
    """``(m,)`` whether the disc of ``radius`` metres (a number or ``(m,)``) at each of
    ``points`` ``(m, 2)`` overlaps a circle ``(x, y, r)``, a wall ``(x0, y0, x1, y1)`` or a
    polygon: where such a body could never stand."""
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return distances_to_obstacles(points, circles=circles, segments=segments, polygons=polygons) < radius
