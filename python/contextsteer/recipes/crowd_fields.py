"""The crowd steering's navigation fields (:func:`~contextsteer.crowd_steering`): one per
group, over the ground that group walks, and the room its way leaves to step aside.

A group's field covers its starts and goal areas with :data:`FIELD_MARGIN` metres round
them (more for a large group: a quarter of the smaller side of that box), within the
scene's bounds, so that its cost follows the ground the group walks, not the map. Where
that leaves a start no way round the obstacles, the field covers the whole bounds. Cells
are :data:`CELL` metres, larger where every field's cells together would pass
:data:`MAX_CELLS` (open ground on a large map), and :data:`FINE_CELL` metres, with the
clearance lowered down to half the radius, where the coarse cells find no way (a passage
narrower than about twice the radius plus a cell).
"""

from __future__ import annotations

import math

import numpy as np

from ..model.navigation import NavigationField, widest_way

FIELD_MARGIN = 3.0  # metres of ground round a group's starts and goal areas that its field covers at least
CELL = 0.25  # metres: the fields' cells where they are few enough
FINE_CELL = 0.1  # metres: the cells where the coarse ones find no way, and those passages are measured on
MAX_CELLS = 1 << 22  # cells of all the crowd's fields together, at most; beyond, the cells grow
MAX_WAY_CELLS = 1 << 22  # cells a group's passages are measured on, at most; beyond, the cells grow
_FIELD_CELLS = 1 << 24  # the most a NavigationField takes


def field_boxes(bounds, areas: list, starts: np.ndarray, groups: np.ndarray) -> list[tuple]:
    """Per group, the rectangle ``(x0, y0, x1, y1)`` its field covers (:func:`field_box`)."""
    return [field_box(bounds, goal_areas, starts[groups == g]) for g, goal_areas in enumerate(areas)]


def field_box(bounds, goal_areas: np.ndarray, starts: np.ndarray) -> tuple:
    """The rectangle ``(x0, y0, x1, y1)`` a field from ``starts`` to ``goal_areas`` ``(k, 4)``
    covers: both with the margin round them, within ``bounds``."""
    low = np.minimum(starts.min(axis=0, initial=np.inf), goal_areas[:, :2].min(axis=0))
    high = np.maximum(starts.max(axis=0, initial=-np.inf), goal_areas[:, 2:].max(axis=0))
    margin = max(FIELD_MARGIN, 0.25 * float(np.min(high - low)))
    return (max(bounds[0], low[0] - margin), max(bounds[1], low[1] - margin),
            min(bounds[2], high[0] + margin), min(bounds[3], high[1] + margin))


def cell_for(boxes: list[tuple]) -> float:
    """Metres: :data:`CELL`, or larger, so that the fields over ``boxes`` hold at most
    :data:`MAX_CELLS` cells together."""
    area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes)
    return max(CELL, math.sqrt(area / MAX_CELLS))


def group_field(bounds, box, goal_areas, starts, group, rows, radius, lanes, obstacles, cell) -> NavigationField:
    """The group's field: over ``box`` on cells of ``cell`` metres, ``radius`` from the
    obstacles; unless that leaves a start with no way, then over the bounds, then on
    finer cells with less clearance."""
    fine = min(cell, max(FINE_CELL, 0.4 * cell))
    tries = [(box, cell, radius), (bounds, cell, radius)]
    tries += [(area, fine, clearance) for area in (box, bounds) for clearance in (radius, 0.8 * radius, 0.5 * radius)]
    seen = set()
    stuck = np.ones(len(starts), dtype=bool)
    for area, size, clearance in tries:
        area = tuple(float(v) for v in area)
        if (area, size, clearance) in seen or _cells(area, size) > _FIELD_CELLS:
            continue
        seen.add((area, size, clearance))
        field = NavigationField(goal_areas=goal_areas, area=area, cell=size, clearance=clearance, keep_right=lanes,
                                **obstacles)
        stuck = ~np.isfinite(field.distance_at(starts))
        if not stuck.any():
            return field
    raise ValueError(f"scene: agents with no way from their start to their goal (group {group}, its goal areas "
                     f"{goal_areas.tolist()}): {int(stuck.sum())} (rows {', '.join(map(str, rows[stuck][:10]))})")


def room_beside(field: NavigationField, bounds, goal_areas, starts, radius: float, obstacles: dict) -> float:
    """The share (0 to 1) of a body's width (``2 radius``) that the narrowest passage on
    the group's way leaves beside one body: ``(w - 2 radius) / (2 radius)`` clipped, ``w``
    twice the widest way's distance from the obstacles (:func:`widest_way`) from every
    start to the goal areas, over the field's rectangle on a lattice of :data:`FINE_CELL`
    metres (wider on a large rectangle) laid from the bounds' corner, so that a scene's
    walls on round coordinates fall on its points."""
    x0, x1, y0, y1 = field.extent
    cell = max(FINE_CELL, math.sqrt((x1 - x0) * (y1 - y0) / MAX_WAY_CELLS))
    corner = np.asarray(bounds[:2], dtype=np.float64)
    low = corner + np.floor((np.array([x0, y0]) - corner) / cell) * cell
    area = (low[0], low[1], x1, y1)
    half = widest_way(goal_areas, starts, area=area, cell=cell, cap=2 * radius, **obstacles)
    return float(np.clip((2 * half - 2 * radius) / (2 * radius), 0.0, 1.0))


def _cells(area, cell: float) -> float:
    return max(1.0, math.ceil((area[2] - area[0]) / cell)) * max(1.0, math.ceil((area[3] - area[1]) / cell))
