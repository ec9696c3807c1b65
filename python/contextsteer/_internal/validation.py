"""Input checks shared by the public API.

Every check names the argument, says what was expected and what came, and raises
``TypeError`` for the wrong kind of object, ``ValueError`` for wrong shapes and values.
Arrays come back as C-contiguous float32, the core's scalar type. Real values must lie
within +-``MAX_MAGNITUDE`` (1e9), the core's bound: products of up to four of them
stay within float32's range, so nothing the core computes from accepted input
overflows to inf.
"""

from __future__ import annotations

import inspect
import math
import numbers
import operator
from collections.abc import Iterable

import numpy as np

from .. import _core
from . import shapely_input

REAL = np.float32
MAX_MAGNITUDE = float(_core.MAX_MAGNITUDE)


def _out_of_range(arr: np.ndarray, allow_inf: bool) -> np.ndarray:
    """Where ``arr`` (a real dtype) is NaN, or beyond +-MAX_MAGNITUDE (inf too, unless allowed)."""
    if arr.dtype.kind == "b":
        return np.zeros(arr.shape, dtype=bool)
    if arr.dtype.kind in "iu":
        return (arr > MAX_MAGNITUDE) | (arr < -MAX_MAGNITUDE)
    with np.errstate(invalid="ignore"):
        bad = ~(np.abs(arr) <= MAX_MAGNITUDE)  # NaN included
    return bad & ~np.isinf(arr) if allow_inf else bad


def real_array(name: str, value, *, allow_inf: bool = False, expected: str | None = None) -> np.ndarray:
    """``value`` as a C-contiguous float32 array of finite numbers (or +-inf if allowed);
    ``expected`` words what the caller takes, for the message of a value out of bound."""
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name}: expected an array of numbers, got {type(value).__name__}")
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError) as exc:  # ragged nested sequences
        raise ValueError(f"{name}: expected a rectangular array of numbers ({exc})") from None
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name}: expected an array of real numbers, got dtype {arr.dtype}")
    # Checked before the conversion, so that 1e300 is reported as itself, not as inf.
    bad = _out_of_range(arr, allow_inf)
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        if expected is None:
            expected = "no NaN, and values from -1e9 to 1e9 or +-inf" if allow_inf else "finite values from -1e9 to 1e9"
        where = f" at index {index}" if index else ""
        raise ValueError(f"{name}: expected {expected}, got {float(arr[index]):.9g}{where}")
    return np.asarray(arr, dtype=REAL, order="C")  # keeps 0-d scalars 0-d


