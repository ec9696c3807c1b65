"""What :meth:`World.run` records, step by step.

This module is long because Recording's methods each carry a numpydoc docstring with an
example that runs, and saving, loading, truncating and joining must agree on every field.
"""

from __future__ import annotations

import contextlib
import json
import numbers
import os
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._internal import validation as check
from .agent_columns import AGENT_COLUMNS

if TYPE_CHECKING:
    import pandas as pd

# Name -> (values per agent, dtype), for every recordable column (agent_columns.py);
# "slots" widths are the world's slot count.
FIELDS: dict[str, tuple[int | str, type[np.generic]]] = {
    c.record: (c.width, c.dtype.type) for c in AGENT_COLUMNS if c.record is not None}
STATE = ("positions", "velocities", "headings")
MAPS = ("interest", "danger", "final")
DECISIONS = ("direction", "strength", "slot", "blocked")
MEASURES = ("penetration", "overlap")


def available_bytes() -> int | None:
    """The memory this machine can still give without swapping (Linux's MemAvailable), in
    bytes; None where it cannot tell."""
    try:
        with open("/proc/meminfo") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024  # given in kB
    except (OSError, ValueError, IndexError):
        pass
    return None


# Bytes of the recordings of runs under way in this process. NumPy's empty arrays only
# reserve memory, so MemAvailable does not count a recording until its run writes it:
# without this, runs started at once (a sweep's workers) would each see the whole of it.
_reserved_bytes = 0
_reserved_lock = threading.Lock()


@contextlib.contextmanager
def reserving(needed: int, what: str, advice: str):
    """Hold ``needed`` bytes of the machine's available memory while a recording is filled.

    Raises MemoryError (``what`` need ..., ``advice``) when ``needed`` exceeds what is
    available less what other runs of this process hold. Where the memory available cannot
    be told (no MemAvailable), nothing is refused.
    """
    global _reserved_bytes
    available = available_bytes()
    with _reserved_lock:
        held = _reserved_bytes
        if available is not None and needed > available - held:
            others = f", less {held / 1e9:.3g} GB held by other runs under way in this process" if held else ""
            raise MemoryError(f"{what} need {needed / 1e9:.3g} GB, more than the {available / 1e9:.3g} GB this "
                              f"machine has available{others}; {advice}")
        _reserved_bytes += needed
    try:
        yield
    finally:
        with _reserved_lock:
            _reserved_bytes -= needed


def bytes_per_step(names, agents: int, slots: int, moving: int = 0) -> int:
    """Memory one recorded step takes for ``names`` and the poses of ``moving`` moving
    obstacles, in bytes."""
    total = 8 + 12 * moving  # the time stamp, the poses
    for name in names:
        width, dtype = FIELDS[name]
        total += agents * (slots if isinstance(width, str) else width) * np.dtype(dtype).itemsize
    return total


# What an event holds (World.events, Recording.events): its arrays' names and types.
EVENT_FIELDS = {"step": np.int64, "time": np.float64, "agent": np.int64, "kind": np.str_, "other": np.int64,
                "depth": np.float64}
# The arrays a saved recording of a world with moving obstacles holds besides its columns.
_MOVING_ARRAYS = ("moving_positions", "moving_angles", "moving_kinds", "moving_vertex_counts", "moving_local_shapes")
# Defaults of the fields a recording saved before they existed lacks.
_EVENT_DEFAULTS = {"other": -1, "depth": 0.0}


def no_events() -> dict[str, np.ndarray]:
    """The events of a run in which nothing happened."""
    return {name: np.zeros(0, dtype) for name, dtype in EVENT_FIELDS.items()}


def events_of_core(events: dict) -> dict[str, np.ndarray]:
    """The core's events (a dict of arrays, the kinds as a list of names) as NumPy arrays."""
    return {name: np.asarray(events[name], dtype) if len(events[name]) else np.zeros(0, dtype)
            for name, dtype in EVENT_FIELDS.items()}


def _read_archive(file) -> dict[str, np.ndarray]:
    """Every array of the ``.npz`` archive open in ``file``, read whole (no pickles)."""
    if file.read(4) != b"PK\x03\x04":
        raise ValueError("it does not start as a zip archive does")
    file.seek(0)
    with np.load(file, allow_pickle=False) as archive:
        return {name: archive[name] for name in archive.files}


