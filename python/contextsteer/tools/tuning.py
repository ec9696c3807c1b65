"""Automatic tuning: Optuna searches the parameters of the worlds ``make_world`` builds
for the best value of an objective measured on their runs, over one or several scenes
and seeds, trials running in parallel as the runs of :func:`~contextsteer.sweep` do."""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from .._internal import validation as check
from ..analysis.metrics import crowd_metrics
from ..model.recording import Recording
from ..model.world import World, progress_bar
from .sweeps import Run, _run, runs_of

if TYPE_CHECKING:
    import optuna
    import pandas as pd


class CrowdObjective:
    """An objective for :func:`tune` from :func:`~contextsteer.metrics.crowd_metrics`:
    seconds, lower is better.

    ``time_to_95`` (the run's duration when fewer than 95% of the agents arrived)
    ``+ late * (1 - arrived)`` (s; the run's duration when None) ``+ jitter *
    reversals_per_agent_minute`` (s per reversal an agent and minute) ``+ overlap *
    deepest_overlap`` (s per metre). Called as ``objective(world, recording)``, it
    returns every measure of ``crowd_metrics`` and the sum as ``"objective"``; the world
    gives the targets, radii, max speeds and walls, the recording (with positions) the
    trajectories and the step. Picklable, so process pools and Dask clusters take it.

    Parameters
    ----------
    within : float, default 1
        Metres from its target within which an agent has arrived.
    late : float, optional
        Seconds added for all agents not arriving (the run's duration when None).
    jitter : float, default 1
        Seconds per reversal an agent and minute.
    overlap : float, default 10
        Seconds per metre of the deepest overlap.

    Raises
    ------
    ValueError, TypeError
        For a bad value, naming the argument.

    Examples
    --------
    >>> import contextsteer as cs
    >>> from contextsteer.tuning import CrowdObjective
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]], targets=[[2.0, 0.0]])
    >>> measures = CrowdObjective()(world, world.run(300))
    >>> measures["arrived"], round(measures["time_to_95"], 2), measures["objective"] >= measures["time_to_95"]
    (1.0, 1.02, True)
    """

    def __init__(self, *, within: float = 1.0, late: float | None = None, jitter: float = 1.0,
                 overlap: float = 10.0):
        self.within = check.number("within", within, above=0.0)
        self.late = None if late is None else check.number("late", late, minimum=0.0)
        self.jitter = check.number("jitter", jitter, minimum=0.0)
        self.overlap = check.number("overlap", overlap, minimum=0.0)

    def __repr__(self) -> str:
        return (f"CrowdObjective(within={self.within:g}, late={self.late!r}, jitter={self.jitter:g}, "
                f"overlap={self.overlap:g})")

    def __call__(self, world: World, recording: Recording) -> dict[str, float]:
        if recording.positions is None or len(recording.time) < 2:
            raise ValueError("recording: expected positions of at least 2 steps (record='state'), got "
                             f"{'none' if recording.positions is None else len(recording.time)}")
        dt = float(recording.time[1] - recording.time[0])
        measures = crowd_metrics(recording.positions, dt=dt, radius=world.radius, max_speed=world.max_speed,
                                 targets=world.targets, segments=world.segments, polygons=world.polygons or None,
                                 within=self.within)
        duration = measures["duration"]
        late = duration if self.late is None else self.late
        time_to_95 = measures["time_to_95"] if math.isfinite(measures["time_to_95"]) else duration
        reversals = measures["reversals_per_agent_minute"]
        measures["objective"] = (time_to_95 + late * (1.0 - measures["arrived"])
                                 + self.jitter * (reversals if math.isfinite(reversals) else 0.0)
                                 + self.overlap * measures["deepest_overlap"])
        return measures


