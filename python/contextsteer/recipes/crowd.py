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
from ..model.behaviors import Arrive, Avoid, Chase, FollowField
from ..model.pipeline import Pipeline
from .crowd_steering import CROWD_CONTACT as CROWD_CONTACT  # the crowd scenes' contact stage
from .crowd_steering import CROWD_GOALS as CROWD_GOALS  # the crowd scenes' goals
from .crowd_steering import crowd_steering


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


# The crowd scenes: their steering is the public crowd steering
# (contextsteer.recipes.crowd_steering), built from each scene's geometry at its defaults.
CROWD_SCENES = ("two_way_door", "four_way", "zigzag", "u_trap")


def steering(scene: str, geometry, slots: int) -> tuple[Pipeline | tuple[Pipeline, ...], dict]:
    """The recipe of ``scene`` for its ``geometry``: its pipeline (a tuple, one per group, for
    the crowd scenes) of ``slots`` slots and its agents' parameters (see
    :func:`contextsteer.demo.scene_setup`, which describes each scene's)."""
    chosen = recipe(scene)
    parameters = {"radius": chosen.radius, "max_speed": chosen.max_speed, "max_acceleration": chosen.max_acceleration}
    if scene in CROWD_SCENES:
        crowd = crowd_steering(geometry, radius=chosen.radius, slots=slots)
        return crowd.pipelines, {**parameters, "goals": crowd.goals, "contact": crowd.contact}
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
