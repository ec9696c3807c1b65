"""Command line: ``python -m contextsteer demo [--scene NAME] [--out PATH]``, ``run SCENE.toml``
and ``live SCENE.toml`` (:mod:`contextsteer.cli`)."""

from __future__ import annotations

import argparse
import sys


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {value}")
    return value


def main(argv: list[str] | None = None) -> int:
    from .recipes.crowd import RECIPES
    from .tools.demo import SCENES

    finer = [name for name, recipe in RECIPES.items() if recipe.slots != 16]

    parser = argparse.ArgumentParser(prog="contextsteer", description="Context steering for game agents.")
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="run a standard scene and write a PNG of it")
    demo.add_argument("--scene", choices=SCENES, default="corridor",
                      help="the scene: pillars in a corridor, two crowds swapping sides, a circle crossing at its "
                           "centre, two streams crossing, a room emptying through its door, two crowds swapping "
                           "rooms through one door, four groups crossing a square, a single file through a narrow "
                           "zig-zag corridor, or a U-shaped trap before the goal (default: %(default)s)")
    demo.add_argument("--out", help="where the PNG goes (default: the scene's name, as in corridor.png)")
    demo.add_argument("--agents", type=_positive_int, help="number of agents (default: the scene's own, 10 to 200)")
    demo.add_argument("--slots", type=_positive_int,
                      help="context map slots (default: the scene's own, "
                           + "".join(f"{RECIPES[name].slots} for {name}, " for name in finer) + "else 16)")
    demo.add_argument("--steps", type=_positive_int, help="most steps of 0.05 s to run (default: enough for the scene)")
    demo.add_argument("--seed", type=int, default=0, help="seed of the start positions (default: %(default)s)")
    from .tools.cli import add_commands, dispatch

    add_commands(commands)
    args = parser.parse_args(argv)
    if args.command != "demo":
        return dispatch(args, parser)
    out = args.out or f"{args.scene}.png"

    import matplotlib

    matplotlib.use("Agg")  # a file is written; no window is wanted
    from .tools.demo import draw_run, run_scene, summary

    try:
        run = run_scene(args.scene, args.agents, steps=args.steps, slots=args.slots, seed=args.seed)
    except (ValueError, TypeError) as exc:  # a value argparse let through; the message names it
        demo.error(str(exc))
    fig = draw_run(run)
    try:
        fig.savefig(out, dpi=110)
    except OSError as exc:
        print(f"contextsteer demo: cannot write {out}: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:  # a file type matplotlib cannot write
        demo.error(f"--out: {exc}")
    print(f"{args.scene}: {summary(run)}")
    print(f"figure written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
