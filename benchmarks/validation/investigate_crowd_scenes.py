"""What a change found by investigate_bottleneck.py would cost the other crowd scenes: the
crowd scenes of benchmarks/bench_crowds.py (two-way door, four-way crossing, zigzag,
U-trap) run by the crowd steering as it is and with its goals' settling of face-offs
off (``patience`` inf instead of 3 s), the crowd measures side by side.

The change is made for this process alone, by replacing the recipe's goals
(``contextsteer.recipes.crowd_steering.CROWD_GOALS``, read by ``cs.crowd_steering`` at
each call) before the scenes are built: an experiment, not an API.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import report

import contextsteer as cs
from contextsteer.recipes import crowd_steering as recipe

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_crowds  # noqa: E402 (benchmarks/ on the path first)

SCENES = ("two_way_door", "four_way", "zigzag", "u_trap")
COLUMNS = ["scene", "goals", "arrived", "time_to_95", "stalled_end", "reversals_per_agent_minute", "deepest_overlap"]


def main(argv=None) -> int:
    p = report.parser(__doc__.split("\n\n")[0])
    p.add_argument("--scenes", nargs="+", default=list(SCENES), choices=SCENES)
    args = p.parse_args(argv)
    seeds = report.seeds_of(args)
    default = recipe.CROWD_GOALS
    rows = []
    for label, goals in (("as it is (patience 3 s)", default), ("no face-offs settled", cs.Goals(arrival="give_way"))):
        recipe.CROWD_GOALS = goals
        for scene in args.scenes:
            for seed in seeds:
                result = bench_crowds.measure(scene, seed, "contextsteer")
                rows.append({"scene": scene, "goals": label, "seed": seed, **result})
                print(f"{scene} seed {seed} ({label}): arrived {result['arrived']:.3f}", flush=True)
    recipe.CROWD_GOALS = default
    runs = pd.DataFrame(rows)
    means = runs.groupby(["scene", "goals"], sort=False)[COLUMNS[2:]].agg(
        {"arrived": "min", "time_to_95": "mean", "stalled_end": "mean", "reversals_per_agent_minute": "mean",
         "deepest_overlap": "max"})
    print(f"\nseeds {' '.join(map(str, seeds))}; arrived: the worst seed; deepest overlap: the deepest of any seed")
    print(means.round(3).to_string())
    return 0


if __name__ == "__main__":
    report.exit_with(main())
