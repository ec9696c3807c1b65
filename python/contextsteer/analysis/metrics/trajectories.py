"""Crowd measures of a bare trajectory ``(T + 1, n, 2)``: arrivals and the time for a share
of the crowd, stalled agents, heading reversals, the deepest overlap, contact with moving
obstacles."""

from __future__ import annotations

import math

import numpy as np

from ..._internal import validation as check
from .checks import per_agent, targets_of, trajectory_of


def arrival_steps(positions, targets, *, within: float = 1.0) -> np.ndarray:
    """The first frame at which each agent was within ``within`` metres of its target.

    Parameters
    ----------
    positions : array_like, shape (T + 1, n, 2)
        The trajectory, metres, frame 0 the start.
    targets : array_like, shape (n, 2)
        Metres.
    within : float, default 1
        Metres.

    Returns
    -------
    ndarray of int, shape (n,)
        Frames (0 for one that started there), -1 for one that never was.

    Examples
    --------
    >>> from contextsteer import metrics
    >>> positions = [[[0.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]], [[2.0, 0.0], [0.0, 1.0]]]
    >>> metrics.arrival_steps(positions, [[2.0, 0.0], [5.0, 1.0]], within=0.5)
    array([ 2, -1])
    """
    positions = trajectory_of(positions)
    targets = targets_of(targets, positions.shape[1])
    within = check.number("within", within, above=0.0)
    there = np.linalg.norm(positions - targets, axis=2) <= within
    return np.where(there.any(axis=0), there.argmax(axis=0), -1)


def time_to_share(arrival, dt: float, share: float = 0.95) -> float:
    """Seconds until ``share`` of the agents had arrived, from :func:`arrival_steps`
    ``arrival`` and frames ``dt`` seconds apart: the arrival time of the
    ``ceil(share * n)``-th agent to arrive.

    Parameters
    ----------
    arrival : array_like of int, shape (n,)
        Arrival frames, -1 for none (:func:`arrival_steps`).
    dt : float
        Seconds between frames.
    share : float, default 0.95
        Share of the agents, in (0, 1].

    Returns
    -------
    float
        Seconds; NaN when fewer arrived (or there are none).

    Examples
    --------
    >>> from contextsteer import metrics
    >>> metrics.time_to_share([1, 3, -1, 2], dt=0.5, share=0.75)
    1.5
    """
    arrival = np.asarray(arrival)
    dt = check.number("dt", dt, above=0.0)
    share = check.number("share", share, above=0.0, maximum=1.0)
    needed = math.ceil(share * len(arrival) - 1e-9)
    arrived = np.sort(arrival[arrival >= 0])
    if len(arrival) == 0 or len(arrived) < needed:
        return math.nan
    return float(arrived[needed - 1] * dt)


def stalled_agents(positions, targets, dt: float, max_speed, *, within: float = 1.0, window: float = 3.0,
                   share: float = 0.05) -> np.ndarray:
    """``(T + 1 - w, n)`` bool, w = round(window / dt) frames: whether each agent was
    stalled over the ``window`` seconds that end at frame ``w``, ``w + 1``, ... ``T``:
    it moved (start to end of the window, straight) less than ``share`` of its
    ``max_speed`` (m/s, a number or ``(n,)``) times the window, while it stayed more than
    ``within`` metres from its target throughout. Net motion, so an agent that shakes in
    place or walks to and fro is stalled too.

    Parameters
    ----------
    positions : array_like, shape (T + 1, n, 2)
        The trajectory, metres, frame 0 the start.
    targets : array_like, shape (n, 2)
        Metres.
    dt : float
        Seconds between frames.
    max_speed : float or array_like, shape (n,)
        m/s.
    within : float, default 1
        Metres.
    window : float, default 3
        Seconds.
    share : float, default 0.05
        Share of ``max_speed`` times the window an agent must move, 0 to 1.

    Returns
    -------
    ndarray of bool, shape (T + 1 - w, n)
        No rows when the run is shorter than the window.

    Examples
    --------
    >>> from contextsteer import metrics
    >>> positions = [[[0.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]], [[2.0, 0.0], [0.0, 1.0]]]
    >>> metrics.stalled_agents(positions, [[2.0, 0.0], [5.0, 1.0]], dt=1.0, max_speed=1.0, window=2.0)
    array([[False,  True]])
    """
    positions = trajectory_of(positions)
    n = positions.shape[1]
    targets = targets_of(targets, n)
    dt = check.number("dt", dt, above=0.0)
    max_speed = per_agent("max_speed", max_speed, n)
    within = check.number("within", within, above=0.0)
    window = check.number("window", window, above=0.0)
    share = check.number("share", share, minimum=0.0, maximum=1.0)
    w = max(1, round(window / dt))
    if len(positions) <= w:
        return np.zeros((0, n), dtype=bool)
    moved = np.linalg.norm(positions[w:] - positions[:-w], axis=2)
    away = np.linalg.norm(positions - targets, axis=2) > within
    near_frames = np.concatenate([np.zeros((1, n)), np.cumsum(~away, axis=0)])  # frames within reach, so far
    away_throughout = (near_frames[w + 1:] - near_frames[:-w - 1]) == 0
    return (moved < share * max_speed * w * dt) & away_throughout