def _recording_arguments(archive: dict[str, np.ndarray], path: str) -> dict[str, Any]:
    """Recording's arguments from the arrays :meth:`Recording.save` wrote, checked: a
    ValueError naming the file and the array for anything else."""
    def wrong(what: str) -> ValueError:
        return ValueError(f"path: expected a recording saved by Recording.save, but {path} {what}")

    names = set(archive)
    event_names = {f"event_{name}" for name in EVENT_FIELDS}
    missing = {"time", "ids", "complete"} - names
    unknown = (names - {"time", "ids", "complete", "includes_start"} - set(FIELDS) - event_names
               - set(_MOVING_ARRAYS) - {name for name in names if name.startswith("scene_")})
    if missing or unknown:
        raise wrong(f"lacks {sorted(missing)} and holds unknown arrays {sorted(unknown)}")

    def take(name: str, kind: str, shape: tuple) -> np.ndarray:
        """archive[name], of a dtype of ``kind`` and ``shape`` (None: any length)."""
        a = archive[name]
        if a.dtype.kind not in kind or a.ndim != len(shape) or any(
                want is not None and got != want for got, want in zip(a.shape, shape)):
            expected = "(" + ", ".join("any" if w is None else str(w) for w in shape) + ("," if len(shape) == 1 else "")
            raise wrong(f"holds {name} of shape {a.shape} and dtype {a.dtype}, not of shape {expected}) "
                        f"and kind {kind!r}")
        return a

    time = take("time", "f", (None,))
    ids = take("ids", "iu", (None,))
    steps, agents = len(time), len(ids)
    flags = {name: bool(take(name, "b", ())) for name in ("complete", "includes_start") if name in names}
    recorded = tuple(name for name in FIELDS if name in names)
    maps = [archive[name] for name in recorded if isinstance(FIELDS[name][0], str)]
    slots = maps[0].shape[-1] if maps and maps[0].ndim else None  # the world's, the same for every map
    arrays = {}
    for name in recorded:
        width, dtype = FIELDS[name]
        shape = (steps, agents) if width == 1 else (steps, agents, slots if isinstance(width, str) else width)
        arrays[name] = take(name, np.dtype(dtype).kind, shape)
    events = no_events()
    if {"event_step", "event_kind"} <= names:
        count = len(take("event_step", "i", (None,)))
        events = {name: take(f"event_{name}", np.dtype(dtype).kind, (count,))
                  if f"event_{name}" in names else np.full(count, _EVENT_DEFAULTS[name], dtype)
                  for name, dtype in EVENT_FIELDS.items()}
    moving: dict[str, Any] = {}
    if set(_MOVING_ARRAYS) & names:
        if not set(_MOVING_ARRAYS) <= names:
            raise wrong(f"holds {sorted(set(_MOVING_ARRAYS) & names)} without {sorted(set(_MOVING_ARRAYS) - names)}")
        from .moving import KINDS

        kinds = take("moving_kinds", "iu", (None,))
        bodies = len(kinds)
        counts = take("moving_vertex_counts", "iu", (bodies,))
        shapes = take("moving_local_shapes", "f", (int(counts.sum()) if (counts >= 0).all() else -1, 2))
        if len(kinds) and not ((kinds >= 0) & (kinds < len(KINDS))).all():
            raise wrong(f"holds moving_kinds outside 0 to {len(KINDS) - 1}")
        moving = {"moving_positions": take("moving_positions", "f", (steps, bodies, 2)),
                  "moving_angles": take("moving_angles", "f", (steps, bodies)),
                  "moving_kinds": tuple(KINDS[k] for k in kinds),
                  "moving_local_shapes": tuple(np.split(shapes, np.cumsum(counts)[:-1]))}
    return dict(time=time, ids=ids, complete=flags["complete"], recorded=recorded,
                includes_start=flags.get("includes_start", False), event_arrays=events,
                scene=scene_of_arrays(archive), **moving, **arrays)