def shaped(name: str, value, shape: tuple, *, allow_inf: bool = False) -> np.ndarray:
    """A real array whose shape matches ``shape``; None in ``shape`` matches any extent."""
    arr = real_array(name, value, allow_inf=allow_inf)
    ok = arr.ndim == len(shape) and all(want is None or want == got for want, got in zip(shape, arr.shape))
    if not ok:
        expected = "(" + ", ".join("m" if s is None else str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"
        raise ValueError(f"{name}: expected an array of shape {expected}, got shape {arr.shape}")
    return arr


def map_batch(name: str, value, slots: int | None = None) -> tuple[np.ndarray, bool]:
    """A batch of maps as (n, slots) and whether it came as a single (slots,) map."""
    arr = real_array(name, value)
    if arr.ndim not in (1, 2):
        raise ValueError(f"{name}: expected a map of shape (slots,) or a batch of shape (n, slots), "
                         f"got shape {arr.shape}")
    single = arr.ndim == 1
    batch = arr.reshape(1, -1) if single else arr
    if batch.shape[1] < 1:
        raise ValueError(f"{name}: expected at least 1 slot, got shape {arr.shape}")
    if slots is not None and batch.shape[1] != slots:
        raise ValueError(f"{name}: expected {slots} slots to match, got shape {arr.shape}")
    return batch, single


def points(name: str, value, columns: int = 2) -> np.ndarray:
    """Points (m, 2) or circles (m, 3); a single (columns,) row is accepted as m = 1."""
    arr = real_array(name, value)
    if arr.ndim == 1 and arr.shape[0] == columns:
        arr = arr.reshape(1, columns)
    what = "(m, 2) positions" if columns == 2 else "(m, 3) circles as x, y, radius"
    if arr.ndim != 2 or arr.shape[1] != columns:
        if arr.size == 0:
            return np.zeros((0, columns), dtype=REAL)
        raise ValueError(f"{name}: expected {what}, got shape {arr.shape}")
    if columns == 3 and (arr[:, 2] < 0).any():
        raise ValueError(f"{name}: expected radii >= 0, got {arr[:, 2].min()}")
    return arr


def _rows_of_four(name: str, value, meaning: str) -> np.ndarray:
    """``(m, 4)`` rows; a single ``(4,)`` row is accepted as m = 1, an empty input as m = 0."""
    arr = real_array(name, value)
    if arr.ndim == 1 and arr.shape[0] == 4:
        arr = arr.reshape(1, 4)
    if arr.size == 0:
        return np.zeros((0, 4), dtype=REAL)
    if arr.ndim != 2 or arr.shape[1] != 4:
        raise ValueError(f"{name}: expected an array of shape (m, 4) as {meaning}, got shape {arr.shape}")
    return arr


def segments(name: str, value) -> np.ndarray:
    """Walls as ``(m, 4)`` x0, y0, x1, y1; a single ``(4,)`` wall is accepted as m = 1, and
    shapely lines, rings and polygons (each edge a wall) or their WKT as their edges."""
    if shapely_input.has_geometry(value):
        value = shapely_input.segments(name, value)
    return _rows_of_four(name, value, "x0, y0, x1, y1")


def rectangles(name: str, value) -> np.ndarray:
    """Rectangles as ``(m, 4)`` xmin, ymin, xmax, ymax (a single ``(4,)`` one is m = 1),
    none of them inside out; shapely axis-aligned boxes (or their WKT) as their bounds."""
    if shapely_input.has_geometry(value):
        value = shapely_input.rectangles(name, value)
    arr = _rows_of_four(name, value, "xmin, ymin, xmax, ymax")
    inverted = (arr[:, 0] > arr[:, 2]) | (arr[:, 1] > arr[:, 3])
    if inverted.any():
        raise ValueError(f"{name}: expected xmin <= xmax and ymin <= ymax, got {arr[inverted][0].tolist()}")
    return arr


def polygons(name: str, value) -> list[np.ndarray]:
    """A sequence of polygons, each as :func:`polygon` checks it; None is none; shapely
    (multi)polygons or their WKT, alone or in a list, as their outlines."""
    if value is None:
        return []
    if shapely_input.has_geometry(value):
        value = shapely_input.polygons(name, value)
    if isinstance(value, np.ndarray) and value.ndim != 3:
        raise ValueError(f"{name}: expected a list of (k, 2) vertex arrays (or an (m, k, 2) array), "
                         f"got an array of shape {value.shape}")
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{name}: expected a list of (k, 2) vertex arrays, got {type(value).__name__}")
    return [polygon(f"{name}[{i}]", vertices) for i, vertices in enumerate(value)]


def polygon(name: str, value) -> np.ndarray:
    """A polygon's ``(k, 2)`` vertices in order, k >= 3; a shapely polygon or its WKT as its
    outline."""
    if shapely_input.has_geometry(value):
        outlines = shapely_input.polygons(name, value)
        if len(outlines) != 1:
            raise ValueError(f"{name}: expected one polygon, got {len(outlines)} (a multi-part geometry): "
                             f"add each part as a polygon of its own")
        value = outlines[0]
    arr = shaped(name, value, (None, 2))
    if len(arr) < 3:
        raise ValueError(f"{name}: expected at least 3 vertices, got {len(arr)}")
    return arr


def per_agent(name: str, value, n: int, *, minimum: float = 0.0, allow_inf: bool = False) -> np.ndarray:
    """A scalar broadcast to (n,), or an (n,) array; every value from ``minimum`` to
    MAX_MAGNITUDE (or +inf, if allowed)."""
    lowest = "-1e9" if minimum == -math.inf else f"{minimum:g}".replace("e-0", "e-")  # 1e-9, as the core says
    expected = f"values from {lowest} to 1e9" + (" or inf" if allow_inf else "")
    arr = real_array(name, value, allow_inf=allow_inf, expected=expected)
    if arr.ndim == 0:
        arr = np.full(n, arr, dtype=REAL)
    elif arr.shape != (n,):
        raise ValueError(f"{name}: expected a number or an array of shape ({n},), got shape {arr.shape}")
    low = arr < REAL(minimum)  # in the float32 the core holds
    if low.any():
        first = int(np.argmax(low))
        typed = np.broadcast_to(np.asarray(value, dtype=np.float64), arr.shape)  # 1e-44, not its float32 9.8e-45
        where = f" at index ({first},)" if np.ndim(value) else ""
        raise ValueError(f"{name}: expected {expected}, got {float(typed[first]):.9g}{where}")
    return arr


def per_agent_int(name: str, value, n: int, *, minimum: int, maximum: int | None = None) -> np.ndarray:
    """A whole number broadcast to (n,), or an (n,) array of whole numbers in range."""
    arr = _integer_array(name, value)
    if arr.dtype.kind not in "iub":
        raise TypeError(f"{name}: expected integers, got dtype {arr.dtype}")
    if arr.ndim == 0:
        arr = np.full(n, arr)
    elif arr.shape != (n,):
        raise ValueError(f"{name}: expected an integer or an array of shape ({n},), got shape {arr.shape}")
    if arr.size and (arr.min() < minimum or (maximum is not None and arr.max() > maximum)):
        bad = arr.min() if arr.min() < minimum else arr.max()
        upper = "" if maximum is None else f" and <= {maximum}"
        raise ValueError(f"{name}: expected values >= {minimum}{upper}, got {bad}")
    return np.ascontiguousarray(arr, dtype=np.int64 if maximum is None else np.uint32)


def _integer_array(name: str, value) -> np.ndarray:
    """``np.asarray(value)``, with a ragged sequence named as such."""
    try:
        return np.asarray(value)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{name}: expected a rectangular array of integers ({exc})") from None


def agent_id(name: str, value) -> int:
    """One agent id, a whole number; IndexError for one no agent can have (ids are int64 >= 0)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name}: expected an agent id (an integer), got {type(value).__name__}")
    if not 0 <= int(value) < 2**63:
        raise IndexError(f"{name}: no agent has id {int(value)} (ids are whole numbers from 0)")
    return int(value)


def ids(name: str, value) -> np.ndarray:
    """Agent ids as a 1-D int64 array (a single id is accepted)."""
    arr = np.atleast_1d(_integer_array(name, value))
    if arr.size == 0 and arr.ndim == 1:  # [] comes as float64: no ids, whatever the dtype
        return np.empty(0, dtype=np.int64)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name}: expected integer ids, got dtype {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array of ids, got shape {arr.shape}")
    return np.ascontiguousarray(arr, dtype=np.int64)


def number(name: str, value, *, minimum: float | None = None, above: float | None = None,
           maximum: float | None = None, below: float | None = None, allow_inf: bool = False) -> float:
    """A real scalar within the given bounds and within +-MAX_MAGNITUDE (or +-inf, if
    allowed). The bounds hold for the value and for its float32 rounding, which is what
    the core sees: 1e-300 is not > 0 there."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a real number, got {type(value).__name__}")
    x = float(value)
    if math.isnan(x) or (math.isinf(x) and not allow_inf) or (math.isfinite(x) and abs(x) > MAX_MAGNITUDE):
        raise ValueError(f"{name}: expected a finite number from -1e9 to 1e9{' or +-inf' if allow_inf else ''}, "
                         f"got {x}")
    x32 = REAL(x)
    for bound, test, words in ((minimum, operator.ge, ">="), (above, operator.gt, ">"),
                               (maximum, operator.le, "<="), (below, operator.lt, "<")):
        if bound is None:
            continue
        if not test(x, bound):
            raise ValueError(f"{name}: expected a number {words} {bound}, got {x}")
        if not test(x32, REAL(bound)):  # holds in double, not in float32, as the core sees both
            raise ValueError(f"{name}: expected a number {words} {bound}, got {x} "
                             f"({float(x32):.9g} in float32, as the core holds it)")
    return x


