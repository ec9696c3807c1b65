"""NavigationField and FollowField from Python: geometry, views, worlds that need a plan, errors."""

import gc
import math

import matplotlib
import numpy as np
import pytest
from placement import clear_points

import contextsteer as cs

matplotlib.use("Agg")

# A cup open to the west around (0, 0); its east wall stands square to a goal at (10, 0).
CUP = np.array([[2, -3, 2, 3], [-3, 3, 2, 3], [-3, -3, 2, -3]], dtype=float)
CUP_AREA = (-8, -8, 14, 8)


def test_on_open_ground_the_distances_are_straight_lines():
    goal = np.array([3.3, -1.2])
    field = cs.NavigationField(goal, area=(-10, -10, 10, 10), cell=0.25)
    x, y = field.centres
    gx, gy = np.meshgrid(x, y)
    straight = np.hypot(gx - goal[0], gy - goal[1])
    far = straight > 1
    relative = np.abs(field.distances[far] - straight[far]) / straight[far]
    assert relative.max() < 0.01
    towards = np.stack([goal[0] - gx, goal[1] - gy], axis=-1)
    angles = np.degrees(np.arccos(np.clip((field.directions * towards).sum(axis=-1) / straight, -1, 1)))
    assert angles[far].max() < 7  # the cells' own directions; a metre from the goal is the worst
    assert angles[straight > 8].max() < 1.5
    assert field.shape == (80, 80) and field.extent == (-10, 10, -10, 10)


def test_the_arrays_are_read_only_views_that_outlive_the_field():
    field = cs.NavigationField([[1.0, 1.0]], area=(0, 0, 4, 2), cell=0.5, circles=[[3, 1, 0.3]])
    distances, directions, blocked = field.distances, field.directions, field.blocked
    assert distances.shape == (4, 8) and directions.shape == (4, 8, 2) and blocked.shape == (4, 8)
    assert distances.dtype == np.float32 and blocked.dtype == bool
    for a in (distances, directions, blocked):
        assert not a.flags.writeable
        with pytest.raises(ValueError):
            a[0, 0] = 0
    expected = distances.copy()
    del field
    gc.collect()
    assert np.array_equal(distances, expected)
    assert blocked[2, 6]  # the circle's cell, (3.25, 1.25)
    assert np.isinf(distances[blocked]).all()


def test_queries_take_one_point_or_many():
    field = cs.NavigationField([[5.0, 5.0]], area=(0, 0, 10, 10), cell=0.25)
    one = field.direction_at([1.0, 5.0])
    assert one.shape == (2,) and one[0] > 0.99
    assert isinstance(field.distance_at([1.0, 5.0]), float)
    many = field.direction_at(np.array([[1.0, 5.0], [9.0, 5.0], [5.0, 9.0]]))
    assert many.shape == (3, 2)
    np.testing.assert_allclose(many, [[1, 0], [-1, 0], [0, -1]], atol=0.02)
    np.testing.assert_allclose(field.distance_at([[1.0, 5.0], [5.0, 1.0]]), [4, 4], rtol=0.02)
    # Beyond the grid, the nearest cells answer.
    np.testing.assert_allclose(field.direction_at([-50.0, 5.0]), [1, 0], atol=0.02)


