"""Crowd-aware navigation: the groups column, FollowField with a field per group, and
fields updated from the crowd's density and counterflow."""

import pickle

import numpy as np
import pytest

import contextsteer as cs
from contextsteer import _core

# A wall across a room 20 x 10 m with two doors: the short way to the goal at (18, 5)
# through the door at y = 5, the long one through the door at y = 9.
DOOR_WALLS = np.array([[10, 0, 10, 4.5], [10, 5.5, 10, 8.5], [10, 9.5, 10, 10]], float)
ROOM = (0.0, 0.0, 20.0, 10.0)
# Twelve agents standing in and around the short door.
CROWD = np.array([[x, y] for x in (9.0, 9.7, 10.3, 11.0) for y in (4.4, 5.0, 5.6)])

# A corridor 30 x 8 m, a goal area at each end.
CORRIDOR = (0.0, 0.0, 30.0, 8.0)


def door_field():
    return cs.NavigationField([18, 5], area=ROOM, cell=0.25, clearance=0.3, segments=DOOR_WALLS, bounds=ROOM)


def corridor_fields():
    east = cs.NavigationField(goal_areas=[[29, 0, 30, 8]], area=CORRIDOR, cell=0.25, clearance=0.3, bounds=CORRIDOR)
    west = cs.NavigationField(goal_areas=[[0, 0, 1, 8]], area=CORRIDOR, cell=0.25, clearance=0.3, bounds=CORRIDOR)
    return east, west


def head_on(counterflow: float, seed: int, threads: int = 1, n: int = 20):
    """Two groups of n meeting head-on in the corridor, one pipeline for both."""
    rng = np.random.default_rng(seed)
    west = np.column_stack([rng.uniform(1, 6, n), rng.uniform(0.7, 7.3, n)])
    east = np.column_stack([rng.uniform(24, 29, n), rng.uniform(0.7, 7.3, n)])
    follow = cs.FollowField(list(corridor_fields()), crowd_counterflow=counterflow, sideways=0.5)
    pipeline = cs.Pipeline([follow, cs.Avoid(agents=True, max_distance=1.5)], slots=16, select="blend")
    targets = np.vstack([np.tile([30.0, 4.0], (n, 1)), np.tile([0.0, 4.0], (n, 1))])
    world = cs.World(pipeline, np.vstack([west, east]), bounds=CORRIDOR, radius=0.3, max_speed=1.3,
                     max_acceleration=3.0, groups=np.repeat([0, 1], n), targets=targets, threads=threads)
    return world, follow


def lateral_separation(world, steps: int = 250) -> float:
    """The mean distance across the corridor between the two groups' mean positions, over
    the steps when both have agents in its middle part."""
    gaps = []
    for _ in range(steps):
        world.step(0.1)
        x, y = world.positions[:, 0], world.positions[:, 1]
        middle = (x > 8) & (x < 22)
        first, second = middle & (world.groups == 0), middle & (world.groups == 1)
        if first.sum() >= 3 and second.sum() >= 3:
            gaps.append(abs(y[first].mean() - y[second].mean()))
    return float(np.mean(gaps))


# --- the groups column -------------------------------------------------------------


def test_groups_are_a_column_given_at_spawn_and_writable():
    world = cs.World(cs.Pipeline([cs.Forward()], slots=8), np.zeros((3, 2)))
    assert world.groups.dtype == np.int32 and world.groups.tolist() == [0, 0, 0]
    world.add_agents(np.ones((2, 2)), groups=[4, 65535])
    assert world.groups.tolist() == [0, 0, 0, 4, 65535]
    world.groups[0] = 7
    world.step(0.1)
    assert world.groups[0] == 7


@pytest.mark.parametrize("bad", [-1, 65536, [0, -2]])
def test_bad_groups_at_spawn_name_groups(bad):
    world = cs.World(cs.Pipeline([cs.Forward()], slots=8))
    with pytest.raises(ValueError, match="groups: expected values >= 0 and <= 65535"):
        world.add_agents(np.zeros((2, 2)), groups=bad)
    with pytest.raises(TypeError, match="groups: expected integers"):
        world.add_agents(np.zeros((2, 2)), groups=0.5)
    assert len(world) == 0


def test_a_bad_group_written_to_the_view_is_refused_at_the_step():
    world = cs.World(cs.Pipeline([cs.Forward()], slots=8), np.zeros((2, 2)))
    world.groups[1] = -3
    with pytest.raises(ValueError, match="groups: expected values from 0 to 65535, got -3 for agent 1"):
        world.step(0.1)
    assert world.time == 0


