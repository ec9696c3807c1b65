"""The corridor demo: agents chase a target through a corridor of pillars, avoiding them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validation as check
from .behaviors import Avoid, Chase
from .pipeline import Pipeline
from .scenarios import Scenario, corridor
from .world import World


@dataclass(frozen=True)
class MapSnapshot:
    """One agent's maps and decision at one step: ``(S,)`` maps, ``(2,)`` direction."""

    agent: int
    step: int
    interest: np.ndarray
    danger: np.ndarray
    final: np.ndarray
    direction: np.ndarray
    strength: float


@dataclass(frozen=True)
class CorridorRun:
    """The outcome of :func:`run_corridor`.

    trajectories: ``(T + 1, n, 2)`` positions from the start to the last step, metres.
    arrival_step: ``(n,)`` the first step at which each agent was within the arrival
        radius of the target, -1 for an agent that never was.
    snapshot: the watched agent's maps at the step where its danger peaked.
    """

    scenario: Scenario
    trajectories: np.ndarray
    arrival_step: np.ndarray
    snapshot: MapSnapshot
    dt: float
    slots: int


def corridor_pipeline(target, *, slots: int = 16) -> Pipeline:
    """Chase the target and avoid the scene's obstacles within 2.5 m of clearance."""
    return Pipeline([Chase(target), Avoid(max_distance=2.5, world_obstacles=True)], slots=slots, select="blend")


def run_corridor(agents: int = 12, *, steps: int = 1200, dt: float = 0.05, slots: int = 16, seed: int = 0,
                 arrive_radius: float = 1.0, watch: int = 0) -> CorridorRun:
    """Run the corridor scene until every agent has arrived or ``steps`` have passed.

    agents: how many agents; steps: at most this many steps of ``dt`` seconds;
    arrive_radius: metres from the target that count as arrived; watch: the agent whose
    maps are kept for plotting.
    """
    steps = check.count("steps", steps, minimum=1)
    watch = check.count("watch", watch)
    if watch >= agents:
        raise IndexError(f"watch: expected an agent index below agents={agents}, got {watch}")
    scene = corridor(agents, seed=seed)
    world = World(corridor_pipeline(scene.target, slots=slots), scene.starts, max_speed=3.0,
                  max_acceleration=6.0, radius=0.4, circles=scene.obstacles)
    trajectory = [world.positions.copy()]
    arrival = np.full(agents, -1)
    best_danger, snapshot = -1.0, None  # danger is >= 0: the first step always takes a snapshot
    for step in range(1, steps + 1):
        world.step(dt)
        positions = world.positions
        trajectory.append(positions.copy())
        reached = (np.linalg.norm(positions - scene.target, axis=1) <= arrive_radius) & (arrival < 0)
        arrival[reached] = step
        danger = float(world.danger[watch].max())
        if snapshot is None or (arrival[watch] < 0 and danger > best_danger):
            best_danger = danger
            snapshot = MapSnapshot(watch, step, world.interest[watch].copy(), world.danger[watch].copy(),
                                   world.final[watch].copy(), world.direction[watch].copy(),
                                   float(world.strength[watch]))
        if (arrival >= 0).all():
            break
    assert snapshot is not None  # steps >= 1
    return CorridorRun(scene, np.stack(trajectory), arrival, snapshot, dt, slots)


def draw_corridor(run: CorridorRun):
    """A figure: the scene with trajectories, and the watched agent's maps as a polar plot."""
    import matplotlib.pyplot as plt

    from .plotting import plot_context_maps, plot_obstacles, plot_trajectories

    fig = plt.figure(figsize=(13, 4.2), layout="constrained")
    grid = fig.add_gridspec(1, 4)
    ax = fig.add_subplot(grid[0, :3])
    plot_obstacles(run.scenario.obstacles, ax)
    plot_trajectories(run.trajectories, ax)
    ax.plot(*run.scenario.target, marker="*", color="gold", markeredgecolor="black", markersize=16, label="target")
    snap = run.snapshot
    ax.plot(*run.trajectories[snap.step, snap.agent], "o", color="tab:red", markersize=8, label="snapshot")
    x0, y0, x1, y1 = run.scenario.bounds
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    arrived = int((run.arrival_step >= 0).sum())
    ax.set_title(f"corridor: {arrived} of {len(run.arrival_step)} agents reached the target")
    polar = fig.add_subplot(grid[0, 3], projection="polar")
    plot_context_maps({"interest": snap.interest, "danger": snap.danger, "final": snap.final}, polar,
                      direction=snap.direction, strength=snap.strength)
    polar.set_title(f"agent {snap.agent} at step {snap.step} ({run.slots} slots)", fontsize="small")
    return fig


def summary(run: CorridorRun) -> str:
    """How many agents arrived and after how many steps, as printed by the demo."""
    arrived = run.arrival_step[run.arrival_step >= 0]
    text = f"{len(arrived)} of {len(run.arrival_step)} agents reached the target"
    if len(arrived):
        text += (f"; first after {arrived.min()} steps, last after {arrived.max()} steps"
                 f" ({arrived.max() * run.dt:.1f} s at dt = {run.dt} s)")
    return text