def test_a_path_from_a_point_follows_the_field_round_the_cup():
    field = cs.NavigationField([10.0, 0.0], area=CUP_AREA, cell=0.25, clearance=0.4, segments=CUP)
    path = field.path_from([0.0, 0.0])                  # on the cup's axis: a ridge at its mouth
    assert path.shape[1] == 2 and path.dtype == np.float32
    np.testing.assert_array_equal(path[0], [0, 0])
    np.testing.assert_allclose(np.linalg.norm(np.diff(path, axis=0), axis=1), field.cell / 2, rtol=1e-4)
    assert np.hypot(*(path[-1] - [10, 0])) < 0.2
    assert path[:, 0].min() < -3 and np.abs(path[:, 1]).max() > 3   # out by the mouth, round the cup
    crossed_bottom = (path[:-1, 0] < 2) & (path[1:, 0] >= 2) & (np.abs(path[1:, 1]) < 3.2)
    assert not crossed_bottom.any()
    length = np.linalg.norm(np.diff(path, axis=0), axis=1).sum()
    assert field.distance_at([0.0, 0.0]) * 0.9 < length < field.distance_at([0.0, 0.0]) * 1.15
    assert len(field.path_from([0.0, 0.0], step=0.5, max_length=2.0)) == 5
    # Steps much shorter than a cell stop at the goal instead of circling it to max_length.
    fine = field.path_from([0.0, 0.0], step=0.02)
    assert np.hypot(*(fine[-1] - [10, 0])) < 0.2 and len(fine) * 0.02 < 1.15 * field.distance_at([0.0, 0.0])
    shut = cs.NavigationField([10.0, 0.0], area=CUP_AREA, segments=[*CUP, [-3, -3, -3, 3]])
    assert len(shut.path_from([0.0, 0.0])) == 1                    # no way out of a closed box
    for kwargs, argument in [(dict(step=0), "step"), (dict(max_length=-1), "max_length")]:
        with pytest.raises(ValueError, match=argument):
            field.path_from([0.0, 0.0], **kwargs)
    with pytest.raises(ValueError, match="start"):
        field.path_from([[0.0, 0.0]])


def test_goal_areas_are_reached_anywhere_inside():
    field = cs.NavigationField(goal_areas=[8, 0, 10, 10], area=(0, 0, 10, 10), cell=0.25)
    assert field.distance_at([9.0, 3.0]) == 0
    np.testing.assert_array_equal(field.direction_at([9.0, 3.0]), [0, 0])
    np.testing.assert_allclose(field.distance_at([[2.0, 3.0], [2.0, 9.0]]), [6, 6], atol=0.15)
    np.testing.assert_allclose(field.direction_at([2.0, 9.0]), [1, 0], atol=0.01)  # straight for the area's edge
    np.testing.assert_array_equal(field.goal_areas, [[8, 0, 10, 10]])
    assert len(field.goals) == 0 and "1 goal area" in repr(field)


def test_a_wall_square_to_the_goal_traps_arrive_but_not_follow_field():
    field = cs.NavigationField([10.0, 0.0], area=CUP_AREA, cell=0.25, clearance=0.4, segments=CUP)
    assert field.distance_at([0.0, 0.0]) > 15  # out of the cup to the west, round, east again

    def final_distance(behaviours):
        pipeline = cs.Pipeline([*behaviours, cs.Avoid(max_distance=2.0)], slots=16, select="blend")
        world = cs.World(pipeline, [[0.0, 0.0]], segments=CUP, targets=[[10.0, 0.0]], max_speed=1.5,
                         max_acceleration=3.0, radius=0.3)
        rec = world.run(900, 0.05, record=["positions", "penetration"])
        return np.hypot(*(rec.positions[-1, 0] - [10, 0])), rec.penetration.max()

    stuck, _ = final_distance([cs.Arrive()])
    arrived, penetration = final_distance([cs.FollowField(field), cs.Arrive(weight=0.5)])
    assert stuck > 7  # still in the cup, against its east wall
    assert arrived < 0.6
    assert penetration == 0


# A crowd of 100 at the 1.6 m door locks into an arch in about one seed in six: a 2 m door.
@pytest.mark.parametrize("agents, room, door", [(10, 12.0, 1.6), (50, 12.0, 1.6), (100, 16.0, 2.0)])
def test_a_crowd_leaves_the_bottleneck_by_its_door(agents, room, door):
    def share_out(scene, behaviours):
        pipeline = cs.Pipeline([*behaviours, cs.Avoid(agents=True, max_distance=1.0)], slots=16, select="blend")
        world = scene.world(pipeline, max_speed=1.4, max_acceleration=4.0, radius=0.3)
        rec = world.run(2400, 0.05, record=["positions", "overlap", "penetration"])
        assert rec.overlap.max() < 0.05 and rec.penetration.max() < 0.05
        return (rec.positions[-1, :, 0] > room / 2).mean()

    for seed in (0, 1, 2):
        scene = cs.scenarios.bottleneck(agents, room=room, door=door, seed=seed)
        field = scene.navigation_field(clearance=0.3)   # to the scene's field outside
        np.testing.assert_array_equal(field.goal_areas, scene.goal_areas.astype(np.float32))
        assert share_out(scene, [cs.FollowField(field), cs.Arrive()]) == 1.0
        assert share_out(scene, [cs.Arrive()]) < 0.6  # pressed against the wall beside the door


