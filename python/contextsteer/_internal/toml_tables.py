"""Reading a scenario file's TOML tables key by key: each value checked for its kind, each
error naming the file and the key path (``groups[1].pipeline.behaviors[0].max_distance``),
each key left unread an error that names the keys expected."""

from __future__ import annotations

import difflib
import numbers
import os

import numpy as np


class ScenarioFileError(ValueError):
    """A scenario file that cannot be read (a ValueError).

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    key : str or None
        The key path of what is wrong in it (None for the file as a whole).
    message : str
        What was expected and what came.

    Examples
    --------
    >>> import os, tempfile
    >>> import contextsteer as cs
    >>> path = os.path.join(tempfile.mkdtemp(), "broken.toml")
    >>> with open(path, "w") as file:
    ...     _ = file.write("[run]\\nsteps = -3\\n")
    >>> try:
    ...     cs.Scenario.load(path)
    ... except cs.ScenarioFileError as error:
    ...     print(error.key)  # the file has no [geometry] table
    geometry
    """

    def __init__(self, path: str | os.PathLike, key: str | None, message: str):
        self.path = str(path)
        self.key = key
        super().__init__(f"{self.path}: {key}: {message}" if key else f"{self.path}: {message}")


def described(value) -> str:
    """What a TOML value is, for a message: its kind and, if short, itself."""
    kind = {bool: "a boolean", str: "a string", int: "an integer", float: "a number", list: "an array",
            dict: "a table"}.get(type(value), type(value).__name__)
    text = repr(value)
    return f"{kind} ({text})" if len(text) <= 40 else kind


def suggestion(name: str, known) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


class Table:
    """One table of the file, at key path ``key``; :meth:`take` reads its keys, :meth:`done`
    refuses the ones left."""

    def __init__(self, path, key: str, data):
        self.path, self.key = path, key
        if not isinstance(data, dict):
            raise self.error(None, f"expected a table, got {described(data)}")
        self.data = dict(data)

    def at(self, name: str | None) -> str:
        if name is None:
            return self.key or "(top level)"
        return f"{self.key}.{name}" if self.key else name

    def error(self, name: str | None, message: str) -> ScenarioFileError:
        return ScenarioFileError(self.path, self.at(name), message)

    def has(self, name: str) -> bool:
        return name in self.data

    def take(self, name: str, kind: str, default=None, *, required: bool = False):
        """The value of ``name``, checked to be of ``kind``: "number", "integer", "string",
        "bool", "table", "tables" (an array of tables) or "array" (numbers, nested); ``default``
        when absent (an error when ``required``)."""
        if name not in self.data:
            if required:
                raise self.error(name, f"missing: expected {_KINDS[kind]}")
            return default
        value = self.data.pop(name)
        if not _is(kind, value):
            raise self.error(name, f"expected {_KINDS[kind]}, got {described(value)}")
        return value

    def table(self, name: str, *, required: bool = False) -> Table | None:
        value = self.take(name, "table", required=required)
        return None if value is None else Table(self.path, self.at(name), value)

    def tables(self, name: str, *, required: bool = False) -> list[Table]:
        values = self.take(name, "tables", [], required=required)
        return [Table(self.path, f"{self.at(name)}[{i}]", value) for i, value in enumerate(values)]

    def points(self, name: str, columns: int, *, required: bool = False, meaning: str = "") -> np.ndarray:
        """``(m, columns)`` float64 from an array of arrays of numbers (an empty one when absent)."""
        value = self.take(name, "array", [], required=required)
        expected = (f"expected an array of [{meaning or ', '.join(['number'] * columns)}] arrays "
                    f"({columns} numbers each)")
        try:
            array = np.asarray(value, dtype=np.float64) if value else np.zeros((0, columns))
        except ValueError:
            raise self.error(name, f"{expected}, got arrays nested to unequal depths or of unequal lengths") from None
        if array.ndim != 2 or array.shape[1] != columns:
            raise self.error(name, f"{expected}, got shape {array.shape}")
        if not np.isfinite(array).all():
            raise self.error(name, "expected finite numbers, got inf or nan")
        return array

    def done(self, expected) -> None:
        """An error for the first key not read, naming the keys ``expected`` here."""
        for name in self.data:
            raise self.error(name, f"unknown key{suggestion(name, expected)}; expected one of {', '.join(expected)}")


_KINDS = {"number": "a number", "integer": "an integer", "string": "a string", "bool": "true or false",
          "table": "a table", "tables": "an array of tables", "array": "an array of numbers"}


def _numbers(value) -> bool:
    if isinstance(value, list):
        return all(_numbers(v) for v in value)
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _is(kind: str, value) -> bool:
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "string":
        return isinstance(value, str)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "table":
        return isinstance(value, dict)
    if kind == "tables":
        return isinstance(value, list) and all(isinstance(v, dict) for v in value)
    return isinstance(value, list) and _numbers(value)


def tidy(value):
    """``value`` as TOML writes it: NumPy arrays and scalars as lists and Python numbers, a
    float that float32 holds exactly as the shortest decimal float32 reads back alike (the
    behaviours keep float32: 0.30000001192092896 is written 0.3)."""
    if isinstance(value, np.ndarray):
        return [tidy(v) for v in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [tidy(v) for v in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        x = float(value)
        if np.isfinite(x) and float(np.float32(x)) == x:
            return float(str(np.float32(x)))
        return x
    return value


def geometry_numbers(array: np.ndarray) -> list:
    """A float64 array as nested lists of Python floats, each written back to the bit."""
    return np.asarray(array, dtype=np.float64).tolist()
