"""The shapes the scenes of :mod:`contextsteer.scenarios` are built of: walls of circles,
boxes of walls, agents scattered over a grid, corridors offset from a centre line.
Lengths in metres."""

from __future__ import annotations

import math

import numpy as np


def wall(x0: float, x1: float, y: float, radius: float) -> np.ndarray:
    """A straight wall of touching circles from x0 to x1 at height y."""
    xs = np.arange(x0, x1 + 1e-9, radius * 1.5)
    return np.column_stack([xs, np.full_like(xs, y), np.full_like(xs, radius)])


def scatter(count: int, box: tuple[float, float, float, float], spacing: float, rng: np.random.Generator,
             what: str) -> np.ndarray:
    """``(count, 2)`` positions at random places of a grid of ``spacing`` metres inside
    box = (xmin, ymin, xmax, ymax), each up to 0.2 ``spacing`` off its place: no two
    closer than 0.6 ``spacing``. ValueError naming ``what`` when the box has too few places."""
    x0, y0, x1, y1 = box
    xs = np.arange(x0 + spacing / 2, x1, spacing)
    ys = np.arange(y0 + spacing / 2, y1, spacing)
    if count > len(xs) * len(ys):
        raise ValueError(f"agents: {what} holds at most {len(xs) * len(ys)} agents {spacing} m apart, got {count}")
    gx, gy = np.meshgrid(xs, ys)
    places = np.column_stack([gx.ravel(), gy.ravel()])
    return places[rng.permutation(len(places))[:count]] + rng.uniform(-0.2, 0.2, (count, 2)) * spacing


def scatter_inside(count: int, box: tuple[float, float, float, float], spacing: float, rng: np.random.Generator,
                    what: str) -> np.ndarray:
    """:func:`scatter`, every position inside ``box`` (its grid's last places, moved,
    could reach up to 0.2 ``spacing`` past the box's upper edges)."""
    x0, y0, x1, y1 = box
    return scatter(count, (x0, y0, x1 - 0.2 * spacing, y1 - 0.2 * spacing), spacing, rng, what)


def box_walls(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """``(4, 4)`` the walls round a rectangle: south, north, west, east."""
    return np.array([[x0, y0, x1, y0], [x0, y1, x1, y1], [x0, y0, x0, y1], [x1, y0, x1, y1]], dtype=np.float64)


def field_of_places(count: int, x0: float, height: float, spacing: float, rng: np.random.Generator,
                     what: str) -> tuple[np.ndarray, np.ndarray]:
    """Places for ``count`` agents at random on a grid ``spacing`` apart in a field
    ``height`` metres high centred on y = 0, starting at x0 and as deep as a quarter more
    places than agents take: ``(count, 2)`` places and the field ``(xmin, ymin, xmax, ymax)``."""
    rows = max(1, math.floor(height / spacing))
    columns = math.ceil(1.25 * count / rows)
    area = (x0, -rows * spacing / 2, x0 + columns * spacing, rows * spacing / 2)
    return scatter_inside(count, area, spacing, rng, what), np.array(area)


def offset_polyline(points: np.ndarray, offset: float) -> np.ndarray:
    """The polyline ``points`` ``(m, 2)`` moved ``offset`` metres to its left (negative:
    right), mitred at the bends so that each leg keeps its distance."""
    legs = np.diff(points, axis=0)
    legs /= np.linalg.norm(legs, axis=1, keepdims=True)
    normals = np.column_stack([-legs[:, 1], legs[:, 0]])
    shifts = [normals[0]]
    for before, after in zip(normals[:-1], normals[1:]):
        shifts.append((before + after) / (1.0 + before @ after))
    shifts.append(normals[-1])
    return points + offset * np.array(shifts)
