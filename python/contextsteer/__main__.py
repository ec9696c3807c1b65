"""Command line: ``python -m contextsteer demo [--scene NAME] [--out PATH]``, ``run SCENE.toml``
and ``live SCENE.toml`` (:mod:`contextsteer.cli`)."""

from __future__ import annotations

import argparse
import sys


class _Parser(argparse.ArgumentParser):
    """A parser whose errors are one line on stderr (exit code 2): the command and what is
    wrong, without the usage (``--help`` gives it)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}\n")


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {value}")
    return value


def _demo_errors(args) -> str | None:
    """A bad demo option: a run too long for memory, or an --out that cannot be written;
    before the run."""
    from .recipes.crowd import recipe
    from .tools.cli import MOST_STEPS, count_within, memory_needed, unwritable

    chosen = recipe(args.scene)
    agents, steps = args.agents or chosen.agents, args.steps or chosen.steps
    # The run keeps every step's positions (float32) for the figure.
    return (count_within("--steps", steps, 1, MOST_STEPS)
            or memory_needed("--steps" if args.steps else "--agents", (steps + 1) * agents * 8,
                             f"a run of {steps} steps of {agents} agents", "run fewer steps or agents")
            or unwritable("--out", args.out))


def main(argv: list[str] | None = None) -> int:
    from .recipes.crowd import RECIPES
    from .tools.demo import SCENES

    finer = [name for name, recipe in RECIPES.items() if recipe.slots != 16]

    parser = _Parser(prog="contextsteer", description="Context steering for game agents.")
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
    args.out = args.out or f"{args.scene}.png"
    message = _demo_errors(args)
    if message is not None:
        demo.error(message)

    import matplotlib

    matplotlib.use("Agg")  # a file is written; no window is wanted
    from matplotlib import pyplot

    from .tools.demo import draw_run, run_scene, summary

    try:
        run = run_scene(args.scene, args.agents, steps=args.steps, slots=args.slots, seed=args.seed)
    except (ValueError, TypeError) as exc:  # a value argparse let through; the message names it
        demo.error(str(exc))
    fig = draw_run(run)
    out = args.out
    try:
        fig.savefig(out, dpi=110)
    except OSError as exc:  # the disk filled, or the path went away during the run
        demo.error(f"--out: cannot write {out}: {exc.strerror or exc}")
    except ValueError as exc:  # a file type matplotlib cannot write
        demo.error(f"--out: {exc}")
    finally:
        pyplot.close(fig)  # main() may run again in the same process (tests, a notebook)
    print(f"{args.scene}: {summary(run)}")
    print(f"figure written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
