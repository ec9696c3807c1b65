"""Which bodies stand in an obstacle: discs of a radius at points, against circles, walls
and polygons, as a World holds them (metres); and the warning a world gives for agents
placed, or sent, where their bodies cannot stand.

Every value is checked as a World checks it (finite, within +-1e9): a NaN, an inf or a
huge value is a ValueError naming the argument and the index, never a grid of unbounded
size; a wall or box over many grid cells is measured against the bodies within its box
alone, so that memory grows with the bodies and obstacles, not with their lengths."""

from __future__ import annotations

import os
import sys
import warnings
from types import FrameType

import numpy as np

from .._internal import validation as check

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


def _checked(points, circles, segments, polygons):
    """The points ``(m, 2)``, circles ``(c, 3)``, polygons and walls ``(k, 4)`` (the
    segments and the polygons' edges) as float64, each checked: finite, within +-1e9."""
    def rows(name, value, columns):
        if value is None:
            return np.zeros((0, columns))
        check.real_array(name, value)  # a NaN, inf or huge value named with its index
        return np.asarray(value, dtype=np.float64).reshape(-1, columns)

    polygons = [rows(f"polygons[{i}]", p, 2) for i, p in enumerate(polygons or ())]
    walls = np.vstack([rows("segments", segments, 4), *(np.column_stack([v, np.roll(v, -1, axis=0)])
                                                           for v in polygons)])
    return rows("points", points, 2), rows("circles", circles, 3), polygons, walls


def distances_to_obstacles(points, *, circles=None, segments=None, polygons=None) -> np.ndarray:
    """``(m,)`` metres from each of ``points`` ``(m, 2)`` to the nearest circle ``(x, y, r)``,
    wall ``(x0, y0, x1, y1)`` or polygon, 0 or less inside one (inf with no obstacle)."""
    points, circles, polygons, walls = _checked(points, circles, segments, polygons)
    out = np.full(len(points), np.inf)
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


def bodies_in_obstacles(points, radius, *, circles=None, segments=None, polygons=None,
                        tolerance: float = 0.0) -> np.ndarray:
    """``(m,)`` whether the disc of ``radius`` metres (a number or ``(m,)``) at each of
    ``points`` ``(m, 2)`` overlaps a circle ``(x, y, r)``, a wall ``(x0, y0, x1, y1)`` or a
    polygon by more than ``tolerance`` metres: where such a body could never stand.

    Each body is measured against the obstacles near it alone (a grid over the scene), so
    that the cost grows with the bodies and the obstacles, not with their product."""
    points, circles, polygons, walls = _checked(points, circles, segments, polygons)
    m = len(points)
    check.real_array("radius", radius)
    radii = np.broadcast_to(np.asarray(radius, dtype=np.float64), (m,)) - tolerance
    inside = np.zeros(m, dtype=bool)
    if m == 0 or not (len(circles) or len(walls)):
        return inside
    pad = max(float(radii.max()), 0.0)
    cell = max(4.0 * pad, 1.0)  # metres: a grid's cell, several bodies wide
    pieces = _pieces(walls, cell)
    boxes = np.vstack([np.column_stack([circles[:, :2] - circles[:, 2:], circles[:, :2] + circles[:, 2:]]),
                       np.column_stack([np.minimum(pieces[:, :2], pieces[:, 2:]),
                                        np.maximum(pieces[:, :2], pieces[:, 2:])])])
    at, which = _near(points, boxes + [-pad, -pad, pad, pad], cell)
    is_circle = which < len(circles)
    c, p = circles[which[is_circle]], at[is_circle]
    gaps = np.hypot(*(points[p] - c[:, :2]).T) - c[:, 2]
    inside[p[gaps < radii[p]]] = True
    w, p = pieces[which[~is_circle] - len(circles)], at[~is_circle]
    inside[p[_pair_distances(points[p], w) < radii[p]]] = True
    for vertices in polygons:  # centres inside a polygon, however far from its edges
        low, high = vertices.min(axis=0), vertices.max(axis=0)
        near = np.flatnonzero(~inside & (points >= low).all(axis=1) & (points <= high).all(axis=1))
        inside[near[_inside_polygon(points[near], vertices)]] = True
    return inside


TOUCHING = 1e-5  # metres of overlap a world's float32 values may show between touching bodies
_MAX_CELLS = 4096  # cells of the grid an obstacle's box may cover; beyond, it meets every body


def _pieces(walls: np.ndarray, length: float) -> np.ndarray:
    """``walls`` ``(k, 4)`` cut into equal pieces of at most ``length`` metres each (up to
    _MAX_CELLS pieces a wall)."""
    # A longer wall's pieces are longer: each box then covers more than _MAX_CELLS cells
    # and meets every body within it (_near), so that a wall of 1e9 m is not 1e9 pieces.
    counts = np.clip(np.ceil(np.hypot(*(walls[:, 2:] - walls[:, :2]).T) / length), 1, _MAX_CELLS).astype(np.int64)
    rows = np.repeat(np.arange(len(walls)), counts)
    part = np.arange(len(rows)) - np.repeat(np.cumsum(counts) - counts, counts)
    a, b, n = walls[rows, :2], walls[rows, 2:], counts[rows, None]
    return np.column_stack([a + (b - a) * part[:, None] / n, a + (b - a) * (part[:, None] + 1) / n])


