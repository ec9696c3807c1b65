"""Why the one-way corridor walks faster than Weidmann's curve: the corridor of
fundamental_diagram.py with each agent's speed capped, between steps, by the room ahead
of it, as the collision-free speed model (Tordeux, Chraibi and Seyfried 2016) sets it:
``min(v0, max(0, (s - 2 r) / T))``, ``s`` the distance to the nearest agent ahead in its
file (its centre ahead along the agent's way, less than a body's width to the side), ``T``
a time gap in seconds.

Anticipate sees no danger in a neighbour that walks its way at its pace, so nothing in the
crowd steering makes the speed depend on the room ahead: a homogeneous one-way crowd
slows only where someone slowed first. People need more room the faster they walk. The
cap is that need, written here between steps into the world's ``max_speed`` (the library
has no such parameter); ``--gaps`` gives the time gaps (0: no cap, the crowd steering as
it is). Prints speed against density beside Weidmann's for each gap. The corridor starts
from rest, packed: above about 2 /m^2 a cap this crude leaves the middle of the crowd
standing until the free head's wave reaches it, after the measurement; only the densities
below tell how a gap would shape the curve.
"""

from __future__ import annotations

import corridor_runs
import data
import measures
import numpy as np
import report

WIDTH = 3.0


def capped_speeds(positions: np.ndarray, direction: np.ndarray, gap: float) -> np.ndarray:
    """``(n,)`` m/s: each agent's speed cap for the time gap ``gap`` (the module docstring)."""
    d = positions[None, :, :] - positions[:, None, :]  # [i, j]: from i to j
    ahead = d[..., 0] * direction[:, None]
    aside = np.abs(d[..., 1])
    in_file = (ahead > 0) & (aside < 2 * corridor_runs.RADIUS)
    room = np.where(in_file, ahead, np.inf).min(axis=1) - 2 * corridor_runs.RADIUS
    return np.clip(room / gap, 0.0, corridor_runs.FREE_SPEED)


def run(density: float, gap: float, seed: int) -> measures.AreaMeasure:
    """The one-way corridor at ``density``, capped by the time gap ``gap`` (0: not capped), measured."""
    corridor, direction = corridor_runs.scene(WIDTH, density, two_way=False, seed=seed)
    world = corridor_runs.default_world(corridor)
    steps = int(round(corridor_runs.WINDOW[1] / corridor_runs.DT))
    positions = np.empty((steps + 1, len(world), 2))
    velocities = np.empty_like(positions)
    positions[0], velocities[0] = world.positions, world.velocities
    for step in range(1, steps + 1):
        if gap > 0:
            world.max_speed[:] = capped_speeds(world.positions.astype(float), direction, gap)
        world.step(corridor_runs.DT)
        positions[step], velocities[step] = world.positions, world.velocities
    times = np.arange(steps + 1) * corridor_runs.DT
    area = (-corridor_runs.AREA_LENGTH / 2, -WIDTH / 2, corridor_runs.AREA_LENGTH / 2, WIDTH / 2)
    return measures.area_measure(times, positions, velocities, area, corridor_runs.WINDOW, direction)


def main(argv=None) -> int:
    p = report.parser(__doc__.split("\n\n")[0])
    p.add_argument("--gaps", type=float, nargs="+", default=[0.0, 0.3, 0.5, 1.0], help="time gaps, seconds")
    p.add_argument("--densities", type=float, nargs="+", default=[0.5, 1.0, 1.5, 2.0, 2.5, 3.0])
    args = p.parse_args(argv)
    seeds = report.seeds_of(args)
    print(f"one-way corridor {WIDTH:g} m, seeds {' '.join(map(str, seeds))}: speed (m/s) at the density measured, "
          "and its difference from Weidmann's")
    rows = []
    for gap in args.gaps:
        row = ["as it is" if gap == 0 else f"T = {gap:g} s"]
        for rho in args.densities:
            runs = [run(rho, gap, s) for s in seeds]
            density = float(np.mean([r.density for r in runs]))
            speed = float(np.mean([r.speed for r in runs]))
            row.append(f"{speed:.2f} ({speed - float(data.weidmann_speed(density)):+.2f})")
        rows.append(row)
        print(f"  {row[0]} done", flush=True)
    print(report.table(["speed cap"] + [f"{rho:g} /m^2" for rho in args.densities], rows))
    return 0


if __name__ == "__main__":
    report.exit_with(main())