@dataclass(frozen=True)
class TuneResult:
    """What :func:`tune` found.

    Parameters
    ----------
    study : optuna.Study
        The Optuna study (every trial, and the storage to resume from).
    trials : pandas.DataFrame
        A row per trial of the study: ``number``, ``state``, ``value`` (the mean
        objective over the cases), the parameters, each other measure of the objective
        (the mean over the cases), and ``seconds`` (wall time of the trial's runs).
    best_params : dict
        The parameters of the best finished trial.
    best_value : float
        Its objective.
    steerings : tuple
        The steerings of a world built with ``best_params`` (and the first case):
        pipelines ready to use.
    complete : bool
        False when an interruption stopped the search.

    Examples
    --------
    >>> import optuna
    >>> import contextsteer as cs
    >>> optuna.logging.set_verbosity(optuna.logging.WARNING)
    >>> def make_world(max_distance=3.0):
    ...     pipeline = cs.Pipeline([cs.Seek(), cs.Avoid(max_distance=max_distance)])
    ...     return cs.World(pipeline, [[0.0, 0.0]], targets=[[3.0, 0.0]], circles=[[1.5, 0.2, 0.3]])
    >>> result = cs.tune(make_world, {"max_distance": (0.5, 4.0)}, trials=2, steps=240)
    >>> type(result.trials).__name__, result.complete, len(result.steerings)
    ('DataFrame', True, 1)
    """

    study: optuna.Study
    trials: pd.DataFrame
    best_params: dict[str, Any]
    best_value: float
    steerings: tuple
    complete: bool

    @property
    def pipeline(self):
        """The first of :attr:`steerings`: the best pipeline, for a world of one."""
        return self.steerings[0]


def search_space(space: Mapping[str, Any]) -> dict[str, Any]:
    """Optuna distributions from a search space, as :func:`tune` takes it.

    Parameters
    ----------
    space : mapping
        Each name maps to ``(low, high)`` (ints: an integer range; else a float range),
        ``(low, high, "log")`` (a log-scaled range), a list of choices, or an
        ``optuna.distributions`` distribution.

    Returns
    -------
    dict
        Name -> Optuna distribution.

    Raises
    ------
    TypeError
        Not a non-empty mapping of keyword names, or a range of the wrong form.
    ValueError
        An empty list of choices or a bad bound.

    Examples
    --------
    >>> from contextsteer.tuning import search_space
    >>> space = search_space({"max_distance": (1.0, 4.0), "slots": [8, 16], "seed": (0, 9)})
    >>> {name: type(d).__name__ for name, d in space.items()}
    {'max_distance': 'FloatDistribution', 'slots': 'CategoricalDistribution', 'seed': 'IntDistribution'}
    """
    import optuna.distributions as od

    if not isinstance(space, Mapping) or not space:
        raise TypeError(f"space: expected a non-empty mapping of parameter name -> range, got {space!r}")
    distributions = {}
    for name, spec in space.items():
        if not isinstance(name, str) or not name.isidentifier():
            raise TypeError(f"space: expected parameter names that can be keywords of make_world, got {name!r}")
        distributions[name] = _distribution(name, spec, od)
    return distributions


def _distribution(name: str, spec, od):
    if isinstance(spec, od.BaseDistribution):
        return spec
    if isinstance(spec, list):
        if not spec:
            raise ValueError(f"space[{name!r}]: expected at least one choice, got an empty list")
        return od.CategoricalDistribution(spec)
    log = isinstance(spec, tuple) and len(spec) == 3 and spec[2] == "log"
    if not isinstance(spec, tuple) or len(spec) != 2 + log:
        raise TypeError(f"space[{name!r}]: expected (low, high), (low, high, 'log'), a list of choices or an optuna "
                        f"distribution, got {spec!r}")
    low, high = spec[:2]
    integers = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in (low, high))
    low = check.number(f"space[{name!r}] low", low, above=0.0 if log else None)
    high = check.number(f"space[{name!r}] high", high, minimum=low)
    if integers:
        return od.IntDistribution(int(low), int(high), log=log)
    return od.FloatDistribution(low, high, log=log)


