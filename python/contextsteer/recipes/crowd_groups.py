"""The crowd steering's groups (:func:`~contextsteer.crowd_steering`): which agents share a
navigation field, and the goal areas each field leads to.

A scene's group with goal areas of its own keeps them. The other agents are grouped by
the square their target lies in: squares of :data:`GOAL_SQUARE` metres on a grid through
the middle of the bounds, each a goal area, split into quarters where an obstacle comes
near it (so that every point of a goal area sees every target in it), down to squares
of 4 radii, below which a target gets a square of its own in its clear disc. Where that
makes more than ``max_fields`` groups, the smallest squares near an obstacle are kept
whole instead; where that is still too many, the squares grow (by half, over and over),
the smallest with them (an eighth of the squares, past the bounds too), until the groups
are few enough (at the last, one square over the bounds per scene group). So a scene of
scattered targets costs no more fields than ``max_fields`` (and its scene groups with
goal areas): its targets near obstacles share squares that an obstacle comes near.
Then the pieces merge by need: two whose agents walk the same way, with no obstacle near
the box round them, become one over that box where one field costs no more than two (so
a crowd bound one way for places spread over open ground follows one field).
"""

from __future__ import annotations

import numpy as np

from ..model.obstacle_overlap import distances_to_obstacles
from .crowd_fields import field_box

# Metres: the smallest side of the squares a crowd's own targets are grouped by (each
# square a goal area, the field's way ending at it and going on straight to the target).
GOAL_SQUARE = 2.0
NEAR = 1.25  # radii: an obstacle this near a square splits it
SAME_WAY = float(np.cos(np.radians(45.0)))  # pieces whose agents' ways lie within 45 degrees may merge
# Pieces merge where their field covers at most this many times the ground of their two
# fields (a field's margin grows with its box, so two halves of a row cover a little less).
MERGED_GROUND = 1.5


def goal_groups(scene, starts, targets, radius: float, obstacles: dict, max_fields: int) -> tuple[np.ndarray, list]:
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
    middle = np.array([(scene.bounds[0] + scene.bounds[2]) / 2, (scene.bounds[1] + scene.bounds[3]) / 2])
    span = max(scene.bounds[2] - scene.bounds[0], scene.bounds[3] - scene.bounds[1])
    walls = _walls(obstacles)
    square = GOAL_SQUARE
    while True:
        if square <= span and _square_count(rest, scene_groups, targets, middle, square) + len(areas) > max_fields:
            square *= 1.5  # too many before any split
            continue
        # The smallest square a split near an obstacle gives: 4 radii, and an eighth of the
        # squares once they grow (so that the leaves near obstacles grow with them).
        smallest = max(4 * radius, square / 8)
        for own in (True, False):  # a target in the smallest square near an obstacle: a square of its own, or not
            last = smallest >= span and not own  # one square over the bounds per scene group: taken as it is
            pieces = _leaves(rest, scene_groups, targets, middle, square, span, scene.bounds, smallest, own, radius,
                             obstacles, walls, len(rest) if last else max_fields - len(areas))
            if pieces is not None:
                break
        if pieces is not None:
            break
        square *= 1.5
    for piece_rows, rectangle in _merged(pieces, scene_groups, starts, targets, scene.bounds, NEAR * radius,
                                         obstacles, walls):
        groups[piece_rows] = len(areas)
        areas.append(rectangle[None, :])
    return groups, areas


def _square_keys(rest, scene_groups, targets, middle, square) -> tuple[np.ndarray, np.ndarray]:
    """``(k, 3)`` the distinct (scene group, column, row) of the squares of side ``square``
    holding the targets of ``rest``, in that order, and ``(len(rest),)`` each one's."""
    columns = np.column_stack([scene_groups[rest], np.floor((targets[rest] - middle) / square).astype(np.int64)])
    low = columns.min(axis=0, initial=0)
    dims = tuple(int(d) for d in columns.max(axis=0, initial=0) - low + 1)
    if dims[0] * dims[1] * dims[2] >= 2**62:  # too many to pack in one integer
        unique, which = np.unique(columns, axis=0, return_inverse=True)
        return unique, which.ravel()
    _, first, which = np.unique(np.ravel_multi_index((columns - low).T, dims), return_index=True,
                                return_inverse=True)
    return columns[first], which.ravel()


def _square_count(rest, scene_groups, targets, middle, square) -> int:
    """How many squares of side ``square`` (by scene group) hold the targets of ``rest``."""
    return len(_square_keys(rest, scene_groups, targets, middle, square)[0])


