"""The public crowd steering at scale, beside ORCA (RVO2, through pyrvo: ``pip install
contextsteer[orca]``) on the same crowd in the same run: the time to build the steering
and the CPU time of a step (median, mean and max over the timed steps).

    python benchmarks/bench_crowd_scale.py [--scenes crossing-200 ... disc-100000] [--steps 100]
                                           [--orca-steps 20]

Each scene is a :class:`~contextsteer.Scenario` of starts, targets, walls and bounds as a
new user writes it (no groups, no goal areas), steered by ``cs.crowd_steering(scene,
radius=...)`` at its defaults and ``crowd.world(max_speed=1.5)``, stepped by 0.05 s
(0.1 s for the disc) on one thread:

- ``crossing-N``: a four-way crossing at constant density on open ground. Each of four
  groups is a square block of N/4 agents 1 m apart whose near edge lies 12 m from the
  centre; it heads for a looser block (1.4 m apart) across. The square is 50, 95 and 180
  m across at 200, 2,000 and 10,000 agents (radius 0.3 m).
- ``station-10000``: a station of 6 x 4 halls, each 40 m square with nine pillars,
  joined by 4 m doors in every wall between them: 10,000 agents (radius 0.3 m) start in
  the western three columns of halls, 1 m apart, and each heads for the mirror place in
  the eastern three.
- ``disc-100000``: the disc scene of bench_disc.py (100,000 agents of radius 0.5 m filling
  a disc 3 km across, each heading for its antipodal point).

Build: process CPU time of ``cs.crowd_steering``. Step: process CPU time of each
``World.step``, from the first; ORCA: of each ``do_step`` (its preferred velocities, set
from Python, not counted), straight toward the agent's target at full speed, neighbours
within 5 m (at most 10), time horizons 2 s and 0.5 s, walls as thin rectangles. ``mean /
ORCA``: contextsteer's mean step over ORCA's (at most 1 is no slower); ``max / median``:
the worst step over the median one (how much a step hitches).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import contextsteer as cs
from bench_disc import disc
from timing import machine_line

ORCA_NEIGHBOR_DIST, ORCA_MAX_NEIGHBORS, ORCA_TIME_HORIZON, ORCA_TIME_HORIZON_OBST = 5.0, 10, 2.0, 0.5
WALL_THICKNESS = 0.02  # metres, of the rectangle ORCA gets for a wall segment


def crossing(agents: int) -> cs.Scenario:
    """The four-way crossing of ``agents`` (a multiple of 4 with a square quarter)."""
    k = int(round(np.sqrt(agents / 4)))
    half = 12 + 1.4 * (k - 1) + max(5.0, 0.1 * k)  # the target blocks' far edge and a margin
    half = {7: 25.0, 22: 47.5, 50: 90.0}.get(k, half)  # the squares
    own = np.array([(12 + i, -(k - 1) / 2 + j) for i in range(k) for j in range(k)], dtype=float)
    across = np.array([(-12 - 1.4 * i, 1.4 * (-(k - 1) / 2 + j)) for i in range(k) for j in range(k)], dtype=float)
    starts, targets = [], []
    for quarter in range(4):
        c, s = np.cos(quarter * np.pi / 2), np.sin(quarter * np.pi / 2)
        turn = np.array([[c, -s], [s, c]])
        starts.append(own @ turn.T)
        targets.append(across @ turn.T)
    return cs.Scenario(f"crossing-{4 * k * k}", np.vstack(starts), np.vstack(targets),
                       bounds=(-half, -half, half, half))


def station(agents: int = 10_000, columns: int = 6, rows: int = 4, hall: float = 40.0, door: float = 4.0):
    """Halls joined by doors, with pillars; agents cross from the western halls to the eastern."""
    width, height = columns * hall, rows * hall
    x0, y0 = -width / 2, -height / 2
    segments = []
    for i in range(1, columns):  # the walls between columns, a door in each hall's
        x = x0 + i * hall
        for j in range(rows):
            a, b = y0 + j * hall, y0 + (j + 1) * hall
            m = (a + b) / 2
            segments += [(x, a, x, m - door / 2), (x, m + door / 2, x, b)]
    for j in range(1, rows):
        y = y0 + j * hall
        for i in range(columns):
            a, b = x0 + i * hall, x0 + (i + 1) * hall
            m = (a + b) / 2
            segments += [(a, y, m - door / 2, y), (m + door / 2, y, b, y)]
    pillars = [(x0 + (i + 0.5) * hall + dx, y0 + (j + 0.5) * hall + dy, 0.6)
               for i in range(columns) for j in range(rows) for dx in (-10, 0, 10) for dy in (-10, 0, 10)]
    # Starts: in the western halls, on a 1 m lattice clear of walls and pillars by 1 m.
    xs = np.arange(x0 + 1.5, x0 + columns // 2 * hall - 1.0, 1.0)
    ys = np.arange(y0 + 1.5, y0 + height - 1.0, 1.0)
    grid = np.array([(x, y) for y in ys for x in xs])
    pillar = np.array(pillars)
    clear = np.min(np.hypot(grid[:, None, 0] - pillar[None, :, 0], grid[:, None, 1] - pillar[None, :, 1]), axis=1) > 1.6
    to_wall_x = np.abs(((grid[:, 0] - x0) + hall / 2) % hall - hall / 2)
    to_wall_y = np.abs(((grid[:, 1] - y0) + hall / 2) % hall - hall / 2)
    clear &= (to_wall_x > 1.0) & (to_wall_y > 1.0)
    starts = grid[clear]
    rng = np.random.default_rng(0)
    starts = starts[np.sort(rng.choice(len(starts), agents, replace=False))]
    targets = starts * [-1, 1]
    return cs.Scenario(f"station-{agents}", starts, targets, bounds=(x0, y0, x0 + width, y0 + height),
                       segments=np.array(segments), circles=np.array(pillars))


def disc_scene(agents: int) -> cs.Scenario:
    starts = disc(agents).astype(np.float64)
    half = float(np.abs(starts).max()) + 5.0
    return cs.Scenario(f"disc-{agents}", starts, -starts, bounds=(-half, -half, half, half))


SCENES = {"crossing-200": (lambda: crossing(196), 0.3, 0.05), "crossing-2000": (lambda: crossing(1936), 0.3, 0.05),
          "crossing-10000": (lambda: crossing(10_000), 0.3, 0.05), "station-10000": (station, 0.3, 0.05),
          "disc-100000": (lambda: disc_scene(100_000), 0.5, 0.1)}


def contextsteer_times(scene, radius: float, dt: float, steps: int) -> tuple[float, int, np.ndarray]:
    start = time.process_time()
    crowd = cs.crowd_steering(scene, radius=radius)
    build = time.process_time() - start
    world = crowd.world(max_speed=1.5)
    spent = np.empty(steps)
    for k in range(steps):
        start = time.process_time()
        world.step(dt)
        spent[k] = time.process_time() - start
    return build, len(crowd.fields), spent


def orca_times(scene, radius: float, dt: float, steps: int) -> np.ndarray:
    import pyrvo

    sim = pyrvo.RVOSimulator()
    sim.set_time_step(dt)
    sim.set_agent_defaults(ORCA_NEIGHBOR_DIST, ORCA_MAX_NEIGHBORS, ORCA_TIME_HORIZON, ORCA_TIME_HORIZON_OBST, radius,
                           1.5)
    for a, b in zip(scene.segments[:, :2], scene.segments[:, 2:]):
        along = (b - a) / np.linalg.norm(b - a)
        side = np.array([-along[1], along[0]]) * WALL_THICKNESS / 2
        sim.add_obstacle([list(map(float, p)) for p in (a - side, b - side, b + side, a + side)])
    sim.process_obstacles()
    for start in scene.starts:
        sim.add_agent([float(start[0]), float(start[1])])
    n = len(scene.starts)
    spent = np.empty(steps)
    for k in range(steps):
        positions = np.array([sim.get_agent_position(i).to_tuple() for i in range(n)])
        offset = scene.targets - positions
        distance = np.maximum(np.linalg.norm(offset, axis=1), 1e-9)
        preferred = offset / distance[:, None] * np.minimum(1.5, distance / dt)[:, None]
        for i in range(n):
            sim.set_agent_pref_velocity(i, [float(preferred[i, 0]), float(preferred[i, 1])])
        start = time.process_time()
        sim.do_step()
        spent[k] = time.process_time() - start
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", nargs="+", default=list(SCENES), choices=list(SCENES))
    parser.add_argument("--steps", type=int, default=100, help="contextsteer steps timed (the disc: a tenth)")
    parser.add_argument("--orca-steps", type=int, default=20, help="ORCA steps timed (the disc: a tenth, at least 2)")
    args = parser.parse_args()
    print("the crowd steering at its defaults against ORCA, process CPU time, one thread")
    print(machine_line())
    print(f"{'scene':>15} {'agents':>7} {'fields':>6} {'build s':>8} {'median ms':>10} {'mean ms':>8} {'max ms':>8} "
          f"{'ORCA mean':>10} {'mean/ORCA':>10} {'max/median':>11}")
    for name in args.scenes:
        make, radius, dt = SCENES[name]
        scene = make()
        big = len(scene.starts) > 50_000
        build, fields, spent = contextsteer_times(scene, radius, dt, max(5, args.steps // 10) if big else args.steps)
        orca = orca_times(scene, radius, dt, max(2, args.orca_steps // 10) if big else args.orca_steps)
        median, mean, worst = 1e3 * np.median(spent), 1e3 * spent.mean(), 1e3 * spent.max()
        print(f"{name:>15} {len(scene.starts):>7} {fields:>6} {build:>8.2f} {median:>10.2f} {mean:>8.2f} "
              f"{worst:>8.2f} {1e3 * orca.mean():>10.2f} {mean / (1e3 * orca.mean()):>10.2f} "
              f"{worst / median:>11.2f}", flush=True)


if __name__ == "__main__":
    main()
