"""The ready-made scenes (contextsteer.scenarios): their geometry, their worlds, and runs."""

import dataclasses

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
    assert scene.targets.shape == (5, 2) and len(scene.circles) > 5 and len(scene.segments) == 0


@pytest.mark.parametrize("make", [scenarios.swap, scenarios.crossing, scenarios.bottleneck, scenarios.corridor])
def test_a_seed_gives_the_same_scene_and_another_seed_another(make):
    one, again, other = make(seed=4), make(seed=4), make(seed=5)
    np.testing.assert_array_equal(one.starts, again.starts)
    np.testing.assert_array_equal(one.targets, again.targets)
    assert not np.array_equal(one.starts, other.starts)


def test_scenarios_compare_by_value():
    door = scenarios.two_way_door(20, seed=1)
    assert door == scenarios.two_way_door(20, seed=1) and not door != scenarios.two_way_door(20, seed=1)
    assert door != scenarios.two_way_door(20, seed=2) and door != scenarios.two_way_door(22, seed=1)
    assert door != dataclasses.replace(door, name="other") and door != "two_way_door"
    # Moving bodies, polygons and groups are compared too; the experiment is not.
    assert scenarios.builtin("sliding_door") == scenarios.builtin("sliding_door")
    assert scenarios.builtin("sliding_door") != scenarios.builtin("moving_crossing")
    assert dataclasses.replace(door, run={"steps": 5}) == door
    with pytest.raises(TypeError, match="unhashable"):
        hash(door)


def test_a_scenario_world_holds_its_agents_targets_and_obstacles():
    scene = scenarios.bottleneck(12, seed=0)
    world = scene.world(arrive_and_avoid(), max_speed=1.5, radius=0.3)
    np.testing.assert_allclose(world.positions, scene.starts, atol=1e-6)
    np.testing.assert_allclose(world.targets, scene.targets, atol=1e-6)
    np.testing.assert_allclose(world.segments, scene.segments)
    np.testing.assert_allclose(world.radius, 0.3)
    corridor = scenarios.corridor(3)
    assert len(corridor.world(arrive_and_avoid(), max_speed=1.0).circles) == len(corridor.circles)


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


# --- the crowd scenes -------------------------------------------------------------------

DEMO_RADIUS = 0.3  # metres, the demo's agents in the crowd scenes


def distance_to_walls(points, segments):
    a, b = segments[None, :, :2], segments[None, :, 2:]
    ab = b - a
    t = np.clip(((points[:, None] - a) * ab).sum(axis=2) / (ab * ab).sum(axis=2), 0, 1)
    return np.linalg.norm(points[:, None] - (a + t[..., None] * ab), axis=2).min(axis=1)


CROWD_SCENES = [scenarios.two_way_door, scenarios.four_way, scenarios.zigzag, scenarios.u_trap]


@pytest.mark.parametrize("make", CROWD_SCENES)
def test_crowd_scenes_start_clear_of_walls_and_of_each_other(make):
    scene = make(seed=1)
    assert closest_pair(scene.starts) >= 2 * DEMO_RADIUS
    assert closest_pair(scene.targets) >= 2 * DEMO_RADIUS
    assert inside(scene.starts, scene.bounds) and inside(scene.targets, scene.bounds)
    if len(scene.segments):
        assert (distance_to_walls(scene.starts, scene.segments) >= DEMO_RADIUS).all()
        assert (distance_to_walls(scene.targets, scene.segments) >= DEMO_RADIUS).all()
    for g in range(scene.group_count):   # each group's targets lie in its goal areas
        areas = scene.goal_areas[scene.goal_area_groups == g]
        targets = scene.targets[scene.groups == g]
        within = [(targets >= a[:2]).all(axis=1) & (targets <= a[2:]).all(axis=1) for a in areas]
        assert np.any(within, axis=0).all()


