"""The crowd steering's groups (:func:`~contextsteer.crowd_steering`): which agents share a
navigation field, and the goal areas each field leads to.

A scene's group with goal areas of its own keeps them. The other agents are grouped by
the square their target lies in: squares of :data:`GOAL_SQUARE` metres on a grid through
the middle of the bounds (larger, when the scene's spread would need more than
``max_fields``), each square a goal area, split into quarters where an obstacle comes
near it (so that every point of a goal area sees every target in it), down to squares
of 4 radii, below which a target gets a square of its own in its clear disc.
"""

from __future__ import annotations

import numpy as np

from ..model.obstacle_overlap import distances_to_obstacles

# Metres: the smallest side of the squares a crowd's own targets are grouped by (each
# square a goal area, the field's way ending at it and going on straight to the target).
GOAL_SQUARE = 2.0
NEAR = 1.25  # radii: an obstacle this near a square splits it


def goal_groups(scene, targets, radius: float, obstacles: dict, max_fields: int) -> tuple[np.ndarray, list]:
    """Each agent's group ``(n,)`` and each group's goal areas (a list of ``(k, 4)``)."""
    scene_groups = np.asarray(scene.groups, dtype=np.int64)
    goal_areas = np.asarray(scene.goal_areas, dtype=np.float64).reshape(-1, 4)
    area_groups = np.asarray(scene.goal_area_groups, dtype=np.int64)
    groups = np.full(len(targets), -1, dtype=np.int64)
    areas: list[np.ndarray] = []
    for g in np.unique(scene_groups):
        if (area_groups == g).any():
            groups[scene_groups == g] = len(areas)
            areas.append(goal_areas[area_groups == g])
    rest = np.flatnonzero(groups < 0)
    if not len(rest):
        return groups, areas
    # Squares on a grid through the middle of the bounds: a scene turned about it (or
    # mirrored) has its squares turned (or mirrored) with it.
    x0, y0 = (scene.bounds[0] + scene.bounds[2]) / 2, (scene.bounds[1] + scene.bounds[3]) / 2
    span = max(scene.bounds[2] - scene.bounds[0], scene.bounds[3] - scene.bounds[1])
    square = GOAL_SQUARE
    while True:  # keys: (scene group, square column, square row); one square past the span
        cells = np.floor((targets[rest] - [x0, y0]) / square) if square <= span else np.zeros((len(rest), 2))
        keys = np.column_stack([scene_groups[rest], cells])
        unique, which = np.unique(keys.astype(np.int64), axis=0, return_inverse=True)
        if len(unique) + len(areas) <= max_fields or square > span:
            break
        square *= 1.5
    which = which.ravel()
    walls = _walls(obstacles)
    for k, (_, i, j) in enumerate(unique):
        rows = rest[which == k]
        if square > span:  # a square over the whole scene: its bounds, one per scene group
            pieces = _squares(rows, targets, np.array(scene.bounds[:2], dtype=float), span, radius, obstacles, walls)
        else:
            pieces = _squares(rows, targets, np.array([x0 + i * square, y0 + j * square]), square, radius, obstacles,
                              walls)
        for piece_rows, rectangle in pieces:
            groups[piece_rows] = len(areas)
            areas.append(rectangle[None, :])
    return groups, areas


def _walls(obstacles: dict) -> np.ndarray:
    """``(k, 4)``: the free segments and the polygons' edges."""
    segments = obstacles["segments"]
    parts = [np.zeros((0, 4)) if segments is None else np.asarray(segments, dtype=np.float64).reshape(-1, 4)]
    for polygon in obstacles["polygons"] or ():
        v = np.asarray(polygon, dtype=np.float64).reshape(-1, 2)
        parts.append(np.column_stack([v, np.roll(v, -1, axis=0)]))
    return np.vstack(parts)