def _leaves(rest, scene_groups, targets, middle, square, span, bounds, smallest, own, radius, obstacles, walls,
            budget):
    """(rows, rectangle) pairs: the targets of ``rest`` by scene group and square of side
    ``square`` (one square over the bounds once it passes ``span``), each split into
    quarters while an obstacle comes within NEAR radii of it, down to squares of
    ``smallest`` metres; there, with ``own``, each target gets a square of its own within
    the clear disc round it, and without, the square is kept. Every square of a size is
    tested against every obstacle at once. None where that makes more than ``budget``
    pieces (with squares of their own: found before their clear discs are measured)."""
    unique, which = _square_keys(rest, scene_groups, targets, middle, square if square <= span else np.inf)
    size = span if square > span else square
    corners = (np.tile(np.asarray(bounds[:2], dtype=float), (len(unique), 1)) if square > span
               else middle + unique[:, 1:] * square)
    pending = [rest[which == k] for k in range(len(unique))]
    pieces, singles = [], []
    while pending:
        rectangles = np.column_stack([corners, corners + size])
        near = near_obstacles(rectangles, NEAR * radius, obstacles, walls)
        next_rows, next_corners = [], []
        for rows, corner, rectangle, is_near in zip(pending, corners, rectangles, near):
            if not is_near:
                pieces.append((rows, rectangle))
            elif size / 2 >= smallest:
                for quarter in ((0, 0), (1, 0), (0, 1), (1, 1)):
                    low = corner + np.array(quarter) * size / 2
                    inside = ((targets[rows] >= low) & (targets[rows] < low + size / 2)).all(axis=1)
                    if inside.any():
                        next_rows.append(rows[inside])
                        next_corners.append(low)
            elif not own:
                pieces.append((rows, rectangle))
            else:
                singles.append(rows)
        pending, corners, size = next_rows, np.array(next_corners).reshape(-1, 2), size / 2
    if len(pieces) + sum(len(rows) for rows in singles) > budget:
        return None
    if singles:
        # Half the side of a square inside the disc of clearance round each target (at least
        # a sliver, so that the field has a goal).
        rows = np.concatenate(singles)
        clear = np.maximum(distances_to_obstacles(targets[rows], **obstacles) - radius, 1e-3) / np.sqrt(2)
        pieces += [([r], np.array([*(targets[r] - h), *(targets[r] + h)])) for r, h in zip(rows, clear)]
    return pieces


