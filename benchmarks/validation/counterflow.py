"""Counter-flow in a 3.6 m corridor: the crowd steering beside the two-way runs of Zhang
et al. 2012 (the "BO" experiments: 3.6 m wide, densities up to about 2.3 /m^2, speeds
from 1.31 down to 0.59 m/s, a specific flow of about 1.5-1.65 /(m s) at the high
densities, lanes forming by themselves).

A corridor 3.6 m wide is filled at a set density, half of the agents (at random, so the
two directions start fully mixed) walking east and half west; density, each agent's
speed along its own way, and the specific flow (density times speed) are measured in an
area of 4 m x 3.6 m in the middle while the crowd there is steady (corridor_runs.py's
docstring gives the method). Lanes: the area is cut into bands 0.5 m wide along the
corridor, and the lane index is ``|east - west| / (east + west)`` of each band,
averaged over the bands by their agents: 1 when every band walks one way (lanes), 0.3-0.7
for the fully mixed start (the fewer agents a band holds, the higher by chance); the
table gives it at the start and over the window's last 4 s, and the figure shows the
corridor at the window's end.

``--check``: at each density the model's speed within 0.15 m/s of the experiments' mean
speed at that density (their rows within 0.25 /m^2 of the density measured, where there
are at least five), and lanes formed (a lane index of at least 0.85 over the last 4 s).
"""

from __future__ import annotations

import corridor_runs
import data
import numpy as np
import report

WIDTH = 3.6
DENSITIES = (0.5, 1.0, 1.5, 2.0, 2.5)
QUICK_DENSITIES = (1.0, 2.0)
LANES_FORMED = 0.85  # the lane index from which the crowd counts as walking in lanes
NEAR = 0.25  # 1/m^2: the experiments' rows that count as at the model's density


def experiment_speed(density: float) -> float | None:
    """The mean speed of the BO rows within :data:`NEAR` of ``density`` (None with fewer than five)."""
    _, rho, v = data.corridor_points("zhang2012_bo")
    near = np.abs(rho - density) <= NEAR
    return float(v[near].mean()) if near.sum() >= 5 else None