@pytest.mark.parametrize("make", CROWD_SCENES)
def test_a_seed_gives_the_same_crowd_scene_and_another_seed_another(make):
    one, again, other = make(seed=4), make(seed=4), make(seed=5)
    np.testing.assert_array_equal(one.starts, again.starts)
    np.testing.assert_array_equal(one.targets, again.targets)
    np.testing.assert_array_equal(one.segments, other.segments)   # the seed moves agents, not walls
    assert not np.array_equal(one.starts, other.starts)
    assert not np.array_equal(one.targets, other.targets)


def test_two_way_door_swaps_two_rooms_through_one_door():
    scene = scenarios.two_way_door(60, door=2.4, room=10.0, height=12.0, seed=2)
    west, east = scene.groups == 0, scene.groups == 1
    assert west.sum() == east.sum() == 30 and scene.group_count == 2
    assert (scene.starts[west, 0] < -2.0).all() and (scene.targets[west, 0] > 2.0).all()
    assert (scene.starts[east, 0] > 2.0).all() and (scene.targets[east, 0] < -2.0).all()
    middle = scene.segments[(scene.segments[:, 0] == 0) & (scene.segments[:, 2] == 0)]
    gap = np.sort(middle[:, [1, 3]].ravel())[1:3]    # the door's jambs
    np.testing.assert_allclose(gap, [-1.2, 1.2])
    assert np.abs(scene.segments[:, [0, 2]]).max() == 10.0 and np.abs(scene.segments[:, [1, 3]]).max() == 6.0
    # each group's field leads through the door into the other room
    field = scene.navigation_field(group=0)
    assert field.distance_at([-5.0, 0.0]) == pytest.approx(5.0 + 2.0, abs=0.3)   # to the door, then 2 m on
    assert field.distance_at([5.0, 0.0]) == 0.0 and field.distance_at([-5.0, 5.0]) > np.hypot(5.0, 5.0 - 1.2)
    path = field.path_from([-5.0, 4.0])
    assert np.abs(path[np.argmin(np.abs(path[:, 0])), 1]) < 1.2
    with pytest.raises(ValueError, match="door: expected a door narrower"):
        scenarios.two_way_door(door=20.0)


def test_four_way_groups_cross_the_square_to_the_opposite_side():
    scene = scenarios.four_way(42, square=10.0, depth=6.0, seed=0)
    counts = np.bincount(scene.groups)
    np.testing.assert_array_equal(counts, [11, 11, 10, 10])
    heading = np.sign(scene.targets - scene.starts)
    starts = [scene.starts[scene.groups == g] for g in range(4)]
    assert (starts[0][:, 0] <= -5.0).all() and (starts[1][:, 0] >= 5.0).all()
    assert (starts[2][:, 1] <= -5.0).all() and (starts[3][:, 1] >= 5.0).all()
    for g, way in enumerate([[1, 0], [-1, 0], [0, 1], [0, -1]]):
        moved = heading[scene.groups == g]
        axis = 0 if way[0] else 1
        assert (moved[:, axis] == way[axis]).all()
    assert len(scene.segments) == 0 and len(scene.goal_areas) == 4


def test_zigzag_is_a_narrow_corridor_of_bends_walked_in_single_file():
    scene = scenarios.zigzag(6, width=1.0, bends=5, leg=2.0, seed=3)
    walls = scene.segments[:-1]              # the last one closes the entry
    left, right = walls[:6], walls[6:]       # a leg per bend and one more on each side
    for a, b in zip(left, right):             # each leg's two walls parallel, width apart
        direction = (a[2:] - a[:2]) / np.linalg.norm(a[2:] - a[:2])
        np.testing.assert_allclose(direction, (b[2:] - b[:2]) / np.linalg.norm(b[2:] - b[:2]), atol=1e-12)
        normal = np.array([-direction[1], direction[0]])
        np.testing.assert_allclose((a[:2] - b[:2]) @ normal, 1.0, atol=1e-12)
    turns = np.diff(np.degrees(np.arctan2(left[:, 3] - left[:, 1], left[:, 2] - left[:, 0])))
    np.testing.assert_allclose(np.abs(turns), [45, 90, 90, 90, 45], atol=1e-9)   # five bends
    np.testing.assert_allclose(scene.starts[:, 1], 0.0)                          # in single file
    assert (np.diff(scene.starts[:, 0]) < 0).all()                               # the first one ahead
    assert (scene.targets[:, 0] > scene.segments[:, [0, 2]].max() + 2.0 - 1e-9).all()
    with pytest.raises(ValueError, match="bends: expected an integer >= 2"):
        scenarios.zigzag(bends=1)


