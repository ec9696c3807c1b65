"""The disc scene: n agents filling a disc (70 m^2 each) head for their antipodal points,
seeking their target and avoiding the agents within a sense radius of 15 m (about 10
neighbors each), 16 slots, the neighbor grid rebuilt every step. Times World.step in
C++ against the same step in plain NumPy (contextsteer.reference.disc_step), in one run;
and World.step once more with keep_maps=False (the world does not store the agents' maps).

    python benchmarks/bench_disc.py [--sizes 1000 10000 100000] [--steps 10] [--threads 1]

Agents are spawned row by row (sorted by y in bands of 10 m, then x), as a game spawns a
crowd region by region: neighbors in space then sit near each other in memory.
"""

from __future__ import annotations

import argparse

import numpy as np

import contextsteer as cs
from contextsteer import reference
from timing import machine_line, median_time

SLOTS = 16
SENSE = 15.0
DT = 0.1


def disc(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    radius = np.sqrt(70 * n / np.pi)
    r, a = radius * np.sqrt(rng.random(n)), rng.random(n) * 2 * np.pi
    return banded(np.column_stack([r * np.cos(a), r * np.sin(a)]))


def banded(p: np.ndarray) -> np.ndarray:
    """Positions p (n, 2) as float32, ordered by bands 10 m tall, by x within a band: agents
    close in space are close in memory, as a game would keep them."""
    order = np.lexsort((p[:, 0], np.floor(p[:, 1] / 10)))
    return p[order].astype(np.float32)


def make_world(positions, threads=1, keep_maps=True):
    pipeline = cs.Pipeline([cs.Chase(), cs.Avoid(agents=True, world_obstacles=False, max_distance=SENSE)], slots=SLOTS)
    return cs.World(pipeline, positions, targets=-positions, max_speed=1.5, max_acceleration=3.0, radius=0.5,
                    threads=threads, keep_maps=keep_maps)


def numpy_step_time(positions, repeats: int) -> float:
    """Median seconds of reference.disc_step on the same scene, run forward step by step."""
    n = len(positions)
    state = {"p": positions.astype(np.float64), "v": np.zeros((n, 2)), "h": np.zeros(n)}
    radius, speed, accel = np.full(n, 0.5), np.full(n, 1.5), np.full(n, 3.0)
    dirs = reference.slot_directions(SLOTS).astype(np.float64)
    targets = -positions.astype(np.float64)

    def numpy_step():
        state["p"], state["v"], state["h"], _ = reference.disc_step(
            state["p"], state["v"], state["h"], targets=targets, radius=radius, max_speed=speed,
            max_acceleration=accel, dirs=dirs, sense_radius=SENSE, dt=DT)

    return median_time(numpy_step, repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--steps", type=int, default=10, help="timed steps per size (median reported)")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    print(f"disc scene, {SLOTS} slots, sense radius {SENSE} m, {args.threads} thread(s); median of {args.steps} steps")
    print(machine_line())
    print(f"{'agents':>8} {'C++ (ms)':>9} {'NumPy (ms)':>11} {'ratio':>7} {'no maps (ms)':>13}   C++ stages (ms)")
    for n in args.sizes:
        positions = disc(n)
        world = make_world(positions, args.threads)
        core = median_time(lambda w=world: w.step(DT), args.steps)
        stages = ", ".join(f"{k} {v * 1e3:.2f}" for k, v in world.stage_times.items())
        lean = make_world(positions, args.threads, keep_maps=False)
        no_maps = median_time(lambda w=lean: w.step(DT), args.steps)

        plain = numpy_step_time(positions, max(2, args.steps // 4))
        print(f"{n:>8} {core * 1e3:>9.2f} {plain * 1e3:>11.1f} {plain / core:>7.1f} {no_maps * 1e3:>13.2f}   {stages}")


if __name__ == "__main__":
    main()
