"""Parameter sweeps: one world per combination of parameters, each run and measured, the
results gathered in a pandas DataFrame."""

from __future__ import annotations

import itertools
import time
import warnings
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any

import numpy as np

from .._internal import validation as check
from ..analysis.metrics import summary
from ..model.recording import Recording
from ..model.world import World, progress_bar

if TYPE_CHECKING:
    import pandas as pd

Run = dict[str, Any]  # one run's parameters: the keywords make_world is called with


def runs_of(params) -> list[Run]:
    """The runs ``params`` describes: ``{name: values}`` gives every combination, in the
    order of ``itertools.product`` (the last name varies fastest); a sequence of
    ``{name: value}`` mappings gives one run each, in its order."""
    if isinstance(params, Mapping):
        names = list(params)
        columns = []
        for name in names:
            _check_name(name)
            values = params[name]
            if not _is_sequence(values):
                raise TypeError(f"params: expected a sequence of values for {name!r}, got {type(values).__name__} "
                                f"(wrap a single value in a list)")
            values = list(values)
            if not values:
                raise ValueError(f"params: expected at least one value for {name!r}, got none")
            columns.append(values)
        return [dict(zip(names, combination)) for combination in itertools.product(*columns)]
    if not _is_sequence(params):
        raise TypeError(f"params: expected {{name: values}} or a sequence of {{name: value}} mappings, "
                        f"got {type(params).__name__}")
    runs = []
    for k, run in enumerate(params):
        if not isinstance(run, Mapping):
            raise TypeError(f"params: expected a {{name: value}} mapping for run {k}, got {type(run).__name__}")
        for name in run:
            _check_name(name)
        runs.append(dict(run))
    if not runs:
        raise ValueError("params: expected at least one run, got an empty sequence")
    return runs


