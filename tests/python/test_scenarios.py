"""The ready-made scenes (contextsteer.scenarios): their geometry, their worlds, and runs."""

import numpy as np
import pytest

import contextsteer as cs
from contextsteer import scenarios


def closest_pair(points):
    d = np.linalg.norm(points[:, None] - points[None], axis=2)
    return (d + np.diag(np.full(len(points), np.inf))).min()


def inside(points, bounds):
    x0, y0, x1, y1 = bounds
    return ((points[:, 0] >= x0) & (points[:, 0] <= x1) & (points[:, 1] >= y0) & (points[:, 1] <= y1)).all()


def arrive_and_avoid(sense=3.0):
    return cs.Pipeline([cs.Arrive(), cs.Avoid(agents=True, max_distance=sense)], slots=16, select="blend")


def test_swap_crowds_face_each_other_and_head_for_their_mirror_images():
    scene = scenarios.swap(101, spacing=4.0, columns=5, gap=30.0, seed=3)
    west, east = scene.starts[:50], scene.starts[50:]
    assert len(scene.starts) == 101 and (west[:, 0] < -15 + 1.2 + 1e-9).all() and (east[:, 0] > 15 - 1.2).all()
    np.testing.assert_array_equal(scene.targets, scene.starts * [-1, 1])
    assert closest_pair(scene.starts) >= 0.4 * 4.0 - 1e-9   # places 4 m apart, each up to 1.2 m off
    assert inside(scene.starts, scene.bounds) and inside(scene.targets, scene.bounds)
    with pytest.raises(ValueError, match="target: the agents of scenario 'swap' do not share one target"):
        _ = scene.target


def test_circle_agents_cross_to_the_opposite_point():
    scene = scenarios.circle(12, radius=8.0)
    np.testing.assert_allclose(np.linalg.norm(scene.starts, axis=1), 8.0)
    np.testing.assert_allclose(scene.targets, -scene.starts)
    np.testing.assert_allclose(scene.starts[0], [8.0, 0.0])
    np.testing.assert_allclose(closest_pair(scene.starts), 2 * 8.0 * np.sin(np.pi / 12))
    turned = scenarios.circle(12, radius=8.0, seed=1)
    assert not np.allclose(turned.starts, scene.starts)
    np.testing.assert_allclose(np.linalg.norm(turned.starts, axis=1), 8.0)
    # Jitter moves the starts (up to 0.5 m along each axis), not the targets.
    shaken = scenarios.circle(12, radius=8.0, jitter=0.5)
    np.testing.assert_array_equal(shaken.targets, scene.targets)
    moved = np.abs(shaken.starts - scene.starts)
    assert moved.max() <= 0.5 and moved.max() > 0.25
    np.testing.assert_array_equal(scenarios.circle(12, radius=8.0, jitter=0.5).starts, shaken.starts)
    assert not np.array_equal(scenarios.circle(12, radius=8.0, jitter=0.5, seed=2).starts, shaken.starts)


def test_crossing_streams_walk_east_and_north_through_the_origin():
    scene = scenarios.crossing(30, width=6.0, depth=12.0, approach=5.0, seed=2)
    east, north = slice(0, 15), slice(15, 30)
    assert (scene.starts[east, 0] <= -5.0 + 0.3).all() and (np.abs(scene.starts[east, 1]) <= 3.0 + 0.3).all()
    np.testing.assert_array_equal(scene.targets[east], scene.starts[east] * [-1, 1])
    assert (scene.starts[north, 1] <= -5.0 + 0.3).all() and (np.abs(scene.starts[north, 0]) <= 3.0 + 0.3).all()
    np.testing.assert_array_equal(scene.targets[north], scene.starts[north] * [1, -1])
    assert closest_pair(scene.starts[east]) >= 0.6 * 1.5 - 1e-9


def test_bottleneck_room_holds_the_agents_and_its_door_is_the_way_out():
    scene = scenarios.bottleneck(36, door=2.0, room=10.0, seed=1)
    assert (scene.starts[:, 0] < 0).all() and (np.abs(scene.starts) < 5.0).all()
    # Targets 2 m apart in the field outside, which starts 3 m east of the door, holds a
    # quarter more places than agents and lies within the bounds.
    (gx0, gy0, gx1, gy1), = scene.goal_areas
    assert gx0 == 5.0 + 3 and (gy0, gy1) == (-5.0, 5.0) and (gx1 - gx0) * (gy1 - gy0) / 4 >= 1.25 * 36
    assert ((scene.targets >= [gx0, gy0]) & (scene.targets <= [gx1, gy1])).all()
    assert closest_pair(scene.targets) >= 2 * 0.6 - 1e-9
    assert scene.bounds[2] >= gx1 and scene.bounds[3] >= gy1
    assert closest_pair(scene.starts) >= 0.6 - 1e-9
    east_wall = scene.segments[np.isclose(scene.segments[:, 0], 5.0) & np.isclose(scene.segments[:, 2], 5.0)]
    gap = np.sort(east_wall[:, [1, 3]].ravel())[1:3]   # the two door jambs
    np.testing.assert_allclose(gap, [-1.0, 1.0])
    with pytest.raises(ValueError, match="agents: the west half of a room 4.0 m wide holds at most 3 agents"):
        scenarios.bottleneck(4, door=1.0, room=4.0)
    with pytest.raises(ValueError, match="door: expected a door narrower than the room"):
        scenarios.bottleneck(4, door=12.0)


