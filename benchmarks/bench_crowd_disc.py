"""The disc scene of bench_disc.py steered as a crowd: each agent Arrives at its antipodal
point and Anticipates the agents within 3 m (danger multiplies interest), with the crowd
scenes' goals (arrived agents give way, face-offs settled) and contact stage
(contextsteer.demo.CROWD_GOALS, CROWD_CONTACT); beside it, the same step without contact
and the disc scene's own Chase + Avoid. Prints the median process CPU time of a step and
the stages of the last one (World.stage_times, wall time).

    python benchmarks/bench_crowd_disc.py [--agents 100000] [--steps 10] [--warmup 5] [--threads 1]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import contextsteer as cs
from bench_disc import DT, SLOTS, disc, make_world
from contextsteer.demo import CROWD_CONTACT, CROWD_GOALS
from timing import machine_line

SENSE = 3.0  # metres, Anticipate's radius


def crowd_world(positions: np.ndarray, threads: int, contact: bool) -> cs.World:
    pipeline = cs.Pipeline([cs.Arrive(), cs.Anticipate(radius=SENSE)], slots=SLOTS, danger_mode="multiply")
    return cs.World(pipeline, positions, targets=-positions, max_speed=1.5, max_acceleration=3.0, radius=0.5,
                    threads=threads, goals=CROWD_GOALS, contact=CROWD_CONTACT if contact else None)


def cpu_step_times(world: cs.World, steps: int, warmup: int) -> np.ndarray:
    """Process CPU seconds of each of ``steps`` steps after ``warmup`` untimed ones."""
    for _ in range(warmup):
        world.step(DT)
    spent = np.empty(steps)
    for k in range(steps):
        start = time.process_time()
        world.step(DT)
        spent[k] = time.process_time() - start
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", type=int, default=100_000)
    parser.add_argument("--steps", type=int, default=10, help="timed steps (median reported)")
    parser.add_argument("--warmup", type=int, default=5, help="untimed steps first")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    print(machine_line())
    print(f"disc scene, {args.agents} agents, {SLOTS} slots, {args.threads} thread(s); median CPU time of "
          f"{args.steps} steps after {args.warmup}")
    positions = disc(args.agents)
    worlds = {"Arrive + Anticipate, goals, contact": crowd_world(positions, args.threads, True),
              "Arrive + Anticipate, goals": crowd_world(positions, args.threads, False),
              "Chase + Avoid (bench_disc.py)": make_world(positions, args.threads)}
    for name, world in worlds.items():
        spent = cpu_step_times(world, args.steps, args.warmup)
        stages = ", ".join(f"{k} {v * 1e3:.2f}" for k, v in world.stage_times.items())
        print(f"{name:<36} {np.median(spent) * 1e3:8.2f} ms a step   stages (ms): {stages}")


if __name__ == "__main__":
    main()