@dataclass(repr=False)
class Recording:
    """Per-step results of :meth:`World.run`, as NumPy arrays whose first axis is the step.

    Each recorded array is present when asked for, else None. A row whose agent left the
    world during the run (arrival ``"leave"``, :class:`~contextsteer.Goals`) is NaN from
    then on (-1 in the integer arrays, False in the bool ones).

    Memory per step, for n agents and S slots: 8 bytes for the time, plus 20 n for the
    state (positions, velocities, headings), 12 n S for the three maps, 17 n for the
    decisions, 8 n for the measurements and 20 n for the progress (state, waiting and
    arrival times, give_way), and 12 m for the poses of m moving obstacles.
    :meth:`to_dataframe` gives a pandas table with a row per step and agent,
    :meth:`to_parquet` writes it to a Parquet file, :meth:`to_pedpy` gives the positions to
    PedPy; :meth:`moving_shapes` gives the moving obstacles' outlines at a row, which
    :func:`~contextsteer.plotting.animate` draws.

    Parameters
    ----------
    time : ndarray, shape (T,)
        Seconds: the first row is the state before the first step, at the world's time
        then (0 for a new world), each other row the state at the end of a step (a run with
        ``include_start=False`` has only the steps' rows).
    ids : ndarray of int64, shape (n,)
        The agents' ids (the rows).
    positions, velocities : ndarray of float32, shape (T, n, 2), optional
        Metres, m/s.
    headings : ndarray of float32, shape (T, n), optional
        Radians.
    interest, danger, final : ndarray of float32, shape (T, n, slots), optional
        The maps.
    direction : ndarray of float32, shape (T, n, 2), optional
        The decisions' unit directions.
    strength, slot : ndarray of float32, shape (T, n), optional
        The decisions' strengths and slots.
    blocked : ndarray of bool, shape (T, n), optional
        Whether every direction was masked.
    penetration, overlap : ndarray of float32, shape (T, n), optional
        Metres.
    state : ndarray of int32, shape (T, n), optional
        :class:`~contextsteer.AgentState` values.
    waiting_time, arrival_time : ndarray of float32, shape (T, n), optional
        Seconds.
    give_way : ndarray of float32, shape (T, n, 2), optional
        The way each agent gives way to (zeros when it does not).
    complete : bool, default True
        False when the run was interrupted; the arrays then hold the steps that finished.
    recorded : tuple of str
        The names of the arrays recorded.
    includes_start : bool, default False
        Whether the first row is the state before the first step (:attr:`steps` counts
        the rows, :attr:`steps_run` the steps).
    event_arrays : dict of str to ndarray
        What happened during the run, as :attr:`events` shows it.
    moving_positions : ndarray of float32, shape (T, m, 2), optional
        Metres: the poses of the world's m moving obstacles (None when it has none).
    moving_angles : ndarray of float32, shape (T, m), optional
        Radians.
    moving_kinds : tuple of str
        Each moving obstacle's kind ("circle", "segment", "polygon").
    moving_local_shapes : tuple of ndarray
        Each moving obstacle's shape about its reference point, as
        :meth:`World.moving_local_shapes <contextsteer.World.moving_local_shapes>` gives it.
    scene : dict of str to ndarray, str or float
        The world's fixed scene and agents when the run began, as :meth:`World.run` records
        it: ``circles`` ``(m, 3)``, ``segments`` ``(m, 4)``, ``polygons`` (list of ``(k, 2)``),
        ``bounds`` ``(4,)`` (absent without bounds), metres; the agents' ``targets``
        ``(n, 2)``, ``groups`` ``(n,)``, ``radius`` ``(n,)`` (m). The command line adds the
        scene's ``name`` and the step ``dt`` (s). :func:`~contextsteer.plotting.animate` and
        :func:`~contextsteer.plotting.plot_trajectories` draw it; :meth:`save`,
        :meth:`to_parquet` and :meth:`load` keep it, so that a file alone can be plotted.

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]], targets=[[3.0, 0.0]])
    >>> recording = world.run(60, record=["positions", "strength"])
    >>> recording.positions.shape, round(float(recording.time[-1]), 3)    # the start, 60 steps
    ((61, 1, 2), 1.0)
    """

    time: np.ndarray
    ids: np.ndarray
    positions: np.ndarray | None = None
    velocities: np.ndarray | None = None
    headings: np.ndarray | None = None
    interest: np.ndarray | None = None
    danger: np.ndarray | None = None
    final: np.ndarray | None = None
    direction: np.ndarray | None = None
    strength: np.ndarray | None = None
    slot: np.ndarray | None = None
    blocked: np.ndarray | None = None
    penetration: np.ndarray | None = None
    overlap: np.ndarray | None = None
    state: np.ndarray | None = None
    waiting_time: np.ndarray | None = None
    arrival_time: np.ndarray | None = None
    give_way: np.ndarray | None = None
    complete: bool = True
    recorded: tuple[str, ...] = field(default=())
    includes_start: bool = False
    event_arrays: dict[str, np.ndarray] = field(default_factory=lambda: no_events())
    moving_positions: np.ndarray | None = None
    moving_angles: np.ndarray | None = None
    moving_kinds: tuple[str, ...] = ()
    moving_local_shapes: tuple[np.ndarray, ...] = ()
    scene: dict[str, Any] = field(default_factory=dict)

    def moving_shapes(self, step: int) -> list[np.ndarray]:
        """The moving obstacles' shapes at a row, as :meth:`World.moving_shapes
        <contextsteer.World.moving_shapes>` gives them.

        Parameters
        ----------
        step : int
            The row (negative from the end).

        Returns
        -------
        list of ndarray
            A circle as ``(1, 3)`` x, y, radius, a segment as ``(2, 2)`` ends, a polygon as
            ``(k, 2)`` vertices, metres; none for a world without moving obstacles.

        Raises
        ------
        IndexError
            For a row the recording does not hold.
        TypeError
            For a step that is not an integer.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]], targets=[[3.0, 0.0]])
        >>> world.add_moving_circles([[0.0, 5.0, 0.5]], [[1.0, 0.0]]).tolist()
        [0]
        >>> recording = world.run(10, 0.1)
        >>> recording.moving_shapes(-1)[0].round(3).tolist()   # 1 s at 1 m/s
        [[1.0, 5.0, 0.5]]
        """
        if self.moving_positions is None:
            return []
        if isinstance(step, bool) or not isinstance(step, numbers.Integral):
            raise TypeError(f"step: expected an integer, got {type(step).__name__}")
        if not -self.steps <= step < self.steps:
            raise IndexError(f"step: expected a row from {-self.steps} to {self.steps - 1}, got {step}")
        from .moving import outlines

        return outlines(self.moving_kinds, self.moving_local_shapes, self.moving_positions[step],
                        self.moving_angles[step])

    def add_events(self, more: dict[str, np.ndarray]) -> None:
        """Appends events to the recording's (as a run does, chunk by chunk).

        Parameters
        ----------
        more : dict of str to ndarray
            Equal-length arrays by field, as :func:`events_of_core` gives them.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]], targets=[[0.1, 0.0]])
        >>> recording = world.run(2)
        >>> list(recording.events["kind"])
        ['arrived']
        >>> recording.add_events(world.run(2).event_arrays)  # nothing new happened
        >>> len(recording.events)
        1
        """
        if len(more["step"]):
            self.event_arrays = {name: np.concatenate([self.event_arrays[name], more[name]]) for name in EVENT_FIELDS}

    @property
    def events(self) -> pd.DataFrame:
        """What happened during the run, one row per event in order, as a pandas
        DataFrame: ``step`` (the world's step count once taken), ``time`` (s), ``agent``
        (id), ``kind`` (``"agent_contact"``, ``"obstacle_contact"``, ``"arrived"``,
        ``"left"``, ``"gave_way"``; see :attr:`World.events`), ``other`` (the other agent's
        id, -1 when none) and ``depth`` (metres, 0 when none). The arrays themselves are
        :attr:`event_arrays`."""
        import pandas as pd

        return pd.DataFrame({name: self.event_arrays[name] for name in EVENT_FIELDS})

    @property
    def steps(self) -> int:
        """The rows recorded: the start's (when :attr:`includes_start`) and one per step."""
        return len(self.time)

    @property
    def steps_run(self) -> int:
        """The steps the recording covers: its rows, less the start's."""
        return max(self.steps - int(self.includes_start), 0)

    def __repr__(self) -> str:
        return (f"Recording(steps={self.steps}, agents={len(self.ids)}, recorded={self.recorded}, "
                f"complete={self.complete})")

    def truncated(self, steps: int) -> Recording:
        """The first steps of the recording, marked incomplete.

        Parameters
        ----------
        steps : int
            How many.

        Returns
        -------
        Recording
            Its first ``steps`` rows and their events, ``complete=False``.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [0.0, 1.0]], targets=[[3.0, 0.0], [3.0, 1.0]])
        >>> recording = world.run(60)
        >>> recording.truncated(10)
        Recording(steps=10, agents=2, recorded=('positions', 'velocities', 'headings'), complete=False)
        """
        steps = check.count("steps", steps)
        arrays = {name: getattr(self, name)[:steps] for name in self.recorded}
        # The events of those steps: stamped with the world's time, as the steps are.
        last = self.time[steps - 1] if steps else -np.inf
        kept = self.event_arrays["time"] <= last
        return Recording(self.time[:steps], self.ids, complete=False, recorded=self.recorded,
                         includes_start=self.includes_start,
                         event_arrays={name: values[kept] for name, values in self.event_arrays.items()},
                         scene=self.scene, **self._moving(slice(0, steps)), **arrays)

    @classmethod
    def joined(cls, parts) -> Recording:
        """Recordings of runs of one world one after another as one recording: their rows
        and events in order, complete when every part is.

        Parameters
        ----------
        parts : iterable of Recording
            The recordings, in order (the runs after the first with ``include_start=False``,
            so that no state is recorded twice).

        Returns
        -------
        Recording
            Their rows end to end.

        Raises
        ------
        ValueError
            For no parts, or parts of other agents, other arrays or other moving obstacles.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]], targets=[[3.0, 0.0]])
        >>> first = world.run(30)
        >>> second = world.run(30, include_start=False)
        >>> both = cs.Recording.joined([first, second])
        >>> both.steps, both.steps_run
        (61, 60)
        """
        parts = list(parts)
        if not parts or not all(isinstance(p, Recording) for p in parts):
            raise ValueError(f"parts: expected one or more Recordings, got {parts!r:.80}")
        first = parts[0]
        for i, part in enumerate(parts[1:], 1):
            if (part.recorded != first.recorded or not np.array_equal(part.ids, first.ids)
                    or part.moving_kinds != first.moving_kinds):
                raise ValueError(f"parts[{i}]: expected a recording of the same agents, arrays and moving obstacles "
                                 f"as parts[0], got {part!r}")
        arrays: dict[str, Any] = {name: np.concatenate([getattr(p, name) for p in parts]) for name in first.recorded}
        moving: dict[str, Any] = {}
        if first.moving_positions is not None:
            moving = {**first._moving(), "moving_positions": np.concatenate([p.moving_positions for p in parts]),
                      "moving_angles": np.concatenate([p.moving_angles for p in parts])}
        joined = cls(np.concatenate([p.time for p in parts]), first.ids, complete=all(p.complete for p in parts),
                     recorded=first.recorded, includes_start=first.includes_start, scene=first.scene, **moving,
                     **arrays)
        for part in parts:
            joined.add_events(part.event_arrays)
        return joined

    def _moving(self, rows: slice = slice(None)) -> dict:
        """The moving obstacles' fields, their poses at ``rows``, as keyword arguments."""
        if self.moving_positions is None:
            return {}
        assert self.moving_angles is not None
        return {"moving_positions": self.moving_positions[rows], "moving_angles": self.moving_angles[rows],
                "moving_kinds": self.moving_kinds, "moving_local_shapes": self.moving_local_shapes}

    def to_dataframe(self) -> pd.DataFrame:
        """The recording as a pandas DataFrame in long form, one row per step and agent
        (``T * n`` rows, step by step, agents in the order of ``ids``), for groupby and
        seaborn: ``step``, ``time`` (s), ``id``, then the columns of what was recorded:
        ``x``, ``y`` (m); ``vx``, ``vy`` (m/s); ``heading`` (rad); ``direction_x``,
        ``direction_y``, ``strength``, ``slot``, ``blocked``; ``penetration``, ``overlap``
        (m); ``state``, ``waiting_time``, ``arrival_time`` (s), ``give_way_x``,
        ``give_way_y``. Maps (``slots`` values each) are left to the arrays.

        Returns
        -------
        pandas.DataFrame
            ``T * n`` rows.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [0.0, 1.0]], targets=[[3.0, 0.0], [3.0, 1.0]])
        >>> recording = world.run(60)
        >>> recording.to_dataframe().shape   # the start and 60 steps, 2 agents
        (122, 8)
        >>> list(recording.to_dataframe().columns)
        ['step', 'time', 'id', 'x', 'y', 'vx', 'vy', 'heading']
        """
        import pandas as pd

        steps, agents = self.steps, len(self.ids)
        columns: dict[str, np.ndarray] = {
            "step": np.repeat(np.arange(steps), agents),
            "time": np.repeat(self.time, agents),
            "id": np.tile(self.ids, steps),
        }
        # The table's columns of each recorded array; the others keep their own name.
        renamed = {"positions": ("x", "y"), "velocities": ("vx", "vy"), "headings": ("heading",),
                   "direction": ("direction_x", "direction_y"), "give_way": ("give_way_x", "give_way_y")}
        for name in (name for name in self.recorded if name not in MAPS):
            names = renamed.get(name, (name,))
            per_row = getattr(self, name).reshape(steps * agents, len(names))
            columns.update(zip(names, per_row.T))
        return pd.DataFrame(columns)

    def to_parquet(self, path: str | os.PathLike) -> None:
        """Writes :meth:`to_dataframe` to ``path`` as a Parquet file (with pyarrow: ``pip
        install pyarrow``, or the ``cli`` extra); ``pandas.read_parquet(path)`` reads the same
        table back.

        Parameters
        ----------
        path : str or os.PathLike
            The file to write.

        Raises
        ------
        ImportError
            Without pyarrow.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [0.0, 1.0]], targets=[[3.0, 0.0], [3.0, 1.0]])
        >>> recording = world.run(60)
        >>> import os, tempfile, pandas as pd
        >>> path = os.path.join(tempfile.mkdtemp(), "run.parquet")
        >>> recording.to_parquet(path)
        >>> len(pd.read_parquet(path))
        122
        """
        try:
            import pyarrow as pa  # type: ignore[import-untyped]
            import pyarrow.parquet as pq  # type: ignore[import-untyped]
        except ImportError as exc:
            raise ImportError('to_parquet needs pyarrow (pip install ".[cli]" or pip install pyarrow)') from exc
        table = self.to_dataframe()
        if "groups" in self.scene:
            table.insert(3, "group", np.tile(np.asarray(self.scene["groups"], np.int64), self.steps))
        arrow = pa.Table.from_pandas(table, preserve_index=False)
        meta = dict(arrow.schema.metadata or {})
        meta[PARQUET_KEY] = json.dumps({name: _json_of(values) for name, values in self._file_arrays().items()})
        pq.write_table(arrow.replace_schema_metadata(meta), path)

    def to_pedpy(self, frame_rate: float | None = None):
        """The positions as a PedPy ``TrajectoryData`` (``pip install pedpy``), for the
        pedestrian-analysis methods of PedPy: columns ``id``, ``frame`` (the step, from 0),
        ``x``, ``y`` in metres, at ``frame_rate`` frames per second (by default one per step:
        1 / the recording's step, to 6 significant digits as a world counts time in float32).

        Parameters
        ----------
        frame_rate : float, optional
            Frames per second.

        Returns
        -------
        pedpy.TrajectoryData
            The trajectories.

        Raises
        ------
        ValueError
            A recording without positions, or without two steps to tell its frame rate from
            when none is given.
        ImportError
            Without PedPy.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [0.0, 1.0]], targets=[[3.0, 0.0], [3.0, 1.0]])
        >>> recording = world.run(60)
        >>> recording.to_pedpy().frame_rate  # doctest: +SKIP
        60.0
        """
        try:
            import pedpy  # type: ignore[import-untyped]
        except ImportError as exc:
            raise ImportError("to_pedpy needs PedPy (pip install pedpy; Python 3.10 or later)") from exc
        import pandas as pd

        if self.positions is None:
            raise ValueError("to_pedpy: the recording has no positions (record='state' or 'all')")
        if frame_rate is None:
            if self.steps < 2:
                raise ValueError("frame_rate: expected a number, as a recording of under two steps does not tell it")
            frame_rate = float(f"{1.0 / float(np.median(np.diff(self.time))):.6g}")
        frame_rate = check.number("frame_rate", frame_rate, above=0.0)
        steps, agents = self.steps, len(self.ids)
        table = pd.DataFrame({"id": np.tile(self.ids, steps), "frame": np.repeat(np.arange(steps), agents),
                              "x": self.positions[:, :, 0].ravel().astype(np.float64),
                              "y": self.positions[:, :, 1].ravel().astype(np.float64)})
        return pedpy.TrajectoryData(data=table, frame_rate=frame_rate)

    def save(self, path: str | os.PathLike) -> None:
        """Writes the recording to ``path`` as a compressed NumPy ``.npz`` archive (NumPy
        adds the suffix when it is missing): every recorded array, the time, the ids and
        whether the run completed. :meth:`load` reads it back.

        Parameters
        ----------
        path : str or os.PathLike
            The file to write.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [0.0, 1.0]], targets=[[3.0, 0.0], [3.0, 1.0]])
        >>> recording = world.run(60)
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "run.npz")
        >>> recording.save(path)
        >>> cs.Recording.load(path).positions.shape
        (61, 2, 2)
        """
        arrays: dict[str, Any] = {name: getattr(self, name) for name in self.recorded}
        np.savez_compressed(path, **arrays | self._file_arrays())

    def _file_arrays(self) -> dict[str, Any]:
        """The arrays a file holds besides the recorded ones: the time, the ids, the flags,
        the events, the moving obstacles and the scene."""
        arrays: dict[str, Any] = {"time": self.time, "ids": self.ids, "complete": np.bool_(self.complete),
                  "includes_start": np.bool_(self.includes_start)}
        arrays.update({f"event_{name}": values for name, values in self.event_arrays.items()})
        if self.moving_positions is not None:
            from .moving import KINDS

            arrays.update(moving_positions=self.moving_positions, moving_angles=self.moving_angles,
                          moving_kinds=np.array([KINDS.index(k) for k in self.moving_kinds], dtype=np.int32),
                          moving_vertex_counts=np.array([len(s) for s in self.moving_local_shapes], dtype=np.int64),
                          moving_local_shapes=np.concatenate(self.moving_local_shapes))
        arrays.update(scene_arrays(self.scene))
        return arrays

    @classmethod
    def load(cls, path: str | os.PathLike) -> Recording:
        """A recording written by :meth:`save` (``.npz``) or :meth:`to_parquet` (``.parquet``,
        with pyarrow; a table of the same columns written otherwise is read as well).

        Parameters
        ----------
        path : str or os.PathLike
            The ``.npz`` or ``.parquet`` file.

        Returns
        -------
        Recording
            The recording as saved.

        Raises
        ------
        OSError
            The file cannot be read (missing, a directory, no permission).
        ValueError
            The file is not a recording :meth:`save` wrote: not an ``.npz`` archive, damaged
            (cut short, corrupted), or its arrays of other names, shapes or types; the
            message names the file and what is wrong.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [0.0, 1.0]], targets=[[3.0, 0.0], [3.0, 1.0]])
        >>> recording = world.run(60)
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "run.npz")
        >>> recording.save(path)
        >>> cs.Recording.load(path).steps
        61
        """
        try:
            if os.fspath(path).lower().endswith(".parquet"):
                archive = _parquet_arrays(path)
            else:
                with open(path, "rb") as file:
                    archive = _read_archive(file)
        except (OSError, ImportError):  # cannot be read, or pyarrow is missing: as they are
            raise
        except Exception as error:  # noqa: BLE001 - what NumPy, zipfile, zlib or pyarrow raise for damaged bytes
            reason = str(error) if type(error) is ValueError else f"{type(error).__name__}: {error}"
            raise ValueError(f"path: {os.fspath(path)} is not a recording saved by Recording.save or "
                             f"to_parquet: cannot read it ({reason})") from None
        return cls(**_recording_arguments(archive, os.fspath(path)))


