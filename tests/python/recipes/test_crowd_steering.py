"""The public crowd steering (cs.crowd_steering): its laws on scenes of its own (a lone
agent reaches any reachable target; a mirrored scene gives a mirrored run), the README's
first world, scenes unlike the standard ones at its defaults, and its errors."""

import numpy as np
import pytest

import contextsteer as cs
from contextsteer import metrics

DT = 0.05
AGENT = {"radius": 0.3, "max_speed": 1.4, "max_acceleration": 4.0}


def run(scene, steps, slots=16, **agent):
    crowd = cs.crowd_steering(scene, radius=0.3, slots=slots)
    world = scene.world(crowd.pipeline, **{**crowd.world_parameters, **AGENT, **agent})
    return world.run(steps, DT, record="state").positions


def arrived(scene, positions) -> np.ndarray:
    return (np.linalg.norm(positions - scene.targets[None], axis=2) <= 1.0).any(axis=0)


def scenario(name, starts, targets, bounds, **obstacles) -> cs.Scenario:
    return cs.Scenario(name, np.asarray(starts, dtype=float), np.asarray(targets, dtype=float), bounds,
                       **{key: np.asarray(value, dtype=float) for key, value in obstacles.items()})


def rooms(door: float, agents_each: int, seed: int) -> cs.Scenario:
    """Two rooms 10 m square side by side, a door of ``door`` metres in the middle of the
    wall between them; half the agents in each, each going to a place of its own in the other."""
    rng = np.random.default_rng(seed)
    half = door / 2
    walls = np.array([[-10, -5, 10, -5], [-10, 5, 10, 5], [-10, -5, -10, 5], [10, -5, 10, 5],
                      [0, -5, 0, -half], [0, half, 0, 5]], dtype=float)
    left = np.column_stack([rng.uniform(-9, -1.5, agents_each), rng.uniform(-4.3, 4.3, agents_each)])
    right = np.column_stack([rng.uniform(1.5, 9, agents_each), rng.uniform(-4.3, 4.3, agents_each)])
    left_targets = np.column_stack([rng.uniform(1.5, 9, agents_each), rng.uniform(-4.3, 4.3, agents_each)])
    right_targets = np.column_stack([rng.uniform(-9, -1.5, agents_each), rng.uniform(-4.3, 4.3, agents_each)])
    return cs.Scenario("rooms", np.vstack([left, right]), np.vstack([left_targets, right_targets]),
                       (-10.5, -5.5, 10.5, 5.5), segments=walls)


# A lone agent, from any start, reaches any target it can reach: round a pillar, out of a
# cup whose mouth faces away, along a corridor with a bend, through a door.
CUP = np.array([[-1, -2, 1, -2], [1, -2, 1, 2], [1, 2, -1, 2]], dtype=float)  # open to the left
LONE = {
    "behind a pillar": scenario("pillar", [[-6.0, 1.0]], [[6.3, 0.6]], (-8, -5, 8, 5),
                                   circles=[[0.0, 0.0, 2.0]]),
    "out of a cup": scenario("cup", [[0.0, 0.0]], [[6.0, 1.5]], (-6, -5, 8, 5), segments=CUP),
    "into a cup": scenario("cup", [[6.0, 0.3]], [[0.0, 0.0]], (-6, -5, 8, 5), segments=CUP),
    "round a bend": scenario("bend", [[-5.0, 0.0]], [[0.0, 5.0]], (-6, -1, 1, 6),
                                segments=[[-6, -0.5, 0.5, -0.5], [0.5, -0.5, 0.5, 6], [-6, 0.5, -0.5, 0.5],
                                          [-0.5, 0.5, -0.5, 6]]),
}
_two = rooms(1.0, 1, seed=4)
LONE["through a door"] = cs.Scenario("door", _two.starts[:1], _two.targets[:1], _two.bounds, segments=_two.segments)


