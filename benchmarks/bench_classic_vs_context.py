"""Every public scene steered classically and by context steering, side by side: the
crowd measures of :func:`contextsteer.metrics.crowd_metrics`, the deepest reach into any
obstacle (pillars included) and the step time.

    python benchmarks/bench_classic_vs_context.py [--seeds 0 1 2] [--scenes corridor zigzag ...]

Context: the demo's recipe (:func:`contextsteer.demo.scene_setup`). Classic: the same
scene, agents and way to the goal with the classic avoidances
(:func:`contextsteer.demo.classic_setup`: FollowField or Arrive, WallAvoidance,
ObstacleAvoidance and Separation, blended). Both run the scene's time limit
(:func:`contextsteer.demo.time_limit`) in steps of ``contextsteer.demo.DT``; step time is
the whole ``World.step``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from contextsteer import metrics
from contextsteer.demo import DT, SCENES, classic_setup, scene_setup, time_limit
from timing import arrivals_by_seed, machine_line

SETUPS = {"classic": classic_setup, "context": scene_setup}


def run(scene: str, seed: int, steering: str, steps: int | None = None) -> dict:
    """One run's measures: :func:`metrics.scene_report`, ``obstacle_depth`` (metres, the
    deepest any agent reached into an obstacle, from the world's ``penetration``; 0 when
    clear) and ``step_ms``."""
    geometry, steerings, parameters = SETUPS[steering](scene, seed=seed)
    world = geometry.world(steerings, **parameters)
    steps = round(time_limit(scene) / DT) if steps is None else steps
    trajectory = np.empty((steps + 1, len(geometry.starts), 2))
    trajectory[0] = world.positions
    spent, depth = 0.0, 0.0
    for step in range(1, steps + 1):
        start = time.perf_counter()
        world.step(DT)
        spent += time.perf_counter() - start
        trajectory[step] = world.positions
        depth = max(depth, float(world.penetration.max(initial=0.0)))
    report = metrics.scene_report(geometry, trajectory, dt=DT, radius=parameters["radius"],
                                  max_speed=parameters["max_speed"])
    return {"steering": steering, "seed": seed, **report, "obstacle_depth": depth, "step_ms": 1000 * spent / steps}


def table(rows: list[dict]) -> pd.DataFrame:
    """One row per scene and steering: means over the seeds, the deepest overlap and
    obstacle reach over them, wall crossings summed, arrivals seed by seed."""
    runs = pd.DataFrame(rows)
    keys = ["scene", "steering"]
    means = runs.groupby(keys, sort=False).agg(
        arrived=("arrived", "mean"),
        time_to_95=("time_to_95", lambda s: s.mean(skipna=False)),
        wall_penetrations=("wall_penetrations", "sum"),
        deepest_wall=("deepest_wall_penetration", "max"),
        obstacle_depth=("obstacle_depth", "max"),
        deepest_overlap=("deepest_overlap", "max"),
        step_ms=("step_ms", "mean"),
    )
    return means.assign(arrived_by_seed=arrivals_by_seed(runs, keys)).reset_index()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--scenes", nargs="+", choices=SCENES, default=list(SCENES))
    parser.add_argument("--steerings", nargs="+", choices=tuple(SETUPS), default=list(SETUPS))
    args = parser.parse_args()
    rows = [run(scene, seed, steering) for scene in args.scenes for steering in args.steerings
            for seed in args.seeds]
    print(machine_line())
    print(f"seeds {' '.join(map(str, args.seeds))}; dt = {DT} s; wall_penetrations (agents whose disc reached "
          f"over 1 cm into a wall or crossed one) summed over the seeds, deepest_* the deepest, the rest means")
    with pd.option_context("display.width", 200, "display.max_columns", 20, "display.float_format", "{:.3g}".format):
        print(table(rows).to_string(index=False))


if __name__ == "__main__":
    main()
