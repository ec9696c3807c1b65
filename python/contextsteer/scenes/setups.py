"""The standard scenes with their crowd recipes: :func:`scene_setup` gives a scene, the
pipeline the demo steers it with and its agents' parameters; :func:`classic_setup` the
same scene steered classically. Both are :mod:`contextsteer.demo`'s too."""

from __future__ import annotations

import inspect

from ..model import classic
from ..model.pipeline import Pipeline
from ..recipes import crowd
from . import corridors, meeting, rooms
from .scenario import Scenario

BUILDERS = {name: getattr(module, name) for module, names in
            ((corridors, ("corridor", "zigzag", "u_trap")), (meeting, ("swap", "circle", "crossing", "four_way")),
             (rooms, ("bottleneck", "two_way_door"))) for name in names}



def _geometry(scene: str, count: int, seed: int, sizes: dict, **defaults) -> Scenario:
    """The scene's Scenario from its function in :mod:`contextsteer.scenarios`, with the
    demo's ``defaults`` and the caller's ``sizes`` (keyword arguments of that function)."""
    make = BUILDERS[scene]
    known = [p.name for p in inspect.signature(make).parameters.values()
             if p.kind is inspect.Parameter.KEYWORD_ONLY and p.name != "seed"]
    for name, value in sizes.items():
        if name not in known:
            takes = f"the sizes {', '.join(known)}" if known else "no sizes"
            raise TypeError(f"{name}: the scene {scene!r} takes {takes}, got {name}={value!r}")
    return make(count, seed=seed, **{**defaults, **sizes})



def scene_setup(scene: str = "corridor", agents: int | None = None, *, slots: int | None = None,
                seed: int = 0, **sizes) -> tuple[Scenario, Pipeline | tuple[Pipeline, ...], dict]:
    """The scene named (with ``agents`` agents, or the demo's number for it, and the
    ``sizes`` given: keyword arguments of its function in :mod:`contextsteer.scenarios`,
    such as ``door=1.5`` for ``two_way_door``; a size not given is the demo's), the
    pipeline the demo steers it with (with ``slots`` slots, or the demo's number for the
    scene: 24 for the bottleneck, 16 for the others) and its agents'
    parameters (radius, max_speed, max_acceleration, and for the crowd scenes the world's
    ``goals``, :data:`~contextsteer.demo.CROWD_GOALS`, and ``contact``, :data:`~contextsteer.demo.CROWD_CONTACT`):
    ``scene.world(pipeline, **parameters)`` is the demo's world. For the crowd scenes of
    several goals (two_way_door, four_way, zigzag, u_trap) the pipeline is a tuple, one per
    group of :attr:`Scenario.groups` (zigzag and u_trap have one group).

    corridor: Chase of the shared target, Avoid of the pillars within 2.5 m. swap,
    circle (jittered by 0.5 m) and crossing: Arrive at each agent's own target with
    ``sideways=0.5``, Avoid of the agents within 2 m with ``keep_right=0.3``.
    bottleneck: FollowField to the field beyond the door (0.3 m of clearance), Arrive
    with ``sideways=0.5``, and Avoid of the agents within 1 m. two_way_door, four_way,
    zigzag and u_trap: the public crowd steering at its defaults
    (:func:`~contextsteer.crowd_steering`, its :attr:`~contextsteer.CrowdSteering.pipelines`),
    one pipeline per group along the group's field to its goal areas and on to each
    agent's own target, with Avoid of the walls and Anticipate of the other agents.

    Raises ValueError for an unknown scene, and TypeError for a size the scene's function
    does not take, naming it and the sizes it takes.

    Examples
    --------
    >>> from contextsteer import demo
    >>> scene, pipelines, parameters = demo.scene_setup("zigzag", 6, slots=8, seed=1, bends=4, angle=60.0)
    >>> len(scene.starts), len(pipelines), pipelines[0].slots
    (6, 1, 8)
    """
    chosen = crowd.recipe(scene)
    count = chosen.agents if agents is None else agents
    slots = chosen.slots if slots is None else slots
    defaults = {"radius": 12.0, "jitter": 0.5} if scene == "circle" else {}
    geometry = _geometry(scene, count, seed, sizes, **defaults)
    steering, parameters = crowd.steering(scene, geometry, slots)
    return geometry, steering, parameters


def classic_setup(scene: str = "corridor", agents: int | None = None, *, seed: int = 0,
                  **sizes) -> tuple[Scenario, classic.Steering | tuple[classic.Steering, ...], dict]:
    """The scene named, a classic steering for it and its agents' parameters, as
    :func:`scene_setup` gives them for context steering (``sizes`` as there): the same geometry and agents,
    and the same way to the goal, blended (weights :data:`~contextsteer.demo.CLASSIC_WEIGHTS`) with the
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
    return geometry, crowd.classic_steering(pipelines), parameters