def test_corridor_keeps_its_shared_target():
    scene = scenarios.corridor(5, seed=1)
    np.testing.assert_array_equal(scene.target, [39.0, 0.0])
    assert scene.targets.shape == (5, 2) and len(scene.obstacles) > 5 and len(scene.segments) == 0


@pytest.mark.parametrize("make", [scenarios.swap, scenarios.crossing, scenarios.bottleneck, scenarios.corridor])
def test_a_seed_gives_the_same_scene_and_another_seed_another(make):
    one, again, other = make(seed=4), make(seed=4), make(seed=5)
    np.testing.assert_array_equal(one.starts, again.starts)
    np.testing.assert_array_equal(one.targets, again.targets)
    assert not np.array_equal(one.starts, other.starts)


def test_a_scenario_world_holds_its_agents_targets_and_obstacles():
    scene = scenarios.bottleneck(12, seed=0)
    world = scene.world(arrive_and_avoid(), max_speed=1.5, radius=0.3)
    np.testing.assert_allclose(world.positions, scene.starts, atol=1e-6)
    np.testing.assert_allclose(world.targets, scene.targets, atol=1e-6)
    np.testing.assert_allclose(world.segments, scene.segments)
    np.testing.assert_allclose(world.radius, 0.3)
    corridor = scenarios.corridor(3)
    assert len(corridor.world(arrive_and_avoid(), max_speed=1.0).circles) == len(corridor.obstacles)


def test_agents_leave_the_bottleneck_room_only_through_the_door():
    scene = scenarios.bottleneck(30, door=2.0, room=10.0, seed=0)
    world = scene.world(arrive_and_avoid(1.5), max_speed=1.5, max_acceleration=3.0, radius=0.3)
    r = world.run(600, 0.1, record=["positions", "penetration"])
    x, y = r.positions[..., 0], r.positions[..., 1]
    crossed = (x[:-1] < 5.0) & (x[1:] >= 5.0)                  # (T - 1, n): stepped through the east wall's line
    assert crossed.any(axis=0).sum() >= 5                       # some got out ...
    assert (np.abs(y[1:][crossed]) < 1.0).all()                 # ... every one through the door
    x0, y0, x1, y1 = scene.bounds
    assert ((x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)).all() and r.penetration.max() < 0.05


def test_crossing_streams_mostly_arrive():
    world = scenarios.crossing(40, seed=0).world(arrive_and_avoid(), max_speed=1.5, max_acceleration=3.0, radius=0.4)
    summary = cs.metrics.summary(world.run(800, 0.1, record=["positions", "overlap"]), world.targets)
    assert summary["arrived"] >= 0.8 and summary["max_overlap"] < 0.1


@pytest.mark.parametrize("call, error, message", [
    (lambda: scenarios.swap(1), ValueError, "agents: expected an integer >= 2"),
    (lambda: scenarios.swap(10, spacing=0), ValueError, "spacing: expected a number > 0"),
    (lambda: scenarios.swap(10, gap=-1), ValueError, "gap: expected a number >= 0"),
    (lambda: scenarios.circle(5, radius=np.nan), ValueError, "radius: expected a finite number"),
    (lambda: scenarios.circle(5, jitter=-1.0), ValueError, "jitter: expected a number >= 0"),
    (lambda: scenarios.crossing(40, depth=2.0), ValueError, "agents: a lane block of 10.0 x 2.0 m holds at most"),
    (lambda: scenarios.corridor(0), ValueError, "agents: expected an integer >= 1"),
    (lambda: scenarios.corridor(2.5), TypeError, "agents: expected an integer"),
])
def test_bad_sizes_name_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_a_scenario_shows_what_it_holds_not_every_coordinate():
    assert repr(scenarios.bottleneck()) == \
        "Scenario('bottleneck': 50 agents, 0 circles, 5 walls, 1 goal area, bounds=(-7, -7, 32, 7))"
    assert all(type(b) is float for b in scenarios.bottleneck().bounds)