def _is_sequence(values) -> bool:
    """Whether ``values`` can be iterated for its items: not a string, and not a 0-d
    array (which NumPy calls iterable, but cannot iterate)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        return False
    return not (isinstance(values, np.ndarray) and values.ndim == 0)


def _check_name(name) -> None:
    if not isinstance(name, str) or not name.isidentifier():
        raise TypeError(f"params: expected parameter names that can be keywords of make_world, got {name!r}")


def sweep(make_world: Callable[..., World], params: Mapping[str, Iterable[Any]] | Iterable[Mapping[str, Any]], *,
          steps: int, dt: float = 1 / 60, substeps: int = 1, record: str | Iterable[str] = "state",
          measure: Callable[[World, Recording], Mapping[str, Any]] | None = None,
          workers: int = 1, executor: Executor | None = None, progress: bool = False) -> pd.DataFrame:
    """Build, run and measure one world per run of ``params``.

    Parameters
    ----------
    make_world : callable
        Called as ``make_world(**run)`` for each run; returns a new
        :class:`~contextsteer.World` (worlds may share pipelines, which never change).
    params : mapping of str to sequence, or sequence of mappings
        ``{name: values}`` for every combination (the last name varies fastest), or a
        sequence of ``{name: value}`` mappings, one per run. Put a seed among them for
        repeats with other random scenes.
    steps : int
        Steps of each run, at least 1.
    dt : float, default 1/60
        Seconds a step; with ``substeps``, ``record``: what :meth:`World.run
        <contextsteer.World.run>` gets, the same for every run.
    substeps : int, default 1
        Physics substeps a step.
    record : str or sequence of str, default "state"
        What each run records (the names :meth:`World.run <contextsteer.World.run>` takes).
    measure : callable, optional
        ``measure(world, recording)`` returns ``{column: scalar}``; by default
        :func:`contextsteer.metrics.summary` of the recording with ``world.targets``.
    workers : int, default 1
        Runs at once, on threads of the sweep's own. ``World.run`` releases the GIL, so
        worlds do run in parallel (each world's own ``threads`` come on top of these).
        Their recordings share the memory available: a run whose recording does not fit
        beside those of the runs under way raises MemoryError before it starts. Worker
        processes (``executor``) each account for their own runs only.
    executor : concurrent.futures.Executor, optional
        Instead of threads, any executor to run the runs on, such as a
        ``ProcessPoolExecutor`` (for worlds that spend their time in Python behaviours,
        which hold the GIL) or a Dask ``Client.get_executor()`` (a cluster). make_world
        and measure then travel to the workers: with a process pool they must be
        picklable, i.e. defined at the top of a module; ``functools.partial(build,
        pipeline)`` carries a pipeline built here (pipelines, behaviours, fields, tracks
        and worlds pickle). The sweep does not shut it down.
    progress : bool, default False
        Show a tqdm progress bar over the runs.

    Returns
    -------
    pandas.DataFrame
        A row per run, in the order of the runs whatever runs them: the run's
        parameters, the measures, then ``seconds``, the wall time its ``World.run`` took.
        An interruption (Ctrl-C) keeps what finished: the DataFrame then holds the runs
        completed so far, ``attrs["complete"]`` is False (True otherwise) and a
        RuntimeWarning says so; runs not yet started are cancelled, and runs under way
        elsewhere finish unwaited for and are dropped.

    Raises
    ------
    TypeError
        If ``make_world`` or ``measure`` is not callable, ``params`` is not of either
        form or names a parameter that cannot be a keyword, or ``executor`` is not an
        Executor.
    ValueError
        If ``params`` describes no run, ``steps``, ``dt`` or ``substeps`` is out of
        range, ``record`` names an unknown array, or ``workers`` is not 1 with an
        executor.
    Exception
        An error in a run is raised as it came, with a note naming the run (Python 3.11
        and later).

    Examples
    --------
    >>> import contextsteer as cs
    >>> pipeline = cs.Pipeline([cs.Arrive()], slots=8)
    >>> def make_world(max_speed):
    ...     return cs.World(pipeline, [[0.0, 0.0]], targets=[[5.0, 0.0]], max_speed=max_speed)
    >>> table = cs.sweep(make_world, {"max_speed": [1.0, 2.0]}, steps=100, dt=0.1)
    >>> table["max_speed"].tolist(), len(table)
    ([1.0, 2.0], 2)
    """
    if not callable(make_world):
        raise TypeError(f"make_world: expected a callable that takes the parameters as keywords and returns a "
                        f"World, got {type(make_world).__name__}")
    if measure is not None and not callable(measure):
        raise TypeError(f"measure: expected a callable (world, recording) -> {{column: value}}, "
                        f"got {type(measure).__name__}")
    runs = runs_of(params)
    dt, substeps = check.time_step(dt, substeps)
    run_arguments = {"steps": check.count("steps", steps), "dt": dt, "substeps": substeps, "record": record}
    World._record_names(record)  # a bad name fails now, not in the first run
    workers = check.count("workers", workers, minimum=1)
    if executor is not None:
        if not isinstance(executor, Executor):
            raise TypeError(f"executor: expected a concurrent.futures.Executor, got {type(executor).__name__}")
        if workers != 1:
            raise ValueError(f"workers: the executor decides how many runs go at once; expected workers=1 with "
                             f"an executor, got {workers}")
    progress = check.flag("progress", progress)

    rows: dict[int, Run] = {}
    complete = True  # no interruption
    bar = own_pool = None
    pending: dict[Future, int] = {}
    try:  # from here on, an interruption returns what finished (nothing, at the start)
        import pandas  # noqa: F401  (its first import takes a while: before the runs)

        bar = progress_bar(len(runs), unit="run") if progress else None
        own_pool = ThreadPoolExecutor(workers) if executor is None and workers > 1 else None
        pool = executor or own_pool
        if pool is None:  # in this thread, where Ctrl-C reaches World.run itself
            for k, run in enumerate(runs):
                row = _run(make_world, k, run, run_arguments, measure)
                if row is None:
                    complete = False
                    break
                rows[k] = row
                if bar is not None:
                    bar.update(1)
        else:
            for k, run in enumerate(runs):
                pending[pool.submit(_run, make_world, k, run, run_arguments, measure)] = k
            while pending and complete:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    row = future.result()
                    k = pending.pop(future)
                    if row is None:
                        complete = False
                    else:
                        rows[k] = row
                        if bar is not None:
                            bar.update(1)
    except KeyboardInterrupt:
        complete = False
    finally:
        # After an interruption or an error, runs not yet started are cancelled; the ones
        # under way cannot be stopped from here and finish unwaited for.
        for future in pending:
            future.cancel()
        if own_pool is not None:
            own_pool.shutdown(wait=not pending, cancel_futures=True)
        if bar is not None:
            bar.close()
    if not complete:
        warnings.warn(f"sweep interrupted: returning the {len(rows)} of {len(runs)} runs that finished",
                      RuntimeWarning, stacklevel=2)
    import pandas as pd

    table = pd.DataFrame([rows[k] for k in sorted(rows)], columns=_column_order(runs, rows))
    table.attrs["complete"] = complete
    return table


def _run(make_world: Callable[..., World], k: int, run: Run, run_arguments: dict[str, Any],
         measure: Callable[[World, Recording], Mapping[str, Any]] | None) -> Run | None:
    """Run k of a sweep: its row, or None when World.run was interrupted. At the top of the
    module, so that process pools can send it to their workers. An error gets a note
    naming the run (Python 3.11 and later)."""
    try:
        world = make_world(**run)
        if not isinstance(world, World):
            raise TypeError(f"make_world: expected a World, got {type(world).__name__}")
        start = time.perf_counter()
        recording = world.run(**run_arguments)
        seconds = time.perf_counter() - start
        if not recording.complete:  # World.run caught an interruption
            return None
        measured = measure(world, recording) if measure is not None else summary(recording, world.targets)
        return {**run, **_columns(measured, run), "seconds": seconds}
    except Exception as exc:
        if hasattr(exc, "add_note"):
            exc.add_note(f"in run {k} of the sweep: {run}")
        raise


def _columns(measured, run: Run) -> Run:
    """measure's result, checked: a mapping of new column names to scalars."""
    if not isinstance(measured, Mapping):
        raise TypeError(f"measure: expected a {{column: value}} mapping, got {type(measured).__name__}")
    for column, value in measured.items():
        if not isinstance(column, str):
            raise TypeError(f"measure: expected str column names, got {column!r}")
        if column in run or column == "seconds":
            raise ValueError(f"measure: column {column!r} is also a parameter or the run time; rename it")
        if np.ndim(value) != 0:
            raise TypeError(f"measure: expected a scalar for column {column!r}, got shape {np.shape(value)} "
                            f"(reduce it, or keep the arrays yourself)")
    return dict(measured)


def _column_order(runs: list[Run], rows: dict[int, Run]) -> list[str]:
    """Parameters first (in the order the runs name them), then the measures, then seconds."""
    names: dict[str, None] = {}
    for run in runs:
        names.update(dict.fromkeys(run))
    for row in rows.values():
        names.update(dict.fromkeys(column for column in row if column != "seconds"))
    return [*names, "seconds"] if rows else list(names)


__all__ = ["Run", "runs_of", "sweep"]