@pytest.mark.parametrize("name", LONE)
@pytest.mark.parametrize("slots", [16, 8])
def test_a_lone_agent_reaches_any_target_it_can_reach(name, slots):
    scene = LONE[name]
    positions = run(scene, 600, slots)
    report = metrics.scene_report(scene, positions, dt=DT, radius=0.3, max_speed=1.4)
    assert report["arrived"] == 1.0 and report["wall_penetrations"] == 0


def turned_half_round(scene: cs.Scenario) -> tuple[cs.Scenario, np.ndarray]:
    """The scene turned by 180 degrees about the middle of its bounds, and that middle."""
    centre = np.array(scene.bounds).reshape(2, 2).mean(axis=0)
    turned = cs.Scenario("turned", 2 * centre - scene.starts, 2 * centre - scene.targets, scene.bounds,
                         circles=np.column_stack([2 * centre - scene.circles[:, :2], scene.circles[:, 2]]),
                         segments=np.tile(2 * centre, 2) - scene.segments)
    return turned, centre


# Turned by 180 degrees (which keeps left and right, unlike a mirror, and maps 16 slots
# onto themselves), a scene gives its run turned: to within 5 cm for a lone agent (the
# fields are marched on a grid, in one order), and the same arrivals and lengths of way
# (to 4%) for a crowd, where the agents' meetings magnify the fields' small differences
# (starts moved by 0.3 mm change the crowd's length of way by up to 3%).
@pytest.mark.parametrize("name", ["behind a pillar", "out of a cup", "round a bend"])
def test_a_lone_agent_turned_half_round_walks_the_way_turned(name):
    turned, centre = turned_half_round(LONE[name])
    np.testing.assert_allclose(run(LONE[name], 300), 2 * centre - run(turned, 300), atol=0.05)


def test_a_crowd_turned_half_round_arrives_as_it_did():
    scene = rooms(2.0, 10, seed=1)
    turned, _ = turned_half_round(scene)
    a, b = run(scene, 1200), run(turned, 1200)
    assert arrived(scene, a).all() and arrived(turned, b).all()
    length = [np.linalg.norm(np.diff(p, axis=0), axis=2).sum() for p in (a, b)]
    assert length[1] == pytest.approx(length[0], rel=0.04)


def test_the_readme_world_gets_everyone_home():
    rng = np.random.default_rng(0)
    points = rng.uniform(-10, 10, (200, 2))
    starts = points[np.hypot(*points.T) > 2.5][:100]
    scene = scenario("first", starts, -starts, (-12, -12, 12, 12), circles=[[0.0, 0.0, 2.0]])
    positions = run(scene, 800, max_speed=1.5, max_acceleration=3.0)  # 40 s, as the README runs it
    assert arrived(scene, positions).all()


@pytest.mark.parametrize("door, slots", [(1.4, 16), (2.5, 8)])
def test_a_counterflow_through_a_door_of_its_own_size_gets_home(door, slots):
    scene = rooms(door, 30, seed=2)
    positions = run(scene, 2400, slots)
    report = metrics.scene_report(scene, positions, dt=DT, radius=0.3, max_speed=1.4)
    assert report["arrived"] == 1.0 and report["stalled_end"] == 0 and report["wall_penetrations"] == 0


def narrow_exit(agents: int, seed: int) -> cs.Scenario:
    """A room 6 m by 10 m, its east wall an exit of 0.8 m, agents of radius 0.25 m at least
    0.6 m apart in it, bound for places spread over 4 m by 9 m beyond: many groups, one way."""
    rng = np.random.default_rng(seed)
    candidates = np.column_stack([rng.uniform(-5.5, -0.5, 400), rng.uniform(-4.7, 4.7, 400)])
    starts = candidates[:1]
    for point in candidates[1:]:
        if len(starts) < agents and np.min(np.linalg.norm(starts - point, axis=1)) > 0.6:
            starts = np.vstack([starts, point])
    targets = np.array([[x, y] for x in (5.0, 6.0, 7.0, 8.0) for y in np.arange(-4.5, 5.0)])[:agents]
    walls = np.array([[0.0, -5.0, 0.0, -0.4], [0.0, 0.4, 0.0, 5.0]])
    return cs.Scenario("exit", starts, targets, (-6, -5, 9, 5), segments=walls)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_crowd_bound_one_way_through_a_narrow_exit_leaves(seed):
    # Bound for places spread beyond the exit, one way: one field, no lanes (which would
    # lead the way along the exit's right jamb, where an agent is held between the way
    # into the jamb and the jamb's danger), and every agent out within a minute.
    scene = narrow_exit(40, seed)
    crowd = cs.crowd_steering(scene, radius=0.25)
    assert all(field.keep_right == 0 for field in crowd.fields)
    world = crowd.world(max_speed=1.34)
    world.run(1200, DT)
    assert (world.positions[:, 0] > 0.5).all()


