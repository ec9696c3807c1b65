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

One module per kind of measure: of a recording, of a trajectory, of walls, and of a
whole crowd run.
"""

from .crowd import crowd_metrics, scene_report
from .recorded import arrival_times, mean_speeds, path_lengths, summary, turn_rates
from .trajectories import (
           arrival_steps,
           deepest_overlap,
           heading_reversals,
           moving_contact,
           stalled_agents,
           time_to_share,
)
from .walls import wall_penetration

__all__ = ["arrival_steps", "arrival_times", "crowd_metrics", "deepest_overlap", "heading_reversals", "mean_speeds",
           "moving_contact", "path_lengths", "scene_report", "stalled_agents", "summary", "time_to_share", "turn_rates",
           "wall_penetration"]
