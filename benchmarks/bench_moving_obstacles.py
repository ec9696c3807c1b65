"""The disc scene (bench_disc.py: n agents filling a disc head for their antipodal
points, Chase + Avoid of the agents within 15 m, 16 slots) with and without moving
obstacles: 1,000 discs of 0.5 m spread over the scene, moving at up to 1 m/s, a fifth of
them along paths of 4 waypoints. Steps of the worlds alternate, so that both see the
same machine load; the medians are printed side by side.

    python benchmarks/bench_moving_obstacles.py [--agents 100000] [--obstacles 1000] [--steps 10] [--threads 1]

Three worlds: the disc scene as it is; the same with the moving obstacles (the disc
scene's pipeline does not avoid obstacles: the cost of moving them, keeping their index
and measuring the agents' penetration into them); and the same again with Avoid
sensing the obstacles (world_obstacles=True), whose agents avoid the moving discs.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import contextsteer as cs
from bench_disc import DT, SENSE, SLOTS, disc
from timing import machine_line


def make_world(positions, threads: int, sense_obstacles: bool) -> cs.World:
    avoid = cs.Avoid(agents=True, world_obstacles=sense_obstacles, max_distance=SENSE)
    pipeline = cs.Pipeline([cs.Chase(), avoid], slots=SLOTS)
    return cs.World(pipeline, positions, targets=-positions, max_speed=1.5, max_acceleration=3.0, radius=0.5,
                    threads=threads)


def add_obstacles(world: cs.World, count: int, extent: float, seed: int = 1) -> None:
    rng = np.random.default_rng(seed)
    r, a = extent * np.sqrt(rng.random(count)), rng.random(count) * 2 * np.pi
    circles = np.column_stack([r * np.cos(a), r * np.sin(a), np.full(count, 0.5)])
    world.add_moving_circles(circles, rng.uniform(-0.7, 0.7, (count, 2)))
    on_paths = np.arange(count // 5)
    waypoints = circles[on_paths, None, :2] + rng.uniform(-20, 20, (len(on_paths), 4, 2))
    world.set_obstacle_path(on_paths, waypoints, speed=1.0, mode="loop")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", type=int, default=100_000)
    parser.add_argument("--obstacles", type=int, default=1_000)
    parser.add_argument("--steps", type=int, default=10, help="timed steps of each world (median reported)")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    positions = disc(args.agents)
    extent = float(np.sqrt(70 * args.agents / np.pi))
    worlds = {"disc scene": make_world(positions, args.threads, False),
              f"+ {args.obstacles} moving": make_world(positions, args.threads, False),
              f"+ {args.obstacles} moving, avoided": make_world(positions, args.threads, True)}
    for world in list(worlds.values())[1:]:
        add_obstacles(world, args.obstacles, extent)
    times = {name: [] for name in worlds}
    for world in worlds.values():
        world.step(DT)  # warm-up: grids and scratch
    for _ in range(args.steps):
        for name, world in worlds.items():
            start = time.perf_counter()
            world.step(DT)
            times[name].append(time.perf_counter() - start)
    print(f"disc scene, {args.agents} agents, {SLOTS} slots, {args.threads} thread(s); "
          f"median of {args.steps} alternating steps")
    print(machine_line())
    base = statistics.median(times["disc scene"])
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"{name:>30}: {median * 1e3:8.2f} ms  ({median / base - 1:+.1%})")


if __name__ == "__main__":
    main()
