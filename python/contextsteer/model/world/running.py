"""Stepping a world: :meth:`~contextsteer.World.step`, :meth:`~contextsteer.World.run` and
what a run records; a progress bar for long runs.

These functions are methods of :class:`~contextsteer.World` (bound in its class body);
``self`` is the world."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..._internal import validation as check
from .. import recording as rec
from ..agent_columns import AGENT_COLUMNS
from ..recording import events_of_core as _events


def step(self, dt: float = 1 / 60, *, substeps: int = 1) -> None:
    """Advance ``dt`` seconds (1e-6 to 1e9), integrating motion in ``substeps`` parts of at
    least 1e-6 s; the GIL is released meanwhile.

    A value the state must not hold (NaN, beyond the bound) raises ValueError naming
    the array and the agent (IndexError for an unknown target id), before anything
    moves: the world is then as before the call. So does a pile: more than 16,384
    agents in one cell of the neighbour grid (rows as tall as the longest neighbour
    reach, cells half as wide), where every neighbour query would read them all and
    the step would take time in the square of their number; no crowd of agents that
    do not overlap comes near it. Values written *during* the step are
    checked too, before the stages that read them:

    - by a :class:`PythonBehavior` (or another thread) while the behaviours prepare
      their maps: the error comes before anything moves; the world is as before the
      step but for the values written, and ``steps_taken`` and ``time`` are unchanged.
    - by another thread while the agents move: positions, velocities, headings and
      angular velocities must be finite after the move (and within 1e20, beyond any
      move of a valid state). The step then counts as taken (the agents moved,
      ``steps_taken`` and ``time`` advanced), but ``penetration`` and ``overlap`` still
      hold the previous step's values.

    In both cases the next step refuses the value again until it is written over.

    Parameters
    ----------
    dt : float, default 1/60
        Seconds to advance, 1e-6 to 1e9.
    substeps : int, default 1
        Equal parts of ``dt`` the motion is integrated in.

    Raises
    ------
    ValueError
        A bad ``dt`` or ``substeps``, or a state value the world must not hold.
    IndexError
        An unknown target id.

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]], targets=[[5.0, 0.0]], max_speed=2.0)
    >>> for _ in range(60):
    ...     world.step(1 / 60)
    >>> round(world.time, 6), world.steps_taken
    (1.0, 60)
    """
    if type(dt) is float and type(substeps) is int and substeps == 1 and 1e-6 <= dt <= 1e9:
        self._core.step(dt, 1)  # what the checks below let through, without their cost
    else:
        self._core.step(*check.time_step(dt, substeps))


def run(self, steps: int, dt: float = 1 / 60, *, substeps: int = 1, record="state", progress: bool = False,
        chunk: int | None = None, include_start: bool = True) -> rec.Recording:
    """Run ``steps`` steps in C++ and return what was recorded.

    An error in a step (a value refused, see :meth:`step`) is raised as it came; the
    steps taken before it are lost with the recording, but stay taken.

    Parameters
    ----------
    steps : int
        Steps to run.
    dt : float, default 1/60
        Seconds per step.
    substeps : int, default 1
        Equal parts of ``dt`` the motion is integrated in.
    record : str, iterable of str or None, default 'state'
        ``"state"`` (positions, velocities, headings), ``"all"``, None (only the
        times), one name or an iterable of names among positions, velocities,
        headings, interest, danger, final, direction, strength, slot, blocked,
        penetration, overlap, state, waiting_time, arrival_time, give_way. A world
        with moving obstacles records their poses too (``moving_positions``,
        ``moving_angles``). The :class:`~contextsteer.Recording` docstring gives the
        memory per step.
    progress : bool, default False
        Show a tqdm progress bar.
    chunk : int, optional
        Steps per call into C++ (default: about 1% of the run). Between chunks the run
        can be interrupted (Ctrl-C, or a KeyboardInterrupt raised by a
        :class:`PythonBehavior`): it then returns the steps that finished, with
        ``complete=False``, instead of losing them. The world and the recording then
        agree: the recording holds every step the world took.
    include_start : bool, default True
        The recording's first row is the state before the first step (its time the
        world's time then, 0 for a new world), followed by one row per step:
        ``steps + 1`` rows. False: only the steps' rows (``steps`` of them, the first at
        the end of the first step), as to continue a recording
        (:meth:`Recording.joined <contextsteer.Recording.joined>`).

    Returns
    -------
    Recording
        The recorded arrays, first axis the step.

    Raises
    ------
    ValueError
        A bad argument, a map asked for while :attr:`keep_maps` is False, or a step's error.
    MemoryError
        A recording larger than the memory available (less what the recordings of
        other runs under way in this process hold), raised before the run starts.

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]], targets=[[5.0, 0.0]])
    >>> recording = world.run(120, record=["positions", "strength"])
    >>> recording                     # the start, then 120 steps
    Recording(steps=121, agents=1, recorded=('positions', 'strength'), complete=True)
    >>> recording.positions.shape, recording.strength.shape, recording.steps_run
    ((121, 1, 2), (121, 1), 120)
    """
    steps = check.count("steps", steps)
    first_row = int(check.flag("include_start", include_start))
    dt, substeps = check.time_step(dt, substeps)
    names = self._record_names(record)
    unkept = [name for name in names if name in rec.MAPS and not self.keep_maps]
    if unkept:
        raise ValueError(f"record: {', '.join(unkept)} cannot be recorded while keep_maps is False "
                         f"(the world does not keep its maps); set world.keep_maps = True first")
    chunk = max(1, steps // 100) if chunk is None else check.count("chunk", chunk, minimum=1)
    progress = check.flag("progress", progress)
    n, slots = self.agent_count, self.slots
    # The steps taken, not a count kept here, say what the recording holds: an
    # interruption reaches Python once a chunk has returned from C++, wherever the
    # loop then stands; each step is recorded as soon as the world takes it.
    start = self.steps_taken
    recording = None
    try:
        # NumPy's empty arrays only reserve memory; a recording larger than the machine
        # would be found out part-way through the run, by the system killing the process.
        with rec.reserving((steps + first_row) * rec.bytes_per_step(names, n, slots, self.moving_count),
                           f"record: {steps} steps of {', '.join(names) or 'the time alone'} for {n} agents",
                           "record fewer arrays (record='state' or None) or fewer steps"):
            recording = self._empty_recording(steps + first_row, names)
            recording.includes_start = bool(first_row)
            if first_row:
                self._record_start(recording)
            self._run_recorded(recording, start, dt, substeps, chunk, progress, first_row)
    except KeyboardInterrupt:
        if recording is None:
            raise
        taken = self.steps_taken - start
        return recording if taken == steps else recording.truncated(taken + first_row)
    return recording


def _record_start(self, recording: rec.Recording) -> None:
    """Fills the first row of ``recording`` with the world's state now."""
    recording.time[0] = self.time
    for column in AGENT_COLUMNS:
        if column.record in recording.recorded:
            getattr(recording, column.record)[0] = getattr(self, column.name)
    if recording.moving_positions is not None and recording.moving_angles is not None:
        recording.moving_positions[0] = self.moving_positions
        recording.moving_angles[0] = self.moving_angles


