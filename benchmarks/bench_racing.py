"""Times racing cars on a long track: a world step of RacingLanes + Avoid, and locating
points on the whole track (on the track, and anywhere in its bounding box), for tracks
of more and more centreline points.

    python benchmarks/bench_racing.py [--points 400 4000 40000] [--cars 200] [--repeats 20]

The track: an oval of 1,000 m x 500 m (about 2.4 km round), 12 m wide, its centreline
cut into the given number of points. The cars start spread round it, 0.8 m in radius,
in pairs side by side, or (the second column) as at a race's start, pairs 8 m apart;
each step (dt 1/30 s) every car locates itself on the track (its last place kept,
sought within the window ahead) and reads where the cars within lookahead of it are.
"""

from __future__ import annotations

import argparse

import numpy as np

import contextsteer as cs
from timing import machine_line, median_time


def oval(points: int) -> np.ndarray:
    t = np.linspace(0.0, 2 * np.pi, points, endpoint=False)
    return np.column_stack([500 * np.cos(t), 250 * np.sin(t)]).astype(np.float32)


def world_of(points: int, cars: int, start_grid: bool = False) -> cs.World:
    """Cars in pairs side by side, spread round the track, or at a race's start: pairs
    8 m apart, each car within the lookahead of several others."""
    track = cs.Track(oval(points), 6.0, closed=True)
    pipeline = cs.Pipeline([cs.RacingLanes(track, lanes=7, lookahead=15.0),
                            cs.Avoid(agents=True, max_distance=2.0, world_obstacles=False)], slots=16)
    if start_grid:
        s = np.repeat(np.arange(cars // 2 + 1) * 8.0, 2)[:cars]
    else:
        s = np.repeat(np.linspace(0.0, track.length, cars // 2, endpoint=False), 2)[:cars]
    lateral = np.tile([-2.0, 2.0], cars)[:cars]
    starts = np.array([track.point_at(si, e) for si, e in zip(s, lateral)])
    return cs.World(pipeline, starts, radius=0.8, max_speed=40.0, max_acceleration=15.0, max_turn_rate=3.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--points", type=int, nargs="+", default=[400, 4_000, 40_000])
    parser.add_argument("--cars", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    print(f"racing: {args.cars} cars on an oval track; median of {args.repeats}")
    print(machine_line())
    print(f"{'points':>8} {'world step (ms)':>16} {'at the start (ms)':>18} {'locate on track (us)':>21} "
          f"{'locate anywhere (us)':>21}")
    rng = np.random.default_rng(0)
    for points in args.points:
        steps = []
        for start_grid in (False, True):
            world = world_of(points, args.cars, start_grid)
            world.run(5, 1 / 30, record=None)  # past the first step, which locates on the whole track
            steps.append(median_time(lambda w=world: w.step(1 / 30), args.repeats))
        track = cs.Track(oval(points), 6.0, closed=True)
        along = rng.uniform(0.0, track.length, 2_000)
        on_track = np.array([track.point_at(s, e) for s, e in zip(along, rng.uniform(-6.0, 6.0, 2_000))])
        anywhere = rng.uniform(-1.0, 1.0, (2_000, 2)) * [520.0, 270.0]
        per_point = [median_time(lambda t=track, q=q: t.locate(q), max(3, args.repeats // 4)) / len(q) * 1e6
                     for q in (on_track, anywhere)]
        print(f"{points:>8,} {steps[0] * 1e3:>16.3f} {steps[1] * 1e3:>18.3f} {per_point[0]:>21.3f} "
              f"{per_point[1]:>21.3f}")


if __name__ == "__main__":
    main()