def test_lanes_only_where_groups_may_meet_head_on():
    # The exit with a second crowd coming back through it: the fields keep right.
    scene = narrow_exit(20, 1)
    back = cs.Scenario("both ways", np.vstack([scene.starts, scene.targets]),
                       np.vstack([scene.targets, scene.starts]), scene.bounds, segments=scene.segments)
    crowd = cs.crowd_steering(back, radius=0.25)
    assert all(field.keep_right > 0 for field in crowd.fields)
    # Bound one way for places on either side of a wall beyond the exit: two fields (the
    # places are not merged across the wall), and no lanes.
    wall = np.array([[4.5, 0.0, 8.5, 0.0]])
    targets = np.column_stack([np.full(20, 6.5), np.where(np.arange(20) < 10, -2.5, 2.5)])
    split = cs.Scenario("split", scene.starts, targets, scene.bounds, segments=np.vstack([scene.segments, wall]))
    crowd = cs.crowd_steering(split, radius=0.25)
    assert len(crowd.fields) > 1 and all(field.keep_right == 0 for field in crowd.fields)


def test_right_of_way_where_groups_meet_and_the_same_bits_at_one_and_two_threads():
    door = cs.scenarios.two_way_door(60, seed=1)
    crowd = cs.crowd_steering(door, radius=0.3)
    assert all(p.behaviors[2].right_of_way for p in (crowd.pipeline, *crowd.pipelines))
    one_group = scenario("one", np.array([[0.0, 0.0], [0.0, 1.0]]), np.array([[6.0, 0.5], [6.2, 0.6]]), (-1, -1, 8, 3))
    assert not cs.crowd_steering(one_group, radius=0.3).pipeline.behaviors[2].right_of_way
    positions = []
    for threads in (1, 2):
        world = crowd.world(max_speed=1.4, max_acceleration=4.0, threads=threads)
        world.run(400, DT)
        positions.append(world.positions.copy())
    np.testing.assert_array_equal(positions[0], positions[1])


def test_groups_follow_goal_areas_and_own_targets_are_grouped_by_squares():
    scene = cs.scenarios.two_way_door(20)
    crowd = cs.crowd_steering(scene, radius=0.3)
    np.testing.assert_array_equal(crowd.groups, scene.groups)
    assert len(crowd.fields) == scene.group_count
    starts = np.array([[0.0, 0.0], [0.5, 0.0], [5.0, 5.0]])
    own = scenario("own", starts, starts + [[6.0, 0.0], [6.5, 0.5], [-5.0, -5.0]], (-1, -1, 8, 6))
    crowd = cs.crowd_steering(own, radius=0.3, max_fields=2)
    assert crowd.groups[0] == crowd.groups[1] != crowd.groups[2] and len(crowd.fields) == 2
    assert len(cs.crowd_steering(own, radius=0.3, max_fields=1).fields) == 1


