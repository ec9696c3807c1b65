"""Times one parameter sweep (contextsteer.sweep) with 1 and with 2 worker threads, and
prints both and their ratio: World.run releases the GIL, so runs on two threads should
take about half the time on two cores.

    python benchmarks/bench_sweep.py [--agents 2000] [--steps 300] [--runs 8]

Each run: agents scattered over a square (25 m^2 each) walking to their mirror image
across the y axis, Arrive plus Avoid of agents within the swept sense radius, 16 slots,
positions, velocities and headings recorded, the default measures.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import contextsteer as cs
from timing import machine_line


def crossing(agents: int, sense: float, seed: int) -> cs.World:
    half = np.sqrt(25.0 * agents) / 2
    starts = np.random.default_rng(seed).uniform(-half, half, (agents, 2))
    pipeline = cs.Pipeline([cs.Arrive(), cs.Avoid(agents=True, max_distance=sense)], slots=16, select="blend")
    return cs.World(pipeline, starts, targets=starts * [-1, 1], max_speed=1.5, max_acceleration=3.0, radius=0.4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", type=int, default=2000)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--runs", type=int, default=8, help="runs in the sweep (an even number of sense radii)")
    args = parser.parse_args()
    senses = list(np.linspace(1.0, 8.0, args.runs // 2))
    params = {"sense": senses, "seed": [0, 1]}
    print(f"sweep: {len(senses) * 2} runs of {args.agents} agents x {args.steps} steps")
    print(machine_line())
    cs.sweep(lambda seed: crossing(10, 1.0, seed), {"seed": [0]}, steps=1, dt=0.1)  # warm-up: imports pandas
    tables, seconds = {}, {}
    for workers in (1, 2):
        start = time.perf_counter()
        tables[workers] = cs.sweep(lambda sense, seed: crossing(args.agents, sense, seed), params, steps=args.steps,
                                   dt=0.1, workers=workers)
        seconds[workers] = time.perf_counter() - start
        print(f"workers={workers}: {seconds[workers]:.2f} s")
    same = tables[1].drop(columns="seconds").equals(tables[2].drop(columns="seconds"))
    print(f"speed-up with 2 workers: {seconds[1] / seconds[2]:.2f}x; same rows: {same}")


if __name__ == "__main__":
    main()