def heading_reversals(positions, dt: float, max_speed, *, angle: float = math.pi / 2,
                      share: float = 0.05) -> np.ndarray:
    """``(n,)`` how often each agent turned back: the steps (frame to frame) whose
    direction differs by more than ``angle`` radians from that of the agent's last step
    before them. Only steps longer than ``share`` of ``max_speed * dt`` count as moves;
    the steps in between are standing, so an agent that stops and walks on the way it
    came reverses once.

    Parameters
    ----------
    positions : array_like, shape (T + 1, n, 2)
        The trajectory, metres, frame 0 the start.
    dt : float
        Seconds between frames.
    max_speed : float or array_like, shape (n,)
        m/s.
    angle : float, default pi/2
        Radians, 0 to pi.
    share : float, default 0.05
        Share of ``max_speed * dt`` a step must exceed to be a move, 0 to 1.

    Returns
    -------
    ndarray of int64, shape (n,)
        Reversals per agent.

    Examples
    --------
    >>> from contextsteer import metrics
    >>> to_and_fro = [[[0.0, 0.0]], [[1.0, 0.0]], [[0.0, 0.0]], [[1.0, 0.0]]]
    >>> metrics.heading_reversals(to_and_fro, dt=1.0, max_speed=1.0)
    array([2])
    """
    positions = trajectory_of(positions)
    n = positions.shape[1]
    dt = check.number("dt", dt, above=0.0)
    max_speed = per_agent("max_speed", max_speed, n)
    angle = check.number("angle", angle, minimum=0.0, maximum=math.pi)
    share = check.number("share", share, minimum=0.0, maximum=1.0)
    steps = np.diff(positions, axis=0)  # (T, n, 2)
    if len(steps) < 2:
        return np.zeros(n, dtype=np.int64)
    lengths = np.linalg.norm(steps, axis=2)
    moving = lengths > share * max_speed * dt
    index = np.where(moving, np.arange(len(steps))[:, None], -1)
    last = np.maximum.accumulate(index, axis=0)
    before = np.concatenate([np.full((1, n), -1), last[:-1]])  # the last move before each step
    valid = moving & (before >= 0)
    previous = np.take_along_axis(steps, np.maximum(before, 0)[..., None], axis=0)
    dot = (steps * previous).sum(axis=2)
    cross = steps[..., 0] * previous[..., 1] - steps[..., 1] * previous[..., 0]
    turned = np.arctan2(np.abs(cross), dot) > angle  # the angle between the two, exact at right angles
    return (valid & turned).sum(axis=0)


def deepest_overlap(positions, radius) -> float:
    """Metres, the deepest any two agents' discs overlapped in any frame:
    ``max(r_i + r_j - |p_i - p_j|)``.

    Parameters
    ----------
    positions : array_like, shape (T + 1, n, 2)
        The trajectory, metres, frame 0 the start.
    radius : float or array_like, shape (n,)
        Metres.

    Returns
    -------
    float
        Metres, 0 when none touched.

    Examples
    --------
    >>> from contextsteer import metrics
    >>> positions = [[[0.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]]]
    >>> round(metrics.deepest_overlap(positions, 0.6), 3)
    0.2
    """
    positions = trajectory_of(positions)
    n = positions.shape[1]
    radius = per_agent("radius", radius, n)
    if n < 2:
        return 0.0
    order = np.argsort(positions[..., 0], axis=1, kind="stable")  # sweep along x, frame by frame
    xs = np.take_along_axis(positions[..., 0], order, axis=1)
    ys = np.take_along_axis(positions[..., 1], order, axis=1)
    rs = radius[order]
    reach = 2 * radius.max()
    deepest = 0.0
    for k in range(1, n):
        dx = xs[:, k:] - xs[:, :-k]
        near = dx < reach
        if not near.any():
            break
        overlap = (rs[:, k:] + rs[:, :-k])[near] - np.hypot(dx[near], (ys[:, k:] - ys[:, :-k])[near])
        deepest = max(deepest, float(overlap.max()))
    return deepest


def moving_contact(overlap, *, tolerance: float = 0.001) -> dict[str, float]:
    """How the moving obstacles met the agents, from ``overlap`` ``(T, n)``: each agent's
    overlap with them after each step, metres (``World.moving_overlap`` step by step).

    Parameters
    ----------
    overlap : array_like, shape (T, n)
        Metres.
    tolerance : float, default 0.001
        Metres.

    Returns
    -------
    dict
        agents_hit: how many agents ever overlapped one by more than ``tolerance`` metres;
        deepest_overlap: the deepest overlap, metres (0 when none touched).

    Raises
    ------
    ValueError
        For an overlap that is not ``(T, n)``, or a negative tolerance.

    Examples
    --------
    >>> from contextsteer import metrics
    >>> result = metrics.moving_contact([[0.0, 0.02], [0.0, 0.05]])
    >>> result["agents_hit"], round(result["deepest_overlap"], 3)
    (1.0, 0.05)
    """
    overlap = check.shaped("overlap", overlap, (None, None))
    tolerance = check.number("tolerance", tolerance, minimum=0.0)
    hit = (overlap > tolerance).any(axis=0) if len(overlap) else np.zeros(overlap.shape[1], dtype=bool)
    return {"agents_hit": float(hit.sum()), "deepest_overlap": float(overlap.max()) if overlap.size else 0.0}

