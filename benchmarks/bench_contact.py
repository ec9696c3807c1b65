"""The contact stage's cost (contextsteer.contact): the disc scene of bench_disc.py (n agents
of radius 0.5 m filling a disc, 70 m^2 each, heading for their antipodal points) stepped
with contact on, and the same crowd packed to 1 m^2 each (its discs overlapping on every
side, so every step corrects). Prints the median wall time of the contact stage
(World.stage_times["contact"]) beside the whole step, the passes run and the correction.

    python benchmarks/bench_contact.py [--sizes 1000 10000 100000] [--steps 5] [--threads 1]
"""

from __future__ import annotations

import argparse

import numpy as np

import contextsteer as cs
from bench_disc import DT, banded, make_world
from timing import machine_line


def crowd(n: int, area_each: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    radius = np.sqrt(area_each * n / np.pi)
    r, a = radius * np.sqrt(rng.random(n)), rng.random(n) * 2 * np.pi
    return banded(np.column_stack([r * np.cos(a), r * np.sin(a)]))


def contact_times(world: cs.World, steps: int) -> tuple[float, float, dict]:
    """Median seconds of the contact stage and of the whole step over ``steps`` steps, and the
    last step's correction."""
    contact, whole = [], []
    for _ in range(steps):
        world.step(DT)
        times = world.stage_times
        contact.append(times["contact"])
        whole.append(sum(times.values()))
    return float(np.median(contact)), float(np.median(whole)), world.contact_correction


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    print(machine_line())
    print(f"threads {args.threads}, dt {DT} s, Contact() defaults ({cs.Contact().iterations} passes at most)")
    for n in args.sizes:
        for name, area in (("disc 70 m^2/agent", 70.0), ("packed 1 m^2/agent", 1.0)):
            world = make_world(crowd(n, area), threads=args.threads)
            world.contact = cs.Contact()
            contact, whole, report = contact_times(world, args.steps)
            print(f"{n:>7} agents, {name:<19}: contact stage {contact * 1e3:8.2f} ms of a {whole * 1e3:8.2f} ms step "
                  f"({contact / n * 1e9:6.0f} ns/agent); last step: {report['passes']} passes, "
                  f"{report['agents']} agents moved, {report['max'] * 100:.2f} cm at most", flush=True)


if __name__ == "__main__":
    main()
