"""The disc scene of bench_disc.py with a few agents far from the crowd: one that wandered
off, or 1 in 256 of them scattered around the disc, at growing distances. The neighbour
grid covers the agents' bounding box; these strays would stretch it, and its cells with
it, so that every query in the crowd reads thousands of agents. The grid leaves them in
its border cells instead, and the step should cost what it costs without them.

Last, the limit of that: the agents split into two discs of half as many, side by side
at growing distances. Neither can be left out, and past some distance the cells grow.

    python benchmarks/bench_strays.py [--agents 100000] [--steps 5]
"""

from __future__ import annotations

import argparse

import numpy as np

from bench_disc import DT, disc, make_world
from timing import machine_line, median_time


def with_strays(positions: np.ndarray, count: int, distance: float, seed: int = 1) -> np.ndarray:
    """positions with the last `count` agents moved `distance` metres from the centre, in
    random directions."""
    moved = positions.copy()
    angle = np.random.default_rng(seed).random(count) * 2 * np.pi
    moved[len(moved) - count:] = distance * np.column_stack([np.cos(angle), np.sin(angle)])
    return moved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", type=int, default=100_000)
    parser.add_argument("--steps", type=int, default=5, help="timed steps per case (median reported)")
    args = parser.parse_args()
    n = args.agents
    print(f"disc scene of bench_disc.py, {n} agents, 1 thread; median of {args.steps} steps")
    print(machine_line())
    print(f"{'strays':>7} {'distance (m)':>13} {'step (ms)':>10}")
    crowd = disc(n)
    cases = [(0, 0.0)] + [(count, d) for count in (1, n // 256) for d in (1e4, 1e6, 1e8)]
    for count, distance in cases:
        world = make_world(with_strays(crowd, count, distance) if count else crowd)
        step = median_time(lambda w=world: w.step(DT), args.steps)
        print(f"{count:>7} {distance:>13.0e} {step * 1e3:>10.2f}")
    print(f"\ntwo discs of {n // 2} agents, centres apart by")
    print(f"{'distance (m)':>13} {'step (ms)':>10}")
    half = disc(n // 2)
    for distance in (1e4, 1e5, 1e6):
        world = make_world(np.concatenate([half, half + np.float32([distance, 0])]))
        step = median_time(lambda w=world: w.step(DT), args.steps)
        print(f"{distance:>13.0e} {step * 1e3:>10.2f}")


if __name__ == "__main__":
    main()