def test_u_trap_cup_stands_between_the_agents_and_their_goals():
    scene = scenarios.u_trap(12, cup_width=5.0, cup_depth=3.0, seed=0)
    bottom, north, south = scene.segments
    np.testing.assert_array_equal(bottom, [0.0, -2.5, 0.0, 2.5])
    np.testing.assert_array_equal(north, [-3.0, 2.5, 0.0, 2.5])
    np.testing.assert_array_equal(south, [-3.0, -2.5, 0.0, -2.5])
    assert (scene.starts[:, 0] < -3.0).all() and (np.abs(scene.starts[:, 1]) < 2.5 - DEMO_RADIUS).all()
    assert (scene.targets[:, 0] > 2.0 - 1e-9).all()
    # straight at its target, every agent walks into the cup; round it, the way is longer
    field = scene.navigation_field()
    assert (field.distance_at(scene.starts) > np.linalg.norm(scene.targets.mean(0) - scene.starts, axis=1) - 3).all()
    assert scene.bounds[1] <= -2.5 - 3.0 and scene.bounds[3] >= 2.5 + 3.0


def test_grouped_scene_world_gives_each_group_its_steering_in_scene_order():
    scene = scenarios.four_way(8, seed=0)
    pipelines = [arrive_and_avoid(1.0 + g) for g in range(4)]
    world = scene.world(pipelines, max_speed=np.linspace(1, 2, 8), radius=0.3, threads=2)
    np.testing.assert_allclose(world.positions, scene.starts, atol=1e-5)
    np.testing.assert_allclose(world.targets, scene.targets, atol=1e-5)
    np.testing.assert_allclose(world.max_speed, np.linspace(1, 2, 8), atol=1e-6)
    assert world.threads == 2 and list(world.steerings) == pipelines
    with pytest.raises(ValueError, match="steering: expected one steering per group of scenario 'four_way' "
                                         r"\(4\), got 2"):
        scene.world(pipelines[:2], max_speed=1.0)


@pytest.mark.parametrize("call, error, message", [
    (lambda: scenarios.two_way_door(1), ValueError, "agents: expected an integer >= 2"),
    (lambda: scenarios.two_way_door(clear=20.0), ValueError, "clear: expected at most"),
    (lambda: scenarios.two_way_door(500), ValueError, "agents: a room 14.0 x 16.0 m"),
    (lambda: scenarios.four_way(3), ValueError, "agents: expected an integer >= 4"),
    (lambda: scenarios.four_way(square=-1), ValueError, "square: expected a number > 0"),
    (lambda: scenarios.zigzag(width=0), ValueError, "width: expected a number > 0"),
    (lambda: scenarios.zigzag(angle=90), ValueError, "angle: expected a number <= 80"),
    (lambda: scenarios.u_trap(cup_width=2.0), ValueError, "cup_width: expected at least 2.2 m"),
    (lambda: scenarios.u_trap(seed=-1), ValueError, "seed: expected an integer >= 0"),
    (lambda: scenarios.four_way().navigation_field(group=4), ValueError, "group: expected an integer from 0 to 3"),
])
def test_bad_crowd_scene_sizes_name_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()
