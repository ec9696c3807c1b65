"""A scene's bounds are its walls, as a World's are: every world of a scene has them, and
its agents stay inside them for the whole run."""

import numpy as np
import pytest

import contextsteer as cs

BOUNDS = (-21.0, -12.0, 23.0, 12.0)


def forest(agents: int = 150, seed: int = 0) -> cs.Scenario:
    """Agents crossing a forest of pillars both ways, their starts and targets beyond it,
    up to a metre from the bounds."""
    rng = np.random.default_rng(seed)
    xs, ys = np.meshgrid(np.arange(-8.0, 10.1, 3.0), np.arange(-9.0, 9.1, 3.0))
    pillars = np.column_stack([xs.ravel() + rng.uniform(-0.5, 0.5, xs.size),
                               ys.ravel() + rng.uniform(-0.5, 0.5, xs.size), rng.uniform(0.5, 1.0, xs.size)])
    half = agents // 2

    def west(n):
        return np.column_stack([rng.uniform(-20.0, -13.0, n), rng.uniform(-11.0, 11.0, n)])

    def east(n):
        return np.column_stack([rng.uniform(16.0, 22.0, n), rng.uniform(-11.0, 11.0, n)])

    return cs.Scenario("forest", np.vstack([west(half), east(agents - half)]),
                       np.vstack([east(half), west(agents - half)]), BOUNDS, circles=pillars)


def test_a_crowd_crossing_a_forest_stays_inside_its_bounds():
    scene = forest()
    world = cs.crowd_steering(scene, radius=0.3).world(max_speed=1.5)
    assert world.bounds == BOUNDS
    recording = world.run(1800, 0.05)  # 90 s
    x, y = recording.positions[..., 0], recording.positions[..., 1]
    x0, y0, x1, y1 = BOUNDS
    # Every body inside the walls at every step (to the contact stage's slop), not only its centre.
    beyond = np.max([x0 + 0.3 - x, x - (x1 - 0.3), y0 + 0.3 - y, y - (y1 - 0.3)])
    assert beyond < 1e-3, f"a body reached {beyond:.3f} m beyond the bounds"
    # The walls trap no one: every agent crosses the forest to its target (and may then
    # step aside for those still coming).
    arrived = (np.linalg.norm(recording.positions - scene.targets, axis=2) < 1.0).any(axis=0)
    assert arrived.all(), f"{int((~arrived).sum())} of {len(arrived)} agents did not arrive"


def test_a_scene_world_has_the_scene_bounds_unless_told_otherwise():
    scene = cs.scenarios.corridor(4)
    pipeline = cs.Pipeline([cs.Seek(), cs.Avoid(agents=True)])
    assert scene.world(pipeline).bounds == scene.bounds
    assert scene.world([pipeline]).bounds == scene.bounds  # one steering per group
    assert scene.world(pipeline, bounds=None).bounds is None
    # An agent walking for a target beyond a wall of the bounds stops at it.
    one = cs.Scenario("one", [[0.0, 0.0]], [[4.5, 0.0]], (-5, -1, 5, 1))
    world = one.world(pipeline, max_speed=2.0)
    world.targets[:] = [[50.0, 0.0]]
    world.run(200, 0.05)
    assert world.positions[0, 0] <= 5.0 - float(world.radius[0]) + 1e-3


@pytest.mark.parametrize("name", cs.scenario_file.builtin_names())
def test_every_builtin_scene_has_its_agents_inside_its_bounds(name):
    scene = cs.scenarios.builtin(name)
    x0, y0, x1, y1 = scene.bounds
    for points in (scene.starts, scene.targets):
        assert ((points >= [x0, y0]) & (points <= [x1, y1])).all()
