"""Times one world step (Chase + Avoid, 16 slots) in the C++ core against the same step
written in plain NumPy (contextsteer.reference), in the same run, and prints both. Both
decide, move, turn the headings, and measure penetration into the circles and overlap
between agents.

    python benchmarks/bench_world_step.py [--sizes 1000 10000 100000] [--repeats 20]

The scene: agents scattered over a 400 m x 400 m square (so density grows with n), 24
circle obstacles of radius 1-4 m avoided within 3 m of clearance, one chase target.
"""

from __future__ import annotations

import argparse

import numpy as np

import contextsteer as cs
from contextsteer import reference
from timing import machine_line, median_time

SLOTS = 16
DT = 0.05
AVOID_DISTANCE = 3.0


def scene(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    positions = rng.uniform(-200, 200, (n, 2)).astype(np.float32)
    circles = np.column_stack([rng.uniform(-200, 200, (24, 2)), rng.uniform(1, 4, 24)]).astype(np.float32)
    target = np.array([[250.0, 30.0]], np.float32)
    return positions, circles, target


def bench(n: int, repeats: int) -> tuple[float, float]:
    positions, circles, target = scene(n)
    pipeline = cs.Pipeline([cs.Chase(target), cs.Avoid(max_distance=AVOID_DISTANCE)], slots=SLOTS)
    world = cs.World(pipeline, positions, max_speed=2.0, max_acceleration=4.0, radius=0.5, circles=circles)
    core = median_time(lambda: world.step(DT), repeats)

    dirs = reference.slot_directions(SLOTS)
    state = {"p": positions.copy(), "v": np.zeros_like(positions), "h": np.zeros(n, np.float32)}
    radius, speed, accel = (np.full(n, x, np.float32) for x in (0.5, 2.0, 4.0))

    def numpy_step():
        state["p"], state["v"], state["h"], _, _ = reference.step(
            state["p"], state["v"], state["h"], radius=radius, max_speed=speed, max_acceleration=accel,
            targets=target, circles=circles, dirs=dirs, avoid_distance=AVOID_DISTANCE, dt=DT)

    plain = median_time(numpy_step, max(3, repeats // 5))
    return core, plain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    print(f"world step, Chase + Avoid (24 circles), {SLOTS} slots; median of {args.repeats} steps")
    print(machine_line())
    print(f"{'agents':>8} {'C++ (ms)':>10} {'NumPy (ms)':>11} {'NumPy / C++':>12}")
    for n in args.sizes:
        core, plain = bench(n, args.repeats)
        print(f"{n:>8} {core * 1e3:>10.3f} {plain * 1e3:>11.2f} {plain / core:>12.1f}")


if __name__ == "__main__":
    main()
