"""The demo: a standard scene steered by a pipeline suited to it, drawn with one agent's maps.

``corridor`` (the default): agents chase a target through a corridor of pillars, avoiding
them. ``swap``, ``circle`` and ``crossing``: crowds meet, each agent arriving at its own
target with sideways interest and keeping right of the others. ``bottleneck``: a room
empties through its door along a navigation field. ``two_way_door``, ``four_way``,
``zigzag`` and ``u_trap``: crowds that meet in a door, at a crossing, in a narrow bendy
corridor and in front of a trap, each group along a navigation field to its goal.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

import numpy as np

from . import _validation as check
from . import classic, scenarios
from .behaviors import Anticipate, Arrive, Avoid, Chase, FollowField
from .contact import Contact
from .goals import Goals
from .pipeline import Pipeline
from .scenarios import Scenario
from .world import World


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


@dataclass(frozen=True)
class _Recipe:
    agents: int  # how many agents by default
    steps: int  # at most this many steps of DT by default
    radius: float  # of each agent, metres
    max_speed: float  # m/s
    max_acceleration: float  # m/s^2
    slots: int = 16  # of the context maps, by default


DT = 0.05  # seconds a step
_RECIPES = {
    "corridor": _Recipe(12, 1200, 0.4, 3.0, 6.0),
    "swap": _Recipe(100, 3000, 0.5, 1.5, 3.0),
    "circle": _Recipe(16, 1200, 0.3, 1.5, 3.0),
    "crossing": _Recipe(40, 1200, 0.3, 1.5, 3.0),
    # Finer directions: a neighbor covers the slots within half a slot's spacing of its
    # disc, and among the agents parked outside the door, 16 slots left an agent now and
    # then with two equal ways out, between which it dithered. Over seeds 0-23 every agent
    # arrived in 18 runs with 16 slots, in 23 with 24 (and in 20, one jammed, with 20).
    "bottleneck": _Recipe(50, 2400, 0.3, 1.4, 4.0, slots=24),
    # The crowd scenes of the arrival bar: steps are their time limits (150, 90, 60, 60 s).
    "two_way_door": _Recipe(200, 3000, 0.3, 1.4, 4.0),
    "four_way": _Recipe(200, 1800, 0.3, 1.4, 4.0),
    "zigzag": _Recipe(10, 1200, 0.3, 1.4, 4.0),
    "u_trap": _Recipe(20, 1200, 0.3, 1.4, 4.0),
}
SCENES = tuple(_RECIPES)


def _recipe(scene) -> _Recipe:
    if check.name("scene", scene) not in _RECIPES:
        raise ValueError(f"scene: expected one of {', '.join(repr(s) for s in SCENES)}, got {scene!r}")
    return _RECIPES[scene]


def time_limit(scene: str) -> float:
    """Seconds the scene's crowd has to arrive: the demo's steps for it times :data:`DT`."""
    return _recipe(scene).steps * DT


def _group_pipelines(geometry: Scenario, slots: int, *, clearance: float, cell: float = 0.25,
                     lanes: float = 2.0, make_way: float = 0.6, crowd: float = 0.0) -> tuple[Pipeline, ...]:
    """The recipe of the crowd scenes, one pipeline per group: FollowField to the group's
    goal (its own navigation field, ``clearance`` metres from the walls, keeping right by
    ``lanes`` metres: see :class:`~contextsteer.NavigationField`) and on from it straight to
    the agent's own target (``to_target``, ``sideways=0.5``), slowing down within 1 m of
    it (``slowing_radius=1``, not the default 3 m), Avoid of the walls within
    0.5 m over arcs of +-11.25 degrees at most (``wall_arc``: coarse maps keep the way
    along a narrow corridor open), and Anticipate of the agents within 3 m over 0.5 s, keeping right by
    0.3 rad, making way with ``make_way`` and taking 0.9 of the avoiding on itself (each
    agent expects the other to take a little: fewer over-reactions, fewer heading
    reversals); danger multiplies interest, so that the strength is the share of max
    speed that stays clear, and the choice leans toward the way the agent already walks
    when that way leads on (``hysteresis=1``: an agent in a jam, where every way is
    nearly shut, does not dither back and forth between the few that open). With
    ``crowd`` > 0 each field is re-marched every 0.5 s from the crowd (FollowField's
    ``crowd_density`` 0.5 ``crowd``, ``crowd_counterflow`` ``crowd``): a group's way bends
    round the other's flow."""
    return tuple(
        Pipeline([FollowField(geometry.navigation_field(group=g, cell=cell, clearance=clearance, keep_right=lanes),
                              sideways=0.5, to_target=True, slowing_radius=1.0, crowd_density=0.5 * crowd,
                              crowd_counterflow=crowd),
                  Avoid(max_distance=0.5, wall_arc=min(1.0, slots / 16)),
                  Anticipate(radius=3.0, horizon=0.5, keep_right=0.3, make_way=make_way, responsibility=0.9)],
                 slots=slots, select="blend", danger_mode="multiply", hysteresis=1.0)
        for g in range(geometry.group_count))


