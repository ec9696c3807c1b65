"""How well a run went, measured from its :class:`~contextsteer.Recording`.

Per-agent measures come as ``(n,)`` arrays, one value per recorded agent (row);
:func:`summary` reduces them to one number each, a row of a parameter sweep
(:func:`contextsteer.sweep`). Each measure needs certain arrays recorded and says which
when they are missing. A recording's first row is the state before the first step (unless
its run left it out), so the measures see the whole run, its first step included.

The crowd measures (:func:`crowd_metrics`, :func:`scene_report` and the functions they
call) work on a bare trajectory instead, ``(T + 1, n, 2)`` positions in metres from the
start (frame 0) to the end, frame ``k`` at ``k * dt`` seconds, so that a run of any
simulator (ORCA's too) is measured the same way.

Longer than 500 lines: one function per measure, each with its numpydoc docstring and an
example that runs; they share the checks at the top.
"""

from __future__ import annotations

import math

import numpy as np

from . import _validation as check
from .recording import Recording


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


# --- crowd measures on trajectories ----------------------------------------------------


def _trajectory(positions) -> np.ndarray:
    array = np.asarray(positions, dtype=np.float64)
    if array.ndim != 3 or array.shape[2] != 2 or len(array) == 0:
        raise ValueError(f"positions: expected a trajectory of shape (T + 1, n, 2), got shape {array.shape}")
    if not np.isfinite(array).all():
        raise ValueError("positions: expected finite coordinates, got NaN or inf")
    return array


def _per_agent(name: str, value, n: int) -> np.ndarray:
    """A number or ``(n,)`` array, finite and >= 0, as ``(n,)`` float64."""
    array = np.asarray(value, dtype=np.float64)
    if array.ndim == 0:
        array = np.full(n, float(array))
    if array.shape != (n,):
        raise ValueError(f"{name}: expected a number or an array of shape ({n},), got shape {array.shape}")
    if not (np.isfinite(array) & (array >= 0)).all():
        raise ValueError(f"{name}: expected finite values >= 0")
    return array


def _targets(targets, n: int) -> np.ndarray:
    array = np.asarray(targets, dtype=np.float64)
    if array.shape != (n, 2) or not np.isfinite(array).all():
        raise ValueError(f"targets: expected finite points of shape ({n}, 2), got shape {array.shape}")
    return array


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
    positions = _trajectory(positions)
    targets = _targets(targets, positions.shape[1])
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
    positions = _trajectory(positions)
    n = positions.shape[1]
    targets = _targets(targets, n)
    dt = check.number("dt", dt, above=0.0)
    max_speed = _per_agent("max_speed", max_speed, n)
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
    positions = _trajectory(positions)
    n = positions.shape[1]
    dt = check.number("dt", dt, above=0.0)
    max_speed = _per_agent("max_speed", max_speed, n)
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
    positions = _trajectory(positions)
    n = positions.shape[1]
    radius = _per_agent("radius", radius, n)
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


def _walls(segments, polygons) -> tuple[np.ndarray, list[np.ndarray]]:
    """The walls checked, in float64 (the checks give float32, as the core holds them):
    every wall as a segment ``(k, 4)``, polygon edges included, and the polygons."""
    walls = [np.zeros((0, 4))]
    if segments is not None and len(check.segments("segments", segments)):
        walls.append(np.asarray(segments, dtype=np.float64).reshape(-1, 4))
    check.polygons("polygons", polygons)
    shapes = [np.asarray(p, dtype=np.float64) for p in polygons or ()]
    walls += [np.column_stack([p, np.roll(p, -1, axis=0)]) for p in shapes]
    return np.concatenate(walls), shapes


def _distance_to_segment(points: np.ndarray, segment: np.ndarray) -> np.ndarray:
    a, b = segment[:2], segment[2:]
    ab = b - a
    t = np.clip(((points - a) @ ab) / max(float(ab @ ab), 1e-300), 0.0, 1.0)
    return np.linalg.norm(points - (a + t[..., None] * ab), axis=-1)


def _crosses(p0: np.ndarray, p1: np.ndarray, segment: np.ndarray) -> np.ndarray:
    """Whether the moves p0 -> p1 cross ``segment`` (each strictly on both sides of the other)."""
    a, b = segment[:2], segment[2:]

    def side(o, u, v):
        return (u[..., 0] - o[..., 0]) * (v[..., 1] - o[..., 1]) - (u[..., 1] - o[..., 1]) * (v[..., 0] - o[..., 0])

    return (side(a, b, p0) * side(a, b, p1) < 0) & (side(p0, p1, a) * side(p0, p1, b) < 0)


