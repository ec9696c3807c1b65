"""The checks a :class:`~contextsteer.Scenario` makes of its geometry when made: each
field's shape, its numbers finite and within range, every agent's start and target inside
the bounds (the scene's walls). A bad value raises one ``ValueError`` (``TypeError`` for
the wrong kind of object) naming the field and the row, as :class:`~contextsteer.World`
does; accepted arrays come back as float64 (int64 for groups), as the scene keeps them.

A scene holds at most :data:`MAX_AGENTS` agents and :data:`MAX_BODIES` obstacles of each
kind; a circle's radius is at most :data:`MAX_LENGTH` metres. The grids a scene is measured
on (its navigation fields) refuse bounds too large for their cells where they are made.
"""

from __future__ import annotations

import numpy as np

from .._internal import validation as check

MAX_AGENTS = 1_000_000
MAX_LENGTH = 1000.0  # metres: the largest circle radius, and the longest length a scene builder takes
MAX_BODIES = 1_000_000  # circles, walls, goal areas, polygons or vertices of one scene


def rows(name: str, value, columns: int, meaning: str) -> np.ndarray:
    """``(m, columns)`` finite numbers within +-1e9 as float64 (a single row is m = 1, an
    empty input m = 0)."""
    arr = check.real_array(name, value)  # names the first NaN, inf or huge value and its index
    if arr.ndim == 1 and arr.shape[0] == columns:
        arr = arr.reshape(1, columns)
    if arr.size == 0:
        return np.zeros((0, columns))
    if arr.ndim != 2 or arr.shape[1] != columns:
        raise ValueError(f"{name}: expected an array of shape (m, {columns}) as {meaning}, got shape {arr.shape}")
    if len(arr) > MAX_BODIES:
        raise ValueError(f"{name}: expected at most {MAX_BODIES} rows, got {len(arr)}")
    return np.array(value, dtype=np.float64).reshape(-1, columns)


def agents(starts, targets) -> tuple[np.ndarray, np.ndarray]:
    """The agents' ``(n, 2)`` starts and targets, one target per start."""
    starts = rows("starts", starts, 2, "x, y")
    targets = rows("targets", targets, 2, "x, y")
    if len(starts) > MAX_AGENTS:
        raise ValueError(f"starts: expected at most {MAX_AGENTS} agents, got {len(starts)}")
    if len(targets) != len(starts):
        raise ValueError(f"targets: expected one target per start ({len(starts)}), got {len(targets)}")
    return starts, targets


def bounds(value) -> tuple[float, float, float, float]:
    """``(xmin, ymin, xmax, ymax)``: finite within +-1e9, each side above 0."""
    arr = check.shaped("bounds", value, (4,))
    x0, y0, x1, y1 = (float(b) for b in np.asarray(value, dtype=np.float64))
    if not (x0 < x1 and y0 < y1):
        raise ValueError(f"bounds: expected (xmin, ymin, xmax, ymax) with xmin < xmax and ymin < ymax, "
                         f"got {arr.tolist()}")
    return x0, y0, x1, y1


def inside(name: str, points: np.ndarray, box: tuple[float, float, float, float]) -> None:
    """ValueError naming the first of ``points`` outside the bounds ``box`` (its walls)."""
    x0, y0, x1, y1 = box
    out = (points[:, 0] < x0) | (points[:, 0] > x1) | (points[:, 1] < y0) | (points[:, 1] > y1)
    if out.any():
        first = int(np.argmax(out))
        raise ValueError(f"{name}: expected points inside the bounds {box} (the scene's walls), got "
                         f"{points[first].tolist()} at row {first} ({int(out.sum())} of {len(points)} outside)")


def circles(value) -> np.ndarray:
    """``(m, 3)`` circles, radii from 0 to MAX_LENGTH."""
    arr = rows("circles", value, 3, "x, y, radius")
    bad = (arr[:, 2] < 0) | (arr[:, 2] > MAX_LENGTH)
    if bad.any():
        first = int(np.argmax(bad))
        raise ValueError(f"circles: expected radii from 0 to {MAX_LENGTH:g} m, got {arr[first, 2]:g} at row {first}")
    return arr


def rectangles(value) -> np.ndarray:
    """``(k, 4)`` goal areas, none inside out."""
    arr = rows("goal_areas", value, 4, "xmin, ymin, xmax, ymax")
    inverted = (arr[:, 0] > arr[:, 2]) | (arr[:, 1] > arr[:, 3])
    if inverted.any():
        first = int(np.argmax(inverted))
        raise ValueError(f"goal_areas: expected xmin <= xmax and ymin <= ymax, got {arr[first].tolist()} at row "
                         f"{first}")
    return arr


def polygons(value) -> tuple[np.ndarray, ...]:
    """Each polygon's ``(k, 2)`` vertices (k >= 3) as float64."""
    if isinstance(value, np.ndarray) and value.ndim != 3:
        raise ValueError(f"polygons: expected a sequence of (k, 2) vertex arrays, got an array of shape "
                         f"{value.shape}")
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError(f"polygons: expected a sequence of (k, 2) vertex arrays, got {type(value).__name__}")
    value = list(value)
    if len(value) > MAX_BODIES:
        raise ValueError(f"polygons: expected at most {MAX_BODIES} polygons, got {len(value)}")
    out = []
    for i, vertices in enumerate(value):
        check.polygon(f"polygons[{i}]", vertices)  # shape, k >= 3, finite within +-1e9, naming the vertex
        out.append(np.array(vertices, dtype=np.float64))
    if sum(len(p) for p in out) > MAX_BODIES:
        raise ValueError(f"polygons: expected at most {MAX_BODIES} vertices in all, got {sum(len(p) for p in out)}")
    return tuple(out)


def group_numbers(name: str, value, count: int) -> np.ndarray:
    """``(count,)`` whole numbers from 0 to MAX_AGENTS (all 0 when empty)."""
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name}: expected an array of integers, got {type(value).__name__}")
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{name}: expected a rectangular array of integers ({error})") from None
    if arr.size == 0:
        return np.zeros(count, dtype=np.int64)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name}: expected integers, got dtype {arr.dtype}")
    if arr.shape != (count,):
        raise ValueError(f"{name}: expected an array of shape ({count},), got shape {arr.shape}")
    if arr.dtype.kind == "f":  # 1.0 is group 1; 1.5, NaN and inf are not groups
        with np.errstate(invalid="ignore"):
            whole = np.isfinite(arr) & (arr == np.round(arr)) & (np.abs(arr) < MAX_AGENTS)
        if not whole.all():
            first = int(np.argmin(whole))
            raise ValueError(f"{name}: expected whole numbers, got {float(arr[first]):g} at row {first}")
        arr = arr.astype(np.int64)
    out = (arr < 0) | (arr >= MAX_AGENTS)
    if out.any():
        first = int(np.argmax(out))
        raise ValueError(f"{name}: expected groups from 0 to {MAX_AGENTS - 1}, got {arr[first]} at row {first}")
    return arr.astype(np.int64)
