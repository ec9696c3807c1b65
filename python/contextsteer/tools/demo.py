"""The demo: a standard scene steered by a pipeline suited to it, drawn with one agent's maps.

``corridor`` (the default): agents chase a target through a corridor of pillars, avoiding
them. ``swap``, ``circle`` and ``crossing``: crowds meet, each agent arriving at its own
target with sideways interest and keeping right of the others. ``bottleneck``: a room
empties through its door along a navigation field. ``two_way_door``, ``four_way``,
``zigzag`` and ``u_trap``: crowds that meet in a door, at a crossing, in a narrow bendy
corridor and in front of a trap, each group along a navigation field to its goal.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._internal import validation as check
from ..model.world import World
from ..recipes.crowd import CLASSIC_WEIGHTS as CLASSIC_WEIGHTS  # the classic recipe's weights
from ..recipes.crowd import CROWD_CONTACT as CROWD_CONTACT  # the crowd scenes' contact stage
from ..recipes.crowd import CROWD_GOALS as CROWD_GOALS  # the crowd scenes' goals
from ..recipes.crowd import DT, recipe
from ..recipes.crowd import SCENES as SCENES  # the scenes the demo runs
from ..recipes.crowd import time_limit as time_limit  # seconds a scene's crowd has
from ..scenes.scenario import Scenario
from ..scenes.setups import classic_setup as classic_setup  # a scene steered classically
from ..scenes.setups import scene_setup


@dataclass(frozen=True)
class MapSnapshot:
    """One agent's maps and decision at one step: ``(S,)`` maps, ``(2,)`` direction."""

    agent: int
    step: int
    interest: np.ndarray
    danger: np.ndarray
    final: np.ndarray
    direction: np.ndarray
    strength: float


@dataclass(frozen=True)
class SceneRun:
    """The outcome of :func:`run_scene`.

    trajectories: ``(T + 1, n, 2)`` positions from the start to the last step, metres.
    arrival_step: ``(n,)`` the first step at which each agent was within the arrival
        radius of its target, -1 for an agent that never was.
    snapshot: the watched agent's maps at the step where it avoided the most: where the
        danger took the most from its best interest (the peak of the interest map less the
        final map there), before it arrived; the first step when it never avoided.
    """

    scenario: Scenario
    trajectories: np.ndarray
    arrival_step: np.ndarray
    snapshot: MapSnapshot
    dt: float
    slots: int



def run_scene(scene: str = "corridor", agents: int | None = None, *, steps: int | None = None,
              slots: int | None = None, seed: int = 0, arrive_radius: float = 1.0, watch: int = 0) -> SceneRun:
    """Run a standard scene (one of :data:`SCENES`) until every agent has arrived or
    ``steps`` steps of :data:`DT` seconds have passed.

    agents: how many agents (None: the demo's number for the scene); steps: None for
    the scene's own, enough for every agent; slots: None for the scene's own (see
    :func:`scene_setup`); arrive_radius: metres from its target that count as arrived;
    watch: the agent whose maps are kept for plotting.
    """
    geometry, pipeline, parameters = scene_setup(scene, agents, slots=slots, seed=seed)
    steps = check.count("steps", recipe(scene).steps if steps is None else steps, minimum=1)
    arrive_radius = check.number("arrive_radius", arrive_radius, minimum=0.0)
    watch = check.count("watch", watch)
    n = len(geometry.starts)
    if watch >= n:
        raise IndexError(f"watch: expected an agent index below the {n} agents, got {watch}")
    world = geometry.world(pipeline, **parameters)
    return _run(world, geometry, steps, world.slots, arrive_radius, watch)


def _run(world: World, geometry: Scenario, steps: int, slots: int, arrive_radius: float, watch: int) -> SceneRun:
    trajectory = [world.positions.copy()]
    arrival = np.full(len(geometry.starts), -1)
    best_avoided, snapshot = 0.0, None  # the first step takes a snapshot, a step that avoided more replaces it
    for step in range(1, steps + 1):
        world.step(DT)
        positions = world.positions
        trajectory.append(positions.copy())
        reached = (np.linalg.norm(positions - geometry.targets, axis=1) <= arrive_radius) & (arrival < 0)
        arrival[reached] = step
        interest, final = world.interest[watch], world.final[watch]
        peak = int(np.argmax(interest))
        avoided = float(interest[peak] - final[peak])   # what the danger took from the best way
        if snapshot is None or (arrival[watch] < 0 and avoided > best_avoided):
            best_avoided = max(best_avoided, avoided)
            snapshot = MapSnapshot(watch, step, world.interest[watch].copy(), world.danger[watch].copy(),
                                   world.final[watch].copy(), world.direction[watch].copy(),
                                   float(world.strength[watch]))
        if (arrival >= 0).all():
            break
    assert snapshot is not None  # steps >= 1
    return SceneRun(geometry, np.stack(trajectory), arrival, snapshot, DT, slots)