# The key of a Parquet file's metadata that holds what its table does not: a JSON object of
# arrays by name (as Recording._file_arrays gives them), each {"dtype", "shape", "data"}.
PARQUET_KEY = b"contextsteer.recording"
# The table's columns of each recorded array that is not a map (Recording.to_dataframe).
TABLE_COLUMNS = {name: {"positions": ("x", "y"), "velocities": ("vx", "vy"), "headings": ("heading",),
                        "direction": ("direction_x", "direction_y"),
                        "give_way": ("give_way_x", "give_way_y")}.get(name, (name,))
                 for name in FIELDS if name not in MAPS}


def scene_arrays(scene: dict[str, Any]) -> dict[str, np.ndarray]:
    """A recording's scene as arrays named ``scene_<key>`` (the polygons as their vertices
    end to end and their vertex counts), for a file."""
    arrays = {}
    for key, value in scene.items():
        if key == "polygons":
            arrays["scene_polygon_counts"] = np.array([len(p) for p in value], dtype=np.int64)
            arrays["scene_polygons"] = (np.concatenate(value).astype(np.float32) if len(value)
                                        else np.zeros((0, 2), np.float32))
        else:
            arrays[f"scene_{key}"] = np.asarray(value)
    return arrays


def scene_of_arrays(archive) -> dict[str, Any]:
    """The scene of :func:`scene_arrays`'s arrays in ``archive`` (arrays by name)."""
    scene: dict[str, Any] = {}
    for name in archive:
        if name.startswith("scene_") and name not in ("scene_polygons", "scene_polygon_counts"):
            value = archive[name]
            scene[name.removeprefix("scene_")] = value.item() if value.ndim == 0 else value
    if "scene_polygon_counts" in archive:
        counts = archive["scene_polygon_counts"]
        scene["polygons"] = list(np.split(archive["scene_polygons"], np.cumsum(counts)[:-1])) if len(counts) else []
    return scene