def _empty_recording(self, steps: int, names: tuple[str, ...]) -> rec.Recording:
    """A recording of ``steps`` steps of ``names``, its arrays allocated, to be filled."""
    n, slots = self.agent_count, self.slots
    arrays: dict[str, Any] = {}  # keyword arguments of Recording: its array fields
    for name in names:
        field_width, dtype = rec.FIELDS[name]
        width = slots if isinstance(field_width, str) else field_width
        shape = (steps, n) if width == 1 else (steps, n, width)
        arrays[name] = np.empty(shape, dtype=dtype)
    if self.moving_count:  # their poses, whatever else is recorded
        arrays.update(moving_positions=np.empty((steps, self.moving_count, 2), dtype=np.float32),
                      moving_angles=np.empty((steps, self.moving_count), dtype=np.float32),
                      moving_kinds=self.moving_kinds, moving_local_shapes=self.moving_local_shapes())
    return rec.Recording(np.empty(steps), self.ids.copy(), recorded=names, scene=_scene(self), **arrays)


def _scene(self) -> dict[str, Any]:
    """The world's fixed scene and its agents' positions, targets, groups and radii, copies
    (made :attr:`Recording.scene <contextsteer.Recording.scene>`, a Scenario)."""
    scene: dict[str, Any] = {"circles": self.circles, "segments": self.segments, "polygons": list(self.polygons),
                             "starts": np.array(self.positions), "targets": np.array(self.targets),
                             "groups": np.array(self.groups),
                             "radius": np.array(self.radius)}
    if self.bounds is not None:
        scene["bounds"] = np.asarray(self.bounds, dtype=np.float64)
    return scene


def _run_recorded(self, recording: rec.Recording, start: int, dt: float, substeps: int, chunk: int,
                  progress: bool, first_row: int = 0) -> None:
    """The body of :meth:`run`: fills ``recording`` from row ``first_row`` on from the
    world at step ``start``, ``chunk`` steps per call into C++."""
    steps = recording.steps - first_row
    bar = progress_bar(steps) if progress else None
    try:
        while (done := self.steps_taken - start) < steps:
            k = min(chunk, steps - done)
            rows = slice(first_row + done, first_row + done + k)
            parts = {name: getattr(recording, name)[rows] for name in recording.recorded}
            if recording.moving_positions is not None and recording.moving_angles is not None:
                parts.update(moving_positions=recording.moving_positions[rows],
                             moving_angles=recording.moving_angles[rows])
            events = self._core.run(k, dt, substeps, parts, time=recording.time[rows], ids=recording.ids)
            recording.add_events(_events(events))
            if bar is not None:
                bar.update(k)
    finally:
        if bar is not None:
            bar.close()


def _record_names(record) -> tuple[str, ...]:
    if record is None or record is False:
        return ()
    if record is True or (isinstance(record, str) and record == "state"):
        return rec.STATE
    if isinstance(record, str) and record == "all":
        return tuple(rec.FIELDS)
    if isinstance(record, str) and record in rec.FIELDS:  # one name, as in record="positions"
        return (record,)
    if isinstance(record, str) or not isinstance(record, Iterable):
        raise ValueError(f"record: expected 'state', 'all', None, a name or names among {', '.join(rec.FIELDS)}, "
                         f"got {record!r}")
    names = tuple(record)
    for name in names:
        if not isinstance(name, str) or name not in rec.FIELDS:
            raise ValueError(f"record: expected names among {', '.join(rec.FIELDS)}, got {name!r}")
    return names


def progress_bar(total: int, unit: str = "step"):
    """A tqdm progress bar over ``total`` units (steps of a run, runs of a sweep)."""
    try:
        from tqdm.auto import tqdm
    except ImportError as exc:  # pragma: no cover - tqdm is a dependency
        raise ImportError("progress=True needs tqdm (pip install tqdm)") from exc
    return tqdm(total=total, unit=unit)
