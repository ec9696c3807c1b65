"""Command line: ``python -m contextsteer demo [--out PATH]``."""

from __future__ import annotations

import argparse
import sys


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {value}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="contextsteer", description="Context steering for game agents.")
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="run the corridor scene and write a PNG of it")
    demo.add_argument("--out", default="corridor.png", help="where the PNG goes (default: %(default)s)")
    demo.add_argument("--agents", type=_positive_int, default=12, help="number of agents (default: %(default)s)")
    demo.add_argument("--slots", type=_positive_int, default=16, help="context map slots (default: %(default)s)")
    demo.add_argument("--steps", type=_positive_int, default=1200, help="most steps to run (default: %(default)s)")
    demo.add_argument("--seed", type=int, default=0, help="seed of the start positions (default: %(default)s)")
    args = parser.parse_args(argv)

    import matplotlib

    matplotlib.use("Agg")  # a file is written; no window is wanted
    from .demo import draw_corridor, run_corridor, summary

    try:
        run = run_corridor(args.agents, steps=args.steps, slots=args.slots, seed=args.seed)
    except (ValueError, TypeError) as exc:  # a value argparse let through; the message names it
        demo.error(str(exc))
    fig = draw_corridor(run)
    try:
        fig.savefig(args.out, dpi=110)
    except OSError as exc:
        print(f"contextsteer demo: cannot write {args.out}: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:  # a file type matplotlib cannot write
        demo.error(f"--out: {exc}")
    print(f"corridor: {summary(run)}")
    print(f"figure written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