def test_many_groups_re_march_their_fields_less_often_in_proportion():
    def every(crowd):
        return {b.crowd_every for p in (crowd.pipeline, *crowd.pipelines) for b in p.behaviors
                if isinstance(b, cs.FollowField)}

    door = cs.crowd_steering(cs.scenarios.two_way_door(20), radius=0.3)
    assert every(door) == {0.5}
    rng = np.random.default_rng(1)
    starts = rng.uniform(-10, 10, (100, 2))
    many = cs.crowd_steering(scenario("many", starts, -starts, (-12, -12, 12, 12)), radius=0.3)
    (many_every,) = every(many)
    assert len(many.fields) > 4 and many_every == pytest.approx(0.5 * len(many.fields) / 4)
    # A sparse crowd on a large map: its fields' cells, not their number, set the period.
    rows = np.column_stack([np.repeat([-60.0, 60.0], 50), np.tile(np.arange(50.0) - 24.5, 2)])
    sparse = cs.crowd_steering(scenario("sparse", rows, rows[::-1] * [[1.0, -1.0]], (-70, -40, 70, 40)), radius=0.3)
    cells = sum(field.shape[0] * field.shape[1] for field in sparse.fields)
    (sparse_every,) = every(sparse)
    assert cells > 200_000 and sparse_every == pytest.approx(max(0.5 * max(1, len(sparse.fields) / 4), cells / 200_000))


def test_starts_and_targets_in_an_obstacle_are_named():
    starts = np.array([[-5.0, 0.0], [0.5, 0.5], [-5.0, 2.0], [1.9, 0.0]])
    targets = np.array([[5.0, 0.0], [5.0, 2.0], [0.0, -0.1], [5.0, -2.0]])
    scene = scenario("pillar", starts, targets, (-8, -5, 8, 5), circles=[[0.0, 0.0, 2.0]])
    with pytest.raises(ValueError, match=r"starts in or touching an obstacle .*: 2 of 4 \(rows 1, 3\)"):
        cs.crowd_steering(scene, radius=0.3)
    scene = scenario("pillar", starts[[0, 2]], targets[[0, 2]], (-8, -5, 8, 5), circles=[[0, 0, 2.0]])
    with pytest.raises(ValueError, match=r"targets in or touching an obstacle .*: 1 of 2 \(rows 1\)"):
        cs.crowd_steering(scene, radius=0.3)


def test_shut_in_agents_and_targets_outside_the_bounds_are_named():
    box = [[-1, -1, 1, -1], [1, -1, 1, 1], [1, 1, -1, 1], [-1, 1, -1, -1]]
    scene = scenario("box", [[0.0, 0.0], [-4.0, 0.0]], [[4.0, 0.0], [4.0, 1.0]], (-5, -3, 5, 3),
                        segments=box)
    with pytest.raises(ValueError, match=r"no way from their start to their goal.*: 1 \(rows 0\)"):
        cs.crowd_steering(scene, radius=0.3)
    # A target outside the bounds (the scene's walls) is refused as the scene is made.
    with pytest.raises(ValueError, match=r"targets: expected points inside the bounds .*\[9.0, 0.0\] at row 0"):
        scenario("far", [[0.0, 0.0]], [[9.0, 0.0]], (-5, -3, 5, 3))


@pytest.mark.parametrize("argument, value, message", [
    ("radius", 0.0, "radius"), ("radius", float("nan"), "radius"), ("slots", 3, "slots"),
    ("slots", 16.5, "slots"), ("max_fields", 0, "max_fields")])
def test_bad_arguments_are_named(argument, value, message):
    scene = scenario("one", [[0.0, 0.0]], [[3.0, 0.0]], (-1, -1, 4, 1))
    with pytest.raises((ValueError, TypeError), match=message):
        cs.crowd_steering(scene, **{"radius": 0.3, argument: value})
    with pytest.raises(TypeError, match="scene: expected a contextsteer.Scenario"):
        cs.crowd_steering("two_way_door", radius=0.3)


@pytest.mark.parametrize("width, share", [(0.6, 0.0), (0.9, 0.5), (1.2, 1.0), (3.0, 1.0)])
def test_agents_make_way_by_the_room_the_narrowest_passage_leaves_beside_one_body(width, share):
    # A corridor `width` metres wide (agents 0.6 m wide) out into the open, walked one
    # way: make_way is MAKE_WAY times (width - 0.6) / 0.6 clipped to [0, 1], measured on
    # cells of 0.1 m (up to about a cell narrower).
    half = width / 2
    walls = [[0, half, 10, half], [0, -half, 10, -half], [0, -half, 0, half]]
    scene = scenario("corridor", [[1.0, 0.0], [2.0, 0.0]], [[16.0, 0.0], [17.0, 1.0]], (-1, -4, 21, 4),
                     segments=walls)
    make_way = cs.crowd_steering(scene, radius=0.3).pipeline.behaviors[2].make_way
    assert share * 0.6 - 0.6 * 0.1 / 0.3 - 1e-6 <= make_way <= share * 0.6 + 1e-6


