"""Measures of a :class:`~contextsteer.Recording`: arrival times, path lengths, speeds,
turn rates, and their :func:`summary`, a row of a parameter sweep."""

from __future__ import annotations

import math

import numpy as np

from ..._internal import validation as check
from ...model.recording import Recording


def _check(recording) -> Recording:
    if not isinstance(recording, Recording):
        raise TypeError(f"recording: expected a Recording (what World.run returns), got {type(recording).__name__}")
    return recording


def _recorded(recording: Recording, name: str, measure: str) -> np.ndarray:
    array = getattr(_check(recording), name)
    if array is None:
        raise ValueError(f"recording: {measure} needs {name} recorded (pass record= with {name!r} to World.run), "
                         f"but the recording holds {list(recording.recorded)}")
    return array


def arrival_times(recording: Recording, targets, *, within: float = 1.0) -> np.ndarray:
    """When each agent first came within ``within`` metres of its target (the time of the
    first recorded step that ended there).

    Parameters
    ----------
    recording : Recording
        A run's recording, with positions recorded.
    targets : array_like, shape (n, 2)
        Each recorded agent's target point, metres (``world.targets`` of the world that
        ran, for fixed targets).
    within : float, default 1
        Metres.

    Returns
    -------
    ndarray of float64, shape (n,)
        Seconds, NaN for agents that never arrived.

    Raises
    ------
    TypeError
        ``recording`` is not a :class:`~contextsteer.Recording`.
    ValueError
        The recording lacks positions.

    Examples
    --------
    >>> import contextsteer as cs
    >>> from contextsteer import metrics
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [0.0, 2.0]], targets=[[3.0, 0.0], [30.0, 2.0]])
    >>> recording = world.run(180, record="all")  # 3 s at 1 m/s: agent 0 arrives, agent 1 does not
    >>> metrics.arrival_times(recording, world.targets).round(2)
    array([2.02,  nan])
    """
    positions = _recorded(recording, "positions", "arrival_times")
    targets = check.shaped("targets", targets, (len(recording.ids), 2))
    within = check.number("within", within, above=0.0)
    if recording.steps == 0:
        return np.full(len(recording.ids), np.nan)
    there = np.linalg.norm(positions - targets[None], axis=2) <= within  # (T, n)
    first = there.argmax(axis=0)
    times = recording.time[first].astype(np.float64)
    times[~there.any(axis=0)] = np.nan
    return times


def path_lengths(recording: Recording) -> np.ndarray:
    """How far each agent travelled between the first and the last recorded step.

    Parameters
    ----------
    recording : Recording
        A run's recording, with positions recorded.

    Returns
    -------
    ndarray of float64, shape (n,)
        Metres (NaN for no steps).

    Raises
    ------
    TypeError
        ``recording`` is not a :class:`~contextsteer.Recording`.
    ValueError
        The recording lacks positions.

    Examples
    --------
    >>> import contextsteer as cs
    >>> from contextsteer import metrics
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [0.0, 2.0]], targets=[[3.0, 0.0], [30.0, 2.0]])
    >>> recording = world.run(180, record="all")  # 3 s at 1 m/s: agent 0 arrives, agent 1 does not
    >>> metrics.path_lengths(recording).round(2)
    array([3., 3.])
    """
    positions = _recorded(recording, "positions", "path_lengths")
    if recording.steps == 0:
        return np.full(len(recording.ids), np.nan)
    # float32 steps (as exact as the positions), summed in float64
    return np.linalg.norm(np.diff(positions, axis=0), axis=2).sum(axis=0, dtype=np.float64)


def mean_speeds(recording: Recording) -> np.ndarray:
    """Each agent's speed averaged over the recorded steps.

    Parameters
    ----------
    recording : Recording
        A run's recording, with velocities recorded.

    Returns
    -------
    ndarray of float64, shape (n,)
        m/s (NaN for no steps).

    Raises
    ------
    TypeError
        ``recording`` is not a :class:`~contextsteer.Recording`.
    ValueError
        The recording lacks velocities.

    Examples
    --------
    >>> import contextsteer as cs
    >>> from contextsteer import metrics
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [0.0, 2.0]], targets=[[3.0, 0.0], [30.0, 2.0]])
    >>> recording = world.run(180, record="all")  # 3 s at 1 m/s: agent 0 arrives, agent 1 does not
    >>> metrics.mean_speeds(recording).round(2)
    array([0.99, 0.99])
    """
    velocities = _recorded(recording, "velocities", "mean_speeds")
    if recording.steps == 0:
        return np.full(len(recording.ids), np.nan)
    return np.linalg.norm(velocities, axis=2).mean(axis=0, dtype=np.float64)