def _merged(pieces, scene_groups, starts, targets, bounds, reach, obstacles, walls) -> list:
    """``pieces`` merged by need: two pieces of one scene group become one, over the
    bounding box of their rectangles, where their agents walk the same way (their mean
    directions from start to target within 45 degrees: :data:`SAME_WAY`), no obstacle
    comes within ``reach`` of that box (so that every point of it still sees every target
    in it), and the one field costs about what the two do (the area its field covers,
    :func:`~contextsteer.recipes.crowd_fields.field_box`, at most :data:`MERGED_GROUND`
    times theirs together); the
    pair whose box is the smallest first, until no pair can. A crowd bound one way for
    places spread over open ground follows one field; crowds walking different ways, or
    far apart, keep fields of their own (the crowd's re-march keeps crowds walking
    different ways apart, as lanes)."""
    rows = [np.asarray(r) for r, _ in pieces]
    boxes = [np.asarray(b, dtype=np.float64) for _, b in pieces]
    ways = []
    for r in rows:
        way = targets[r] - starts[r]
        length = np.hypot(way[:, 0], way[:, 1])[:, None]
        mean = (way / np.where(length > 0, length, 1.0)).mean(axis=0)
        ways.append(mean / max(float(np.hypot(*mean)), 1e-12))
    owner = [int(scene_groups[r[0]]) for r in rows]

    def ground(r: np.ndarray, box: np.ndarray) -> float:
        x0, y0, x1, y1 = field_box(bounds, box[None, :], starts[r])
        return max(x1 - x0, 0.0) * max(y1 - y0, 0.0)

    grounds = [ground(r, b) for r, b in zip(rows, boxes)]

    def joinable(i: int, others: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """Of ``others``: which may join piece ``i``, and the areas of their joint boxes."""
        if not others:
            return np.zeros(0, dtype=bool), np.zeros(0)
        joint = np.array([[*np.minimum(boxes[i][:2], boxes[j][:2]), *np.maximum(boxes[i][2:], boxes[j][2:])]
                          for j in others])
        same = np.array([owner[j] == owner[i] and float(ways[i] @ ways[j]) >= SAME_WAY and
                         ground(np.concatenate([rows[i], rows[j]]), box) <= MERGED_GROUND * (grounds[i] + grounds[j])
                         for j, box in zip(others, joint)])
        ok = same.copy()
        if same.any():
            ok[same] = ~near_obstacles(joint[same], reach, obstacles, walls)
        return ok, (joint[:, 2] - joint[:, 0]) * (joint[:, 3] - joint[:, 1])

    # Candidate pairs (area, i, j) with i < j, kept while both pieces stand.
    alive = list(range(len(rows)))
    candidates = []
    for position, i in enumerate(alive):
        later = alive[position + 1:]
        ok, area = joinable(i, later)
        candidates += [(a, i, j) for a, j, k in zip(area, later, ok) if k]
    standing = set(alive)
    while candidates:
        candidates.sort()
        _, i, j = candidates.pop(0)
        if i not in standing or j not in standing:
            continue
        rows.append(np.concatenate([rows[i], rows[j]]))
        boxes.append(np.array([*np.minimum(boxes[i][:2], boxes[j][:2]), *np.maximum(boxes[i][2:], boxes[j][2:])]))
        weight_i, weight_j = len(rows[i]), len(rows[j])
        mean = weight_i * ways[i] + weight_j * ways[j]
        ways.append(mean / max(float(np.hypot(*mean)), 1e-12))
        owner.append(owner[i])
        grounds.append(ground(rows[-1], boxes[-1]))
        standing -= {i, j}
        merged = len(rows) - 1
        others = sorted(standing)
        ok, area = joinable(merged, others)
        candidates += [(a, k, merged) for a, k, fine in zip(area, others, ok) if fine]
        standing.add(merged)
    return [(rows[k], boxes[k]) for k in sorted(standing)]


def _walls(obstacles: dict) -> np.ndarray:
    """``(k, 4)``: the free segments and the polygons' edges."""
    segments = obstacles["segments"]
    parts = [np.zeros((0, 4)) if segments is None else np.asarray(segments, dtype=np.float64).reshape(-1, 4)]
    for polygon in obstacles["polygons"] or ():
        v = np.asarray(polygon, dtype=np.float64).reshape(-1, 2)
        parts.append(np.column_stack([v, np.roll(v, -1, axis=0)]))
    return np.vstack(parts)


def near_obstacles(rectangles: np.ndarray, reach: float, obstacles: dict, walls: np.ndarray) -> np.ndarray:
    """``(m,)`` whether an obstacle comes within ``reach`` metres of each rectangle ``(x0,
    y0, x1, y1)`` of ``rectangles`` ``(m, 4)``: a circle, a wall (a free segment or a
    polygon's edge) or a polygon's inside."""
    near = np.zeros(len(rectangles), dtype=bool)
    if not len(rectangles):
        return near
    x0, y0, x1, y1 = (rectangles[:, k:k + 1] for k in range(4))
    circles = obstacles["circles"]
    if circles is not None and len(circles):
        c = np.asarray(circles, dtype=np.float64).reshape(-1, 3)
        dx = np.maximum(np.maximum(x0 - c[:, 0], c[:, 0] - x1), 0.0)
        dy = np.maximum(np.maximum(y0 - c[:, 1], c[:, 1] - y1), 0.0)
        near |= (np.hypot(dx, dy) - c[:, 2] < reach).any(axis=1)
    if len(walls):
        near |= (_segment_rectangle_distances(walls, rectangles) < reach).any(axis=1)
    for polygon in obstacles["polygons"] or ():
        near |= distances_to_obstacles(rectangles[:, :2], polygons=[polygon]) <= 0
    return near


def _segment_rectangle_distances(walls: np.ndarray, rectangles: np.ndarray) -> np.ndarray:
    """``(m, k)`` metres between each rectangle ``(x0, y0, x1, y1)`` and each segment
    ``(x0, y0, x1, y1)``, 0 where they meet: the least of the ends' distances to the
    rectangle and the corners' to the segment, 0 where the segment crosses it (clipped by
    Liang-Barsky)."""
    x0, y0, x1, y1 = (rectangles[:, k:k + 1] for k in range(4))
    ax, ay, bx, by = (walls[None, :, k] for k in range(4))

    def to_rectangle(px, py):
        return np.hypot(np.maximum(np.maximum(x0 - px, px - x1), 0.0), np.maximum(np.maximum(y0 - py, py - y1), 0.0))

    best = np.minimum(to_rectangle(ax, ay), to_rectangle(bx, by))
    dx, dy = bx - ax, by - ay
    length2 = np.maximum(dx * dx + dy * dy, 1e-30)
    for cx, cy in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
        t = np.clip(((cx - ax) * dx + (cy - ay) * dy) / length2, 0.0, 1.0)
        best = np.minimum(best, np.hypot(cx - ax - t * dx, cy - ay - t * dy))
    # Crossing: the part of t in [0, 1] inside both slabs is not empty.
    low, high = np.zeros_like(best), np.ones_like(best)
    with np.errstate(divide="ignore", invalid="ignore"):
        for d, start, lo, hi in ((dx, ax, x0, x1), (dy, ay, y0, y1)):
            t0, t1 = (lo - start) / d, (hi - start) / d
            inside = (start >= lo) & (start <= hi)
            flat = d == 0
            low = np.maximum(low, np.where(flat, np.where(inside, -np.inf, np.inf), np.minimum(t0, t1)))
            high = np.minimum(high, np.where(flat, np.where(inside, np.inf, -np.inf), np.maximum(t0, t1)))
    return np.where(low <= high, 0.0, best)