def _shares_a_target(geometry: Scenario) -> bool:
    return bool((geometry.targets == geometry.targets[0]).all())


def draw_run(run: SceneRun):
    """A figure: the scene with trajectories (coloured by group, or by the way each agent
    travels when the scene has one group), starts, goals and obstacles, and the watched
    agent's maps as a polar plot at the moment it avoided the most (masked slots shaded)."""
    import matplotlib.pyplot as plt

    from ..analysis.plotting import plot_context_maps, plot_obstacles, plot_segments, plot_trajectories, scene_legend

    geometry = run.scenario
    x0, y0, x1, y1 = geometry.bounds
    # The scene at its true proportions, 9 inches wide and from 3 to 7 high.
    height = min(max(9.0 * (y1 - y0) / (x1 - x0), 3.0), 7.0)
    fig = plt.figure(figsize=(13.0, height + 0.8), layout="constrained")
    grid = fig.add_gridspec(1, 2, width_ratios=(9.0, 3.5))
    ax = fig.add_subplot(grid[0, 0])
    plot_obstacles(geometry.circles, ax)
    plot_segments(geometry.segments, ax)
    groups, names = _travel_groups(geometry)
    shared = _shares_a_target(geometry)
    plot_trajectories(run.trajectories, ax, groups=groups, group_names=names, legend=False,
                      targets=None if shared else geometry.targets)
    if shared:
        ax.plot(*geometry.target, marker="*", color="gold", markeredgecolor="black", markersize=16, label="goal")
    snap = run.snapshot
    ax.plot(*run.trajectories[snap.step, snap.agent], "o", color="tab:red", markeredgecolor="black", markersize=9,
            label=f"agent {snap.agent}, shown right")
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal")
    ax.set_title(f"{geometry.name}: {_arrivals(run)}")
    scene_legend(ax, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    polar = fig.add_subplot(grid[0, 1], projection="polar")
    plot_context_maps({"interest": snap.interest, "danger": snap.danger, "final": snap.final}, polar,
                      direction=snap.direction, strength=snap.strength,
                      masked=snap.final < np.maximum(snap.interest, 0) - 1e-12)
    # Padded past the 90-degree label, the legend under the plot: the layout then keeps
    # both clear of the circle and inside the figure.
    polar.set_title(f"agent {snap.agent} at {snap.step * run.dt:.1f} s ({run.slots} slots)", fontsize="small",
                    pad=16)
    polar.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, fontsize="small")
    return fig


_COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east")


def _travel_groups(geometry: Scenario) -> tuple[np.ndarray | None, list[str] | None]:
    """Groups to colour the trajectories by: the scene's own when it has several, else
    the compass point each agent travels toward (none when they all go the same way)."""
    way = geometry.targets - geometry.starts
    sector = np.round(np.arctan2(way[:, 1], way[:, 0]) / (np.pi / 4)).astype(int) % 8
    if geometry.group_count > 1:   # named by the way most of each group goes
        ways = [_COMPASS[np.bincount(sector[geometry.groups == g]).argmax()] for g in range(geometry.group_count)]
        return geometry.groups, [f"group {g}, going {ways[g]}" for g in range(geometry.group_count)]
    used, counts = np.unique(sector, return_counts=True)
    # Colours for streams: two to four ways, each of at least a sixth of the agents (not
    # a crowd spreading from a door, nor a circle).
    if not 2 <= len(used) <= 4 or counts.min() < len(sector) / 6:
        return None, None
    return np.searchsorted(used, sector), [f"going {_COMPASS[k]}" for k in used]


def _arrivals(run: SceneRun) -> str:
    goal = "the target" if _shares_a_target(run.scenario) else "their targets"
    return f"{int((run.arrival_step >= 0).sum())} of {len(run.arrival_step)} agents reached {goal}"


def summary(run: SceneRun) -> str:
    """How many agents arrived and after how many steps, as printed by the demo."""
    arrived = run.arrival_step[run.arrival_step >= 0]
    text = _arrivals(run)
    if len(arrived):
        text += (f"; first after {arrived.min()} steps, last after {arrived.max()} steps"
                 f" ({arrived.max() * run.dt:.1f} s at dt = {run.dt} s)")
    return text
