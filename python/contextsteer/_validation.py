"""Input checks shared by the public API.

Every check names the argument, says what was expected and what came, and raises
``TypeError`` for the wrong kind of object, ``ValueError`` for wrong shapes and values.
Arrays come back as C-contiguous float32, the core's scalar type.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

REAL = np.float32


def real_array(name: str, value, *, allow_inf: bool = False) -> np.ndarray:
    """``value`` as a C-contiguous float32 array of finite numbers (or +-inf if allowed)."""
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name}: expected an array of numbers, got {type(value).__name__}")
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError) as exc:  # ragged nested sequences
        raise ValueError(f"{name}: expected a rectangular array of numbers ({exc})") from None
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name}: expected an array of real numbers, got dtype {arr.dtype}")
    arr = np.asarray(arr, dtype=REAL, order="C")  # keeps 0-d scalars 0-d
    bad = np.isnan(arr) if allow_inf else ~np.isfinite(arr)
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        what = "no NaN" if allow_inf else "finite values"
        raise ValueError(f"{name}: expected {what}, got {arr[index]} at index {index}")
    return arr


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
    """Walls as ``(m, 4)`` x0, y0, x1, y1; a single ``(4,)`` wall is accepted as m = 1."""
    return _rows_of_four(name, value, "x0, y0, x1, y1")


def rectangles(name: str, value) -> np.ndarray:
    """Rectangles as ``(m, 4)`` xmin, ymin, xmax, ymax (a single ``(4,)`` one is m = 1),
    none of them inside out."""
    arr = _rows_of_four(name, value, "xmin, ymin, xmax, ymax")
    inverted = (arr[:, 0] > arr[:, 2]) | (arr[:, 1] > arr[:, 3])
    if inverted.any():
        raise ValueError(f"{name}: expected xmin <= xmax and ymin <= ymax, got {arr[inverted][0].tolist()}")
    return arr


def polygon(name: str, value) -> np.ndarray:
    """A polygon's ``(k, 2)`` vertices in order, k >= 3."""
    arr = shaped(name, value, (None, 2))
    if len(arr) < 3:
        raise ValueError(f"{name}: expected at least 3 vertices, got {len(arr)}")
    return arr


def per_agent(name: str, value, n: int, *, minimum: float = 0.0, above: float | None = None,
              allow_inf: bool = False) -> np.ndarray:
    """A scalar broadcast to (n,), or an (n,) array; every value >= ``minimum`` (and > ``above``)."""
    arr = real_array(name, value, allow_inf=allow_inf)
    if arr.ndim == 0:
        arr = np.full(n, arr, dtype=REAL)
    elif arr.shape != (n,):
        raise ValueError(f"{name}: expected a number or an array of shape ({n},), got shape {arr.shape}")
    if (arr < minimum).any():
        raise ValueError(f"{name}: expected values >= {minimum}, got {arr.min()}")
    if above is not None and (arr <= above).any():
        raise ValueError(f"{name}: expected values > {above}, got {arr.min()}")
    return arr


def per_agent_int(name: str, value, n: int, *, minimum: int, maximum: int | None = None) -> np.ndarray:
    """A whole number broadcast to (n,), or an (n,) array of whole numbers in range."""
    arr = np.asarray(value)
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


def ids(name: str, value) -> np.ndarray:
    """Agent ids as a 1-D int64 array (a single id is accepted)."""
    arr = np.atleast_1d(np.asarray(value))
    if arr.size == 0 and arr.ndim == 1:  # [] comes as float64: no ids, whatever the dtype
        return np.empty(0, dtype=np.int64)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name}: expected integer ids, got dtype {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array of ids, got shape {arr.shape}")
    return np.ascontiguousarray(arr, dtype=np.int64)


def number(name: str, value, *, minimum: float | None = None, above: float | None = None,
           maximum: float | None = None, below: float | None = None, allow_inf: bool = False) -> float:
    """A real scalar within the given bounds."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a real number, got {type(value).__name__}")
    x = float(value)
    if math.isnan(x) or (math.isinf(x) and not allow_inf):
        raise ValueError(f"{name}: expected a finite number, got {x}")
    if minimum is not None and x < minimum:
        raise ValueError(f"{name}: expected a number >= {minimum}, got {x}")
    if above is not None and not x > above:
        raise ValueError(f"{name}: expected a number > {above}, got {x}")
    if maximum is not None and x > maximum:
        raise ValueError(f"{name}: expected a number <= {maximum}, got {x}")
    if below is not None and not x < below:
        raise ValueError(f"{name}: expected a number < {below}, got {x}")
    return x


def flag(name: str, value) -> bool:
    """A bool, and only a bool: 0, 1 or "yes" are more likely slips than choices."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: expected a bool, got {type(value).__name__}")
    return bool(value)


INT_MAX = 2**31 - 1  # the core counts in C ints


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