def _squares(rows, targets, corner, size, radius, obstacles, walls):
    """(rows, rectangle) pairs covering the targets of ``rows`` in the square at
    ``corner``: the square itself when no obstacle comes within NEAR radii of it (every
    point of it then sees every target in it), else its quarters, down to squares of
    4 radii; a target in a smaller square than that gets a square of its own, within the
    clear disc round it."""
    rectangle = np.array([*corner, *(corner + size)])
    if not near_obstacle(rectangle, NEAR * radius, obstacles, walls):
        return [(rows, rectangle)]
    if size / 2 >= 4 * radius:
        out = []
        for quarter in ((0, 0), (1, 0), (0, 1), (1, 1)):
            low = corner + np.array(quarter) * size / 2
            inside = ((targets[rows] >= low) & (targets[rows] < low + size / 2)).all(axis=1)
            if inside.any():
                out += _squares(rows[inside], targets, low, size / 2, radius, obstacles, walls)
        return out
    # Half the side of a square inside the disc of clearance round the target (at least
    # a sliver, so that the field has a goal).
    clear = np.maximum(distances_to_obstacles(targets[rows], **obstacles) - radius, 1e-3) / np.sqrt(2)
    return [([r], np.array([*(targets[r] - h), *(targets[r] + h)])) for r, h in zip(rows, clear)]


def near_obstacle(rectangle, reach: float, obstacles: dict, walls: np.ndarray) -> bool:
    """Whether an obstacle comes within ``reach`` metres of the rectangle ``(x0, y0, x1,
    y1)``: a circle, a wall (a free segment or a polygon's edge) or a polygon's inside."""
    x0, y0, x1, y1 = rectangle
    circles = obstacles["circles"]
    if circles is not None and len(circles):
        c = np.asarray(circles, dtype=np.float64).reshape(-1, 3)
        dx = np.maximum(np.maximum(x0 - c[:, 0], c[:, 0] - x1), 0.0)
        dy = np.maximum(np.maximum(y0 - c[:, 1], c[:, 1] - y1), 0.0)
        if (np.hypot(dx, dy) - c[:, 2] < reach).any():
            return True
    if len(walls) and (_segment_rectangle_distances(walls, rectangle) < reach).any():
        return True
    corner = np.array([[x0, y0]])
    return any(distances_to_obstacles(corner, polygons=[p])[0] <= 0 for p in obstacles["polygons"] or ())


def _segment_rectangle_distances(walls: np.ndarray, rectangle) -> np.ndarray:
    """``(k,)`` metres between each segment ``(x0, y0, x1, y1)`` and the rectangle, 0
    where they meet: the least of the ends' distances to the rectangle and the corners'
    to the segment, 0 where the segment crosses it (clipped by Liang-Barsky)."""
    x0, y0, x1, y1 = rectangle
    a, b = walls[:, :2], walls[:, 2:]

    def to_rectangle(p):
        dx = np.maximum(np.maximum(x0 - p[:, 0], p[:, 0] - x1), 0.0)
        dy = np.maximum(np.maximum(y0 - p[:, 1], p[:, 1] - y1), 0.0)
        return np.hypot(dx, dy)

    best = np.minimum(to_rectangle(a), to_rectangle(b))
    ab = b - a
    length2 = np.maximum((ab * ab).sum(axis=1), 1e-30)
    for corner in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
        ap = np.asarray(corner) - a
        t = np.clip((ap * ab).sum(axis=1) / length2, 0.0, 1.0)
        best = np.minimum(best, np.hypot(*(ap - t[:, None] * ab).T))
    # Crossing: the part of t in [0, 1] inside both slabs is not empty.
    low, high = np.zeros(len(walls)), np.ones(len(walls))
    with np.errstate(divide="ignore", invalid="ignore"):
        for axis, (lo, hi) in enumerate(((x0, x1), (y0, y1))):
            d, start = ab[:, axis], a[:, axis]
            t0, t1 = (lo - start) / d, (hi - start) / d
            flat = d == 0
            t_low = np.where(flat, np.where((start >= lo) & (start <= hi), -np.inf, np.inf), np.minimum(t0, t1))
            t_high = np.where(flat, np.where((start >= lo) & (start <= hi), np.inf, -np.inf), np.maximum(t0, t1))
            low, high = np.maximum(low, t_low), np.minimum(high, t_high)
    return np.where(low <= high, 0.0, best)
