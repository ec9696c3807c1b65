"""Bottleneck flow against exit width: the crowd steering beside Seyfried et al. 2009,
Kretz et al. 2006 and Liddle et al. 2011.

The scene: a room 10 m deep and 10 m wide holds 150 agents (radius 0.25 m, free speed
1.34 m/s) on a grid 0.7 m apart (about 1.7 persons/m^2 over the 9.3 x 9.8 m they fill,
each up to 0.09 m off its point, at random by the seed), the nearest 1 m from the east
wall. The east wall (no thickness) has one exit of width ``w`` in its middle. Outside, each
agent has a place of its own on a grid 1 m apart in a field from 4 to 17 m east of the
wall (the scene's goal area): the crowd steering leads them through the exit to it.

The steering is the public crowd steering at its defaults, as a user writes it::

    scene = cs.Scenario("bottleneck", starts, targets, bounds=..., segments=walls, goal_areas=outside)
    world = cs.crowd_steering(scene, radius=0.25).world(max_speed=1.34)

stepped by 0.05 s on one thread for up to ``--time`` seconds (until every agent is out).

The measure: each agent's crossing time is when its centre passes the wall's line; the
flow is the agents that crossed between the 10th and the 90th percentile of the
crossings over that time. Each width's flow is the mean over the seeds. The experiments'
figure at a width is the mean of the papers that measured it (each paper's runs averaged).
``--check``: every width within 0.5 persons/s of the experiments (where any measured it)
and every agent out.
"""

from __future__ import annotations

import time

import data
import measures
import numpy as np
import report

import contextsteer as cs

WIDTHS = (0.8, 1.0, 1.2, 1.6, 1.8, 2.0, 2.5)
QUICK_WIDTHS = (0.8, 1.2, 1.8, 2.5)
AGENTS = 150
RADIUS = 0.25
FREE_SPEED = 1.34
DT = 0.05
ROOM = 10.0  # metres: the room's depth (x from -ROOM to 0) and width (y from -ROOM/2 to ROOM/2)
SPACING = 0.7  # metres between the starts' grid points
JITTER = 0.09  # metres: the most a start lies off its grid point


def scene(width: float, agents: int = AGENTS, seed: int = 0) -> cs.Scenario:
    """The room of ``agents`` agents with its exit ``width`` metres wide (module docstring)."""
    rng = np.random.default_rng(seed)
    half = ROOM / 2
    xs = np.arange(-ROOM + 0.4, -1.0 + 1e-9, SPACING)[::-1]  # the nearest column 1 m from the wall
    ys = np.arange(-half + 0.45, half - 0.45 + 1e-9, SPACING)
    grid = np.array([(x, y) for x in xs for y in ys])
    if agents > len(grid):
        raise ValueError(f"agents: at most {len(grid)} fit the room, got {agents}")
    starts = grid[np.sort(rng.choice(len(grid), agents, replace=False))]
    starts = starts + rng.uniform(-JITTER, JITTER, starts.shape)
    walls = np.array([
        [-ROOM, -half, 0.0, -half],        # south
        [-ROOM, half, 0.0, half],          # north
        [-ROOM, -half, -ROOM, half],       # west
        [0.0, -half, 0.0, -width / 2],     # east, below the exit
        [0.0, width / 2, 0.0, half],       # east, above the exit
    ])
    outside = np.array([[4.0, -6.5, 17.0, 6.5]])
    places = np.array([(x, y) for x in np.arange(4.5, 17.0, 1.0) for y in np.arange(-6.0, 6.01, 1.0)])
    targets = places[rng.choice(len(places), agents, replace=False)]
    return cs.Scenario(f"bottleneck {width:g} m", starts, targets, bounds=(-ROOM - 0.5, -7.0, 17.5, 7.0),
                       segments=walls, goal_areas=outside)


def default_world(room: cs.Scenario, radius: float = RADIUS, max_speed: float = FREE_SPEED) -> cs.World:
    """The public crowd steering's world of ``room``, at its defaults, on one thread."""
    return cs.crowd_steering(room, radius=radius).world(max_speed=max_speed, threads=1)


def run(world: cs.World, limit: float) -> tuple[np.ndarray, float]:
    """Steps ``world`` by :data:`DT` until every agent is past the wall (x > 0) or
    ``limit`` seconds; returns the crossing times (NaN: still inside) and the CPU seconds."""
    n = len(world)
    crossings = np.full(n, np.nan)
    start = time.process_time()
    previous = world.positions[:, 0].copy()
    steps = int(round(limit / DT))
    for step in range(1, steps + 1):
        world.step(DT)
        x = world.positions[:, 0]
        new = np.isnan(crossings) & (x > 0.0) & (previous <= 0.0)
        if new.any():
            share = (0.0 - previous[new]) / np.maximum(x[new] - previous[new], 1e-9)
            crossings[new] = (step - 1 + share) * DT
        previous = x.copy()
        if step % 20 == 0 and not np.isnan(crossings).any():
            break
    return crossings, time.process_time() - start


