"""All the crowd measures of a trajectory in one row (:func:`crowd_metrics`), and of a run
of a scene (:func:`scene_report`)."""

from __future__ import annotations

import math

from ..._internal import validation as check
from .checks import targets_of, trajectory_of
from .trajectories import arrival_steps, deepest_overlap, heading_reversals, stalled_agents, time_to_share
from .walls import wall_penetration

# The unit of each measure of crowd_metrics, for tables and the command line's report.
UNITS = {"agents": "agents", "duration": "s", "arrived": "share of agents", "time_to_95": "s",
         "stalled_end": "agents", "stalled_ever": "agents", "reversals_per_agent_minute": "per agent and minute",
         "deepest_overlap": "m", "wall_penetrations": "agents", "deepest_wall_penetration": "m"}


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
    positions = trajectory_of(positions)
    n = positions.shape[1]
    targets = targets_of(targets, n)
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
    check.having("scene", scene, ("name", "targets", "segments"), "a contextsteer.scenarios.Scenario")
    return {"scene": scene.name, **crowd_metrics(positions, dt=dt, radius=radius, max_speed=max_speed,
                                                 targets=scene.targets, segments=scene.segments, within=within)}