def flag(name: str, value) -> bool:
    """A bool, and only a bool: 0, 1 or "yes" are more likely slips than choices."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: expected a bool, got {type(value).__name__}")
    return bool(value)


def _has(value, attribute: str) -> bool:
    try:
        inspect.getattr_static(value, attribute)
        return True
    except AttributeError:
        return hasattr(value, attribute)  # made on demand (__getattr__)


INT_MAX = 2**31 - 1  # the core counts in C ints
MIN_TIME_STEP = float(str(REAL(_core.MIN_TIME_STEP)))  # 1e-06, as float32 prints it
MIN_MASS = float(str(REAL(_core.MIN_MASS)))  # 1e-09 kg


def time_step(dt, substeps) -> tuple[float, int]:
    """A world's step ``dt`` (seconds, from MIN_TIME_STEP to MAX_MAGNITUDE) and its
    ``substeps``, none of them shorter than MIN_TIME_STEP."""
    dt = number("dt", dt, minimum=MIN_TIME_STEP)
    substeps = count("substeps", substeps, minimum=1)
    if REAL(dt) / REAL(substeps) < REAL(MIN_TIME_STEP):
        raise ValueError(f"substeps: expected substeps of at least {MIN_TIME_STEP:g} s, "
                         f"got {substeps} of a {dt:g} s step")
    return dt, substeps


def count(name: str, value, *, minimum: int = 0, maximum: int = INT_MAX) -> int:
    """A whole number from ``minimum`` to ``maximum`` (by default the largest C int, as
    the core holds most counts in one)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name}: expected an integer, got {type(value).__name__}")
    whole = int(value)
    if whole < minimum:
        raise ValueError(f"{name}: expected an integer >= {minimum}, got {whole}")
    if whole > maximum:
        raise ValueError(f"{name}: expected an integer from {minimum} to {maximum}, got {whole}")
    return whole


def name(argument: str, value) -> str:
    """A mode name; the core checks it against its options and names them if unknown."""
    if not isinstance(value, str):
        raise TypeError(f"{argument}: expected a name (str), got {type(value).__name__}")
    return value


def having(name: str, value, attributes: tuple[str, ...], expected: str):
    """``value`` when it has every one of ``attributes``, else TypeError naming ``expected``:
    a check by what a function reads (a scene's geometry, say), for a type of a layer above.
    Looked up without being read (a property is not run: a deprecated name does not warn)."""
    if not all(_has(value, attribute) for attribute in attributes):
        raise TypeError(f"{name}: expected {expected}, got {type(value).__name__}")
    return value