def experiment_rows(widths) -> list[tuple[float, str]]:
    """Each width's experiments as text: ``Seyfried 1.29; Kretz 1.39-1.46``."""
    rows = []
    for w in widths:
        parts = []
        for name, runs in data.BOTTLENECK_DATA.items():
            for width, flows in runs.items():
                if abs(width - w) < 1e-9:
                    span = f"{min(flows):.2f}" if len(flows) == 1 else f"{min(flows):.2f}-{max(flows):.2f}"
                    parts.append(f"{name.split()[0]} {span}")
        rows.append((w, "; ".join(parts) or "-"))
    return rows


def figure(widths, model_flows, title: str):
    """The model's flows (mean and the seeds' range) beside every experiment's runs."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    markers = {"Seyfried et al. 2009": ("s", "#1b9e77"), "Kretz et al. 2006": ("^", "#d95f02"),
               "Liddle et al. 2011": ("D", "#7570b3")}
    for name, runs in data.BOTTLENECK_DATA.items():
        marker, color = markers[name]
        xs = [w for w, flows in runs.items() for _ in flows]
        ys = [f for flows in runs.values() for f in flows]
        ax.plot(xs, ys, marker, color=color, ms=6, mfc="none", mew=1.5, label=name, ls="none")
    w = np.asarray(widths)
    flows = np.asarray(model_flows)  # (widths, seeds)
    mean = flows.mean(axis=1)
    band = np.array([data.experiment_flow(x) or np.nan for x in w])
    ok = np.isfinite(band)
    ax.fill_between(w[ok], band[ok] - data.FLOW_TOLERANCE, band[ok] + data.FLOW_TOLERANCE, color="0.85",
                    label="experiments' mean $\\pm$ 0.5 /s (tolerance)", zorder=0)
    ax.errorbar(w, mean, yerr=[mean - flows.min(axis=1), flows.max(axis=1) - mean], fmt="o-", color="#e7298a",
                ms=7, lw=2, capsize=3, label="contextsteer crowd steering")
    ax.set_xlabel("exit width $w$ (m)")
    ax.set_ylabel("flow $J$ (persons/s)")
    ax.set_xlim(0.3, 2.7)
    ax.set_ylim(0, 6.2)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8.5, frameon=False)
    ax.set_title(title, fontsize=10)
    return fig


def main(argv=None) -> int:
    p = report.parser(__doc__.split("\n\n")[0])
    p.add_argument("--widths", type=float, nargs="+", help="exit widths, metres (default: 0.8 1.0 1.2 1.6 1.8 "
                   "2.0 2.5; --quick: 0.8 1.2 1.8 2.5)")
    p.add_argument("--time", type=float, default=300.0, help="seconds simulated at most per run (default 300)")
    args = p.parse_args(argv)
    widths = args.widths or (QUICK_WIDTHS if args.quick else WIDTHS)
    seeds = report.seeds_of(args)
    print(f"bottleneck: {AGENTS} agents, radius {RADIUS} m, free speed {FREE_SPEED} m/s, dt {DT} s, seeds "
          f"{' '.join(map(str, seeds))}, at most {args.time:g} s; flow between the 10th and 90th percentile of "
          "crossings")
    flows, rows, verdicts, cpu = [], [], [], 0.0
    for w, experiments in experiment_rows(widths):
        results = []
        for seed in seeds:
            crossings, seconds = run(default_world(scene(w, seed=seed)), args.time)
            cpu += seconds
            results.append(measures.exit_flow(crossings))
        flow = [r.flow for r in results]
        inside = [r.agents - r.crossed for r in results]
        flows.append(flow)
        reference = data.experiment_flow(w)
        rows.append([f"{w:g} m", float(np.mean(flow)), f"{min(flow):.2f}-{max(flow):.2f}",
                     f"{np.mean([r.last for r in results]):.0f} s", f"{max(inside)}",
                     "-" if reference is None else float(reference), experiments])
        if reference is not None:
            off = float(np.mean(flow)) - reference
            verdicts.append(report.Verdict(f"flow at {w:g} m", abs(off) <= data.FLOW_TOLERANCE,
                                           f"{np.mean(flow):.2f} /s against {reference:.2f} ({off:+.2f}, tolerance "
                                           f"{data.FLOW_TOLERANCE})"))
        verdicts.append(report.Verdict(f"all out at {w:g} m", max(inside) == 0,
                                       f"{max(inside)} of {AGENTS} still inside after {args.time:g} s (worst seed)"))
    print(report.table(["width", "flow (1/s)", "seeds' range", "last out", "left inside",
                        "experiments' mean", "experiments (1/s)"], rows))
    print(f"CPU time of the runs: {cpu:.0f} s")
    report.save(figure(widths, flows, f"Bottleneck: {AGENTS} agents, r = {RADIUS} m, $v_0$ = {FREE_SPEED} m/s, "
                       f"{len(seeds)} seed(s)"), args.out, "bottleneck")
    return report.conclude("bottleneck", verdicts, args.check)


if __name__ == "__main__":
    report.exit_with(main())
