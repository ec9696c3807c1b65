"""What :meth:`World.run` records, step by step (its files: recording_files.py).

This module is long because Recording's methods each carry a numpydoc docstring with an
example that runs, and truncating and joining must agree on every field.
"""

from __future__ import annotations

import contextlib
import numbers
import os
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._internal import validation as check
from . import recording_files
from .recording_files import EVENT_FIELDS as EVENT_FIELDS  # an event's fields, by name
from .recording_files import FIELDS as FIELDS  # the recordable arrays, by name
from .recording_files import MAPS as MAPS
from .recording_files import no_events as no_events

if TYPE_CHECKING:
    import pandas as pd

STATE = ("positions", "velocities", "headings")
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


def events_of_core(events: dict) -> dict[str, np.ndarray]:
    """The core's events (a dict of arrays, the kinds as a list of names) as NumPy arrays."""
    return {name: np.asarray(events[name], dtype) if len(events[name]) else np.zeros(0, dtype)
            for name, dtype in EVENT_FIELDS.items()}


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
    scene : Scenario or None
        The world's fixed scene and agents when the run began, as a
        :class:`~contextsteer.Scenario` (``scene.world(steering)`` runs it again): its
        circles, walls, polygons and bounds (the world's; for a world without bounds, the
        box round its obstacles and its agents' starts and targets, 1 m wider on each
        side), the agents' starts, targets and groups, their radius
        (``agent_parameters["radius"]``); the command line adds the scene's name, goal
        areas and run (its step ``dt``). Given as a dict of those arrays (``circles``,
        ``segments``, ``polygons``, ``bounds``, ``starts``, ``targets``, ``groups``,
        ``radius``, ``name``, ``dt``), as files before kept it, it is made a Scenario; None
        for a recording of no scene (a table alone). :func:`~contextsteer.plotting.animate`
        and :func:`~contextsteer.plotting.plot_trajectories` draw it; :meth:`save`,
        :meth:`to_parquet` and :meth:`load` keep it, so that a file alone can be plotted
        and run again.

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
    scene: Any = None

    def __post_init__(self):
        # A scene given as the arrays a world or a file records: the Scenario they describe.
        if isinstance(self.scene, dict):
            self.scene = _scene_of_record(self.scene, self) if self.scene else None

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
        recording_files.write_parquet(self, path)

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
        np.savez_compressed(path, **arrays | recording_files.file_arrays(self))

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
        return cls(**recording_files.read(path))


# Made by the scenes layer (scenes/recorded_scene.py), which sets it as it is imported:
# (the arrays of a recorded scene, the recording) -> a Scenario, or None.
scene_maker: Any = None


def _scene_of_record(record: dict, recording: Recording):
    return record if scene_maker is None else scene_maker(record, recording)