def figure(runs, title: str):
    """Top: the corridor's middle at the window's end, agents coloured by direction (a run
    at the highest density). Below: speed and specific flow against density, the model
    beside Zhang et al. 2012 and Weidmann's one-way curve."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle, Rectangle

    _, rho_exp, v_exp = data.corridor_points("zhang2012_bo")
    rho = np.linspace(0.05, 3.2, 200)
    v_w = data.weidmann_speed(rho)
    fig = plt.figure(figsize=(10.5, 7.2))
    grid = fig.add_gridspec(2, 2, height_ratios=[1, 2.2], hspace=0.35)
    snap = fig.add_subplot(grid[0, :])
    left, right = fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[1, 1])
    shown = max(runs, key=lambda r: r.set_density)
    for (x, y), d in zip(shown.final_positions, shown.direction):
        if abs(x) < 10:
            snap.add_patch(Circle((x, y), corridor_runs.RADIUS, color="#d95f02" if d > 0 else "#1b9e77", lw=0))
    snap.add_patch(Rectangle((-corridor_runs.AREA_LENGTH / 2, -WIDTH / 2), corridor_runs.AREA_LENGTH, WIDTH,
                             fill=False, ls="--", color="k", lw=1))
    for y in (-WIDTH / 2, WIDTH / 2):
        snap.axhline(y, color="k", lw=2)
    snap.set_xlim(-10, 10)
    snap.set_ylim(-WIDTH / 2 - 0.2, WIDTH / 2 + 0.2)
    snap.set_aspect("equal")
    snap.set_xlabel("x (m)")
    snap.set_yticks([])
    snap.set_title(f"At {corridor_runs.WINDOW[1]:g} s, set density {shown.set_density:g} /m$^2$: walking east "
                   f"(orange), west (green); lane index {shown.lanes_end:.2f} (start {shown.lanes_start:.2f}); "
                   "dashed: the measurement area", fontsize=9)
    left.plot(rho, v_w, "k--", lw=1, label="Weidmann 1993 (one-way)")
    right.plot(rho, rho * v_w, "k--", lw=1, label="Weidmann 1993 (one-way)")
    left.plot(rho_exp, v_exp, ".", color="#1f78b4", ms=3, alpha=0.5, label="Zhang et al. 2012 (BO, 3.6 m)")
    right.plot(rho_exp, rho_exp * v_exp, ".", color="#1f78b4", ms=3, alpha=0.5,
               label="Zhang et al. 2012 (BO, 3.6 m)")
    corridor_runs.draw_runs(left, right, runs, speed_label="speed along one's way $v$ (m/s)", max_density=3.2)
    fig.suptitle(title, fontsize=10)
    return fig


def main(argv=None) -> int:
    p = report.parser(__doc__.split("\n\n")[0])
    p.add_argument("--densities", type=float, nargs="+",
                   help="set densities, persons/m^2 (default: 0.5 1 1.5 2 2.5; --quick: 1 2)")
    args = p.parse_args(argv)
    densities = args.densities or (QUICK_DENSITIES if args.quick else DENSITIES)
    seeds = report.seeds_of(args)
    print(f"two-way corridor {WIDTH:g} m: radius {corridor_runs.RADIUS} m, free speed {corridor_runs.FREE_SPEED} "
          f"m/s, dt {corridor_runs.DT} s, seeds {' '.join(map(str, seeds))}; measured over x in [-2, 2] m, "
          f"t in {list(corridor_runs.WINDOW)} s")
    runs, rows, verdicts, cpu = [], [], [], 0.0
    for rho in densities:
        mine = [corridor_runs.run(WIDTH, rho, two_way=True, seed=s) for s in seeds]
        runs += mine
        cpu += sum(r.cpu for r in mine)
        density = float(np.mean([r.measure.density for r in mine]))
        speed = float(np.mean([r.measure.speed for r in mine]))
        lanes_start = float(np.mean([r.lanes_start for r in mine]))
        lanes_end = float(np.mean([r.lanes_end for r in mine]))
        reference = experiment_speed(density)
        rows.append([f"{rho:g}", density, speed, "-" if reference is None else reference, density * speed,
                     "-" if reference is None else density * reference, float(data.weidmann_speed(density)),
                     lanes_start, lanes_end])
        if reference is not None:
            verdicts.append(report.Verdict(f"speed at {rho:g} /m^2", abs(speed - reference) <= data.SPEED_TOLERANCE,
                                           f"{speed:.2f} m/s at {density:.2f} /m^2 against the experiments' "
                                           f"{reference:.2f} ({speed - reference:+.2f}, tolerance "
                                           f"{data.SPEED_TOLERANCE})"))
        verdicts.append(report.Verdict(f"lanes at {rho:g} /m^2", lanes_end >= LANES_FORMED,
                                       f"lane index {lanes_end:.2f} over the last 4 s (start {lanes_start:.2f}; "
                                       f"lanes from {LANES_FORMED})"))
    print(report.table(["set density", "measured (1/m^2)", "speed (m/s)", "experiments (m/s)", "flow (1/(m s))",
                        "experiments' flow", "Weidmann one-way (m/s)", "lanes at start", "lanes at end"], rows))
    print(f"CPU time of the runs: {cpu:.0f} s")
    report.save(figure(runs, f"Counter-flow, {WIDTH:g} m corridor: r = {corridor_runs.RADIUS} m, $v_0$ = "
                       f"{corridor_runs.FREE_SPEED} m/s, {len(seeds)} seed(s) a density"), args.out, "counterflow")
    return report.conclude("counter-flow", verdicts, args.check)


if __name__ == "__main__":
    report.exit_with(main())