def _json_of(values) -> dict:
    values = np.asarray(values)
    return {"dtype": values.dtype.str, "shape": list(values.shape), "data": values.ravel().tolist()}


def _parquet_arrays(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """The arrays of a Parquet file written by :meth:`Recording.to_parquet` (or any table
    of its columns, one row per step and agent, step by step)."""
    try:
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError as exc:
        raise ImportError('reading a Parquet recording needs pyarrow (pip install ".[cli]" or pip install pyarrow)'
                          ) from exc
    table = pq.read_table(path)
    meta = (table.schema.metadata or {}).get(PARQUET_KEY)
    frame = table.to_pandas()
    arrays: dict[str, np.ndarray] = {}
    if meta is not None:
        for name, item in json.loads(meta).items():
            arrays[name] = np.array(item["data"], dtype=np.dtype(item["dtype"])).reshape(item["shape"])
    else:  # a table alone: its steps, times and ids tell the rest
        if not {"step", "time", "id"} <= set(frame.columns):
            raise ValueError(f"path: expected a recording's table with columns step, time and id, "
                             f"got columns {list(frame.columns)}")
        first = frame["step"].to_numpy() == frame["step"].iloc[0] if len(frame) else np.zeros(0, bool)
        arrays["ids"] = frame["id"].to_numpy(np.int64)[first]
        arrays["time"] = frame["time"].to_numpy(np.float64)[::max(len(arrays["ids"]), 1)]
        arrays["complete"] = np.array(True)
        if "group" in frame.columns:
            arrays["scene_groups"] = frame["group"].to_numpy(np.int64)[first]
    steps, agents = len(arrays["time"]), len(arrays["ids"])
    for name, columns in TABLE_COLUMNS.items():
        if set(columns) <= set(frame.columns):
            width, dtype = FIELDS[name]
            values = np.stack([frame[c].to_numpy(dtype) for c in columns], axis=-1)
            arrays[name] = values.reshape((steps, agents) if width == 1 else (steps, agents, len(columns)))
    return arrays