def _inside(points: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Whether each point lies inside ``polygon`` (even-odd rule)."""
    inside = np.zeros(points.shape[:-1], dtype=bool)
    x, y = points[..., 0], points[..., 1]
    for (x0, y0), (x1, y1) in zip(polygon, np.roll(polygon, -1, axis=0)):
        straddles = (y0 > y) != (y1 > y)
        with np.errstate(divide="ignore", invalid="ignore"):
            crossing_x = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
        inside ^= straddles & (x < crossing_x)
    return inside


def wall_penetration(positions, radius, *, segments=None, polygons=None) -> np.ndarray:
    """``(T + 1, n)`` metres each agent's disc reached into a wall in each frame: its
    radius less its centre's distance to the nearest wall (segments ``(k, 4)``, polygon
    edges), plus that distance when the centre is inside a polygon; negative when clear.
    A centre that crossed a wall between two frames (through it, too fast to be seen in
    either) counts as reaching its whole radius in on the second.

    Parameters
    ----------
    positions : array_like, shape (T + 1, n, 2)
        The trajectory, metres, frame 0 the start.
    radius : float or array_like, shape (n,)
        Metres.
    segments : array_like, shape (k, 4), optional
        Walls, x0, y0, x1, y1 in metres.
    polygons : list of array_like of shape (m, 2), optional
        Polygon obstacles, vertices in metres.

    Returns
    -------
    ndarray of float64, shape (T + 1, n)
        Metres; negative when clear.

    Examples
    --------
    >>> from contextsteer import metrics
    >>> positions = [[[0.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]]]
    >>> metrics.wall_penetration(positions, 0.5, segments=[[-1.0, 1.2, 3.0, 1.2]]).round(2)
    array([[-0.7,  0.3],
           [-0.7,  0.3]])
    """
    positions = _trajectory(positions)
    radius = _per_agent("radius", radius, positions.shape[1])
    walls, shapes = _walls(segments, polygons)
    depth = np.full(positions.shape[:2], -np.inf)
    for wall in walls:
        depth = np.maximum(depth, radius - _distance_to_segment(positions, wall))
        crossed = _crosses(positions[:-1], positions[1:], wall)
        depth[1:][crossed] = np.maximum(depth[1:][crossed], np.broadcast_to(radius, crossed.shape)[crossed])
    for shape in shapes:
        distance = np.min([_distance_to_segment(positions, edge) for edge in np.column_stack(
            [shape, np.roll(shape, -1, axis=0)])], axis=0)
        inside = _inside(positions, shape)
        depth[inside] = np.maximum(depth[inside], (radius + distance)[inside])
    return depth


def crowd_metrics(positions, *, dt: float, radius, max_speed, targets, segments=None, polygons=None,
                  within: float = 1.0, wall_tolerance: float = 0.01) -> dict[str, float]:
    """The measures of a crowd run, one number each, from its trajectory ``(T + 1, n, 2)``
    (metres, frames ``dt`` seconds apart), its agents' ``radius`` (metres) and ``max_speed``
    (m/s), each a number or ``(n,)``, their ``targets`` ``(n, 2)`` and the walls
    (``segments`` ``(k, 4)``, ``polygons``: a list of ``(m, 2)`` vertex arrays):

    - ``agents``: n; ``duration``: seconds, T * dt;
    - ``arrived``: the share of agents that came within ``within`` metres of their target;
    - ``time_to_95``: seconds until 95% of them had (:func:`time_to_share`), NaN if never;
    - ``stalled_end``: agents stalled (:func:`stalled_agents`, 3 s windows, 5% of the
      max speed) over the last 3 s of the run; ``stalled_ever``: agents stalled over any
      3 s of it (both NaN for a run shorter than 3 s);
    - ``reversals_per_agent_minute``: :func:`heading_reversals` (more than 90 degrees),
      all agents' together, per agent and minute of the run (NaN for no steps);
    - ``deepest_overlap``: metres (:func:`deepest_overlap`);
    - ``wall_penetrations``: agents whose disc reached more than ``wall_tolerance``
      metres into a wall, or whose centre crossed one, in some frame;
      ``deepest_wall_penetration``: metres, the deepest reach (0 when clear; ``within``
      and the tolerance in metres).

    Parameters
    ----------
    positions : array_like, shape (T + 1, n, 2)
        The trajectory, metres, frame 0 the start.
    dt : float
        Seconds between frames.
    radius : float or array_like, shape (n,)
        Metres.
    max_speed : float or array_like, shape (n,)
        m/s.
    targets : array_like, shape (n, 2)
        Metres.
    segments : array_like, shape (k, 4), optional
        Walls, metres.
    polygons : list of array_like of shape (m, 2), optional
        Polygon obstacles, metres.
    within : float, default 1
        Metres.
    wall_tolerance : float, default 0.01
        Metres.

    Returns
    -------
    dict of str to float
        The measures, by name.

    Examples
    --------
    >>> from contextsteer import metrics
    >>> positions = [[[0.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]], [[2.0, 0.0], [0.0, 1.0]]]
    >>> result = metrics.crowd_metrics(positions, dt=1.0, radius=0.3, max_speed=1.0,
    ...                                targets=[[2.0, 0.0], [5.0, 1.0]])
    >>> result["arrived"], result["duration"], result["deepest_overlap"]
    (0.5, 2.0, 0.0)
    """
    positions = _trajectory(positions)
    n = positions.shape[1]
    targets = _targets(targets, n)
    wall_tolerance = check.number("wall_tolerance", wall_tolerance, minimum=0.0)
    arrival = arrival_steps(positions, targets, within=within)
    stalled = stalled_agents(positions, targets, dt, max_speed, within=within)
    reversals = heading_reversals(positions, dt, max_speed)
    minutes = n * (len(positions) - 1) * dt / 60.0
    depth = wall_penetration(positions, radius, segments=segments, polygons=polygons)
    deepest_wall = float(depth.max()) if depth.size else -math.inf
    return {
        "agents": float(n),
        "duration": (len(positions) - 1) * dt,
        "arrived": float((arrival >= 0).mean()) if n else math.nan,
        "time_to_95": time_to_share(arrival, dt, 0.95),
        "stalled_end": float(stalled[-1].sum()) if len(stalled) else math.nan,
        "stalled_ever": float(stalled.any(axis=0).sum()) if len(stalled) else math.nan,
        "reversals_per_agent_minute": float(reversals.sum() / minutes) if minutes > 0 else math.nan,
        "deepest_overlap": deepest_overlap(positions, radius),
        "wall_penetrations": float((depth > wall_tolerance).any(axis=0).sum()),
        "deepest_wall_penetration": max(0.0, deepest_wall),
    }


def scene_report(scene, positions, *, dt: float, radius, max_speed, within: float = 1.0) -> dict[str, float | str]:
    """:func:`crowd_metrics` of a run of ``scene`` (a :class:`~contextsteer.scenarios.Scenario`):
    its targets, and its walls (segments) as the walls; with ``scene``, the scene's name.

    Parameters
    ----------
    scene : Scenario
        The scene that ran.
    positions : array_like, shape (T + 1, n, 2)
        The trajectory, metres, frame 0 the start.
    dt : float
        Seconds between frames.
    radius : float or array_like, shape (n,)
        Metres.
    max_speed : float or array_like, shape (n,)
        m/s.
    within : float, default 1
        Metres.

    Returns
    -------
    dict
        ``scene`` (its name), then the measures of :func:`crowd_metrics`.

    Raises
    ------
    TypeError
        ``scene`` is not a :class:`~contextsteer.scenarios.Scenario`.

    Examples
    --------
    >>> import contextsteer as cs
    >>> from contextsteer import metrics
    >>> scene = cs.scenarios.corridor(agents=4)
    >>> world = scene.world(cs.Pipeline([cs.Seek(), cs.Avoid(agents=True)]))
    >>> run = world.run(60, include_start=True)
    >>> report = metrics.scene_report(scene, run.positions, dt=1 / 60, radius=0.5, max_speed=1.0)
    >>> report["scene"], report["agents"], report["duration"]
    ('corridor', 4.0, 1.0)
    """
    from .scenarios import Scenario

    if not isinstance(scene, Scenario):
        raise TypeError(f"scene: expected a contextsteer.scenarios.Scenario, got {type(scene).__name__}")
    return {"scene": scene.name, **crowd_metrics(positions, dt=dt, radius=radius, max_speed=max_speed,
                                                 targets=scene.targets, segments=scene.segments, within=within)}


__all__ = ["arrival_steps", "arrival_times", "crowd_metrics", "deepest_overlap", "heading_reversals", "mean_speeds",
           "moving_contact", "path_lengths", "scene_report", "stalled_agents", "summary", "time_to_share", "turn_rates",
           "wall_penetration"]