def _storage(storage):
    """An Optuna storage: a path ending .db/.sqlite/.sqlite3 is a SQLite file, another path
    a journal file; a URL ("sqlite:///...", "postgresql://...") or a storage object as is."""
    import optuna

    if storage is None or isinstance(storage, optuna.storages.BaseStorage):
        return storage
    if not isinstance(storage, (str, os.PathLike)):
        raise TypeError(f"storage: expected a file path, a database URL or an optuna storage, "
                        f"got {type(storage).__name__}")
    text = os.fspath(storage)
    if "://" in text:
        return text
    if text.endswith((".db", ".sqlite", ".sqlite3")):
        return f"sqlite:///{os.path.abspath(text)}"
    from optuna.storages.journal import JournalFileBackend

    return optuna.storages.JournalStorage(JournalFileBackend(text))


class _Measured:
    """``objective`` as a sweep's measure: a float becomes ``{"objective": value}``."""

    def __init__(self, objective):
        self.objective = objective

    def __call__(self, world: World, recording: Recording) -> Mapping[str, Any]:
        value = self.objective(world, recording)
        if isinstance(value, Mapping):
            if "objective" not in value:
                raise ValueError(f"objective: expected a float or a mapping with an 'objective' entry, "
                                 f"got keys {list(value)}")
            return value
        return {"objective": value}


def _trial(make_world: Callable[..., World], number: int, params: Run, cases: list[Run],
           run_arguments: dict[str, Any], measure: _Measured) -> list[Run] | None:
    """One trial: a sweep's row per case, or None when a run was interrupted. At the top
    of the module, so that process pools can send it to their workers."""
    rows = []
    for case in cases:
        row = _run(make_world, number, {**params, **case}, run_arguments, measure)
        if row is None:
            return None
        rows.append(row)
    return rows