def test_world_is_the_scenes_world_steered_by_the_crowd():
    # Own targets (the crowd's groups are not the scene's): the one pipeline with the crowd's groups.
    starts = np.array([[-8.0, 0.5], [8.0, -0.5], [-8.0, -2.0]])
    scene = scenario("three", starts, -starts, (-10, -4, 10, 4), circles=[[0.0, 0.0, 1.0]])
    crowd = cs.crowd_steering(scene, radius=0.3)
    assert not crowd.per_group
    world = crowd.world(max_speed=1.4)
    by_hand = scene.world(crowd.pipeline, radius=0.3, max_speed=1.4, **crowd.world_parameters)
    assert world.radius.tolist() == [np.float32(0.3)] * 3 and world.groups.tolist() == crowd.groups.tolist()
    # A walker's acceleration unless told another.
    assert (world.max_acceleration == cs.recipes.crowd_steering.CROWD_ACCELERATION).all()
    assert (crowd.world(max_speed=1.4, max_acceleration=2.0).max_acceleration == 2.0).all()
    assert world.goals == crowd.goals and world.contact == crowd.contact
    np.testing.assert_array_equal(world.circles, by_hand.circles)
    for _ in range(40):
        world.step(DT)
        by_hand.step(DT)
    np.testing.assert_array_equal(world.positions, by_hand.positions)
    # A scene of groups with goal areas: a pipeline per group, as the demo steers it.
    door = cs.scenarios.two_way_door(20, seed=1)
    crowd = cs.crowd_steering(door, radius=0.3)
    assert crowd.per_group
    world, by_hand = crowd.world(max_speed=1.4), door.world(crowd.pipelines, radius=0.3, max_speed=1.4,
                                                             **crowd.world_parameters)
    assert len(world.steerings) == len(crowd.pipelines) == 2
    for _ in range(40):
        world.step(DT)
        by_hand.step(DT)
    np.testing.assert_array_equal(world.positions, by_hand.positions)
    # Scenario.world takes it too; the world's settings given replace the crowd's.
    assert len(door.world(crowd, max_speed=1.4)) == 20
    assert crowd.world(contact=None).contact is None


def test_world_keeps_the_moving_obstacles_and_a_smaller_radius():
    scene = cs.moving_scenes.moving_crossing(12, seed=0)
    crowd = cs.crowd_steering(scene, radius=0.3)
    world = crowd.world(radius=np.full(12, 0.25), max_speed=1.3)
    assert world.moving_count == 1 and float(world.radius.max()) == pytest.approx(0.25)
    assert "12 agents" in repr(crowd) and "radius=0.3" in repr(crowd)


def test_world_refuses_a_larger_radius_groups_and_another_scene():
    scene = scenario("one", [[0.0, 0.0]], [[3.0, 0.0]], (-1, -1, 4, 1))
    crowd = cs.crowd_steering(scene, radius=0.3)
    with pytest.raises(ValueError, match=r"radius: expected at most 0.3 m, .*got 0.4"):
        crowd.world(radius=0.4)
    with pytest.raises(ValueError, match=r"radius: expected at most 0.3 m, .*got 0.35"):
        crowd.world(radius=[0.35])
    with pytest.raises(ValueError, match="radius"):
        crowd.world(radius=float("nan"))
    with pytest.raises(ValueError, match="groups: the crowd steering sets each agent's group"):
        crowd.world(groups=[0])
    other = scenario("other", [[0.0, 0.5]], [[3.0, 0.0]], (-1, -1, 4, 1))
    with pytest.raises(ValueError, match="steering: expected a crowd steering built for scenario 'other'"):
        other.world(crowd)
