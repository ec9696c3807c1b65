"""Every public crowd scene run by contextsteer (the demo's recipe for it) and by ORCA
(RVO2, through pyrvo: ``pip install contextsteer[orca]``), side by side, over seeds: the
crowd measures of :func:`contextsteer.metrics.crowd_metrics` and the step time.

    python benchmarks/bench_crowds.py [--seeds 0 1 2] [--scenes two_way_door zigzag ...] [--slots 8]

Two scenes more, steered by contextsteer with the public crowd steering at its defaults
(``cs.crowd_steering(scene, radius=0.3).world(...)``), and by ORCA: ``first_world``, the
README's first world (100 agents swapping sides round a 2 m pillar, their random starts
drawn with the seed, 1.5 m/s, 3 m/s^2, 40 s in steps of 0.05 s; random starts may overlap,
so its deepest overlap is measured from the first second on), and ``moving_crossing``
(:func:`contextsteer.moving_scenes.moving_crossing`: 60 agents crossed by a moving disc,
1.3 m/s, 3 m/s^2, 45 s in steps of 0.1 s), where ``agents_hit`` counts the agents the disc,
along its path, ever overlapped by more than 1 mm (:func:`contextsteer.metrics.moving_contact`).

Both run the scene's own agents (radius, max speed) from the same starts to the same
targets, for the scene's time limit (:func:`contextsteer.demo.time_limit`), in steps of
the scene's dt (``contextsteer.demo.DT`` but in ``moving_crossing``); contextsteer's agents
also keep the recipe's max acceleration, which ORCA has no notion of. Each run is measured
over its whole time limit.

ORCA's agents. Neighbours within 5 m, at most 10 of them, a time horizon of 2 s for
agents and 0.5 s for walls (with 1 or 2 s for walls, ORCA's file in the zigzag wedges
into the first sharp bend and none gets through; 0.5 s is ORCA's best in the walled
scenes). The walls are ORCA obstacles: each segment a thin rectangle 2 cm thick round it,
each circle (the first world's pillar) a polygon of 32 sides tangent to it, so that an
agent clear of the polygon is clear of the circle. Preferred velocity: the way
contextsteer's pipeline is led, so that both follow the same route. Where the agent's
group has a navigation field (its pipeline's FollowField; the crowd steering's fields in
the two scenes above) and the field has a direction at the agent, that direction at full
speed; elsewhere (inside the goal area, or in the scenes without a field) straight toward
the agent's own target with Arrive's ramp: speed 0 within 0.5 m, ``max_speed * d / 3 m``
within 3 m.

ORCA has no moving obstacles: the moving crossing's disc is an ORCA agent of its radius
that sees no one (no neighbours) and whose velocity each step is its path's, so that it
moves exactly as contextsteer's disc does, giving way to no one. The agents see it as
one of them, at its velocity; ORCA, being reciprocal, has each agent take half of the
avoiding and count on the disc for the other half, which it never takes (an agent disc
that avoided too would leave its path, and the scene would no longer be the same).

Step time: contextsteer's whole ``World.step``; ORCA's ``do_step`` alone (the preferred
velocities, set from Python, are not counted), both as the process's CPU time (one
thread each); ``worst_over_median``, the worst step's time over the median step's (the
most over the seeds: how much a step hitches). The table after it gives each scene's
mean step time against ORCA's (contextsteer / ORCA: at most 1 is no slower).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

import contextsteer as cs
from contextsteer import metrics, moving_scenes
from contextsteer.demo import DT, scene_setup, time_limit
from timing import arrivals_by_seed, machine_line

SCENES = ("two_way_door", "four_way", "zigzag", "u_trap", "swap", "circle", "crossing", "bottleneck")
OWN_SCENES = ("first_world", "moving_crossing")  # steered by the public crowd steering at its defaults
ORCA_NEIGHBOR_DIST = 5.0  # metres
ORCA_MAX_NEIGHBORS = 10
ORCA_TIME_HORIZON = 2.0  # seconds, for agents
ORCA_TIME_HORIZON_OBST = 0.5  # seconds, for walls
WALL_THICKNESS = 0.02  # metres, of the rectangle ORCA gets for a wall segment
CIRCLE_SIDES = 32  # of the polygon ORCA gets for a circle, its sides tangent to the circle
TARGET_RADIUS, SLOWING_RADIUS = 0.5, 3.0  # metres, Arrive's defaults


def first_world(seed: int) -> cs.Scenario:
    """The README's first world: 100 agents from random places clear of a pillar of 2 m
    radius, each to the place opposite its start."""
    rng = np.random.default_rng(seed)
    points = rng.uniform(-10, 10, (200, 2))
    starts = points[np.hypot(*points.T) > 2.5][:100]
    return cs.Scenario("first world", starts, -starts, bounds=(-12, -12, 12, 12),
                       circles=np.array([[0.0, 0.0, 2.0]]))


# scene: (its Scenario of a seed, agents' max speed m/s, max acceleration m/s^2, dt s, time limit s)
OWN = {"first_world": (first_world, 1.5, 3.0, 0.05, 40.0),
       "moving_crossing": (lambda seed: moving_scenes.moving_crossing(60, seed=seed), 1.3, 3.0, 0.1, 45.0)}
OWN_RADIUS = 0.3  # metres
# Seconds: in OWN_SCENES the deepest overlap is measured from then on, random starts
# that overlap parted (by contextsteer's contact stage in a step, by ORCA in a few).
SETTLE = 1.0


@dataclass(frozen=True)
class Setup:
    """One seed of a scene as both simulators run it: ``world()`` is contextsteer's world
    at the start; agent i follows ``fields[groups[i]]`` (None: no field); ``discs`` the
    moving discs ``(steps + 1, m, 3)`` x, y, radius (metres) along their paths, from the start."""

    geometry: cs.Scenario
    world: Callable[[], cs.World]
    groups: np.ndarray
    fields: list
    radius: float  # metres, of every agent
    max_speed: float  # m/s
    dt: float  # seconds per step
    steps: int
    discs: np.ndarray


def fields_of(geometry, steering) -> list:
    """Each group's navigation field (its pipeline's FollowField), None for a group without one."""
    pipelines = steering if isinstance(steering, tuple) else (steering,) * geometry.group_count
    fields = []
    for pipeline in pipelines:
        followed = [b.field for b in pipeline.behaviors if isinstance(b, cs.FollowField)]
        fields.append(followed[0] if followed else None)
    return fields


def disc_paths(geometry, dt: float, steps: int) -> np.ndarray:
    """``(steps + 1, m, 3)`` the scene's moving discs along their paths, stepped by a world
    of no agents (as the scene's world moves them: nothing pushes a moving body)."""
    if any(body.kind != "circle" for body in geometry.moving):
        raise ValueError(f"{geometry.name}: bench_crowds takes moving circles only (ORCA's agents, agents_hit)")
    world = cs.World(cs.Pipeline([cs.Seek()]))
    moving_scenes.add_bodies(world, geometry.moving)
    radii = np.array([body.shape[2] for body in geometry.moving])
    discs = np.empty((steps + 1, len(radii), 3))
    for step in range(steps + 1):
        if step:
            world.step(dt)
        discs[step] = np.column_stack([world.moving_positions.reshape(-1, 2), radii])
    return discs


def recipe_setup(geometry, steering, parameters: dict, steps: int) -> Setup:
    """The setup of a scene steered by a recipe of ``contextsteer.demo`` (``scene_setup``'s
    three), for ``steps`` steps of ``contextsteer.demo.DT``."""
    return Setup(geometry, lambda: geometry.world(steering, **parameters), geometry.groups,
                 fields_of(geometry, steering), parameters["radius"], parameters["max_speed"], DT, steps,
                 disc_paths(geometry, DT, steps))


def setup_of(scene: str, seed: int, slots: int | None = None) -> Setup:
    """The scene's setup: the demo's recipe for a public scene, the public crowd steering
    at its defaults for one of OWN_SCENES. ``slots``: the crowd steering's (None: the scene's own)."""
    if scene not in OWN_SCENES:
        return recipe_setup(*scene_setup(scene, seed=seed, slots=slots), round(time_limit(scene) / DT))
    make, max_speed, max_acceleration, dt, limit = OWN[scene]
    geometry = make(seed)
    crowd = cs.crowd_steering(geometry, radius=OWN_RADIUS, **({} if slots is None else {"slots": slots}))
    steps = round(limit / dt)
    return Setup(geometry, lambda: crowd.world(max_speed=max_speed, max_acceleration=max_acceleration),
                 crowd.groups, list(crowd.fields), OWN_RADIUS, max_speed, dt, steps, disc_paths(geometry, dt, steps))


def timed_run(starts: np.ndarray, steps: int, advance: Callable[[], None], positions: Callable[[], object],
              prepare: Callable[[int, np.ndarray], None] = lambda step, positions: None
              ) -> tuple[np.ndarray, np.ndarray]:
    """``(steps + 1, n, 2)`` positions from ``starts`` and ``(steps,)`` seconds of process CPU
    time of each ``advance()`` (one step), ``prepare(step, positions)`` untimed before it."""
    trajectory = np.empty((steps + 1, len(starts), 2))
    trajectory[0] = starts
    spent = np.empty(steps)
    for step in range(1, steps + 1):
        prepare(step, trajectory[step - 1])
        start = time.process_time()
        advance()
        spent[step - 1] = time.process_time() - start
        trajectory[step] = positions()
    return trajectory, spent


def run_contextsteer(setup: Setup) -> tuple[np.ndarray, np.ndarray]:
    """Positions of contextsteer's run of the setup and the CPU time of each ``World.step``."""
    world = setup.world()
    return timed_run(world.positions, setup.steps, lambda: world.step(setup.dt), lambda: world.positions)


def _thin_rectangle(segment: np.ndarray) -> list[list[float]]:
    """The wall segment as a rectangle WALL_THICKNESS thick, counter-clockwise (as RVO2 wants)."""
    a, b = segment[:2], segment[2:]
    along = (b - a) / np.linalg.norm(b - a)
    side = np.array([-along[1], along[0]]) * WALL_THICKNESS / 2
    return [list(map(float, p)) for p in (a - side, b - side, b + side, a + side)]


def _circumscribed(circle: np.ndarray) -> list[list[float]]:
    """The circle as a polygon of CIRCLE_SIDES sides tangent to it (wholly outside it),
    counter-clockwise."""
    x, y, radius = circle
    angles = 2 * np.pi * np.arange(CIRCLE_SIDES) / CIRCLE_SIDES
    corner = radius / np.cos(np.pi / CIRCLE_SIDES)
    return [[float(x + corner * np.cos(a)), float(y + corner * np.sin(a))] for a in angles]


def preferred_velocities(positions, targets, groups, fields, max_speed) -> np.ndarray:
    """``(n, 2)`` m/s: along the group's field where it has a direction, else Arrive's
    ramp toward the own target (see the module's docstring)."""
    offset = targets - positions
    distance = np.linalg.norm(offset, axis=1)
    speed = np.where(distance <= TARGET_RADIUS, 0.0, max_speed * np.minimum(1.0, distance / SLOWING_RADIUS))
    velocity = offset / np.maximum(distance, 1e-9)[:, None] * speed[:, None]
    for group, field in enumerate(fields):
        if field is None:
            continue
        rows = np.flatnonzero(groups == group)
        direction = field.direction_at(positions[rows]).astype(np.float64)
        led = np.linalg.norm(direction, axis=1) > 0.5
        velocity[rows[led]] = direction[led] * max_speed
    return velocity


def path_velocities(setup: Setup) -> np.ndarray:
    """``(steps, m, 2)`` m/s: each moving disc's velocity along its path over each step."""
    return np.diff(setup.discs[:, :, :2], axis=0) / setup.dt


def orca_simulator(setup: Setup):
    """An RVO2 simulator of the scene's walls (thin rectangles) and circles (circumscribed
    polygons), its agents at their starts with ORCA's settings above, then its moving discs
    as agents that see no one (their max speed that of their fastest step)."""
    import pyrvo

    sim = pyrvo.RVOSimulator()
    sim.set_time_step(setup.dt)
    sim.set_agent_defaults(ORCA_NEIGHBOR_DIST, ORCA_MAX_NEIGHBORS, ORCA_TIME_HORIZON, ORCA_TIME_HORIZON_OBST,
                           setup.radius, setup.max_speed)
    for obstacle in [*map(_thin_rectangle, setup.geometry.segments), *map(_circumscribed, setup.geometry.circles)]:
        sim.add_obstacle(obstacle)
    sim.process_obstacles()
    for start in setup.geometry.starts:
        sim.add_agent([float(start[0]), float(start[1])])
    fastest = np.linalg.norm(path_velocities(setup), axis=2).max(axis=0, initial=0.0)
    for (x, y, radius), speed in zip(setup.discs[0], fastest):
        # A hair above the fastest step, so that RVO2 never clamps the path's velocity.
        sim.add_agent([float(x), float(y)], 0.0, 0, ORCA_TIME_HORIZON, ORCA_TIME_HORIZON_OBST, float(radius),
                      float(speed) * 1.001)
    return sim


def run_orca(setup: Setup) -> tuple[np.ndarray, np.ndarray]:
    """Positions of ORCA's run of the setup and the CPU time of each ``do_step``; the
    agents' preferred velocities follow the setup's fields, the discs' their paths."""
    sim = orca_simulator(setup)
    geometry, n = setup.geometry, len(setup.geometry.starts)
    discs = path_velocities(setup)

    def prepare(step: int, positions: np.ndarray) -> None:
        preferred = preferred_velocities(positions, geometry.targets, setup.groups, setup.fields, setup.max_speed)
        for i, velocity in enumerate([*preferred, *discs[step - 1]]):
            sim.set_agent_pref_velocity(i, [float(velocity[0]), float(velocity[1])])

    return timed_run(geometry.starts, setup.steps, sim.do_step,
                     lambda: [sim.get_agent_position(i).to_tuple() for i in range(n)], prepare)


RUNNERS = {"contextsteer": run_contextsteer, "orca": run_orca}


def disc_overlap(trajectory: np.ndarray, discs: np.ndarray, radius: float) -> np.ndarray:
    """``(T, n)`` metres each agent reaches into the moving discs after each step (0 when clear)."""
    centres, radii = discs[1:, None, :, :2], discs[1:, None, :, 2]
    distance = np.linalg.norm(trajectory[1:, :, None] - centres, axis=3)
    return np.clip(radius + radii - distance, 0.0, None).max(axis=2, initial=0.0)


def measure(scene: str, seed: int, simulator: str, slots: int | None = None) -> dict:
    """One run's row: the scene's report, the step time and, in OWN_SCENES, the agents the
    moving discs hit (their paths against the agents) and the deepest overlap from SETTLE on."""
    setup = setup_of(scene, seed, slots)
    trajectory, spent = RUNNERS[simulator](setup)

    def report(positions: np.ndarray) -> dict:
        return metrics.scene_report(setup.geometry, positions, dt=setup.dt, radius=setup.radius,
                                    max_speed=setup.max_speed)

    row = {"simulator": simulator, "seed": seed, **report(trajectory), "scene": scene,
           "step_ms": 1000 * spent.mean(), "worst_over_median": spent.max() / np.median(spent)}
    if scene in OWN_SCENES:
        row["deepest_overlap"] = report(trajectory[round(SETTLE / setup.dt):])["deepest_overlap"]
        row["agents_hit"] = metrics.moving_contact(disc_overlap(trajectory, setup.discs, setup.radius))["agents_hit"]
    return row


def table(rows: list[dict]) -> pd.DataFrame:
    """One row per scene and simulator: each measure's mean over the seeds (NaN when a
    seed has none, as time_to_95 when fewer than 95% arrived), arrivals seed by seed."""
    runs = pd.DataFrame(rows)
    if "agents_hit" not in runs:
        runs["agents_hit"] = np.nan
    keys = ["scene", "simulator"]
    means = runs.groupby(keys, sort=False).agg(
        arrived=("arrived", "mean"),
        time_to_95=("time_to_95", lambda s: s.mean(skipna=False)),
        stalled_end=("stalled_end", "mean"),
        stalled_ever=("stalled_ever", "mean"),
        reversals_per_min=("reversals_per_agent_minute", "mean"),
        deepest_overlap=("deepest_overlap", "max"),
        wall_penetrations=("wall_penetrations", "sum"),
        agents_hit=("agents_hit", "sum"),
        step_ms=("step_ms", "mean"),
        worst_over_median=("worst_over_median", "max"),
    )
    return means.assign(arrived_by_seed=arrivals_by_seed(runs, keys)).reset_index()


def step_ratios(rows: list[dict]) -> pd.DataFrame:
    """One row per scene that both simulators ran: each one's mean step time (ms) and
    contextsteer's over ORCA's."""
    runs = pd.DataFrame(rows)
    steps = runs.pivot_table(index="scene", columns="simulator", values="step_ms", aggfunc="mean", sort=False)
    if not {"contextsteer", "orca"} <= set(steps.columns):
        return pd.DataFrame()
    return pd.DataFrame({"scene": steps.index, "contextsteer_ms": steps["contextsteer"].to_numpy(),
                         "orca_ms": steps["orca"].to_numpy(),
                         "ratio": (steps["contextsteer"] / steps["orca"]).to_numpy()})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--scenes", nargs="+", choices=SCENES + OWN_SCENES, default=list(SCENES + OWN_SCENES))
    parser.add_argument("--simulators", nargs="+", choices=tuple(RUNNERS), default=list(RUNNERS))
    parser.add_argument("--slots", type=int, default=None,
                        help="slots of the crowd steering's maps (default: each scene's own, 16)")
    args = parser.parse_args()
    rows = [measure(scene, seed, simulator, args.slots) for scene in args.scenes
            for simulator in args.simulators for seed in args.seeds]
    print(machine_line())
    slots = args.slots or "each scene's own"
    print(f"seeds {' '.join(map(str, args.seeds))}; slots {slots}; dt = {DT} s (moving_crossing 0.1 s); "
          f"deepest_overlap is the deepest over the seeds, wall_penetrations and "
          f"agents_hit their sums, the rest means")
    with pd.option_context("display.width", 200, "display.max_columns", 20, "display.float_format", "{:.3g}".format):
        print(table(rows).to_string(index=False))
        ratios = step_ratios(rows)
        if not ratios.empty:
            print("\nCPU time per step, contextsteer / ORCA (means over the seeds)")
            print(ratios.to_string(index=False))


if __name__ == "__main__":
    main()
