"""The corridor of the fundamental diagrams, one-way and two-way, at a set density.

The library has no periodic boundary, so a density is set the way a long experiment
holds it: the corridor (walls along y = +-width/2, from x = -60 to 60 m) is filled over
44 m (x from -22 to 22) with agents at the set density, on a hexagonal lattice over the
full width less a body and 5 cm at each wall (each agent up to a few cm off its point, at
random by the seed). Every agent walks east to a goal area at x = 52-58 m or, in the
two-way corridor, half of them (at random) west to one at x = -58 to -52 m. The density
and the speed are measured in the middle, an area 4 m long over the corridor's full
width (x from -2 to 2 m), from 4 s (when the crowd has set off) to 14 s: in that time
neither end of the filled stretch nor the disturbance that the free head of the crowd
sends back reaches the area (the tail, walking at free speed, would need about 15 s;
the head's wave, slower than walking, longer), so the area holds a crowd of the set
density in a steady state. The density reported is the one measured in the area, not
the one set.

The steering is the public crowd steering at its defaults, as a user writes it::

    scene = cs.Scenario(name, starts, targets, bounds=..., segments=walls, goal_areas=..., groups=...)
    world = cs.crowd_steering(scene, radius=0.25).world(max_speed=1.34)

stepped by 0.05 s on one thread.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import measures
import numpy as np

import contextsteer as cs

RADIUS = 0.25
FREE_SPEED = 1.34
DT = 0.05
FILLED = (-22.0, 22.0)  # metres: the stretch filled at the set density
END = 60.0  # metres: the walls run from -END to END
GOAL = (52.0, 58.0)  # metres from the middle: the goal areas' span along the corridor
AREA_LENGTH = 4.0  # metres: the measurement area's length, centred on x = 0
WINDOW = (4.0, 14.0)  # seconds: the measurement's time window
WALL_GAP = 0.05  # metres between the lattice's outer rows and a wall, past a body's radius


def lattice(n: int, box: tuple[float, float, float, float], rng: np.random.Generator) -> np.ndarray:
    """``n`` points of the densest-spaced hexagonal lattice (rows along x) that fits at least
    ``n`` points in ``box`` ``(x0, y0, x1, y1)``, a random ``n`` of them, each moved by up to
    a quarter of the room between neighbours' bodies (at most 5 cm) at random."""
    x0, y0, x1, y1 = box

    def points(a):
        rows = np.arange(y0, y1 + 1e-9, a * np.sqrt(3) / 2)
        out = [(x, y) for i, y in enumerate(rows) for x in np.arange(x0 + (a / 2 if i % 2 else 0.0), x1 + 1e-9, a)]
        return np.array(out)

    low, high = 2 * RADIUS + 1e-3, 3.0  # spacings: `low` fits at least n (checked below), `high` fewer
    if len(points(low)) < n:
        raise ValueError(f"density: {n} agents of radius {RADIUS} m do not fit {box}")
    for _ in range(40):
        middle = (low + high) / 2
        low, high = (middle, high) if len(points(middle)) >= n else (low, middle)
    grid = points(low)
    chosen = grid[np.sort(rng.choice(len(grid), n, replace=False))]
    jitter = min(0.05, (low - 2 * RADIUS) / 4)
    return chosen + rng.uniform(-jitter, jitter, chosen.shape)


