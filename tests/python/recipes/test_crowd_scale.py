"""The crowd steering at scale: its fields cover the ground their groups walk, not the
map; a map of kilometres builds without a parameter; scattered targets make no more
fields than max_fields; a scene of no agent is a steering of none; the narrowest passage
is measured by the widest way."""

import numpy as np
import pytest

import contextsteer as cs
from contextsteer.model.navigation import widest_way


def test_a_scene_of_no_agent_is_a_steering_of_none():
    scene = cs.Scenario("empty", np.zeros((0, 2)), np.zeros((0, 2)), bounds=(-5, -5, 5, 5),
                        segments=np.array([[0.0, -5.0, 0.0, 0.0]]))
    crowd = cs.crowd_steering(scene, radius=0.3)
    assert crowd.fields == () and len(crowd.groups) == 0
    world = crowd.world(max_speed=1.5)
    assert len(world) == 0
    world.step(0.05)
    assert world.time == pytest.approx(0.05)


def test_a_field_covers_its_groups_ground_not_the_map():
    # Two agents on a map of 3 km: each group's field covers its start and goal with a few
    # metres round them, on cells of 0.25 m; the map alone would need 144 million.
    starts = np.array([[-1000.0, 0.0], [1000.0, 3.0]])
    targets = np.array([[-990.0, 0.0], [1010.0, 3.0]])
    scene = cs.Scenario("far apart", starts, targets, bounds=(-1500, -1500, 1500, 1500),
                        circles=np.array([[-995.0, 0.0, 1.0]]))
    crowd = cs.crowd_steering(scene, radius=0.3)
    for field in crowd.fields:
        assert field.cell == pytest.approx(0.25)
        assert field.shape[0] * field.shape[1] < 200 * 100
    world = crowd.world(max_speed=1.5)
    world.run(400, 0.05)
    np.testing.assert_allclose(world.positions, targets, atol=0.6)


def test_open_ground_on_a_large_map_takes_larger_cells_and_still_leads_home():
    rng = np.random.default_rng(0)
    starts = rng.uniform(-1400, 1400, (400, 2))
    scene = cs.Scenario("open", starts, -starts, bounds=(-1500, -1500, 1500, 1500))
    crowd = cs.crowd_steering(scene, radius=0.5)
    cells = sum(f.shape[0] * f.shape[1] for f in crowd.fields)
    assert cells <= (1 << 22) * 1.1 and len(crowd.fields) <= crowd.max_fields
    # Every agent's field leads toward its target.
    world = crowd.world(max_speed=1.5)
    before = np.linalg.norm(world.positions - world.targets, axis=1)
    world.run(20, 0.1)
    after = np.linalg.norm(world.positions - world.targets, axis=1)
    assert (after < before - 2.0).all()


def test_scattered_targets_among_pillars_make_at_most_max_fields():
    rng = np.random.default_rng(1)
    pillars = np.array([[x, y, 0.4] for x in np.arange(-18, 19, 4.0) for y in np.arange(-18, 19, 4.0)])
    points = rng.uniform(-19, 19, (2000, 2))
    clear = np.min(np.hypot(*(points[:, None, :] - pillars[None, :, :2]).transpose(2, 0, 1)), axis=1) > 1.2
    points = points[clear][:400]
    scene = cs.Scenario("forest", points[:200], points[200:], bounds=(-20, -20, 20, 20), circles=pillars)
    for max_fields in (8, 32):
        crowd = cs.crowd_steering(scene, radius=0.3, max_fields=max_fields)
        assert len(crowd.fields) <= max_fields
        # Every target lies in its group's goal area.
        for row, group in enumerate(crowd.groups):
            x0, y0, x1, y1 = crowd.fields[group].goal_areas[0]
            assert x0 <= scene.targets[row, 0] <= x1 and y0 <= scene.targets[row, 1] <= y1


def test_a_crowd_bound_one_way_for_open_ground_follows_one_field_and_crowds_walking_apart_keep_theirs():
    # 120 agents in a room, bound for places spread over the open ground beyond its door:
    # their targets' squares merge into one goal area, the box round them all.
    rng = np.random.default_rng(3)
    starts = np.column_stack([rng.uniform(-9, -1, 120), rng.uniform(-4.5, 4.5, 120)])
    targets = np.column_stack([rng.uniform(4, 16, 120), rng.uniform(-6, 6, 120)])
    walls = np.array([[0.0, -5.0, 0.0, -0.6], [0.0, 0.6, 0.0, 5.0]])
    exit_scene = cs.Scenario("exit", starts, targets, (-10, -7, 17, 7), segments=walls)
    crowd = cs.crowd_steering(exit_scene, radius=0.25)
    assert len(crowd.fields) == 1
    x0, y0, x1, y1 = crowd.fields[0].goal_areas[0]
    assert (targets >= [x0, y0]).all() and (targets <= [x1, y1]).all()
    # The same crowd, half of it coming back through the door: two ways, fields apart.
    back = cs.Scenario("both ways", np.vstack([starts[:60], targets[60:]]), np.vstack([targets[:60], starts[60:]]),
                       exit_scene.bounds, segments=walls)
    crowd = cs.crowd_steering(back, radius=0.25)
    assert len(set(crowd.groups[:60]) & set(crowd.groups[60:])) == 0
    # Places bound the same way but on both sides of a wall: the box round both would
    # hold the wall, so they are not merged.
    split = cs.Scenario("split", starts[:40], np.column_stack([np.full(40, 10.0), np.repeat([-4.0, 4.0], 20)]),
                        (-10, -7, 17, 7), segments=np.vstack([walls, [[8.0, 0.0, 12.0, 0.0]]]))
    crowd = cs.crowd_steering(split, radius=0.25)
    assert crowd.groups[0] != crowd.groups[-1]


def test_the_widest_way_is_half_the_narrowest_door():
    walls = np.array([[10.0, 0.0, 10.0, 4.0], [10.0, 6.0, 10.0, 10.0]])
    goal = [[17.0, 3.0, 19.0, 7.0]]
    width = widest_way(goal, [[2.0, 5.0]], area=(0, 0, 20, 10), cell=0.05, cap=3.0, segments=walls)
    assert width == pytest.approx(1.0, abs=0.05)
    assert widest_way(goal, [[2.0, 5.0]], area=(0, 0, 20, 10), cell=0.05, cap=0.5, segments=walls) == 0.5
    with pytest.raises(ValueError, match="cell: expected"):
        widest_way(goal, [[2.0, 5.0]], area=(0, 0, 20, 10), cell=0.0, cap=1.0)
    with pytest.raises(ValueError, match="take a larger cell"):
        widest_way(goal, [[2.0, 5.0]], area=(0, 0, 1e5, 1e5), cell=0.01, cap=1.0)
