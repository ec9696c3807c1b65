"""The fundamental diagram of a one-way corridor: speed against density, the crowd
steering beside Weidmann 1993 and the one-way runs of Zhang et al. 2011 (3.0 m corridor).

A corridor 3.0 m wide is filled at a set density and everyone walks east; density and
speed are measured in an area of 4 m x 3 m in the middle while the crowd there is steady
(corridor_runs.py's docstring gives the method in full). Each density is run for each
seed; the table gives the seeds' mean.

``--check``: at each density the model's speed within 0.15 m/s of Weidmann's speed at
the density measured.
"""

from __future__ import annotations

import corridor_runs
import data
import numpy as np
import report

WIDTH = 3.0
DENSITIES = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0)
QUICK_DENSITIES = (1.0, 2.0, 3.0)


def figure(runs, title: str):
    """Speed against density: the model's runs, Weidmann's curve and its tolerance band,
    Zhang et al. 2011's points; beside it, the specific flow."""
    import matplotlib.pyplot as plt

    _, rho_exp, v_exp = data.corridor_points("zhang2011_uo")
    rho = np.linspace(0.05, 4.0, 200)
    v_w = data.weidmann_speed(rho)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10.5, 4.3))
    left.fill_between(rho, v_w - data.SPEED_TOLERANCE, v_w + data.SPEED_TOLERANCE, color="0.88", zorder=0,
                      label="Weidmann $\\pm$ 0.15 m/s (tolerance)")
    left.plot(rho, v_w, "k-", lw=1.5, label="Weidmann 1993")
    right.plot(rho, rho * v_w, "k-", lw=1.5, label="Weidmann 1993")
    for ax, y in ((left, v_exp), (right, rho_exp * v_exp)):
        ax.plot(rho_exp, y, ".", color="#1f78b4", ms=3, alpha=0.5, label="Zhang et al. 2011 (3.0 m corridor)")
    corridor_runs.draw_runs(left, right, runs, speed_label="speed $v$ (m/s)", max_density=4.0)
    fig.suptitle(title, fontsize=10)
    return fig


def main(argv=None) -> int:
    p = report.parser(__doc__.split("\n\n")[0])
    p.add_argument("--densities", type=float, nargs="+",
                   help="set densities, persons/m^2 (default: 0.5 1 1.5 2 2.5 3; --quick: 1 2 3)")
    args = p.parse_args(argv)
    densities = args.densities or (QUICK_DENSITIES if args.quick else DENSITIES)
    seeds = report.seeds_of(args)
    print(f"one-way corridor {WIDTH:g} m: radius {corridor_runs.RADIUS} m, free speed {corridor_runs.FREE_SPEED} "
          f"m/s, dt {corridor_runs.DT} s, seeds {' '.join(map(str, seeds))}; measured over x in [-2, 2] m, "
          f"t in {list(corridor_runs.WINDOW)} s")
    runs, rows, verdicts, cpu = [], [], [], 0.0
    for rho in densities:
        mine = [corridor_runs.run(WIDTH, rho, two_way=False, seed=s) for s in seeds]
        runs += mine
        cpu += sum(r.cpu for r in mine)
        density = float(np.mean([r.measure.density for r in mine]))
        speed = float(np.mean([r.measure.speed for r in mine]))
        weidmann = float(data.weidmann_speed(density))
        rows.append([f"{rho:g}", density, speed, weidmann, speed - weidmann, density * speed,
                     density * weidmann])
        verdicts.append(report.Verdict(f"speed at {rho:g} /m^2", abs(speed - weidmann) <= data.SPEED_TOLERANCE,
                                       f"{speed:.2f} m/s at {density:.2f} /m^2 against Weidmann's {weidmann:.2f} "
                                       f"({speed - weidmann:+.2f}, tolerance {data.SPEED_TOLERANCE})"))
    print(report.table(["set density", "measured (1/m^2)", "speed (m/s)", "Weidmann (m/s)", "difference",
                        "flow (1/(m s))", "Weidmann's flow"], rows))
    print(f"CPU time of the runs: {cpu:.0f} s")
    report.save(figure(runs, f"One-way corridor, {WIDTH:g} m wide: r = {corridor_runs.RADIUS} m, $v_0$ = "
                       f"{corridor_runs.FREE_SPEED} m/s, {len(seeds)} seed(s) a density"),
                args.out, "fundamental_diagram")
    return report.conclude("fundamental diagram", verdicts, args.check)


if __name__ == "__main__":
    report.exit_with(main())