def test_follow_field_is_the_same_on_any_thread_count():
    scene = cs.scenarios.bottleneck(30, seed=2)
    field = scene.navigation_field(clearance=0.3)
    pipeline = cs.Pipeline([cs.FollowField(field), cs.Arrive(weight=0.5), cs.Avoid(agents=True, max_distance=1.0)],
                           slots=16)
    runs = [scene.world(pipeline, max_speed=1.4, radius=0.3, threads=t).run(100, 0.05).positions for t in (1, 2)]
    assert np.array_equal(runs[0], runs[1])


def test_the_lobe_follows_the_field_and_ramps_down_at_the_goal():
    field = cs.NavigationField([[5.0, 5.0]], area=(0, 0, 10, 10), cell=0.25)
    follow = cs.FollowField(field, arrive_radius=0.5, slowing_radius=4.0)
    assert follow.field is field
    out = cs.Pipeline([follow], slots=8).evaluate([[1.0, 5.0], [3.0, 5.0], [5.1, 5.0]])
    np.testing.assert_allclose(out.interest[0], np.maximum(0, cs.slot_directions(8) @ [1, 0]), atol=1e-3)
    assert out.interest[1].max() == pytest.approx(0.5, abs=0.02)  # 2 m out of 4
    assert out.interest[2].max() == 0  # arrived


def test_to_target_leads_on_from_the_goal_area_to_each_agents_own_target():
    field = cs.NavigationField(goal_areas=[[8, 0, 10, 10]], area=(0, 0, 10, 10), cell=0.25)
    # In the area, far from its target; just outside the area's edge, its target deep in;
    # within arrive_radius of its target; west of the area, the target 1 m past its edge.
    positions = [[9.0, 2.0], [7.4, 5.0], [9.0, 7.7], [4.0, 5.0]]
    targets = [[9.0, 8.0], [9.8, 9.0], [9.0, 8.0], [9.0, 5.0]]

    def interest(**params):
        world = cs.World(cs.Pipeline([cs.FollowField(field, slowing_radius=2.0, **params)], slots=16),
                         positions, targets=targets, keep_maps=True)
        world.step(1e-3)
        return world.interest

    directions = cs.slot_directions(16)
    led, plain = interest(to_target=True), interest()
    assert directions[led[0].argmax()] @ [0, 1] > 0.98 and led[0].max() == pytest.approx(1.0)
    assert plain[0].max() == 0  # the field has no direction in its goal area
    assert directions[led[1].argmax()] @ [1, 0] > 0.98 and led[1].max() == pytest.approx(1.0)  # no slowing at the edge
    assert plain[1].max() < 0.35  # slowed down: 0.6 m from the area by the field's distance, of 2 m
    assert led[2].max() == 0  # arrived at its own target
    # Outside the goal area both follow the field; the ramp goes by the longer distance (5 m).
    np.testing.assert_allclose(led[3], plain[3], atol=1e-6)
    with pytest.raises(TypeError, match="to_target"):
        cs.FollowField(field, to_target="yes")


def test_scenario_fields_lead_every_agent_to_the_nearest_target():
    scene = cs.scenarios.crossing(20, seed=1)
    field = scene.navigation_field(cell=0.5)
    np.testing.assert_array_equal(field.goals, scene.targets.astype(np.float32))
    # Each target is a goal: blended over the four nearest cell centres, within half a diagonal.
    assert field.distance_at(scene.targets).max() < 0.5 * np.sqrt(2) * field.cell


