"""A dense crowd at scale: the two-way door (contextsteer.scenarios.two_way_door) made a hall
of 10,000 agents by default: two rooms 80 m deep and 100 m high, each group packed at about
1.5 m^2 an agent (starts on a grid 1.2 m apart), the wall between the rooms open over 20 m,
so that two counter-flows of 5,000 meet in the opening. Steered by the door's crowd recipe
(contextsteer.demo.scene_setup: FollowField along fields re-marched from the crowd every
0.5 s, Avoid of the walls, Anticipate of the agents within 3 m, goals and contact) and by
ORCA (RVO2, ``pip install contextsteer[orca]``) on the same route, driven as
benchmarks/bench_crowds.py drives it. Prints the process CPU time per step of each (ORCA's
``do_step`` alone), their ratio, and how far the agents got. contextsteer's median step is
one without the fields' re-march (every tenth step re-marches): the mean less the median is
about the re-march's share.

    python benchmarks/bench_dense_crowd.py [--agents 10000] [--steps 200] [--seed 0] [--room 80 --height 100 --door 20]
"""

from __future__ import annotations

import argparse

import numpy as np

from bench_crowds import RUNNERS, recipe_setup
from contextsteer.demo import DT, scene_setup
from timing import machine_line

HALL = {"room": 80.0, "height": 100.0, "door": 20.0}  # metres


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", type=int, default=10_000)
    parser.add_argument("--steps", type=int, default=200, help=f"steps of {DT} s")
    parser.add_argument("--seed", type=int, default=0)
    for size, metres in HALL.items():
        parser.add_argument(f"--{size}", type=float, default=metres, help="metres (the public door: 14, 16, 1.8)")
    args = parser.parse_args()
    hall = {size: getattr(args, size) for size in HALL}
    geometry, steering, parameters = scene_setup("two_way_door", args.agents, seed=args.seed, **hall)
    print(machine_line())
    print(f"dense hall: {args.agents} agents, two rooms {hall['room']:g} x {hall['height']:g} m open over "
          f"{hall['door']:g} m, {args.steps} steps of {DT} s, seed {args.seed}; CPU time per step, one thread")
    start_gap = np.linalg.norm(geometry.targets - geometry.starts, axis=1)
    times = {}
    setup = recipe_setup(geometry, steering, parameters, args.steps)
    for name, run in RUNNERS.items():
        trajectory, spent = run(setup)
        positions = trajectory[-1]
        times[name] = spent.mean()
        closer = np.mean(start_gap - np.linalg.norm(geometry.targets - positions, axis=1))
        print(f"{name:<13} {spent.mean() * 1e3:8.2f} ms a step (median {np.median(spent) * 1e3:.2f}); "
              f"agents {closer:.1f} m closer to their targets on average")
    print(f"contextsteer / ORCA: {times['contextsteer'] / times['orca']:.2f}")


if __name__ == "__main__":
    main()
