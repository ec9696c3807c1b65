"""Public scenes with moving obstacles, steered by the public crowd steering, and a runner
that measures how the agents fared with the moving bodies.

| scene | what it tests |
| --- | --- |
| :func:`moving_crossing` | a flow walking east while a disc crosses it north and south, again and again |
| :func:`sliding_door` | a crowd passing a doorway whose panel slides open and shut |

:func:`moving_scene_setup` gives a scene with its recommended pipeline and agent
parameters; :func:`run_moving_scene` runs it and measures arrivals, the agents the moving
bodies hit and the deepest overlap with them (:func:`~contextsteer.metrics.moving_contact`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._internal import validation as check
from .._internal.scene_shapes import scatter
from ..analysis.metrics import moving_contact
from ..model.pipeline import Pipeline
from ..recipes.crowd_steering import crowd_steering
from .moving_bodies import MovingBody, add_bodies
from .scenario import MAX_LENGTH, Scenario, agent_count, scene_length, scene_rng

DT = 0.1  # seconds per step of run_moving_scene
STEPS = 1000  # steps of run_moving_scene at most, and of the scenes' files
AGENTS = {"radius": 0.3, "max_speed": 1.3, "max_acceleration": 3.0}  # the scenes' agents



def moving_crossing(agents: int = 60, *, speed: float = 0.8, radius: float = 1.0, seed: int = 0) -> Scenario:
    """A flow crossed by a moving disc: the agents start in a block 16 m deep and 6 m wide
    (at random places of a grid 1.2 m apart) west of x = -6 and walk east, each to a place
    of its own between x = 6 and 38 (the front of the block farthest), while a disc of
    ``radius`` metres crosses their way along x = 0, from y = -12 to 12 and back again, at
    ``speed`` m/s.

    Parameters
    ----------
    agents : int, default 60
        How many agents.
    speed : float, default 0.8
        m/s of the disc.
    radius : float, default 1
        Metres, the disc's radius.
    seed : int, default 0
        Of the random placement.

    Returns
    -------
    Scenario
        The scene.

    Examples
    --------
    >>> from contextsteer.moving_scenes import moving_crossing
    >>> moving_crossing(agents=6)
    Scenario('moving_crossing': 6 agents, 0 circles, 0 walls, 1 moving obstacle, bounds=(-24, -14, 40, 14))
    """
    agents = agent_count(agents, 1)
    speed = check.number("speed", speed, above=0.0, maximum=MAX_LENGTH)
    radius = scene_length("radius", radius)
    rng = scene_rng(seed)
    starts = scatter(agents, (-22.0, -3.0, -6.0, 3.0), 1.2, rng, "a block of 16 x 6 m")
    targets = np.column_stack([2 * starts[:, 0] + 50, starts[:, 1]])
    disc = MovingBody("circle", np.array([0.0, -12.0, radius]), waypoints=np.array([[0.0, 12.0], [0.0, -12.0]]),
                      speed=speed)
    return Scenario("moving_crossing", starts, targets, (-24.0, -13.0 - radius, 40.0, 13.0 + radius), moving=(disc,))


def sliding_door(agents: int = 40, *, door: float = 2.0, speed: float = 0.5, seed: int = 0) -> Scenario:
    """A crowd passes a doorway ``door`` metres wide in a wall across a corridor 12 m wide
    (x = 0), whose panel (a wall as wide as the doorway) slides open, 2 m on into the wall
    north of it, and shut again, back and forth at ``speed`` m/s (the doorway wholly
    open for 4 / ``speed`` seconds of every (4 + 2 ``door``) / ``speed``). The agents start at random
    places of a grid 1 m apart west of the wall and each heads for a place of its own,
    2 m apart, east of it.

    Parameters
    ----------
    agents : int, default 40
        How many agents.
    door : float, default 2
        Metres, the doorway's width.
    speed : float, default 0.5
        m/s of the panel.
    seed : int, default 0
        Of the random placement.

    Returns
    -------
    Scenario
        The scene.

    Examples
    --------
    >>> from contextsteer.moving_scenes import sliding_door
    >>> sliding_door(agents=6)
    Scenario('sliding_door': 6 agents, 0 circles, 4 walls, 1 goal area, 1 moving obstacle, ...)
    """
    agents = agent_count(agents, 1)
    door = scene_length("door", door)
    speed = check.number("speed", speed, above=0.0, maximum=MAX_LENGTH)
    rng = scene_rng(seed)
    half = door / 2
    depth = max(4.0, agents / 10.0)  # room for the agents at 1 m apart, 10 to a row
    starts = scatter(agents, (-3.0 - depth, -5.0, -3.0, 5.0), 1.0, rng, "the room west of the door")
    targets = scatter(agents, (4.0, -5.0, 4.0 + depth * 4, 5.0), 2.0, rng, "the room east of the door")
    length = 6.0 + depth * 4
    segments = np.array([[-length, -6.0, length, -6.0], [-length, 6.0, length, 6.0],
                         [0.0, -6.0, 0.0, -half], [0.0, half, 0.0, 6.0]])
    panel = MovingBody("segment", np.array([0.0, -half, 0.0, half]), waypoints=np.array([[0.0, door + 2], [0.0, 0.0]]),
                       speed=speed)
    goal = np.array([[2.0, -6.0, length, 6.0]])
    return Scenario("sliding_door", starts, targets, (-length, -6.5, length, 6.5), segments=segments,
                    goal_areas=goal, moving=(panel,))


MOVING_SCENES = ("moving_crossing", "sliding_door")


def moving_scene_setup(scene: str = "moving_crossing", agents: int | None = None, *, seed: int = 0):
    """The scene named (one of :data:`MOVING_SCENES`), its recommended pipeline and its
    agents' parameters: ``scenario.world(pipeline, **parameters)`` is the world.

    The pipeline is the public crowd steering of the scene at its defaults
    (:func:`~contextsteer.crowd_steering`, its :attr:`~contextsteer.CrowdSteering.pipeline`,
    with its groups, goals and contact stage in the parameters): navigation fields round
    the static obstacles, Avoid of the obstacles within 0.5 m (the moving ones where they
    will be at the step's end) and Anticipate of the agents and the moving bodies; the
    contact stage keeps bodies apart. Agents of radius 0.3 m, 1.3 m/s, 3 m/s^2
    (:data:`AGENTS`).

    Parameters
    ----------
    scene : str
        One of :data:`MOVING_SCENES`.
    agents : int, optional
        How many agents (the scene's default when None).
    seed : int, default 0
        Of the random placement.

    Returns
    -------
    tuple
        ``(scenario, pipeline, parameters)``.

    Raises
    ------
    ValueError
        For an unknown scene, naming the known ones.

    Examples
    --------
    >>> from contextsteer.moving_scenes import moving_scene_setup
    >>> scenario, pipeline, parameters = moving_scene_setup("sliding_door", 10)
    >>> pipeline.slots, sorted(parameters)
    (16, ['contact', 'goals', 'groups', 'max_acceleration', 'max_speed', 'radius'])
    >>> len(scenario.world(pipeline, **parameters))
    10
    """
    scene = check.name("scene", scene)
    if scene not in MOVING_SCENES:
        raise ValueError(f"scene: expected one of {', '.join(repr(s) for s in MOVING_SCENES)}, got {scene!r}")
    count = {"moving_crossing": 60, "sliding_door": 40}[scene] if agents is None else agents
    geometry = moving_crossing(count, seed=seed) if scene == "moving_crossing" else sliding_door(count, seed=seed)
    crowd = crowd_steering(geometry, radius=AGENTS["radius"])
    pipeline: Pipeline = crowd.pipeline
    return geometry, pipeline, {**crowd.world_parameters, **AGENTS}


@dataclass(frozen=True)
class MovingSceneRun:
    """A run of :func:`run_moving_scene`: the agents' ``trajectories`` ``(T + 1, n, 2)``
    and the moving bodies' ``moving_positions`` ``(T + 1, m, 2)`` and ``moving_angles``
    ``(T + 1, m)`` from the start, each agent's overlap with the moving bodies after each
    step ``overlap`` ``(T, n)`` metres, the step each agent arrived at (-1 if it did not),
    the bodies' outlines at each step (``moving_outlines``, as
    :meth:`World.moving_shapes <contextsteer.World.moving_shapes>` gives them, for
    :func:`~contextsteer.plotting.animate`) and the metrics (:attr:`metrics`).

    Parameters
    ----------
    scenario : Scenario
        The scene that ran.
    trajectories : ndarray, shape (T + 1, n, 2)
        The agents' positions from the start, metres.
    moving_positions : ndarray, shape (T + 1, m, 2)
        The moving bodies' positions, metres.
    moving_angles : ndarray, shape (T + 1, m)
        Their angles, radians.
    overlap : ndarray, shape (T, n)
        Each agent's overlap with the moving bodies after each step, metres.
    arrival_step : ndarray of int, shape (n,)
        The step each agent arrived at, -1 if it did not.
    dt : float
        Seconds per step.
    moving_outlines : tuple
        The bodies' outlines at each step.

    Examples
    --------
    >>> from contextsteer.moving_scenes import run_moving_scene
    >>> run = run_moving_scene("moving_crossing", 4, steps=50)
    >>> run.trajectories.shape, run.overlap.shape, sorted(run.metrics)
    ((51, 4, 2), (50, 4), ['agents_hit', 'arrived', 'deepest_overlap', 'steps'])
    """

    scenario: Scenario
    trajectories: np.ndarray
    moving_positions: np.ndarray
    moving_angles: np.ndarray
    overlap: np.ndarray
    arrival_step: np.ndarray
    dt: float
    moving_outlines: tuple = ()

    @property
    def metrics(self) -> dict[str, float]:
        """arrived (share of the agents), agents_hit, deepest_overlap (metres), steps."""
        return {"arrived": float((self.arrival_step >= 0).mean()), **moving_contact(self.overlap),
                "steps": float(len(self.overlap))}


def run_moving_scene(scene: str = "moving_crossing", agents: int | None = None, *, steps: int = STEPS, seed: int = 0,
                     arrive_radius: float = 1.0, threads: int = 1) -> MovingSceneRun:
    """Run a scene of :data:`MOVING_SCENES` with its recommended pipeline
    (:func:`moving_scene_setup`) in steps of :data:`DT` seconds until every agent has come
    within ``arrive_radius`` metres of its target, or ``steps`` steps.

    Parameters
    ----------
    scene : str, default 'moving_crossing'
        One of :data:`MOVING_SCENES`.
    agents : int, optional
        How many agents (the scene's default when None).
    steps : int, default 1000
        Steps at most.
    seed : int, default 0
        Of the random placement.
    arrive_radius : float, default 1
        Metres.
    threads : int, default 1
        The world's threads.

    Returns
    -------
    MovingSceneRun
        The trajectories, the bodies' poses, the overlaps and the metrics.

    Raises
    ------
    ValueError, TypeError
        For an unknown scene or bad counts, naming the argument.

    Examples
    --------
    >>> from contextsteer.moving_scenes import run_moving_scene
    >>> run = run_moving_scene("sliding_door", 4, steps=20)
    >>> run.moving_positions.shape
    (21, 1, 2)
    """
    geometry, pipeline, parameters = moving_scene_setup(scene, agents, seed=seed)
    steps = check.count("steps", steps, minimum=1)
    arrive_radius = check.number("arrive_radius", arrive_radius, minimum=0.0)
    world = geometry.world(pipeline, threads=threads, **parameters)
    trajectory, poses, angles, overlap = [world.positions.copy()], [world.moving_positions.copy()], [
        world.moving_angles.copy()], []
    arrival = np.full(len(geometry.starts), -1)
    for step in range(1, steps + 1):
        world.step(DT)
        trajectory.append(world.positions.copy())
        poses.append(world.moving_positions.copy())
        angles.append(world.moving_angles.copy())
        overlap.append(world.moving_overlap())
        reached = (np.linalg.norm(world.positions - geometry.targets, axis=1) <= arrive_radius) & (arrival < 0)
        arrival[reached] = step
        if (arrival >= 0).all():
            break
    outlines = tuple(world.moving_shapes(p, a) for p, a in zip(poses, angles))
    return MovingSceneRun(geometry, np.stack(trajectory), np.stack(poses), np.stack(angles), np.stack(overlap),
                          arrival, DT, outlines)


__all__ = ["MovingBody", "MovingSceneRun", "add_bodies", "moving_crossing", "moving_scene_setup",
           "run_moving_scene", "sliding_door"]