def test_a_scenario_world_with_one_steering_takes_the_scenarios_groups():
    scene = cs.scenarios.two_way_door(20, seed=1)
    world = scene.world(cs.Pipeline([cs.Forward()], slots=8))
    np.testing.assert_array_equal(world.groups, scene.groups)
    per_group = scene.world([cs.Pipeline([cs.Forward()], slots=8)] * 2)
    np.testing.assert_array_equal(per_group.groups, scene.groups)


# --- one pipeline, a field per group -------------------------------------------------


def test_two_groups_with_their_own_goals_in_one_pipeline_each_arrive():
    fields = [cs.NavigationField([9, 5], area=ROOM, cell=0.25), cs.NavigationField([1, 5], area=ROOM, cell=0.25)]
    follow = cs.FollowField(fields, slowing_radius=1.0)
    starts = np.array([[1, 2], [1, 8], [19, 2], [19, 8]], float)
    world = cs.World(cs.Pipeline([follow, cs.Avoid(agents=True, max_distance=1.0)], slots=16), starts,
                     bounds=ROOM, radius=0.3, max_speed=1.5, groups=[0, 0, 1, 1])
    world.run(300, 0.1)
    goals = np.array([[9, 5], [9, 5], [1, 5], [1, 5]], float)
    assert (np.linalg.norm(world.positions - goals, axis=1) < 1.0).all()
    assert follow.field == tuple(fields) and follow.fields == tuple(fields)


def test_one_field_serves_every_group():
    field = cs.NavigationField([9, 5], area=ROOM, cell=0.25)
    follow = cs.FollowField(field)
    world = cs.World(cs.Pipeline([follow], slots=16), [[1.0, 5.0], [1.0, 3.0]], bounds=ROOM, groups=[0, 3])
    world.step(0.1)
    assert (world.strength > 0).all() and follow.field is field and follow.fields == (field,)


def test_an_agent_whose_group_has_no_field_is_refused_at_the_step():
    follow = cs.FollowField([cs.NavigationField([9, 5], area=ROOM, cell=0.5)] * 2)
    world = cs.World(cs.Pipeline([follow], slots=8), [[1.0, 5.0], [2.0, 5.0]], groups=[1, 2])
    with pytest.raises(ValueError, match=r"groups: expected a group from 0 to 1 .* got 2 for agent 1"):
        world.step(0.1)
    assert world.time == 0


def test_bad_fields_are_refused_by_name():
    field = cs.NavigationField([9, 5], area=ROOM, cell=0.5)
    with pytest.raises(ValueError, match="field: expected a NavigationField or a sequence"):
        cs.FollowField([])
    with pytest.raises(TypeError, match="field: expected a contextsteer.NavigationField .* got str"):
        cs.FollowField([field, "door"])
    with pytest.raises(TypeError, match="field: expected a contextsteer.NavigationField .* got int"):
        cs.FollowField(3)


@pytest.mark.parametrize(("name", "value", "expected"), [
    ("crowd_density", -1.0, ">= 0"), ("crowd_counterflow", float("nan"), "finite"), ("crowd_every", -0.5, ">= 0"),
    ("crowd_radius", 0.0, "> 0"), ("crowd_density", float("inf"), "")])
def test_bad_crowd_parameters_are_refused_by_name(name, value, expected):
    field = cs.NavigationField([9, 5], area=ROOM, cell=0.5)
    with pytest.raises(ValueError, match=f"{name}: expected .*{expected}"):
        cs.FollowField(field, **{name: value})
    follow = cs.FollowField(field)
    with pytest.raises(ValueError, match=f"{name}: expected"):
        setattr(follow, name, value)


# --- crowd-updated fields -------------------------------------------------------------


def blocked_door_world(density: float, **parameters):
    follow = cs.FollowField(door_field(), crowd_density=density, **parameters)
    world = cs.World(cs.Pipeline([follow], slots=16), [[2.0, 5.0]], segments=DOOR_WALLS, bounds=ROOM, radius=0.3)
    # The crowd stands still: no speed, and its own pipeline.
    world.add_agents(CROWD, steering=cs.Pipeline([cs.Arrive()], slots=16), max_speed=0.0, radius=0.3,
                     targets=CROWD)
    return world, follow


def test_a_group_takes_the_door_that_is_free():
    field = door_field()
    assert field.path_from([2.0, 5.0])[:, 1].max() < 5.5  # without a crowd: the short door
    world, follow = blocked_door_world(1.0)
    assert follow.crowd_fields(world) is None  # not before the first step
    world.step(0.1)
    (unmarched,) = follow.crowd_fields(world)  # as built until the march of its first period has ended
    np.testing.assert_array_equal(unmarched.distances, field.distances)
    world.run(6, 0.1)  # past 0.5 s (crowd_every) and a tenth of it, over which the march is spread
    (crowded,) = follow.crowd_fields(world)
    path = crowded.path_from([2.0, 5.0])
    assert path[:, 1].max() > 8.5  # through the door at y = 9
    assert np.linalg.norm(path[-1] - [18, 5]) < 0.5
    assert crowded.distance_at([2.0, 5.0]) > field.distance_at([2.0, 5.0])
    np.testing.assert_array_equal(crowded.blocked, field.blocked)
    # The agent itself heads for the free door: its way turns up, away from the crowd.
    world.run(40, 0.1)
    assert world.positions[0, 1] > 5.5


