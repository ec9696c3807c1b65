"""Times an update of FollowField's crowd-updated fields: two groups crossing a 40 x 20 m
hall (cells of 0.25 m: 160 x 80 cells per field), a field per group, 400 agents. The
update (spreading the agents over each field's grid, then marching both fields again,
one per thread) is the step with ``crowd_every=0`` (an update every step) less the step
without crowd costs.

    python benchmarks/bench_crowd_fields.py [--agents 400] [--threads 1 2]
"""

from __future__ import annotations

import argparse

import numpy as np

import contextsteer as cs
from timing import machine_line, median_time

HALL = (0.0, 0.0, 40.0, 20.0)
PILLARS = np.array([[x, y, 0.6] for x in (12.0, 20.0, 28.0) for y in (6.0, 14.0)])


def world(agents: int, threads: int, crowd: bool) -> cs.World:
    rng = np.random.default_rng(0)
    half = agents // 2
    starts = np.vstack([np.column_stack([rng.uniform(1, 10, half), rng.uniform(1, 19, half)]),
                        np.column_stack([rng.uniform(30, 39, agents - half), rng.uniform(1, 19, agents - half)])])
    fields = [cs.NavigationField(goal_areas=[area], area=HALL, cell=0.25, clearance=0.3, circles=PILLARS, bounds=HALL)
              for area in ([39, 0, 40, 20], [0, 0, 1, 20])]
    costs = {"crowd_density": 0.5, "crowd_counterflow": 1.0, "crowd_every": 0.0} if crowd else {}
    follow = cs.FollowField(fields, sideways=0.5, **costs)
    pipeline = cs.Pipeline([follow, cs.Avoid(agents=True, max_distance=1.0)], slots=16, select="blend")
    return cs.World(pipeline, starts, circles=PILLARS, bounds=HALL, radius=0.3, max_speed=1.3, threads=threads,
                    groups=np.repeat([0, 1], [half, agents - half]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", type=int, default=400)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    print(f"crowd-updated fields: 2 groups, {args.agents} agents, a 40 x 20 m hall, cells of 0.25 m (160 x 80)")
    print(machine_line())
    print(f"{'threads':>7} {'step, static (ms)':>18} {'step, updated (ms)':>19} {'update (ms)':>12}")
    for threads in args.threads:
        times = []
        for crowd in (False, True):
            w = world(args.agents, threads, crowd)
            w.step(0.05)  # the first update allocates
            times.append(median_time(lambda w=w: w.step(0.05), 20) * 1e3)
        print(f"{threads:>7} {times[0]:>18.2f} {times[1]:>19.2f} {times[1] - times[0]:>12.2f}")


if __name__ == "__main__":
    main()
