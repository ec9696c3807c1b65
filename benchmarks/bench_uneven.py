"""The disc scene of bench_disc.py made uneven, in the ways a uniform neighbor grid
handles badly: agents far from the crowd, groups far apart, agents far larger than the
rest, and crowds spread thin along a road or round a ring.

First, a few agents far from the crowd: one that wandered off, or 1 in 256 of them
scattered around the disc, at growing distances. The neighbor grid covers the agents'
bounding box; these strays would stretch it, and its cells with it, so that every query
in the crowd reads thousands of agents. The grid leaves them in its border cells
instead, and the step should cost what it costs without them.

Then groups that cannot be left out: the agents split into two discs of half as many,
side by side at growing distances, and into 20 or 100 towns scattered over squares of
growing side. The grid cuts the plane along the empty gaps between them into regions,
each with cells of its own.

Then large agents among the crowd of radius 0.5 m (vehicles): 1 or 16 of them, of
radius 5 or 50 m. Queries sized by the largest radius would each read many times more
agents; the kernels size them by the crowd's and meet the large agents apart.

Last of all, the same density (70 m^2 an agent) along a road 30 m wide (along x, and at
45 degrees) and round a ring: shapes whose bounding box is mostly empty, with no empty
band across it to cut along. The grid fits its rows to the diagonal road, each row
holding only the columns its agents span; round a ring that would not serve, and the
cells grow.

    python benchmarks/bench_uneven.py [--agents 100000] [--steps 5]
"""

from __future__ import annotations

import argparse

import numpy as np

import contextsteer as cs
from bench_disc import DT, SENSE, SLOTS, banded, disc, make_world
from timing import machine_line, median_time


def with_strays(positions: np.ndarray, count: int, distance: float, seed: int = 1) -> np.ndarray:
    """positions with the last `count` agents moved `distance` metres from the centre, in
    random directions."""
    moved = positions.copy()
    angle = np.random.default_rng(seed).random(count) * 2 * np.pi
    moved[len(moved) - count:] = distance * np.column_stack([np.cos(angle), np.sin(angle)])
    return moved


def road(n: int, length: float, angle: float, seed: int = 2) -> np.ndarray:
    """n agents at random on a road `length` metres long, 70 m^2 each (so n * 70 / length
    metres wide), from the origin at `angle` radians from the x-axis; in bands, as disc()."""
    rng = np.random.default_rng(seed)
    along, across = rng.random(n) * length, (rng.random(n) - 0.5) * (n * 70 / length)
    direction = np.array([np.cos(angle), np.sin(angle)])
    normal = np.array([-direction[1], direction[0]])
    return banded(along[:, None] * direction + across[:, None] * normal)


def ring(n: int, radius: float, seed: int = 3) -> np.ndarray:
    """n agents at random on a ring of `radius` metres round the origin, 70 m^2 each; in
    bands, as disc()."""
    rng = np.random.default_rng(seed)
    angle = rng.random(n) * 2 * np.pi
    r = radius + (rng.random(n) - 0.5) * (n * 70 / (2 * np.pi * radius))
    return banded(np.column_stack([r * np.cos(angle), r * np.sin(angle)]))


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
    for distance in (1e4, 1e5, 1e6, 1e7):
        world = make_world(np.concatenate([half, half + np.float32([distance, 0])]))
        step = median_time(lambda w=world: w.step(DT), args.steps)
        print(f"{distance:>13.0e} {step * 1e3:>10.2f}")
    print("\ntowns: the agents in equal discs, their centres at random in a square")
    print(f"{'towns':>6} {'side (m)':>9} {'step (ms)':>10}")
    for towns, side in [(20, 5e3), (20, 5e4), (20, 5e5), (100, 5e4), (100, 5e5)]:
        centres = np.random.default_rng(0).random((towns, 2)) * side
        town = disc(n // towns)
        world = make_world(np.concatenate([town + np.float32(c) for c in centres]))
        step = median_time(lambda w=world: w.step(DT), args.steps)
        print(f"{towns:>6} {side:>9.0e} {step * 1e3:>10.2f}")
    print("\nlarge agents among the crowd (radius 0.5 m)")
    print(f"{'large':>6} {'radius (m)':>11} {'step (ms)':>10}")
    for count, radius in [(1, 5.0), (1, 50.0), (16, 5.0), (16, 50.0)]:
        radii = np.full(n, 0.5, np.float32)
        radii[np.linspace(0, n - 1, count).astype(int)] = radius  # spread over the disc's bands
        pipeline = cs.Pipeline([cs.Chase(), cs.Avoid(agents=True, world_obstacles=False, max_distance=SENSE)],
                               slots=SLOTS)
        world = cs.World(pipeline, crowd, targets=-crowd, max_speed=1.5, max_acceleration=3.0, radius=radii)
        step = median_time(lambda w=world: w.step(DT), args.steps)
        print(f"{count:>6} {radius:>11.0f} {step * 1e3:>10.2f}")
    print("\nthe crowd spread thin: 70 m^2 an agent along a road 30 m wide, or round a ring")
    print(f"{'shape':>28} {'step (ms)':>10}")
    length = n * 70 / 30
    shapes = [(f"road of {length / 1e3:.0f} km along x", road(n, length, 0.0)),
              (f"road of {length / 1e3:.0f} km at 45 degrees", road(n, length, np.pi / 4)),
              ("ring of radius 20 km", ring(n, 20e3)), ("ring of radius 80 km", ring(n, 80e3))]
    for name, positions in shapes:
        world = make_world(positions)
        step = median_time(lambda w=world: w.step(DT), args.steps)
        print(f"{name:>28} {step * 1e3:>10.2f}")


if __name__ == "__main__":
    main()
