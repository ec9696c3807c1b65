"""Times building navigation fields of growing size, and reading them: direction_at for
many points at once, path_from, and one world step among many obstacles, with and without
FollowField (and with Rays, among the pillars and along a spiral wall); last, the same
step with obstacles far apart, and building the obstacles' index (circles spread out or
piled up, short walls, obstacles far apart).

    python benchmarks/bench_field.py [--sizes 100000 1000000 4000000]

The scene: a square room with a field of pillars (one circle per 25 m^2) and a wall with
a door across its middle, the goal in a corner; the cell is chosen so that the grid has
about the number of cells asked for. Memory per cell is the field's own arrays (17 bytes:
distance, direction, blocked, cost) plus the build's scratch, which is freed.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import contextsteer as cs
from timing import machine_line, median_time

SIDE = 200.0  # metres


def obstacles() -> tuple[np.ndarray, np.ndarray]:
    """Pillars on a 5 m grid (radius 0.5 m, none near the goal or the door) and a wall
    across the middle with a 4 m door."""
    xs = np.arange(5.0, SIDE, 5.0)
    gx, gy = np.meshgrid(xs, xs)
    pillars = np.column_stack([gx.ravel() + 2.5, gy.ravel(), np.full(gx.size, 0.5)])
    keep = (np.hypot(pillars[:, 0] - 195, pillars[:, 1] - 195) > 4) & (np.abs(pillars[:, 1] - SIDE / 2) > 3)
    walls = np.array([[0.0, SIDE / 2, SIDE / 2 - 2, SIDE / 2], [SIDE / 2 + 2, SIDE / 2, SIDE, SIDE / 2]])
    return pillars[keep], walls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000, 4_000_000],
                        help="about how many cells each field has")
    args = parser.parse_args()
    pillars, walls = obstacles()
    print(f"navigation fields over a {SIDE:g} m square: {len(pillars)} pillars, a wall with a door")
    print(machine_line())
    print(f"{'cells':>10} {'cell (m)':>9} {'build (s)':>10} {'MB kept':>8} {'direction_at (us/pt)':>21} "
          f"{'path_from (ms)':>15}")
    rng = np.random.default_rng(0)
    points = rng.uniform(1, SIDE - 1, (100_000, 2))
    for size in args.sizes:
        cell = SIDE / np.sqrt(size)
        start = time.perf_counter()
        field = cs.NavigationField([195.0, 195.0], area=(0, 0, SIDE, SIDE), cell=float(cell), clearance=0.3,
                                   circles=pillars, segments=walls)
        build = time.perf_counter() - start
        rows, columns = field.shape
        kept = (field.distances.nbytes + field.directions.nbytes + field.blocked.nbytes
                + field.costs.nbytes) / 1e6
        per_point = median_time(lambda f=field: f.direction_at(points), 5) / len(points) * 1e6
        path = median_time(lambda f=field: f.path_from([5.0, 5.0]), 5) * 1e3
        print(f"{rows * columns:>10} {cell:>9.3f} {build:>10.2f} {kept:>8.1f} {per_point:>21.3f} {path:>15.2f}")

    # One step of a world among the pillars, reading the field or not: Arrive + Avoid
    # (agents within 1 m, and the 1,480 pillars and the wall), 16 slots, agents spread
    # over the lower half of the square (10 and 2 m^2 each).
    field = cs.NavigationField([195.0, 195.0], area=(0, 0, SIDE, SIDE), cell=0.25, clearance=0.3,
                               circles=pillars, segments=walls)
    for agents in (2_000, 10_000):
        starts = rng.uniform(1, SIDE / 2 - 2, (agents, 2))
        for with_field in (False, True):
            head = [cs.FollowField(field), cs.Arrive(weight=0.5)] if with_field else [cs.Arrive()]
            pipeline = cs.Pipeline([*head, cs.Avoid(agents=True, max_distance=1.0)], slots=16, select="blend")
            world = cs.World(pipeline, starts, targets=np.tile([195.0, 195.0], (agents, 1)), max_speed=1.4,
                             radius=0.3, circles=pillars, segments=walls)
            step = median_time(lambda w=world: w.step(0.05), 10) * 1e3
            name = "FollowField + Arrive + Avoid" if with_field else "Arrive + Avoid"
            print(f"world step, {agents} agents, {name}: {step:.2f} ms")
        # The pillars as Avoid's own circles instead of the world's (Avoid indexes them
        # itself); the wall stays the world's.
        pipeline = cs.Pipeline([cs.Arrive(), cs.Avoid(pillars, agents=True, max_distance=1.0)], slots=16,
                               select="blend")
        world = cs.World(pipeline, starts, targets=np.tile([195.0, 195.0], (agents, 1)), max_speed=1.4,
                         radius=0.3, segments=walls)
        step = median_time(lambda w=world: w.step(0.05), 10) * 1e3
        print(f"world step, {agents} agents, Arrive + Avoid of its own pillars: {step:.2f} ms")
        # Rays 10 m long (16 of them) against the pillars and the wall.
        pipeline = cs.Pipeline([cs.Arrive(), cs.Avoid(agents=True, max_distance=1.0), cs.Rays(length=10.0)],
                               slots=16, select="blend")
        world = cs.World(pipeline, starts, targets=np.tile([195.0, 195.0], (agents, 1)), max_speed=1.4,
                         radius=0.3, circles=pillars, segments=walls)
        step = median_time(lambda w=world: w.step(0.05), 10) * 1e3
        print(f"world step, {agents} agents, Arrive + Avoid + Rays of 10 m: {step:.2f} ms")

    # Polygons: 10,000 agents over a 400 m square with 0, 50 or 500 hexagons (1-3 m
    # across); the measure stage tests whether each agent is inside one.
    hexagons = []
    for _ in range(500):
        centre, size = rng.uniform(0, 400, 2), rng.uniform(1, 3)
        angles = np.sort(rng.uniform(0, 2 * np.pi, 6))
        hexagons.append(np.column_stack([centre[0] + size * np.cos(angles), centre[1] + size * np.sin(angles)]))
    pipeline = cs.Pipeline([cs.Arrive(), cs.Avoid(agents=True, max_distance=1.0)], slots=16, select="blend")
    for count in (0, 50, 500):
        world = cs.World(pipeline, rng.uniform(0, 400, (10_000, 2)), targets=rng.uniform(0, 400, (10_000, 2)),
                         polygons=hexagons[:count], max_speed=1.4, radius=0.3)
        step = median_time(lambda w=world: w.step(0.05), 10) * 1e3
        print(f"world step, 10000 agents among {count} polygons: {step:.2f} ms "
              f"(measure stage {world.stage_times['measure'] * 1e3:.2f} ms)")

    rays_along_a_spiral(rng)
    far_apart(rng)


def rays_along_a_spiral(rng: np.random.Generator) -> None:
    """The step of 10,000 agents (Arrive + Avoid within 1 m) over a 200 m square crossed by
    a spiral wall of 4,000 short legs, without and with Rays 10 m long; and with Avoid
    within 3 m, which meets more legs."""
    turns = np.linspace(0, 40 * np.pi, 4001)
    points = 100 + 0.5 * np.column_stack([(50 + 3 * turns) * np.cos(turns), (50 + 3 * turns) * np.sin(turns)])
    legs = np.column_stack([points[:-1], points[1:]])
    agents = rng.uniform(0, SIDE, (10_000, 2))
    print("\nworld step, 10000 agents along a spiral wall of 4,000 legs")
    for name, reach, rays in (("Arrive + Avoid", 1.0, False), ("Arrive + Avoid + Rays of 10 m", 1.0, True),
                              ("Arrive + Avoid within 3 m", 3.0, False)):
        behaviours = [cs.Arrive(), cs.Avoid(agents=True, max_distance=reach)] + ([cs.Rays(length=10.0)] if rays else [])
        world = cs.World(cs.Pipeline(behaviours, slots=16, select="blend"), agents, targets=agents[::-1].copy(),
                         max_speed=1.4, radius=0.3, segments=legs)
        step = median_time(lambda w=world: w.step(0.05), 5) * 1e3
        print(f"{name:<40} {step:>10.2f} ms")


def far_apart(rng: np.random.Generator) -> None:
    """The 10,000-agent step of Arrive + Avoid among the pillars, with obstacles far off:
    one more pillar at growing distances, bounds far wider than the room, or the room
    copied into 20 towns over a 100 km square (500 agents in each). The obstacles' index
    sizes its cells by where the obstacles are, not by the box round them all, so each
    case should cost about what the room alone costs."""
    pillars, walls = obstacles()
    agents = 10_000
    starts = rng.uniform(1, SIDE / 2 - 2, (agents, 2))
    pipeline = cs.Pipeline([cs.Arrive(), cs.Avoid(agents=True, max_distance=1.0)], slots=16, select="blend")

    def step(circles, segments, positions=starts, bounds=None) -> float:
        world = cs.World(pipeline, positions, targets=np.tile([195.0, 195.0], (len(positions), 1)),
                         max_speed=1.4, radius=0.3, circles=circles, segments=segments, bounds=bounds)
        return median_time(lambda: world.step(0.05), 10) * 1e3

    print(f"\nworld step, {agents} agents among the pillars, with obstacles far off")
    print(f"{'case':<40} {'step (ms)':>10}")
    print(f"{'the room alone':<40} {step(pillars, walls):>10.2f}")
    for distance in (1e3, 1e4, 1e5, 1e6):
        far = np.vstack([pillars, [distance, distance, 0.5]])
        print(f"{f'one more pillar {distance:.0e} m away':<40} {step(far, walls):>10.2f}")
    for side in (1e3, 1e4, 1e5, 1e6):
        print(f"{f'bounds {side:.0e} m wide':<40} {step(pillars, walls, bounds=(-10, -10, side, side)):>10.2f}")
    corners = rng.uniform(0, 1e5, (20, 2))
    towns = np.vstack([pillars + [x, y, 0] for x, y in corners])
    town_walls = np.vstack([walls + [x, y, x, y] for x, y in corners])
    people = np.vstack([starts[:agents // 20] + corner for corner in corners])
    print(f"{'20 towns over 100 km':<40} {step(towns, town_walls, people):>10.2f}")

    index_builds(rng, pillars, walls, towns, town_walls)


def index_builds(rng: np.random.Generator, pillars, walls, towns, town_walls) -> None:
    """What the obstacles' index costs to build: Avoid indexes its own circles when it is
    made; a world indexes its obstacles at its first step (timed here with one agent)."""
    pipeline = cs.Pipeline([cs.Avoid(max_distance=1.0)])

    def first_step(circles=None, segments=None) -> float:
        return median_time(lambda: cs.World(pipeline, np.zeros((1, 2)), circles=circles,
                                            segments=segments).step(0.05), 5) * 1e3

    print(f"\n{'obstacles':<48} {'index built (ms)':>16}")
    for count in (10_000, 100_000, 1_000_000):
        circles = np.column_stack([rng.uniform(0, 3000, (count, 2)), np.full(count, 0.5)])
        build = median_time(lambda c=circles: cs.Avoid(c), 5) * 1e3
        print(f"{f'{count} circles of 0.5 m over 3 km, by Avoid':<48} {build:>16.1f}")
    pile = np.column_stack([rng.normal(0, 1, (100_000, 2)), np.full(100_000, 0.2)])
    build = median_time(lambda: cs.Avoid(pile), 5) * 1e3
    print(f"{'100000 circles piled over each other, by Avoid':<48} {build:>16.1f}")
    starts = rng.uniform(0, 3000, (200_000, 2))
    short_walls = np.column_stack([starts, starts + rng.normal(0, 5, (200_000, 2))])
    print(f"{'200000 walls ~5 m long over 3 km, by a world':<48} {first_step(segments=short_walls):>16.1f}")
    print(f"{'the room with one more pillar 100 km away':<48} "
          f"{first_step(np.vstack([pillars, [1e5, 1e5, 0.5]]), walls):>16.1f}")
    print(f"{'20 towns over 100 km, by a world':<48} {first_step(towns, town_walls):>16.1f}")

    # Circles far larger than cells of one each over their box (overlapping in a pile)
    # cross hundreds of them: were they listed apart, every query would meet them all.
    print(f"\n{'world step, 2000 agents by 20000 piled circles':<48} {'step (ms)':>16}")
    starts = rng.uniform(-30, 30, (2000, 2))
    avoid = cs.Pipeline([cs.Arrive(), cs.Avoid(max_distance=2.0)], slots=16, select="blend")
    for radius in (0.2, 1.0):
        piled = np.column_stack([rng.normal(0, 3, (20_000, 2)), np.full(20_000, radius)])
        world = cs.World(avoid, starts, targets=-starts, max_speed=1.4, radius=0.3, circles=piled)
        step = median_time(lambda w=world: w.step(0.05), 5) * 1e3
        print(f"{f'circles of radius {radius} m':<48} {step:>16.1f}")


if __name__ == "__main__":
    main()