def _pair_distances(points: np.ndarray, segments: np.ndarray) -> np.ndarray:
    """``(k,)`` metres from each point to the segment of its row."""
    a, ab = segments[:, :2], segments[:, 2:] - segments[:, :2]
    ap = points - a
    t = np.clip((ap * ab).sum(-1) / np.maximum((ab * ab).sum(-1), 1e-30), 0.0, 1.0)
    return np.hypot(*(ap - t[:, None] * ab).T)


def _near(points: np.ndarray, boxes: np.ndarray, cell: float) -> tuple[np.ndarray, np.ndarray]:
    """``(point rows, box rows)``: the pairs of a point and a box ``(x0, y0, x1, y1)`` that
    share a cell of ``cell`` metres (every pair of a point inside a box among them)."""
    low = np.floor(boxes[:, :2] / cell).astype(np.int64)
    span = np.minimum(np.floor(boxes[:, 2:] / cell).astype(np.int64) - low + 1, _MAX_CELLS + 1)  # no overflow
    covered = span[:, 0] * span[:, 1]
    big = np.flatnonzero(covered > _MAX_CELLS)
    small = np.flatnonzero(covered <= _MAX_CELLS)
    # Every (box, cell) of the small boxes within the points' cells, sorted by cell.
    box = np.repeat(small, covered[small])
    offset = np.arange(len(box)) - np.repeat(np.cumsum(covered[small]) - covered[small], covered[small])
    x, y = low[box, 0] + offset % span[box, 0], low[box, 1] + offset // span[box, 0]
    cells = np.floor(points / cell).astype(np.int64)
    first_cell, last_cell = cells.min(axis=0), cells.max(axis=0)
    kept = (x >= first_cell[0]) & (x <= last_cell[0]) & (y >= first_cell[1]) & (y <= last_cell[1])
    box, x, y = box[kept], x[kept] - first_cell[0], y[kept] - first_cell[1]
    cells -= first_cell
    rows = int(last_cell[1] - first_cell[1]) + 1
    width = int(last_cell[0] - first_cell[0]) + 1
    keys, point_keys = x * rows + y, cells[:, 0] * rows + cells[:, 1]
    order = np.argsort(keys, kind="stable")
    first: np.ndarray
    if width * rows <= 4 * len(points) + 4096:  # a dense grid over the points: a lookup per point
        starts = np.concatenate([[0], np.cumsum(np.bincount(keys, minlength=width * rows))])
        first, counts = starts[point_keys], starts[point_keys + 1] - starts[point_keys]
    else:  # cells far apart: found by search
        first = np.searchsorted(keys[order], point_keys, "left")
        counts = np.searchsorted(keys[order], point_keys, "right") - first
    box = box[order]
    at = np.repeat(np.arange(len(points)), counts)
    which = box[np.repeat(first, counts) + np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)]
    for b in big:  # a box over many cells: the points inside it
        inside_box = np.flatnonzero((points >= boxes[b, :2]).all(axis=1) & (points <= boxes[b, 2:]).all(axis=1))
        at, which = np.concatenate([at, inside_box]), np.concatenate([which, np.full(len(inside_box), b)])
    return at, which



def warn_placed_in_obstacles(world, rows: np.ndarray, positions, radius, sense_masks, targets=None,
                             target_ids=None) -> None:
    """A UserWarning naming the agents of ``rows`` (the world's rows) whose body, of
    ``radius``, overlaps a static obstacle they sense (``sense_masks``, as the world
    measures penetration) at its position, or at its target point (``targets``; not for
    those following a target agent, ``target_ids`` >= 0): how many and which rows."""
    circles, segments, polygons = world._core.circles, world._core.segments, world._core.polygons
    if not (len(circles) or len(segments) or len(polygons)) or not len(rows):
        return
    layers = world._core.obstacle_layers
    senses = np.broadcast_to(np.asarray(sense_masks, dtype=np.int64), (len(rows),))
    found = []
    for what, points, only in (("start with their body", positions, None),
                               ("have their target where their body would be", targets,
                                None if target_ids is None else np.asarray(target_ids) < 0)):
        if points is None:
            continue
        inside = np.zeros(len(rows), dtype=bool)
        for layer in np.unique(np.concatenate(layers)):  # the obstacles of each layer, for the agents sensing it
            sensing = (senses & int(layer)) != 0
            if only is not None:
                sensing &= np.broadcast_to(only, sensing.shape)
            if sensing.any():
                inside[sensing] |= bodies_in_obstacles(
                    np.asarray(points, dtype=np.float64)[sensing],
                    np.broadcast_to(np.asarray(radius, dtype=np.float64), (len(rows),))[sensing],
                    circles=circles[layers[0] == layer], segments=segments[layers[1] == layer],
                    polygons=[p for p, on in zip(polygons, layers[2]) if on == layer], tolerance=TOUCHING)
        if inside.any():
            shown = ", ".join(str(r) for r in rows[inside][:10]) + (", ..." if inside.sum() > 10 else "")
            found.append(f"{int(inside.sum())} of {len(rows)} agents {what} in an obstacle (rows {shown})")
    if found:
        warnings.warn(f"World: {'; '.join(found)}: a body cannot stand there; place them at least their radius clear "
                      f"of the obstacles", UserWarning, stacklevel=_outside_the_package())


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _outside_the_package() -> int:
    """The stack level of the first caller outside contextsteer, for a warning to name the user's line."""
    frame: FrameType | None = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level
