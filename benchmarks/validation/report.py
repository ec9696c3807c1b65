"""What every experiment of the validation suite shares: its command line, its table,
its figure's file and its tolerance check."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

DEFAULT_OUT = Path("build") / "validation"


def parser(description: str) -> argparse.ArgumentParser:
    """The options every experiment takes: ``--out``, ``--quick``, ``--check``, ``--seeds``."""
    p = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder of the figure (default: build/validation)")
    p.add_argument("--quick", action="store_true", help="fewer cases and one seed, for CI")
    p.add_argument("--check", action="store_true",
                   help="exit with status 1 when the model is outside the tolerance, naming each case")
    p.add_argument("--seeds", type=int, nargs="+", help="seeds of the agents' placement (default: 0 1 2; --quick: 0)")
    return p


def seeds_of(args) -> list[int]:
    return args.seeds if args.seeds else ([0] if args.quick else [0, 1, 2])


def table(header: list[str], rows: list[list]) -> str:
    """A Markdown table of ``rows`` (floats with 2 decimals)."""
    def cell(v):
        return f"{v:.2f}" if isinstance(v, float) else str(v)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


@dataclass(frozen=True)
class Verdict:
    """One case of a tolerance check: its name, whether it passed and why."""

    case: str
    passed: bool
    detail: str


def conclude(name: str, verdicts: list[Verdict], check: bool) -> int:
    """Prints each case of the check and a last line; the exit status: 1 when ``check``
    and a case failed, else 0."""
    failed = [v for v in verdicts if not v.passed]
    print(f"\n{name}: tolerance check")
    for v in verdicts:
        print(f"  {'ok  ' if v.passed else 'FAIL'} {v.case}: {v.detail}")
    print(f"{name}: {len(verdicts) - len(failed)} of {len(verdicts)} within tolerance"
          + (f"; outside: {', '.join(v.case for v in failed)}" if failed else ""))
    return 1 if (check and failed) else 0


def save(fig, out: Path, name: str) -> Path:
    """Writes ``fig`` to ``out/name.png`` at 110 dpi and closes it; returns the path."""
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.png"
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    print(f"figure: {path}")
    return path


def exit_with(status: int) -> None:
    sys.stdout.flush()
    sys.exit(status)
