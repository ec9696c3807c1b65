"""Helpers shared by the benchmark scripts: wall-clock medians and the machine's name."""

from __future__ import annotations

import os
import platform
import statistics
import time

import numpy as np


def median_time(fn, repeats: int) -> float:
    """Median wall time of ``fn()`` in seconds over ``repeats`` calls, after one warm-up."""
    fn()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def cpu_name() -> str:
    """The CPU model as Linux reports it, or what platform knows elsewhere."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown cpu"


def machine_line() -> str:
    """One line naming the machine and the versions that matter to the figures."""
    return (f"machine: {cpu_name()}, {os.cpu_count()} cores; Python {platform.python_version()}, "
            f"NumPy {np.__version__}")


def arrivals_by_seed(runs, keys: list[str]):
    """``"a/b/c of n"`` per group of ``keys``: the agents arrived in each seed's run, from a
    pandas table with an ``arrived`` share and an ``agents`` count per run."""
    arrived = runs.assign(count=(runs["arrived"] * runs["agents"]).round().astype(int))
    return arrived.groupby(keys, sort=False).apply(
        lambda g: "/".join(f"{c}" for c in g["count"]) + f" of {int(g['agents'].iloc[0])}", include_groups=False)
