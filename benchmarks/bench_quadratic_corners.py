"""Scenes that once took time in the square of their size, timed as they grow.

    python benchmarks/bench_quadratic_corners.py [--cars 5000 10000 20000 40000]
        [--reference-up-to 10000] [--pile 4096 8192 16384 16385 100000 1000000]
        [--moving 4000 16000 64000] [--evaluate 4096 16384 16385 40000 1000000]

1. ``RacingLanes.lane_maps`` of cars spread at random over the 2.4 km oval of
   ``bench_racing.py`` (12 m wide, 7 lanes, lookahead 15 m, radius 0.8 m), beside the
   reference that gives each car every car near it in the grid (``by_grid=True``, the
   same maps), for as many cars as ``--reference-up-to``.
2. One world step (Chase + Avoid among the agents) with every agent at one point: up to
   ``World.step``'s limit of 16,384 agents in one cell of the neighbour grid it steps
   (time in the square of the agents, within that bound); beyond it the step is refused
   before anything moves, and the refusal is timed.
3. Moving circles all at one point (radius 0.5 m) added to a world in one call, then as
   many segments across that point, then one step of an agent 50 m away: the moving
   obstacles' columns and index are built once per call, in time near-linear in the bodies.
4. ``Pipeline([Avoid(agents=True)]).evaluate`` of agents all at one point: up to 16,384
   in one cell of the grid it builds, beyond that refused (ValueError) as a step refuses.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import contextsteer as cs
from timing import machine_line


def oval_track() -> cs.Track:
    t = np.linspace(0.0, 2 * np.pi, 4000, endpoint=False)
    return cs.Track(np.column_stack([500 * np.cos(t), 250 * np.sin(t)]), 6.0, closed=True)


def seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def lane_maps_rows(counts: list[int], reference_up_to: int) -> None:
    track = oval_track()
    lanes = cs.RacingLanes(track, lanes=7, lookahead=15.0)
    rng = np.random.default_rng(0)
    print("RacingLanes.lane_maps, cars spread over a 2.4 km oval")
    print(f"{'cars':>8} {'lane_maps (s)':>14} {'reference (s)':>14}")
    for n in counts:
        s, e = rng.uniform(0, track.length, n), rng.uniform(-5, 5, n)
        positions = np.array([track.point_at(si, ei) for si, ei in zip(s, e)], dtype=np.float32)
        fast = seconds(lambda p=positions: lanes.lane_maps(p, radius=0.8))
        radius = np.full(n, 0.8, np.float32)
        reference = (f"{seconds(lambda p=positions, r=radius: lanes._core.lane_maps(p, r, by_grid=True)):14.3f}"
                     if n <= reference_up_to else f"{'-':>14}")
        print(f"{n:8d} {fast:14.3f} {reference}")


def pile_rows(counts: list[int]) -> None:
    print("World.step, every agent at one point (Chase + Avoid among the agents)")
    print(f"{'agents':>8} {'step (s)':>10}  outcome")
    for n in counts:
        world = cs.World(cs.Pipeline([cs.Chase([5.0, 0.0]), cs.Avoid(agents=True)]), np.zeros((n, 2)))
        outcome = "stepped"
        start = time.perf_counter()
        try:
            world.step(0.05)
        except ValueError:
            outcome = "refused"
        print(f"{n:8d} {time.perf_counter() - start:10.3f}  {outcome}")


def moving_rows(counts: list[int]) -> None:
    print("Moving obstacles all at one point: circles added, then segments, then a step")
    print(f"{'bodies':>8} {'circles (s)':>12} {'segments (s)':>13} {'step (s)':>10}")
    for n in counts:
        world = cs.World(cs.Pipeline([cs.Seek([[60.0, 0.0]]), cs.Avoid()]), [[50.0, 0.0]])
        circles = seconds(lambda w=world, n=n: w.add_moving_circles(np.tile([0.0, 0.0, 0.5], (n, 1))))
        segments = seconds(lambda w=world, n=n: w.add_moving_segments(np.tile([-1.0, 0.0, 1.0, 0.0], (n, 1)),
                                                                      velocities=[0.1, 0.0]))
        step = seconds(lambda w=world: w.step(0.05))
        print(f"{n:8d} {circles:12.3f} {segments:13.3f} {step:10.3f}")


def evaluate_rows(counts: list[int]) -> None:
    print("Pipeline([Avoid(agents=True)]).evaluate, every agent at one point")
    print(f"{'agents':>8} {'evaluate (s)':>13}  outcome")
    pipeline = cs.Pipeline([cs.Avoid(agents=True)])
    for n in counts:
        positions = np.zeros((n, 2))
        outcome = "evaluated"
        start = time.perf_counter()
        try:
            pipeline.evaluate(positions)
        except ValueError:
            outcome = "refused"
        print(f"{n:8d} {time.perf_counter() - start:13.3f}  {outcome}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cars", type=int, nargs="+", default=[5_000, 10_000, 20_000, 40_000])
    parser.add_argument("--reference-up-to", type=int, default=10_000)
    parser.add_argument("--pile", type=int, nargs="+", default=[4_096, 8_192, 16_384, 16_385, 100_000, 1_000_000])
    parser.add_argument("--moving", type=int, nargs="+", default=[4_000, 16_000, 64_000])
    parser.add_argument("--evaluate", type=int, nargs="+", default=[4_096, 16_384, 16_385, 40_000, 1_000_000])
    args = parser.parse_args()
    print(machine_line())
    lane_maps_rows(args.cars, args.reference_up_to)
    pile_rows(args.pile)
    moving_rows(args.moving)
    evaluate_rows(args.evaluate)


if __name__ == "__main__":
    main()