def world_with_every_obstacle(layer_of_circle: int = 1) -> cs.World:
    """The cup, a polygon and a circle (on ``layer_of_circle``) in bounds, one agent."""
    world = cs.World(cs.Pipeline([cs.Arrive()]), [[0.0, 0.0]], segments=CUP, bounds=CUP_AREA,
                     polygons=[[[5, 3], [7, 3], [6, 5]]])
    world.add_circles([[6.0, -1.0, 1.0]], layer=layer_of_circle)
    return world


def test_a_world_field_is_the_field_of_the_same_obstacles():
    world = world_with_every_obstacle()
    from_world = world.navigation_field([10.0, 0.0], cell=0.25, clearance=0.4)  # over the bounds
    from_arrays = cs.NavigationField([10.0, 0.0], area=CUP_AREA, cell=0.25, clearance=0.4, segments=CUP,
                                     circles=[[6.0, -1.0, 1.0]], polygons=[[[5, 3], [7, 3], [6, 5]]],
                                     bounds=CUP_AREA)
    assert from_world.shape == from_arrays.shape == (64, 88)
    np.testing.assert_array_equal(from_world.distances, from_arrays.distances)
    np.testing.assert_array_equal(from_world.directions, from_arrays.directions)
    assert from_world.blocked[int((-1 + 8) / 0.25), int((6 + 8) / 0.25)]  # the circle's centre cell
    # A smaller area than the bounds, and goal areas, pass through as they do for the field.
    part = world.navigation_field(goal_areas=[[8, -2, 10, 2]], area=(-4, -4, 12, 4), cell=0.5)
    assert part.shape == (16, 32) and part.distance_at([9.0, 0.0]) == 0


def test_a_world_field_is_blocked_by_the_layers_asked_for():
    world = world_with_every_obstacle(layer_of_circle=2)
    everything = world.navigation_field([10.0, 0.0], cell=0.25)
    layer_one = world.navigation_field([10.0, 0.0], cell=0.25, layers=1)
    layer_two = world.navigation_field([10.0, 0.0], cell=0.25, layers=2)
    circle = (int((-1 + 8) / 0.25), int((6 + 8) / 0.25))
    assert everything.blocked[circle] and layer_two.blocked[circle] and not layer_one.blocked[circle]
    # Layer 1 holds the cup: without it the way from inside runs straight east through its wall.
    inside = [0.0, 0.0]
    assert layer_two.distance_at(inside) == pytest.approx(10.0, rel=0.03)
    assert layer_one.distance_at(inside) > 16 and everything.distance_at(inside) > 16
    # The bounds block on every layer.
    assert layer_two.blocked[0].all() and layer_two.blocked[:, -1].all()


def test_a_world_field_is_a_snapshot_of_the_obstacles():
    world = world_with_every_obstacle()
    before = world.navigation_field([10.0, 0.0], cell=0.5)
    distances = before.distances.copy()
    world.add_segments([[8.0, -8.0, 8.0, 6.0]])  # a wall across the east, open at its north end
    np.testing.assert_array_equal(before.distances, distances)
    after = world.navigation_field([10.0, 0.0], cell=0.5)
    assert after.distance_at([6.0, -6.0]) > before.distance_at([6.0, -6.0]) + 8


def test_a_world_field_is_built_while_the_world_steps_on_another_thread():
    import threading

    world = world_with_every_obstacle()
    starts = clear_points(np.random.default_rng(0), -7, 13, 400, 0.5, circles=world.circles, segments=world.segments,
                          polygons=world.polygons)
    world.add_agents(starts, targets=np.zeros((400, 2)))
    expected = world.navigation_field([10.0, 0.0], cell=0.25).distances.copy()
    recordings = []
    runner = threading.Thread(target=lambda: recordings.append(world.run(300, 0.05)))
    runner.start()
    fields = [world.navigation_field([10.0, 0.0], cell=0.25) for _ in range(3)]  # reads, so no RuntimeError
    runner.join()
    assert recordings[0].positions.shape == (301, 401, 2)
    for field in fields:
        np.testing.assert_array_equal(field.distances, expected)


