"""Small calls, as a game loop or a notebook makes them: ``cs.resolve`` and ``cs.combine``
of one (16,) map, and a one-agent ``World.step``, each beside the C++ binding alone
(``contextsteer._core``, given arrays already checked and shaped), in microseconds per
call. The difference is what the public API adds: its checks of the arguments (one pass
in C++ for plain arrays, lists and numbers) and its Python frame."""

from __future__ import annotations

import argparse
import time

import numpy as np

import contextsteer as cs
from contextsteer import _core
from timing import machine_line


def per_call(fn, calls: int) -> float:
    """The wall time of one call in the fastest of 7 rounds, in microseconds: on a shared
    host the other rounds measure the neighbours too."""
    fn()
    rounds = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        rounds.append((time.perf_counter() - start) / calls * 1e6)
    return min(rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=20000, help="calls per round")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    interest = rng.uniform(0, 1, 16).astype(np.float32)
    danger = rng.uniform(0, 1, 16).astype(np.float32)
    maps = np.stack([interest, danger])
    interest_row, danger_row = interest[None], danger[None]
    weights = np.array([1.0, 0.5], np.float32)
    world = cs.World(cs.Pipeline([cs.Chase([5.0, 0.0])]), [[0.0, 0.0]])
    rows = [
        ("resolve, one (16,) map", lambda: cs.resolve(interest, danger),
         lambda: _core.resolve(interest_row, danger_row, "subtract", 0.5, 0.0, "argmax", 0.0, 0.0, None)),
        ("combine, two (16,) maps", lambda: cs.combine([interest, danger], "sum", weights),
         lambda: _core.combine(maps, "sum", weights)),
        ("World.step, one agent", lambda: world.step(0.05), lambda: world._core.step(0.05, 1)),
    ]
    print(machine_line())
    print(f"{'call':28} {'public API':>12} {'binding alone':>14}   (microseconds per call)")
    for name, public, binding in rows:
        print(f"{name:28} {per_call(public, args.calls):12.2f} {per_call(binding, args.calls):14.2f}")


if __name__ == "__main__":
    main()