def test_without_crowd_costs_the_fields_are_not_updated():
    world, follow = blocked_door_world(0.0)
    world.step(0.1)
    assert follow.crowd_fields(world) is None
    assert world.positions[0, 1] == pytest.approx(5.0, abs=1e-3)


def test_own_agents_at_the_goal_do_not_block_it_and_others_do():
    field = cs.NavigationField([18, 5], area=ROOM, cell=0.25, bounds=ROOM)
    at_goal = np.array([[x, y] for x in (17.0, 18.0, 19.0) for y in (4.0, 5.0, 6.0)])

    def crowded(group):
        follow = cs.FollowField([field, field], crowd_density=2.0)
        world = cs.World(cs.Pipeline([follow], slots=16), [[2.0, 5.0]], bounds=ROOM)
        if group is not None:
            world.add_agents(at_goal, steering=cs.Pipeline([cs.Arrive()], slots=16), max_speed=0.0, groups=group,
                             targets=at_goal)
        world.run(7, 0.1)  # the first period's march ended
        return follow.crowd_fields(world)[0].distances

    alone = crowded(None)  # the walker's own weight alone
    np.testing.assert_array_equal(crowded(0), alone)
    assert crowded(1)[20, 8] > alone[20, 8] + 1.0  # from (2, 5): through the other group


def test_the_fields_are_updated_once_per_period_of_world_time():
    world, follow = blocked_door_world(1.0, crowd_every=1.0)
    still = world.index_of(np.arange(1, 13))
    world.run(15, 0.1)  # the march from 1 s, spread over four evaluations (1.0 to 1.3 s), has ended
    first = follow.crowd_fields(world)[0].distances.copy()
    world.positions[still] += [0.0, 3.0]  # the crowd moves off to the long door
    world.run(5, 0.1)  # evaluations up to 1.9 s: the same period
    np.testing.assert_array_equal(follow.crowd_fields(world)[0].distances, first)
    world.run(5, 0.1)  # evaluations from 2.0 to 2.4 s: the next march, and its end
    assert not np.array_equal(follow.crowd_fields(world)[0].distances, first)


def test_counterflow_splits_a_head_on_crossing_into_lanes():
    for seed in (0, 2):
        without = lateral_separation(head_on(0.0, seed)[0])
        with_costs = lateral_separation(head_on(2.0, seed)[0])
        assert with_costs > 1.5 and with_costs > 3 * without


def test_crowd_fields_are_bit_identical_at_one_and_two_threads_and_in_a_copy():
    worlds = [head_on(2.0, 1, threads=threads)[0] for threads in (1, 2)]
    for world in worlds:
        world.run(30, 0.1)
    twin = worlds[0].copy()
    for world in (*worlds, twin):
        world.run(40, 0.1)
    np.testing.assert_array_equal(worlds[0].positions, worlds[1].positions)
    np.testing.assert_array_equal(worlds[0].positions, twin.positions)


def test_a_pickled_or_reset_world_marches_its_fields_anew():
    world, follow = head_on(2.0, 0)
    world.run(10, 0.1)
    loaded = pickle.loads(pickle.dumps(world))
    loaded_follow = loaded.steerings[0].behaviors[0]
    assert loaded_follow.crowd_fields(loaded) is None
    loaded.run(10, 0.1)
    assert len(loaded_follow.crowd_fields(loaded)) == 2
    world.reset()
    assert follow.crowd_fields(world) is None


def test_field_costs_are_kept_and_pickled():
    field = door_field()
    assert field.costs.shape == field.shape and field.costs.min() == 1.0
    assert field.costs.max() == pytest.approx(5.0)  # the clearance margin at its most
    loaded = pickle.loads(pickle.dumps(field))
    np.testing.assert_array_equal(loaded.costs, field.costs)
    state = list(field._core.__getstate__())
    empty = _core.NavigationField.__new__(_core.NavigationField)
    empty.__setstate__(tuple([1] + state[1:12]))  # format 1: no costs, 1 a metre
    assert (np.asarray(empty.costs) == 1).all()
    costs = state[12].copy()
    costs[3] = 0.5
    with pytest.raises(ValueError, match="costs: expected values from 1 to 25, got 0.5 at cell 3"):
        _core.NavigationField.__new__(_core.NavigationField).__setstate__(tuple(state[:12] + [costs]))