@pytest.mark.parametrize("kwargs, argument", [
    (dict(goals=[[1, 1]], layers=-1), "layers"),
    (dict(goals=[[1, 1]], layers=2**32), "layers"),
    (dict(goal_areas=None), "goals"),
    (dict(goals=[[30, 1]]), "goals"),
    (dict(goals=[[1, 1]], cell=-0.5), "cell"),
])
def test_a_world_field_names_its_bad_arguments(kwargs, argument):
    with pytest.raises(ValueError, match=argument):
        world_with_every_obstacle().navigation_field(**kwargs)
    with pytest.raises(ValueError, match="area"):
        cs.World(cs.Pipeline([cs.Arrive()]), [[0.0, 0.0]]).navigation_field([1.0, 1.0])


def test_plot_field_draws_the_distances_and_arrows():
    import matplotlib.pyplot as plt

    from contextsteer.plotting import plot_field

    field = cs.NavigationField([10.0, 0.0], area=CUP_AREA, cell=0.25, segments=CUP)
    fig, ax = plt.subplots()
    image, arrows = plot_field(field, ax=ax, arrows=10)
    shown = image.get_array()
    assert shown.shape == field.shape and np.ma.is_masked(shown) or np.isnan(shown).any()
    assert image.get_extent() == list(field.extent)
    assert 50 <= len(arrows.U) <= 200
    assert len(plot_field(field, ax=ax, arrows=0)) == 1
    with pytest.raises(TypeError, match="field"):
        plot_field(np.zeros((3, 3)))
    plt.close(fig)


@pytest.mark.parametrize("kwargs, argument", [
    (dict(goals=None, area=(0, 0, 10, 10)), "goals"),
    (dict(goals=[[1, 1]]), "area"),
    (dict(goals=[[1, 1]], area=(0, 0, 10, 10), cell=0), "cell"),
    (dict(goals=[[1, 1]], area=(0, 0, 10, 10), cell=1e-4), "cell"),
    (dict(goals=[[1, 1]], area=(0, 0, 10, 10), clearance=-1), "clearance"),
    (dict(goals=[[np.nan, 1]], area=(0, 0, 10, 10)), "goals"),
    (dict(goals=[[11, 1]], area=(0, 0, 10, 10)), "goals"),
    (dict(goals=[[5, 5]], area=(0, 0, 10, 10), circles=[[5, 5, 1]]), "goals"),
    (dict(goals=[[1, 1]], area=(0, 0, 10, -10)), "area"),
    (dict(goals=[[1, 1]], area=(0, 0, 10)), "area"),
    (dict(goal_areas=[[0, 0, 1]], area=(0, 0, 10, 10)), "goal_areas"),
    (dict(goal_areas=[[5, 5, 4, 6]], area=(0, 0, 10, 10)), "goal_areas"),
    (dict(goal_areas=[[20, 20, 30, 30]], area=(0, 0, 10, 10)), "goal_areas"),
    (dict(goals=[[1, 1]], area=(0, 0, 10, 10), polygons=[[[0, 0], [1, 1]]]), "polygons"),
    (dict(goals=[[1, 1]], area=(0, 0, 10, 10), segments=[[0, 0, 1]]), "segments"),
    (dict(goals=[[1, 1]], area=(0, 0, 10, 10), circles=[[5, 5, -1]]), "circles"),
])
def test_bad_arguments_name_themselves(kwargs, argument):
    with pytest.raises(ValueError, match=argument):
        cs.NavigationField(**kwargs)