def scene(width: float, density: float, two_way: bool, seed: int = 0) -> tuple[cs.Scenario, np.ndarray]:
    """The corridor ``width`` metres wide filled at ``density`` persons/m^2 (module
    docstring) and each agent's direction ``(n,)``: +1 east, -1 west."""
    rng = np.random.default_rng(seed)
    half = width / 2
    n = int(round(density * width * (FILLED[1] - FILLED[0])))
    inner = half - RADIUS - WALL_GAP
    starts = lattice(n, (FILLED[0] + RADIUS, -inner, FILLED[1] - RADIUS, inner), rng)
    direction = np.ones(n)
    if two_way:
        direction[rng.choice(n, n // 2, replace=False)] = -1
    order = np.argsort(-direction, kind="stable")  # the east group first, then the west: a group's rows together
    starts, direction = starts[order], direction[order]
    east = np.array([GOAL[0], -half, GOAL[1], half])
    west = np.array([-GOAL[1], -half, -GOAL[0], half])
    # each agent's target: a point of its goal area, at random (the run ends long before any gets there)
    targets = np.column_stack([rng.uniform(GOAL[0] + 0.5, GOAL[1] - 0.5, n) * direction,
                               rng.uniform(-inner, inner, n)])
    walls = np.array([[-END, -half, END, -half], [-END, half, END, half], [-END, -half, -END, half],
                      [END, -half, END, half]])
    groups = (direction < 0).astype(int)
    goal_areas = np.array([east, west]) if two_way else east[None, :]
    name = f"{'two' if two_way else 'one'}-way corridor {width:g} m at {density:g} /m^2"
    return cs.Scenario(name, starts, targets, bounds=(-END - 0.5, -half - 0.5, END + 0.5, half + 0.5),
                       segments=walls, goal_areas=goal_areas, groups=groups,
                       goal_area_groups=[0, 1] if two_way else [0]), direction


def default_world(corridor: cs.Scenario) -> cs.World:
    """The public crowd steering's world of ``corridor``, at its defaults, on one thread."""
    return cs.crowd_steering(corridor, radius=RADIUS).world(max_speed=FREE_SPEED, threads=1)


@dataclass(frozen=True)
class CorridorRun:
    """One run's measures: ``measure`` in the area over :data:`WINDOW`, the lane index at
    the start and over the window's last 4 s, the positions at the window's end, and the
    CPU seconds."""

    set_density: float
    measure: measures.AreaMeasure
    lanes_start: float
    lanes_end: float
    final_positions: np.ndarray
    direction: np.ndarray
    cpu: float


def run(width: float, density: float, two_way: bool, seed: int = 0, make_world=default_world) -> CorridorRun:
    """Runs the corridor (``make_world(scene)`` builds its world) to the window's end and measures it."""
    corridor, direction = scene(width, density, two_way, seed)
    world = make_world(corridor)
    start = time.process_time()
    rec = world.run(int(round(WINDOW[1] / DT)), DT, record=["positions", "velocities"])
    cpu = time.process_time() - start
    area = (-AREA_LENGTH / 2, -width / 2, AREA_LENGTH / 2, width / 2)
    measure = measures.area_measure(rec.time, rec.positions, rec.velocities, area, WINDOW, direction)
    lanes = measures.lane_index(rec.positions, direction, area)
    late = rec.time >= WINDOW[1] - 4.0
    return CorridorRun(density, measure, float(lanes[0]), float(np.nanmean(lanes[late])),
                       np.array(rec.positions[-1]), direction, cpu)


def draw_runs(left, right, runs, *, speed_label: str, max_density: float) -> None:
    """The model's runs on a fundamental diagram's two axes: speed against density on
    ``left`` (with the runs' spread as error bars), specific flow on ``right``; the axes'
    labels, limits and grid, and the left legend."""
    d = np.array([r.measure.density for r in runs])
    v = np.array([r.measure.speed for r in runs])
    left.errorbar(d, v, xerr=[r.measure.density_std for r in runs], yerr=[r.measure.speed_std for r in runs],
                  fmt="o", color="#e7298a", ms=6, capsize=2, lw=1, label="contextsteer crowd steering")
    right.plot(d, d * v, "o", color="#e7298a", ms=6, label="contextsteer crowd steering")
    left.set_ylabel(speed_label)
    right.set_ylabel("specific flow $J_s = \\rho v$ (1/(m s))")
    for ax in (left, right):
        ax.set_xlabel("density $\\rho$ (1/m$^2$)")
        ax.set_xlim(0, max_density)
        ax.grid(alpha=0.3)
    left.set_ylim(0, 1.9)
    right.set_ylim(0, 2.2)
    left.legend(loc="upper right", fontsize=8.5, frameon=False)
