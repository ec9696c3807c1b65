"""The crowd recipes: the steering each standard scene is shown with, the agents it
steers (radius, speed, acceleration, slots) and how long the crowd has to arrive.

A recipe takes the scene's geometry (a :class:`~contextsteer.Scenario`, read through its
fields and :meth:`~contextsteer.Scenario.navigation_field`) and gives its pipelines; the
scenes with their recipes are :func:`contextsteer.demo.scene_setup` and
:func:`contextsteer.demo.classic_setup`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._internal import validation as check
from ..model import classic
from ..model.behaviors import Anticipate, Arrive, Avoid, Chase, FollowField
from ..model.contact import Contact
from ..model.goals import Goals
from ..model.pipeline import Pipeline


@dataclass(frozen=True)
class Recipe:
    """What a scene's recipe sets besides its steering: its agents and how long it runs."""

    agents: int  # how many agents by default
    steps: int  # at most this many steps of DT by default
    radius: float  # of each agent, metres
    max_speed: float  # m/s
    max_acceleration: float  # m/s^2
    slots: int = 16  # of the context maps, by default


DT = 0.05  # seconds a step
RECIPES = {
    "corridor": Recipe(12, 1200, 0.4, 3.0, 6.0),
    "swap": Recipe(100, 3000, 0.5, 1.5, 3.0),
    "circle": Recipe(16, 1200, 0.3, 1.5, 3.0),
    "crossing": Recipe(40, 1200, 0.3, 1.5, 3.0),
    # Finer directions: a neighbor covers the slots within half a slot's spacing of its
    # disc, and among the agents parked outside the door, 16 slots left an agent now and
    # then with two equal ways out, between which it dithered. Over seeds 0-23 every agent
    # arrived in 18 runs with 16 slots, in 23 with 24 (and in 20, one jammed, with 20).
    "bottleneck": Recipe(50, 2400, 0.3, 1.4, 4.0, slots=24),
    # The crowd scenes of the arrival bar: steps are their time limits (150, 90, 60, 60 s).
    "two_way_door": Recipe(200, 3000, 0.3, 1.4, 4.0),
    "four_way": Recipe(200, 1800, 0.3, 1.4, 4.0),
    "zigzag": Recipe(10, 1200, 0.3, 1.4, 4.0),
    "u_trap": Recipe(20, 1200, 0.3, 1.4, 4.0),
}
SCENES = tuple(RECIPES)


def recipe(scene) -> Recipe:
    """The recipe of ``scene`` (one of :data:`SCENES`), else ValueError naming them."""
    if check.name("scene", scene) not in RECIPES:
        raise ValueError(f"scene: expected one of {', '.join(repr(s) for s in SCENES)}, got {scene!r}")
    return RECIPES[scene]


def time_limit(scene: str) -> float:
    """Seconds the scene's crowd has to arrive: the demo's steps for it times :data:`DT`."""
    return recipe(scene).steps * DT


def group_pipelines(geometry, slots: int, *, clearance: float, cell: float = 0.25,
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


# Each crowd scene's recipe, in one place: its geometry -> its pipelines.
def _two_way_door(geometry, slots: int):
    return group_pipelines(geometry, slots, clearance=0.3, crowd=1.0)


def _four_way(geometry, slots: int):
    return group_pipelines(geometry, slots, clearance=0.0)


def _zigzag(geometry, slots: int):
    # Cells of 0.1 m: the default corridor leaves a lane 0.4 m wide for the field within
    # 0.25 m of its walls. Single file, one way: no lanes to keep.
    return group_pipelines(geometry, slots, clearance=0.25, cell=0.1, lanes=0.0, make_way=0.3)


def _u_trap(geometry, slots: int):
    return group_pipelines(geometry, slots, clearance=0.3)


CROWD_SCENES = {"two_way_door": _two_way_door, "four_way": _four_way, "zigzag": _zigzag, "u_trap": _u_trap}
# The crowd scenes' goals: arrived agents step aside for those still coming, and a
# face-off that lasts 2 s is settled (see contextsteer.goals).
CROWD_GOALS = Goals(arrival="give_way", patience=2.0)
# The crowd scenes' contact stage: overlapping agents are pushed apart to within 10 um of
# touching (slop), and no body ends a step in a wall; contacts are not events (a dense
# crowd touches at every step).
CROWD_CONTACT = Contact(slop=1e-5, events=False)


def steering(scene: str, geometry, slots: int) -> tuple[Pipeline | tuple[Pipeline, ...], dict]:
    """The recipe of ``scene`` for its ``geometry``: its pipeline (a tuple, one per group, for
    the crowd scenes) of ``slots`` slots and its agents' parameters (see
    :func:`contextsteer.demo.scene_setup`, which describes each scene's)."""
    chosen = recipe(scene)
    parameters = {"radius": chosen.radius, "max_speed": chosen.max_speed, "max_acceleration": chosen.max_acceleration}
    if scene in CROWD_SCENES:
        return CROWD_SCENES[scene](geometry, slots), {**parameters, "goals": CROWD_GOALS, "contact": CROWD_CONTACT}
    if scene == "corridor":
        behaviors = [Chase(geometry.target), Avoid(max_distance=2.5, world_obstacles=True)]
    elif scene == "bottleneck":
        behaviors = [FollowField(geometry.navigation_field(clearance=0.3)), Arrive(sideways=0.5),
                     Avoid(agents=True, max_distance=1.0)]
    else:
        behaviors = [Arrive(sideways=0.5), Avoid(agents=True, max_distance=2.0, keep_right=0.3)]
    return Pipeline(behaviors, slots=slots, select="blend"), parameters


# The classic recipe's weights: the avoidances outweigh the way (at most A each, the
# blend truncated to A), so that near a wall or an obstacle they win.
CLASSIC_WEIGHTS = {"way": 1.0, "arrive": 0.5, "walls": 3.0, "obstacles": 2.0, "separation": 1.0}


def classic_steering(pipelines: Pipeline | tuple[Pipeline, ...]) -> classic.Steering | tuple[classic.Steering, ...]:
    """The classic counterpart of the context recipe ``pipelines`` (see
    :func:`contextsteer.demo.classic_setup`): per pipeline, the same way to the goal blended
    with the classic avoidances, weighted by :data:`CLASSIC_WEIGHTS`."""
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
    return tuple(steerings) if isinstance(pipelines, tuple) else steerings[0]