def _geometry(scene: str, count: int, seed: int, sizes: dict, **defaults) -> Scenario:
    """The scene's Scenario from its function in :mod:`contextsteer.scenarios`, with the
    demo's ``defaults`` and the caller's ``sizes`` (keyword arguments of that function)."""
    make = getattr(scenarios, scene)
    known = [p.name for p in inspect.signature(make).parameters.values()
             if p.kind is inspect.Parameter.KEYWORD_ONLY and p.name != "seed"]
    for name, value in sizes.items():
        if name not in known:
            takes = f"the sizes {', '.join(known)}" if known else "no sizes"
            raise TypeError(f"{name}: the scene {scene!r} takes {takes}, got {name}={value!r}")
    return make(count, seed=seed, **{**defaults, **sizes})


# Each crowd scene's recipe, in one place: its geometry -> its pipelines.
def _two_way_door(geometry: Scenario, slots: int):
    return _group_pipelines(geometry, slots, clearance=0.3, crowd=1.0)


def _four_way(geometry: Scenario, slots: int):
    return _group_pipelines(geometry, slots, clearance=0.0)


def _zigzag(geometry: Scenario, slots: int):
    # Cells of 0.1 m: the default corridor leaves a lane 0.4 m wide for the field within
    # 0.25 m of its walls. Single file, one way: no lanes to keep.
    return _group_pipelines(geometry, slots, clearance=0.25, cell=0.1, lanes=0.0, make_way=0.3)


def _u_trap(geometry: Scenario, slots: int):
    return _group_pipelines(geometry, slots, clearance=0.3)


_CROWD_SCENES = {"two_way_door": _two_way_door, "four_way": _four_way, "zigzag": _zigzag, "u_trap": _u_trap}
# The crowd scenes' goals: arrived agents step aside for those still coming, and a
# face-off that lasts 2 s is settled (see contextsteer.goals).
CROWD_GOALS = Goals(arrival="give_way", patience=2.0)
# The crowd scenes' contact stage: overlapping agents are pushed apart to within 10 um of
# touching (slop), and no body ends a step in a wall; contacts are not events (a dense
# crowd touches at every step).
CROWD_CONTACT = Contact(slop=1e-5, events=False)


def scene_setup(scene: str = "corridor", agents: int | None = None, *, slots: int | None = None,
                seed: int = 0, **sizes) -> tuple[Scenario, Pipeline | tuple[Pipeline, ...], dict]:
    """The scene named (with ``agents`` agents, or the demo's number for it, and the
    ``sizes`` given: keyword arguments of its function in :mod:`contextsteer.scenarios`,
    such as ``door=1.5`` for ``two_way_door``; a size not given is the demo's), the
    pipeline the demo steers it with (with ``slots`` slots, or the demo's number for the
    scene: 24 for the bottleneck, 16 for the others) and its agents'
    parameters (radius, max_speed, max_acceleration, and for the crowd scenes the world's
    ``goals``, :data:`CROWD_GOALS`, and ``contact``, :data:`CROWD_CONTACT`):
    ``scene.world(pipeline, **parameters)`` is the demo's world. For the crowd scenes of
    several goals (two_way_door, four_way, zigzag, u_trap) the pipeline is a tuple, one per
    group of :attr:`Scenario.groups` (zigzag and u_trap have one group).

    corridor: Chase of the shared target, Avoid of the pillars within 2.5 m. swap,
    circle (jittered by 0.5 m) and crossing: Arrive at each agent's own target with
    ``sideways=0.5``, Avoid of the agents within 2 m with ``keep_right=0.3``.
    bottleneck: FollowField to the field beyond the door (0.3 m of clearance), Arrive
    with ``sideways=0.5``, and Avoid of the agents within 1 m. two_way_door, four_way,
    zigzag and u_trap: per group, FollowField to the group's goal areas along a field that
    keeps right (not in the single-file zigzag) and on to each agent's own target, Avoid of
    the walls and Anticipate of the other agents (see ``_group_pipelines``).

    Raises ValueError for an unknown scene, and TypeError for a size the scene's function
    does not take, naming it and the sizes it takes.

    Examples
    --------
    >>> from contextsteer import demo
    >>> scene, pipelines, parameters = demo.scene_setup("zigzag", 6, slots=8, seed=1, bends=4, angle=60.0)
    >>> len(scene.starts), len(pipelines), pipelines[0].slots
    (6, 1, 8)
    """
    recipe = _recipe(scene)
    count = recipe.agents if agents is None else agents
    slots = recipe.slots if slots is None else slots
    parameters = {"radius": recipe.radius, "max_speed": recipe.max_speed, "max_acceleration": recipe.max_acceleration}
    if scene in _CROWD_SCENES:
        geometry = _geometry(scene, count, seed, sizes)
        return geometry, _CROWD_SCENES[scene](geometry, slots), {**parameters, "goals": CROWD_GOALS,
                                                                 "contact": CROWD_CONTACT}
    geometry = _geometry(scene, count, seed, sizes, **({"radius": 12.0, "jitter": 0.5} if scene == "circle" else {}))
    if scene == "corridor":
        behaviors = [Chase(geometry.target), Avoid(max_distance=2.5, world_obstacles=True)]
    elif scene == "bottleneck":
        behaviors = [FollowField(geometry.navigation_field(clearance=0.3)), Arrive(sideways=0.5),
                     Avoid(agents=True, max_distance=1.0)]
    else:
        behaviors = [Arrive(sideways=0.5), Avoid(agents=True, max_distance=2.0, keep_right=0.3)]
    return geometry, Pipeline(behaviors, slots=slots, select="blend"), parameters


