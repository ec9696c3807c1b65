"""The validation suite: the bottleneck, the one-way corridor's fundamental diagram and the
counter-flow corridor, one after the other in one process, each printing its table,
writing its figure and its tolerance check; exit status 1 when ``--check`` and any case of
any experiment is outside its tolerance (each names its own).

    python benchmarks/validation/run_all.py [--quick] [--check] [--out build/validation]
"""

from __future__ import annotations

import time

import bottleneck_flow
import counterflow
import fundamental_diagram
import report

EXPERIMENTS = {"bottleneck": bottleneck_flow, "fundamental diagram": fundamental_diagram, "counter-flow": counterflow}


def main(argv=None) -> int:
    p = report.parser(__doc__.split("\n\n")[0])
    args = p.parse_args(argv)
    passed = ["--out", str(args.out)] + (["--quick"] if args.quick else []) + (["--check"] if args.check else [])
    if args.seeds:
        passed += ["--seeds", *map(str, args.seeds)]
    statuses = {}
    for name, module in EXPERIMENTS.items():
        start = time.perf_counter()
        print(f"\n=== {name} ===")
        statuses[name] = module.main(passed)
        print(f"({name}: {time.perf_counter() - start:.0f} s)")
    failed = [name for name, status in statuses.items() if status]
    print("\nvalidation suite: " + (f"outside tolerance in {', '.join(failed)}" if failed else
                                    "every experiment within tolerance" if args.check else "done"))
    return 1 if failed else 0


if __name__ == "__main__":
    report.exit_with(main())