def tune(make_world: Callable[..., World], space: Mapping[str, Any],
         objective: Callable[[World, Recording], Any] | None = None, *, trials: int = 30, steps: int,
         dt: float = 1 / 60, substeps: int = 1, cases: Mapping[str, Iterable[Any]] | Iterable[Mapping[str, Any]]
         | None = None, direction: Literal["minimize", "maximize"] = "minimize",
         enqueue: Sequence[Mapping[str, Any]] = (), storage=None, study_name: str = "contextsteer",
         seed: int | None = 0, workers: int = 1, executor: Executor | None = None,
         progress: bool = False) -> TuneResult:
    """Search the parameters of ``make_world`` with Optuna for the best ``objective``.

    Parameters
    ----------
    make_world : callable
        Called as ``make_world(**params, **case)``; returns a new
        :class:`~contextsteer.World`.
    space : mapping
        Parameter name -> ``(low, high)`` (two ints: an integer range), ``(low, high,
        "log")``, a list of choices, or an ``optuna.distributions`` distribution.
    objective : callable, optional
        ``objective(world, recording)`` after each run: a float, or a mapping holding
        ``"objective"`` and other measures (kept as columns). A trial's value is the mean
        over its cases. Default: :class:`CrowdObjective` (seconds: time to 95% arrived,
        penalties for agents that did not arrive, for jitter and for overlap).
    trials : int, default 30
        Finished trials the study should hold: a resumed study runs only the rest.
    steps, dt, substeps
        Each run's length (as for :func:`~contextsteer.sweep`); the recording holds the state.
    cases : mapping or sequence of mappings, optional
        The scenes and seeds every trial runs on, in the forms of ``sweep``'s params
        (``{"seed": [0, 1]}``: every trial runs twice); one case with no keywords by default.
    direction : {"minimize", "maximize"}, default "minimize"
    enqueue : sequence of mappings
        Parameters to try first (such as the ones in use, so that the best is at least as
        good); skipped when the study already holds a trial of them.
    storage : path, URL or optuna storage, optional
        Where the study lives, to resume it after an interruption: a path ending ``.db``
        is a SQLite file, another path a journal file; None keeps it in memory. A study
        found there under ``study_name`` carries on: its finished trials count and are
        not run again; the trials an interrupted call left running are marked failed and
        their parameters tried again first. One call at a time per study.
    study_name : str, default "contextsteer"
    seed : int or None, default 0
        Of the TPE sampler (its results then repeat with ``workers=1``).
    workers : int, default 1
        Trials under way at once, on threads of the search's own or on ``executor``.
    executor : concurrent.futures.Executor, optional
        Runs the trials instead of threads: a ``ProcessPoolExecutor`` or a Dask
        ``Client.get_executor()``, as for ``sweep`` (make_world and objective must then
        pickle). The search asks Optuna for parameters and tells it the results here;
        not shut down.
    progress : bool, default False
        A tqdm bar over the trials.

    Returns
    -------
    TuneResult
        The study, the trials as a DataFrame, the best parameters and their steerings.
        An interruption (Ctrl-C) returns what finished, ``complete=False``, with a
        RuntimeWarning. A trial whose objective is not finite fails (its state says so);
        once as many have failed as there were trials to finish, the search stops with a
        RuntimeWarning.

    Raises
    ------
    TypeError, ValueError
        Bad arguments, named; an error in a run, raised as it came.

    Examples
    --------
    >>> import optuna
    >>> import contextsteer as cs
    >>> optuna.logging.set_verbosity(optuna.logging.WARNING)
    >>> def make_world(max_distance=3.0):
    ...     pipeline = cs.Pipeline([cs.Seek(), cs.Avoid(max_distance=max_distance, agents=True)])
    ...     return cs.World(pipeline, [[0.0, 0.0], [4.0, 0.1]], targets=[[4.0, 0.0], [0.0, 0.0]])
    >>> result = cs.tune(make_world, {"max_distance": (0.5, 4.0)}, trials=3, steps=300)
    >>> len(result.trials), sorted(result.best_params)
    (3, ['max_distance'])
    >>> best = result.pipeline.behaviors[1].max_distance  # float32, as the core holds it
    >>> abs(best - result.best_params["max_distance"]) < 1e-6
    True
    """
    import optuna

    if not callable(make_world):
        raise TypeError(f"make_world: expected a callable that returns a World, got {type(make_world).__name__}")
    if objective is None:
        objective = CrowdObjective()
    if not callable(objective):
        raise TypeError(f"objective: expected a callable (world, recording) -> value, got {type(objective).__name__}")
    distributions = search_space(space)
    trials = check.count("trials", trials, minimum=1)
    dt, substeps = check.time_step(dt, substeps)
    run_arguments = {"steps": check.count("steps", steps, minimum=2), "dt": dt, "substeps": substeps,
                     "record": "state"}
    case_list = [{}] if cases is None else runs_of(cases)
    clash = sorted(set(distributions) & {name for case in case_list for name in case})
    if clash:
        raise ValueError(f"cases: {clash[0]!r} is also a parameter of space")
    if direction not in ("minimize", "maximize"):
        raise ValueError(f"direction: expected 'minimize' or 'maximize', got {direction!r}")
    workers = check.count("workers", workers, minimum=1)
    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(f"executor: expected a concurrent.futures.Executor, got {type(executor).__name__}")
    progress = check.flag("progress", progress)
    seed = None if seed is None else check.count("seed", seed)
    queued = []
    for k, params in enumerate(enqueue):
        if not isinstance(params, Mapping) or set(params) - set(distributions):
            raise ValueError(f"enqueue[{k}]: expected a mapping of names among space's, got {params!r}")
        queued.append(dict(params))

    verbosity = optuna.logging.get_verbosity()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        study = optuna.create_study(storage=_storage(storage), study_name=check.name("study_name", study_name),
                                    direction=direction, load_if_exists=True)
        # Seeded by the trials so far too: a resumed study does not draw its first ones again.
        seed = None if seed is None else seed + len(study.trials)
        study.sampler = optuna.samplers.TPESampler(seed=seed)
        _restart_interrupted(study)
        for params in queued:
            study.enqueue_trial(params, skip_if_exists=True)
        complete = _search(study, distributions, trials, make_world, case_list, run_arguments, _Measured(objective),
                           workers, executor, progress)
    finally:
        optuna.logging.set_verbosity(verbosity)
    if not complete:
        warnings.warn("tune interrupted: returning the trials that finished", RuntimeWarning, stacklevel=2)
    elif _finished(study) < trials:
        warnings.warn(f"tune: the objective was not finite in {trials - _finished(study)} or more trials, which "
                      f"failed; {_finished(study)} of {trials} finished", RuntimeWarning, stacklevel=2)
    return _result(study, make_world, case_list[0], complete)