# The classic recipe's weights: the avoidances outweigh the way (at most A each, the
# blend truncated to A), so that near a wall or an obstacle they win.
CLASSIC_WEIGHTS = {"way": 1.0, "arrive": 0.5, "walls": 3.0, "obstacles": 2.0, "separation": 1.0}


def classic_setup(scene: str = "corridor", agents: int | None = None, *, seed: int = 0,
                  **sizes) -> tuple[Scenario, classic.Steering | tuple[classic.Steering, ...], dict]:
    """The scene named, a classic steering for it and its agents' parameters, as
    :func:`scene_setup` gives them for context steering (``sizes`` as there): the same geometry and agents,
    and the same way to the goal, blended (weights :data:`CLASSIC_WEIGHTS`) with the
    classic avoidances.

    Per group: :func:`classic.FollowField` along the context recipe's navigation field
    where it has one (bottleneck and the crowd scenes), with :func:`classic.Arrive` at the
    agent's own target at half weight (Arrive alone elsewhere); :func:`classic.WallAvoidance`
    (horizon 0.5 s, margin 0.1 m), :func:`classic.ObstacleAvoidance` (horizon 1 s, margin
    0.1 m) and :func:`classic.Separation` (0.3 m). A tuple of steerings for the scenes of
    several groups, as :func:`scene_setup` gives a tuple of pipelines. The parameters
    hold no contact stage: the classic agents keep apart by their steering alone.
    """
    geometry, pipelines, parameters = scene_setup(scene, agents, seed=seed, **sizes)
    parameters = {name: value for name, value in parameters.items() if name != "contact"}
    w = CLASSIC_WEIGHTS
    steerings = []
    for pipeline in pipelines if isinstance(pipelines, tuple) else (pipelines,):
        fields = [b.field for b in pipeline.behaviors if isinstance(b, FollowField)]
        way = [classic.FollowField(fields[0], weight=w["way"]), classic.Arrive(weight=w["arrive"])] if fields \
            else [classic.Arrive(weight=w["way"])]
        steerings.append(classic.Steering([
            *way, classic.WallAvoidance(horizon=0.5, margin=0.1, weight=w["walls"]),
            classic.ObstacleAvoidance(horizon=1.0, margin=0.1, weight=w["obstacles"]),
            classic.Separation(radius=0.3, weight=w["separation"])]))
    return geometry, tuple(steerings) if isinstance(pipelines, tuple) else steerings[0], parameters


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
    steps = check.count("steps", _recipe(scene).steps if steps is None else steps, minimum=1)
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

    from .plotting import plot_context_maps, plot_obstacles, plot_segments, plot_trajectories, scene_legend

    geometry = run.scenario
    x0, y0, x1, y1 = geometry.bounds
    # The scene at its true proportions, 9 inches wide and from 3 to 7 high.
    height = min(max(9.0 * (y1 - y0) / (x1 - x0), 3.0), 7.0)
    fig = plt.figure(figsize=(13.0, height + 0.8), layout="constrained")
    grid = fig.add_gridspec(1, 2, width_ratios=(9.0, 3.5))
    ax = fig.add_subplot(grid[0, 0])
    plot_obstacles(geometry.obstacles, ax)
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
