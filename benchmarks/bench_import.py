"""The time ``import contextsteer`` takes in a fresh interpreter, and what it leaves out.

    python benchmarks/bench_import.py [--repeats 15]

Each repeat starts a new Python process that imports the package once; the figure is the
fastest of the repeats (the least disturbed by the shared host) and the median. The
heavy libraries that plotting, sweeps and tuning use (matplotlib, pandas, optuna) are
imported where they are used, so they must not be loaded by the import: the script
lists any that is.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

from timing import machine_line

PROBE = """
import json, sys, time
start = time.perf_counter()
import contextsteer
seconds = time.perf_counter() - start
heavy = sorted(name for name in ("matplotlib", "pandas", "optuna", "ipywidgets", "tqdm") if name in sys.modules)
modules = sum(name.startswith("contextsteer") for name in sys.modules)
print(json.dumps({"seconds": seconds, "heavy": heavy, "modules": modules}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="fresh processes to time (default: %(default)s)")
    args = parser.parse_args()
    runs = [json.loads(subprocess.run([sys.executable, "-c", PROBE], check=True, capture_output=True,
                                      text=True).stdout) for _ in range(args.repeats)]
    times = [1000 * run["seconds"] for run in runs]
    print(machine_line())
    print(f"import contextsteer: fastest {min(times):.0f} ms, median {statistics.median(times):.0f} ms "
          f"over {args.repeats} fresh processes; {runs[-1]['modules']} contextsteer modules loaded")
    heavy = runs[-1]["heavy"]
    print("heavy libraries loaded by the import: " + (", ".join(heavy) if heavy else "none"))


if __name__ == "__main__":
    main()
