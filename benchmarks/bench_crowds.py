"""Every public crowd scene run by contextsteer (the demo's recipe for it) and by ORCA
(RVO2, through pyrvo: ``pip install contextsteer[orca]``), side by side, over seeds: the
crowd measures of :func:`contextsteer.metrics.crowd_metrics` and the step time.

    python benchmarks/bench_crowds.py [--seeds 0 1 2] [--scenes two_way_door zigzag ...] [--slots 8]

Two scenes more, run by contextsteer alone with the public crowd steering at its defaults
(``cs.crowd_steering(scene, radius=0.3).world(...)``): ``first_world``, the README's first
world (100 agents swapping sides round a 2 m pillar, their random starts drawn with the
seed, 1.5 m/s, 3 m/s^2, 40 s in steps of 0.05 s; random starts may overlap, so its
deepest overlap is measured after the first step), and ``moving_crossing``
(:func:`contextsteer.moving_scenes.moving_crossing`: 60 agents crossed by a moving disc,
1.3 m/s, 3 m/s^2, 45 s in steps of 0.1 s), where ``agents_hit`` counts the agents the disc
ever overlapped by more than 1 mm (:func:`contextsteer.metrics.moving_contact`).

Both run the scene's own agents (radius, max speed) from the same starts to the same
targets, for the scene's time limit (:func:`contextsteer.demo.time_limit`), in steps of
``contextsteer.demo.DT``; contextsteer's agents also keep the recipe's max acceleration,
which ORCA has no notion of. Each run is measured over its whole time limit.

ORCA's agents. Neighbours within 5 m, at most 10 of them, a time horizon of 2 s for
agents and 0.5 s for walls (with 1 or 2 s for walls, ORCA's file in the zigzag wedges
into the first sharp bend and none gets through; 0.5 s is ORCA's best in the walled
scenes). The walls are ORCA obstacles: each segment a thin rectangle 2 cm
thick round it. Preferred velocity: the way contextsteer's pipeline is led, so that both
follow the same route. Where the agent's group has a navigation field (its pipeline's
FollowField) and the field has a direction at the agent, that direction at full speed;
elsewhere (inside the goal area, or in the scenes without a field) straight toward the
agent's own target with Arrive's ramp: speed 0 within 0.5 m, ``max_speed * d / 3 m``
within 3 m. Step time: contextsteer's whole ``World.step``; ORCA's ``do_step`` alone (the
preferred velocities, set from Python, are not counted), both as the process's CPU time
(one thread each); ``worst_over_median``, the worst step's time over the median step's
(the most over the seeds: how much a step hitches). The table after it gives each
scene's mean step time against ORCA's (contextsteer / ORCA: at most 1 is no slower).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import contextsteer as cs
from contextsteer import metrics, moving_scenes
from contextsteer.demo import DT, scene_setup, time_limit
from timing import arrivals_by_seed, machine_line

SCENES = ("two_way_door", "four_way", "zigzag", "u_trap", "swap", "circle", "crossing", "bottleneck")
OWN_SCENES = ("first_world", "moving_crossing")  # contextsteer alone, the public crowd steering at its defaults
ORCA_NEIGHBOR_DIST = 5.0  # metres
ORCA_MAX_NEIGHBORS = 10
ORCA_TIME_HORIZON = 2.0  # seconds, for agents
ORCA_TIME_HORIZON_OBST = 0.5  # seconds, for walls
WALL_THICKNESS = 0.02  # metres, of the rectangle ORCA gets for a wall segment
TARGET_RADIUS, SLOWING_RADIUS = 0.5, 3.0  # metres, Arrive's defaults


def run_contextsteer(scene: str, seed: int, slots: int | None = None) -> tuple[np.ndarray, float, float]:
    """``(T + 1, n, 2)`` positions of the demo's run, the mean step time in ms, and how
    much the worst step hitches: its time over the median step's. ``slots``: the crowd
    steering's (None: the scene's own)."""
    geometry, steering, parameters = scene_setup(scene, seed=seed, slots=slots)
    world = geometry.world(steering, **parameters)
    steps = round(time_limit(scene) / DT)
    trajectory = np.empty((steps + 1, len(geometry.starts), 2))
    trajectory[0] = world.positions
    spent = np.empty(steps)
    for step in range(1, steps + 1):
        start = time.process_time()
        world.step(DT)
        spent[step - 1] = time.process_time() - start
        trajectory[step] = world.positions
    return trajectory, 1000 * spent.mean(), spent.max() / np.median(spent)


def fields_of(geometry, steering) -> list:
    """Each group's navigation field (its pipeline's FollowField), None for a group without one."""
    pipelines = steering if isinstance(steering, tuple) else (steering,) * geometry.group_count
    fields = []
    for pipeline in pipelines:
        followed = [b.field for b in pipeline.behaviors if isinstance(b, cs.FollowField)]
        fields.append(followed[0] if followed else None)
    return fields


def _thin_rectangle(segment: np.ndarray) -> list[list[float]]:
    """The wall segment as a rectangle WALL_THICKNESS thick, counter-clockwise (as RVO2 wants)."""
    a, b = segment[:2], segment[2:]
    along = (b - a) / np.linalg.norm(b - a)
    side = np.array([-along[1], along[0]]) * WALL_THICKNESS / 2
    return [list(map(float, p)) for p in (a - side, b - side, b + side, a + side)]


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


def orca_simulator(geometry, parameters: dict):
    """An RVO2 simulator of the scene's walls (thin rectangles) and agents at their starts,
    with ORCA's settings above and the agents' radius and max speed from ``parameters``."""
    import pyrvo

    sim = pyrvo.RVOSimulator()
    sim.set_time_step(DT)
    sim.set_agent_defaults(ORCA_NEIGHBOR_DIST, ORCA_MAX_NEIGHBORS, ORCA_TIME_HORIZON, ORCA_TIME_HORIZON_OBST,
                           parameters["radius"], parameters["max_speed"])
    for segment in geometry.segments:
        sim.add_obstacle(_thin_rectangle(segment))
    sim.process_obstacles()
    for start in geometry.starts:
        sim.add_agent([float(start[0]), float(start[1])])
    return sim


def run_orca(scene: str, seed: int, slots: int | None = None) -> tuple[np.ndarray, float, float]:
    """``(T + 1, n, 2)`` positions of ORCA's run of the scene, the mean ``do_step`` time in
    ms, and its worst step over its median one; it follows the fields of the crowd
    steering of ``slots``."""
    geometry, steering, parameters = scene_setup(scene, seed=seed, slots=slots)
    fields = fields_of(geometry, steering)
    max_speed = parameters["max_speed"]
    sim = orca_simulator(geometry, parameters)
    n = len(geometry.starts)
    steps = round(time_limit(scene) / DT)
    trajectory = np.empty((steps + 1, n, 2))
    trajectory[0] = geometry.starts
    spent = np.empty(steps)
    for step in range(1, steps + 1):
        preferred = preferred_velocities(trajectory[step - 1], geometry.targets, geometry.groups, fields, max_speed)
        for i in range(n):
            sim.set_agent_pref_velocity(i, [float(preferred[i, 0]), float(preferred[i, 1])])
        start = time.process_time()
        sim.do_step()
        spent[step - 1] = time.process_time() - start
        trajectory[step] = [sim.get_agent_position(i).to_tuple() for i in range(n)]
    return trajectory, 1000 * spent.mean(), spent.max() / np.median(spent)


RUNNERS = {"contextsteer": run_contextsteer, "orca": run_orca}


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


def measure_own(scene: str, seed: int, slots: int | None = None) -> dict:
    """The public crowd steering's run of one of OWN_SCENES: the scene's report, the
    agents the moving bodies hit and the step time."""
    make, max_speed, max_acceleration, dt, limit = OWN[scene]
    geometry = make(seed)
    crowd = cs.crowd_steering(geometry, radius=OWN_RADIUS, **({} if slots is None else {"slots": slots}))
    world = crowd.world(max_speed=max_speed, max_acceleration=max_acceleration)
    steps = round(limit / dt)
    trajectory = np.empty((steps + 1, len(geometry.starts), 2))
    trajectory[0] = world.positions
    overlap = np.zeros((steps, len(geometry.starts)))
    spent = np.empty(steps)
    for step in range(1, steps + 1):
        start = time.process_time()
        world.step(dt)
        spent[step - 1] = time.process_time() - start
        trajectory[step] = world.positions
        if world.moving_count:
            overlap[step - 1] = world.moving_overlap()
    report = metrics.scene_report(geometry, trajectory, dt=dt, radius=OWN_RADIUS, max_speed=max_speed)
    # Random starts may overlap one another: the deepest overlap is the steering's, after the first step.
    report["deepest_overlap"] = metrics.scene_report(geometry, trajectory[1:], dt=dt, radius=OWN_RADIUS,
                                                     max_speed=max_speed)["deepest_overlap"]
    return {"simulator": "contextsteer", "seed": seed, **report, "scene": scene,
            "agents_hit": metrics.moving_contact(overlap)["agents_hit"], "step_ms": 1000 * spent.mean(),
            "worst_over_median": spent.max() / np.median(spent)}


def measure(scene: str, seed: int, simulator: str, slots: int | None = None) -> dict:
    if scene in OWN_SCENES:
        return measure_own(scene, seed, slots)
    trajectory, step_ms, worst_over_median = RUNNERS[simulator](scene, seed, slots)
    geometry, _, parameters = scene_setup(scene, seed=seed, slots=slots)
    report = metrics.scene_report(geometry, trajectory, dt=DT, radius=parameters["radius"],
                                  max_speed=parameters["max_speed"])
    return {"simulator": simulator, "seed": seed, **report, "step_ms": step_ms,
            "worst_over_median": worst_over_median}


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
            for simulator in (("contextsteer",) if scene in OWN_SCENES else args.simulators) for seed in args.seeds]
    print(machine_line())
    slots = args.slots or "each scene's own"
    print(f"seeds {' '.join(map(str, args.seeds))}; slots {slots}; dt = {DT} s (moving_crossing 0.1 s); "
          f"deepest_overlap is the "
          f"deepest over the seeds, "
          f"wall_penetrations their sum, the rest means")
    with pd.option_context("display.width", 200, "display.max_columns", 20, "display.float_format", "{:.3g}".format):
        print(table(rows).to_string(index=False))
        ratios = step_ratios(rows)
        if not ratios.empty:
            print("\nCPU time per step, contextsteer / ORCA (means over the seeds)")
            print(ratios.to_string(index=False))


if __name__ == "__main__":
    main()