def _restart_interrupted(study) -> None:
    """Trials an interrupted call left running: failed, and their parameters queued again."""
    from optuna.trial import TrialState

    for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        study.tell(trial.number, state=TrialState.FAIL)
        study.enqueue_trial(trial.params, user_attrs={"rerun_of": trial.number})


def _finished(study) -> int:
    from optuna.trial import TrialState

    return len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)))


def _search(study, distributions, trials: int, make_world, cases: list[Run], run_arguments: dict, measure: _Measured,
            workers: int, executor: Executor | None, progress: bool) -> bool:
    """Ask, run and tell until the study holds ``trials`` finished trials; False when interrupted."""
    from optuna.trial import TrialState

    missing = trials - _finished(study)
    # Trials whose objective is not finite fail; as many failures as trials to finish end
    # the search (an objective that is never finite would ask forever).
    failures_left = max(missing, 0)
    bar = progress_bar(max(missing, 0), unit="trial") if progress else None
    own_pool = ThreadPoolExecutor(workers) if executor is None and workers > 1 else None
    pool = executor or own_pool
    pending: dict[Future, Any] = {}
    complete = True
    try:
        while (missing > 0 and failures_left > 0) or pending:
            while min(missing, failures_left) - len(pending) > 0 and len(pending) < workers:
                trial = study.ask(distributions)
                arguments = (make_world, trial.number, trial.params, cases, run_arguments, measure)
                if pool is None:
                    future: Future = Future()
                    try:
                        future.set_result(_trial(*arguments))
                    except Exception as exc:
                        future.set_exception(exc)
                else:
                    future = pool.submit(_trial, *arguments)
                pending[future] = trial
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                trial = pending.pop(future)
                try:
                    rows = future.result()
                except Exception:
                    study.tell(trial, state=TrialState.FAIL)
                    raise
                if rows is None:
                    raise KeyboardInterrupt
                value = _tell(study, trial, rows, cases, TrialState)
                missing -= value is not None
                failures_left -= value is None
                if bar is not None and value is not None:
                    bar.update(1)
    except KeyboardInterrupt:
        complete = False  # trials under way stay RUNNING: the next call reruns them
    finally:
        for future in pending:
            future.cancel()
        if own_pool is not None:
            own_pool.shutdown(wait=complete, cancel_futures=True)
        if bar is not None:
            bar.close()
    return complete


def _tell(study, trial, rows: list[Run], cases: list[Run], TrialState) -> float | None:
    """The mean of each measure over the cases, kept on the trial; its objective told.
    A non-finite objective fails the trial (its measures kept)."""
    measures = {}
    inputs = set(trial.params).union(*cases)
    for column in rows[0]:
        if column not in inputs and all(column in row for row in rows):
            values = [row[column] for row in rows]
            if all(isinstance(v, (int, float, np.number)) and not isinstance(v, bool) for v in values):
                measures[column] = float(np.mean(values))
    measures["seconds"] = float(sum(row["seconds"] for row in rows))
    value = measures.pop("objective", math.nan)
    for column, mean in measures.items():
        trial.set_user_attr(column, mean)
    if not math.isfinite(value):
        study.tell(trial, state=TrialState.FAIL)
        return None
    study.tell(trial, value)
    return value


def _result(study, make_world, case: Run, complete: bool) -> TuneResult:
    table = study.trials_dataframe(attrs=("number", "state", "value", "params", "user_attrs"))
    table.columns = [c.removeprefix("params_").removeprefix("user_attrs_") for c in table.columns]
    if "state" in table:
        table["state"] = table["state"].astype(str)
    try:
        best = study.best_trial
    except ValueError:  # no trial finished
        return TuneResult(study, table, {}, math.nan, (), complete)
    world = make_world(**best.params, **case)
    if not isinstance(world, World):
        raise TypeError(f"make_world: expected a World, got {type(world).__name__}")
    return TuneResult(study, table, dict(best.params), float(best.value), world.steerings, complete)


__all__ = ["CrowdObjective", "TuneResult", "search_space", "tune"]