def test_follow_field_checks_its_arguments():
    field = cs.NavigationField([[1.0, 1.0]], area=(0, 0, 4, 4))
    with pytest.raises(TypeError, match="field"):
        cs.FollowField("a field")
    with pytest.raises(ValueError, match="arrive_radius"):
        cs.FollowField(field, arrive_radius=-1)
    with pytest.raises(ValueError, match="slowing_radius"):
        cs.FollowField(field, slowing_radius=0)
    with pytest.raises(ValueError, match="points"):
        field.direction_at([[1, 2, 3]])


def _door_fields(keep_right):
    """Two rooms split by a wall at x = 0 with a door 2 m wide at y in [-1, 1]; one field to
    each room."""
    walls = np.array([[0.0, -8.0, 0.0, -1.0], [0.0, 1.0, 0.0, 8.0]])
    common = dict(area=(-10.0, -8.0, 10.0, 8.0), cell=0.2, clearance=0.3, segments=walls,
                  bounds=(-10.0, -8.0, 10.0, 8.0), keep_right=keep_right)
    east = cs.NavigationField(goal_areas=[[6.0, -8.0, 10.0, 8.0]], **common)
    west = cs.NavigationField(goal_areas=[[-10.0, -8.0, -6.0, 8.0]], **common)
    return east, west


def _crossing_height(path):
    """Where a path crosses the wall's line, x = 0 (metres along y); the path must cross it."""
    beyond = path[:, 0] >= 0 if path[0, 0] < 0 else path[:, 0] <= 0
    assert beyond.any(), "the way does not reach the other room"
    k = int(np.argmax(beyond))
    a, b = path[k - 1], path[k]
    return a[1] + (b[1] - a[1]) * (0 - a[0]) / (b[0] - a[0])


def test_keeping_right_sends_the_two_ways_through_the_two_halves_of_a_door():
    east, west = _door_fields(keep_right=2.0)
    for y in (-3.0, 0.0, 3.0):
        # walking east the right hand is south: the way crosses the door's southern half
        assert -1.0 < _crossing_height(east.path_from([-5.0, y], step=0.05)) < -0.5
        # walking west the right hand is north
        assert 0.5 < _crossing_height(west.path_from([5.0, y], step=0.05)) < 1.0
    # without keeping right, a start in front of the door goes through its middle
    plain_east, _ = _door_fields(keep_right=0.0)
    assert abs(_crossing_height(plain_east.path_from([-5.0, 0.0], step=0.05))) < 0.1


def test_keeping_right_changes_nothing_where_no_obstacle_is_on_the_left():
    open_ground = dict(area=(0.0, 0.0, 10.0, 10.0), cell=0.25, goals=[[5.0, 5.0]])
    plain = cs.NavigationField(**open_ground)
    right = cs.NavigationField(keep_right=2.0, **open_ground)
    np.testing.assert_array_equal(plain.distances, right.distances)
    np.testing.assert_array_equal(plain.directions, right.directions)


@pytest.mark.parametrize("value", [-0.1, math.nan, math.inf])
def test_keep_right_must_be_a_distance(value):
    with pytest.raises(ValueError, match="keep_right"):
        cs.NavigationField(goals=[[1.0, 1.0]], area=(0.0, 0.0, 4.0, 4.0), keep_right=value)


def test_a_margin_of_many_cells_still_covers_the_whole_grid():
    # keep_right and clearance of up to 1e9 m, over cells of 5 cm: the boxes the obstacles
    # are sought in reach far past the grid and must be clamped to it, not overflow
    walls = np.array([[0.0, -8.0, 0.0, -1.0], [0.0, 1.0, 0.0, 8.0]])
    common = dict(goal_areas=[[6.0, -8.0, 10.0, 8.0]], area=(-10.0, -8.0, 10.0, 8.0), cell=0.05, segments=walls)
    plain = cs.NavigationField(clearance=0.3, **common)
    far = cs.NavigationField(clearance=0.3, keep_right=1e9, **common)
    assert not np.array_equal(plain.directions, far.directions)
    wide = cs.NavigationField(clearance=1e9, **common)
    np.testing.assert_array_equal(wide.blocked, plain.blocked)  # the walls still block
    assert plain.blocked.any()
