"""Golden hashes: whole runs of the public scenes, the disc scene and a scene that uses every
behaviour, at 1 and 2 threads, hashed (positions, velocities, headings, maps) and compared to
the values recorded in ``golden_hashes.json``.

A change that is meant to leave results alone must leave these hashes alone. A change that
alters results on purpose records new ones, and says so in its commit:

    python tests/python/package/test_golden.py --write
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

import contextsteer as cs
from contextsteer import classic
from contextsteer.demo import DT, scene_setup

GOLDEN = Path(__file__).resolve().parents[1] / "golden_hashes.json"
STEPS = 200


def _digest(world: cs.World, into) -> None:
    for name in ("positions", "velocities", "heading", "interest", "danger", "final", "direction", "strength"):
        into.update(np.ascontiguousarray(getattr(world, name)).tobytes())


def _run(world: cs.World, steps: int, dt: float) -> str:
    h = hashlib.sha256()
    for step in range(1, steps + 1):
        world.step(dt)
        if step % 50 == 0 or step == steps:
            _digest(world, h)
    return h.hexdigest()


def _demo(scene: str, threads: int) -> str:
    geometry, pipeline, parameters = scene_setup(scene)
    world = geometry.world(pipeline, **parameters)
    world.threads = threads
    return _run(world, STEPS, DT)


def _disc(threads: int) -> str:
    n = 3000
    rng = np.random.default_rng(0)
    radius = math.sqrt(70 * n / math.pi)
    r, a = radius * np.sqrt(rng.random(n)), rng.random(n) * 2 * math.pi
    p = np.column_stack([r * np.cos(a), r * np.sin(a)]).astype(np.float32)
    p = p[np.lexsort((p[:, 0], np.floor(p[:, 1] / 10)))]
    pipeline = cs.Pipeline([cs.Chase(), cs.Avoid(agents=True, world_obstacles=False, max_distance=15.0)], slots=16)
    world = cs.World(pipeline, p, targets=-p, max_speed=1.5, max_acceleration=3.0, radius=0.5, threads=threads)
    return _run(world, 100, 0.1)


def _every_behavior(threads: int) -> str:
    """Walls, circles, a polygon, bounds and layers; one pipeline per group of behaviours,
    each with other combination rules; a classic steering beside them."""
    rng = np.random.default_rng(7)
    n = 240
    p = rng.uniform(-18, 18, (n, 2)).astype(np.float32)
    targets = rng.uniform(-18, 18, (n, 2)).astype(np.float32)
    world = cs.World(
        cs.Pipeline([cs.Chase(), cs.Avoid(agents=True, max_distance=2.0, keep_right=0.3)], slots=16),
        circles=[[5.0, 5.0, 1.0], [-6.0, 2.0, 1.5]],
        segments=[[-10.0, -10.0, 10.0, -10.0], [0.0, 12.0, 12.0, 12.0]],
        polygons=[np.array([[-4.0, -4.0], [-2.0, -4.0], [-2.0, -2.0], [-3.0, -1.0]])],
        bounds=(-20.0, -20.0, 20.0, 20.0), threads=threads)
    field = world.navigation_field(goals=[[15.0, 15.0]], cell=0.5)
    pipelines = [
        cs.Pipeline([cs.Arrive(sideways=0.5), cs.Avoid(agents=True, max_distance=2.0),
                     cs.TimeToCollision(radius=6.0)], slots=16, select="blend", interest_rule="mean",
                    danger_rule="sum", blur_danger=0.3, hysteresis=0.2),
        cs.Pipeline([cs.Flee(radius=5.0), cs.Leave(), cs.Forward(strength=0.3), cs.Rays(length=3.0)], slots=16,
                    danger_mode="threshold", threshold=0.6, smooth=0.5, offset=0.1),
        cs.Pipeline([cs.Pursue(), cs.Evade(radius=6.0), cs.Separation(), cs.Alignment(), cs.Cohesion()], slots=16,
                    margin=0.1, blur_interest=0.2, danger_mode="multiply"),
        cs.Pipeline([cs.Wander(seed=3), cs.FollowField(field, sideways=0.3), cs.Avoid(max_distance=1.5)], slots=16),
        cs.Pipeline([cs.FollowPath([[-15.0, -15.0], [0.0, 5.0], [15.0, -5.0]], loop=True),
                     cs.Rays(mode="binary", length=2.0), cs.Avoid(agents=True, max_distance=1.0)], slots=16,
                    danger_mode="min_mask", select="blend"),
        classic.Steering([classic.Arrive(), classic.Evade(), classic.LookWhereYouGo()], combiner="blend"),
        classic.Steering([classic.Flee(priority=1), classic.Pursue(), classic.Face()], combiner="priority"),
    ]
    group = n // (len(pipelines) + 1)
    # Agents anywhere, some in the obstacles (their penetration and the push out of them
    # are part of the run): the world names them.
    with pytest.warns(UserWarning, match="agents start with their body in an obstacle"):
        world.add_agents(p[:group], targets=targets[:group], max_speed=1.5, max_acceleration=4.0, radius=0.3)
        for k, steering in enumerate(pipelines, start=1):
            rows = slice(k * group, (k + 1) * group if k < len(pipelines) else n)
            m = rows.stop - rows.start
            world.add_agents(p[rows], steering=steering, targets=targets[rows], max_speed=rng.uniform(1.0, 2.0, m),
                             max_acceleration=3.0, max_turn_rate=6.0, radius=0.25,
                             target_ids=rng.integers(0, k * group, m), layers=1 + (k % 2),
                             sense_masks=3 if k % 3 else 1)
    world.remove_agents(world.ids[-group::5])  # nobody targets the last group
    return _run(world, STEPS, 0.05)


CASES = {f"{scene}": (lambda t, s=scene: _demo(s, t)) for scene in ("corridor", "swap", "circle", "crossing",
                                                                     "bottleneck")}
CASES["disc"] = _disc
CASES["every_behavior"] = _every_behavior


def _compute() -> dict[str, str]:
    return {f"{name}@{threads}": run(threads) for name, run in CASES.items() for threads in (1, 2)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_runs_hash_as_recorded(name):
    golden = json.loads(GOLDEN.read_text())
    for threads in (1, 2):
        assert CASES[name](threads) == golden[f"{name}@{threads}"], f"{name} at {threads} threads"


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    hashes = _compute()
    GOLDEN.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n")
    print(json.dumps(hashes, indent=1))