def turn_rates(recording: Recording) -> np.ndarray:
    """``(n,)`` rad/s, how fast each agent's heading turned, averaged over the recorded
    steps: the mean of ``|change of heading| / time between steps``, each change taken the
    short way round. Weaving and jitter show here.

    Parameters
    ----------
    recording : Recording
        A run's recording, with headings recorded.

    Returns
    -------
    ndarray of float64, shape (n,)
        rad/s (NaN with fewer than two steps).

    Raises
    ------
    TypeError
        ``recording`` is not a :class:`~contextsteer.Recording`.
    ValueError
        The recording lacks headings.

    Examples
    --------
    >>> import contextsteer as cs
    >>> from contextsteer import metrics
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [0.0, 2.0]], targets=[[3.0, 0.0], [30.0, 2.0]])
    >>> recording = world.run(180, record="all")  # 3 s at 1 m/s: agent 0 arrives, agent 1 does not
    >>> metrics.turn_rates(recording).round(2)  # straight lines
    array([0., 0.])
    """
    headings = _recorded(recording, "headings", "turn_rates")
    if recording.steps < 2:
        return np.full(len(recording.ids), np.nan)
    change = np.diff(headings, axis=0).astype(np.float64)  # (T - 1, n) radians
    turned = np.abs((change + np.pi) % (2 * np.pi) - np.pi)  # the short way round, in [0, pi]
    return (turned / np.diff(recording.time)[:, None]).mean(axis=0)


def summary(recording: Recording, targets=None, *, within: float = 1.0) -> dict[str, float]:
    """One number per measure the recording allows, over all its agents:

    - ``arrived``: the share of agents that came within ``within`` metres of their target
      (with targets, ``(n, 2)`` metres, and positions);
    - ``mean_arrival_time``: seconds, the mean of :func:`arrival_times` over those agents
      (NaN when none arrived);
    - ``mean_path_length``: metres (positions), ``mean_speed``: m/s (velocities),
      ``mean_turn_rate``: rad/s (headings), means over the agents;
    - ``max_overlap``, ``max_penetration``: metres, the deepest over the run (overlap,
      penetration);
    - ``steps``: the steps the recording covers (:attr:`Recording.steps_run
      <contextsteer.Recording.steps_run>`), and ``complete``: False when the run was
      interrupted.

    A measure over no agents or no steps is NaN.

    Parameters
    ----------
    recording : Recording
        A run's recording.
    targets : array_like, shape (n, 2), optional
        Each agent's target point, metres (for ``arrived`` and ``mean_arrival_time``).
    within : float, default 1
        Metres.

    Returns
    -------
    dict of str to float
        The measures, by name.

    Raises
    ------
    TypeError
        ``recording`` is not a :class:`~contextsteer.Recording`.

    Examples
    --------
    >>> import contextsteer as cs
    >>> from contextsteer import metrics
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [0.0, 2.0]], targets=[[3.0, 0.0], [30.0, 2.0]])
    >>> recording = world.run(180, record="all")  # 3 s at 1 m/s: agent 0 arrives, agent 1 does not
    >>> result = metrics.summary(recording, world.targets)
    >>> result["arrived"], round(result["mean_arrival_time"], 2), result["steps"]
    (0.5, 2.02, 180)
    """
    _check(recording)
    out: dict[str, float] = {}
    if targets is not None and recording.positions is not None:
        times = arrival_times(recording, targets, within=within)
        arrived = ~np.isnan(times)
        out["arrived"] = float(arrived.mean()) if arrived.size and recording.steps else math.nan
        out["mean_arrival_time"] = float(times[arrived].mean()) if arrived.any() else math.nan
    if recording.positions is not None:
        out["mean_path_length"] = _mean(path_lengths(recording))
    if recording.velocities is not None:
        out["mean_speed"] = _mean(mean_speeds(recording))
    if recording.headings is not None:
        out["mean_turn_rate"] = _mean(turn_rates(recording))
    for name in ("overlap", "penetration"):
        array = getattr(recording, name)
        if array is not None:
            out[f"max_{name}"] = float(array.max()) if array.size else math.nan
    out["steps"] = recording.steps_run
    out["complete"] = recording.complete
    return out


def _mean(values: np.ndarray) -> float:
    """The mean, NaN for no values or NaN ones (without NumPy's empty-slice warning)."""
    return float(values.mean()) if values.size else math.nan

