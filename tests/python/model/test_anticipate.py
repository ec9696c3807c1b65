"""Anticipate: danger from other agents by the speed at which each direction stays clear.

The laws of issue 39's velocity-aware danger: a neighbor walking the same way at the same
speed is followed, not fled; an oncoming one is seen earlier than a standing one at the
same distance; a neighbor already touched limits the way toward it to the pace that keeps
the distance, and a way more than 45 degrees off the line to it slides past it; a
face-off turned or mirrored turns or mirrors its maps; an agent that takes a share of
the avoiding tests its velocities against the pair's shared change.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import contextsteer as cs

SLOTS = 16


def danger_of(positions, velocities, *, slots=SLOTS, max_speed=1.0, radius=0.3, offset=0.0, **params):
    """The danger rows of every agent, computed before anything moves."""
    pipeline = cs.Pipeline([cs.Anticipate(**params)], slots=slots, offset=offset, danger_mode="multiply")
    world = cs.World(pipeline, np.asarray(positions, float), np.asarray(velocities, float), radius=radius,
                     max_speed=max_speed, max_acceleration=0.0)
    world.step(1e-3)
    return world.danger.copy()


def test_a_follower_at_the_same_speed_gets_no_danger_toward_the_leader():
    # agent 0 follows agent 1, 1.5 m ahead, both walking east at their max speed
    danger = danger_of([[0.0, 0.0], [1.5, 0.0]], [[1.0, 0.0], [1.0, 0.0]], horizon=3.0)
    assert danger[0, 0] == 0.0
    # a slower leader limits the follower's pace instead: slot 0 keeps a share of danger
    slow = danger_of([[0.0, 0.0], [1.5, 0.0]], [[1.0, 0.0], [0.4, 0.0]], horizon=3.0)
    assert 0.0 < slow[0, 0] < 1.0


def test_an_oncoming_agent_is_seen_before_a_standing_one_at_the_same_distance():
    for distance in (1.5, 2.0, 2.5, 3.0):
        standing = danger_of([[0.0, 0.0], [distance, 0.0]], [[0.0, 0.0], [0.0, 0.0]], horizon=2.0)
        oncoming = danger_of([[0.0, 0.0], [distance, 0.0]], [[0.0, 0.0], [-1.0, 0.0]], horizon=2.0)
        assert oncoming[0, 0] > standing[0, 0]
    # beyond what a standing agent's horizon reaches, only the oncoming one is seen
    far = danger_of([[0.0, 0.0], [3.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]], horizon=2.0)
    far_oncoming = danger_of([[0.0, 0.0], [3.0, 0.0]], [[0.0, 0.0], [-1.0, 0.0]], horizon=2.0)
    assert far[0, 0] == 0.0 < far_oncoming[0, 0]


def test_when_standing_is_not_safe_the_ways_out_are_the_least_dangerous():
    # an agent 2 m east comes straight at agent 0 at 1 m/s: standing is hit within 2 s;
    # walking toward it is the worst, walking away or aside gets clear
    danger = danger_of([[0.0, 0.0], [2.0, 0.0]], [[0.0, 0.0], [-1.0, 0.0]], horizon=2.0)[0]
    assert danger[0] == 1.0
    assert danger[SLOTS // 2] < danger[SLOTS // 4] < danger[1] <= danger[0]
    assert danger[SLOTS // 4] == pytest.approx(danger[3 * SLOTS // 4], abs=1e-6)


def test_a_leader_is_not_slowed_by_a_follower_closing_in_from_behind():
    # agent 0 walks east at its max speed, 1 m/s; agent 1 comes from 1 m behind at 1.1 m/s:
    # standing would be touched within the horizon, and the way ahead gets clear at 0.83 m/s
    # ((1.1 - s) * 1.5 s < 1 - 0.6 m), so the leader keeps a pace that gets clear
    def leader_speed(follower: bool) -> float:
        positions = [[0.0, 0.0], [-1.0, 0.0]] if follower else [[0.0, 0.0], [-30.0, 0.0]]
        pipeline = cs.Pipeline([cs.Chase([100.0, 0.0]), cs.Anticipate(horizon=1.5)], slots=SLOTS,
                               danger_mode="multiply", select="blend")
        world = cs.World(pipeline, positions, [[1.0, 0.0], [1.1, 0.0]], radius=0.3, max_speed=[1.0, 2.0])
        world.step(0.05)
        return float(np.linalg.norm(world.velocities[0]))

    assert leader_speed(False) == pytest.approx(1.0, abs=1e-3)
    assert 0.9 <= leader_speed(True) < 1.0
    # the follower, meanwhile, is held to about the leader's pace
    danger = danger_of([[0.0, 0.0], [-1.0, 0.0]], [[1.0, 0.0], [1.1, 0.0]], horizon=1.5, max_speed=2.0)[1]
    assert 0.3 < danger[0] < 1.0


def test_the_danger_is_one_minus_the_clear_speed_over_max_speed():
    # standing neighbor 2 m east, reach 0.6 m, horizon 2 s: the clear speed east is
    # (2 - 0.6) / 2 = 0.7 m/s, so with max_speed 1 the danger is 0.3
    danger = danger_of([[0.0, 0.0], [2.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]], horizon=2.0)
    assert danger[0, 0] == pytest.approx(0.3, abs=1e-5)
    # the slot pointing away from it is clear
    assert danger[0, SLOTS // 2] == 0.0


def test_a_crossing_agent_is_seen_where_the_two_will_meet():
    # agent 1 crosses from the south toward the point 2 m east of agent 0, arriving in 2 s:
    # walking east at 1 m/s meets it, walking west does not
    danger = danger_of([[0.0, 0.0], [2.0, -2.0]], [[0.0, 0.0], [0.0, 1.0]], horizon=4.0)
    assert danger[0, 0] > 0.3
    assert danger[0, SLOTS // 2] == 0.0


def test_overlapping_agents_see_full_danger_toward_each_other_and_none_away():
    danger = danger_of([[0.0, 0.0], [0.4, 0.0]], [[0.0, 0.0], [0.0, 0.0]])
    assert danger[0, 0] == 1.0 and danger[1, SLOTS // 2] == 1.0
    assert danger[0, SLOTS // 2] == 0.0


def test_a_touched_neighbor_limits_the_ways_toward_it_to_its_pace_and_the_others_slide_past_it():
    # agent 1 overlaps agent 0 (0.5 m apart, reach 0.6 m) and walks off east at 0.6 m/s:
    # a way toward it deepens the touch only faster than the speed that keeps the distance,
    # 0.6 / cos(a) at a off its line
    danger = danger_of([[0.0, 0.0], [0.5, 0.0]], [[0.0, 0.0], [0.6, 0.0]])[0]
    assert danger[0] == pytest.approx(1.0 - 0.6, abs=1e-6)
    assert danger[2] == pytest.approx(1.0 - 0.6 / math.cos(math.pi / 4), abs=1e-6)
    assert danger[SLOTS // 4] == 0.0 and danger[SLOTS // 2] == 0.0
    # one that stands or comes closer shuts the ways within 45 degrees of it; beyond, a way
    # slides past it, its danger fading to 0 at 90 degrees (sqrt(2) cos(67.5) at 67.5)
    for coming in ([0.0, 0.0], [-0.3, 0.0]):
        danger = danger_of([[0.0, 0.0], [0.5, 0.0]], [[0.0, 0.0], coming])[0]
        np.testing.assert_allclose(danger[[0, 1, 2, SLOTS - 2]], 1.0, atol=1e-6)
        assert danger[3] == pytest.approx(math.sqrt(2) * math.cos(3 * math.pi / 8), abs=1e-6)
        assert danger[SLOTS // 4] == pytest.approx(0.0, abs=1e-6)


def test_a_follower_pressed_against_its_leader_walks_on_at_the_leader_s_pace():
    # touching, one behind the other, both chasing a point far east: the leader walks at its
    # top speed of 0.6 m/s, the follower (top speed 1 m/s) keeps to it, not backing off
    pipeline = cs.Pipeline([cs.Chase([100.0, 0.0]), cs.Anticipate(horizon=0.5)], slots=SLOTS,
                           danger_mode="multiply", select="blend")
    world = cs.World(pipeline, [[0.0, 0.0], [0.6, 0.0]], [[0.6, 0.0], [0.6, 0.0]], radius=0.3, max_speed=[1.0, 0.6])
    world.step(0.05)
    assert world.velocities[0] == pytest.approx([0.6, 0.0], abs=1e-3)


@pytest.mark.parametrize(("neighbor_velocity", "makes_way"), [([0.0, 0.0], True), ([-0.5, 0.0], True),
                                                              ([0.5, 0.0], False), ([0.3, 0.4], False)])
def test_make_way_is_for_a_touch_that_standing_would_not_end(neighbor_velocity, makes_way):
    # agent 1 touches agent 0 (0.5 m apart, reach 0.6 m): standing, closing in, walking off straight and aslant
    pipeline = cs.Pipeline([cs.Anticipate(make_way=0.4)], slots=SLOTS, danger_mode="multiply")
    world = cs.World(pipeline, [[0.0, 0.0], [0.5, 0.0]], [[0.0, 0.0], neighbor_velocity], radius=0.3,
                     max_speed=1.0, max_acceleration=0.0)
    world.step(1e-3)
    np.testing.assert_array_equal(world.interest[0], np.full(SLOTS, 0.4 if makes_way else 0.0, np.float32))


@pytest.mark.parametrize("quarter", [1, 2, 3])
def test_turning_a_face_off_turns_its_maps(quarter):
    positions = np.array([[0.0, 0.0], [3.0, 0.2]])
    velocities = np.array([[1.0, 0.0], [-1.0, 0.0]])
    angle = quarter * math.pi / 2
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    base = danger_of(positions, velocities, keep_right=0.3)
    turned = danger_of(positions @ turn.T, velocities @ turn.T, keep_right=0.3)
    np.testing.assert_allclose(turned, np.roll(base, quarter * SLOTS // 4, axis=1), atol=1e-4)


def test_a_mirrored_face_off_with_keep_left_mirrors_its_maps():
    positions = np.array([[0.0, 0.0], [3.0, 0.2]])
    velocities = np.array([[1.0, 0.0], [-1.0, 0.0]])
    mirror = np.array([1.0, -1.0])
    base = danger_of(positions, velocities, keep_right=0.3)
    mirrored = danger_of(positions * mirror, velocities * mirror, keep_right=-0.3)
    # slot i points at angle 2 pi i / S; its mirror image is slot -i
    np.testing.assert_allclose(mirrored, base[:, (-np.arange(SLOTS)) % SLOTS], atol=1e-4)


def test_a_symmetric_face_off_frees_each_agents_own_right_side():
    # head-on along x: with keep_right > 0 each agent's right is clearer than its left
    danger = danger_of([[0.0, 0.0], [3.0, 0.0]], [[1.0, 0.0], [-1.0, 0.0]], keep_right=0.3, horizon=3.0)
    right_of_0, left_of_0 = danger[0, SLOTS - 1], danger[0, 1]  # -22.5 and +22.5 degrees
    right_of_1, left_of_1 = danger[1, SLOTS // 2 - 1], danger[1, SLOTS // 2 + 1]  # facing west: right is north
    assert right_of_0 < left_of_0 and right_of_1 < left_of_1
    assert right_of_0 == pytest.approx(right_of_1, abs=1e-5) and left_of_0 == pytest.approx(left_of_1, abs=1e-5)


def test_a_share_of_responsibility_is_the_test_against_the_pair_s_shared_change():
    # with responsibility a, agent 0 (own velocity v0) sees neighbor 1 as an agent taking all
    # of it sees a neighbor at velocity v1 + (1 - a) / a * v0, with max_speed / a
    a, v0, v1 = 0.6, np.array([0.5, 0.2]), np.array([-0.8, 0.1])
    positions = [[0.0, 0.0], [2.0, 0.3]]
    shared = danger_of(positions, [v0, v1], responsibility=a, horizon=2.0, keep_right=0.2, max_speed=1.2)[0]
    whole = danger_of(positions, [v0, v1 + (1 - a) / a * v0], horizon=2.0, keep_right=0.2,
                      max_speed=[1.2 / a, 1.2])[0]
    np.testing.assert_allclose(shared, whole, atol=1e-5)
    assert shared.max() > 0.0


def test_a_face_off_of_agents_that_share_is_less_dangerous_ahead_and_still_followers_see_none():
    face_off = ([[0.0, 0.0], [3.0, 0.0]], [[1.0, 0.0], [-1.0, 0.0]])
    whole = danger_of(*face_off, horizon=1.5)
    half = danger_of(*face_off, horizon=1.5, responsibility=0.5)
    assert 0.0 < half[0, 0] < whole[0, 0] and half[1, SLOTS // 2] == pytest.approx(half[0, 0], abs=1e-6)
    follower = danger_of([[0.0, 0.0], [1.5, 0.0]], [[1.0, 0.0], [1.0, 0.0]], horizon=3.0, responsibility=0.5)
    assert follower[0, 0] == 0.0


@pytest.mark.parametrize("slots", [8, 16, 12])
def test_with_arc_edges_a_slot_is_as_open_as_the_clearest_of_its_direction_and_its_edges(slots):
    # Agent 0 stands at the origin; one neighbour stands just off slot 0 (east), 0.25 m
    # north of its line, another walks in from the south-west. 12 slots: no wide kernel.
    positions = [[0.0, 0.0], [1.0, 0.25], [-1.5, -1.5]]
    velocities = [[0.0, 0.0], [0.0, 0.0], [0.6, 0.5]]
    centre = danger_of(positions, velocities, slots=slots, horizon=2.0)
    edges = danger_of(positions, velocities, slots=slots, horizon=2.0, offset=-math.pi / slots)  # edge i: slot i - 1/2
    arc = danger_of(positions, velocities, slots=slots, horizon=2.0, arc_edges=True)
    np.testing.assert_allclose(arc, np.minimum(centre, np.minimum(edges, np.roll(edges, -1, axis=1))), atol=1e-6)
    assert centre[0, 0] > 0.5 and arc[0, 0] < centre[0, 0]  # the way east, past the neighbour, opens
    assert (arc <= centre).all()


@pytest.mark.parametrize(("name", "value"), [("arc_edges", "yes"), ("right_of_way", "yes"), ("radius", 0.0),
                                             ("radius", -1.0),
                                             ("radius", math.nan), ("horizon", 0.0), ("horizon", math.inf),
                                             ("keep_right", 1.0),
                                             ("responsibility", 0.0), ("responsibility", 1.5),
                                             ("responsibility", math.nan), ("weight", math.nan)])
def test_bad_values_name_the_parameter(name, value):
    with pytest.raises((ValueError, TypeError), match=name):
        cs.Anticipate(**{name: value})


def field_world(right_of_way: bool, *, groups=(0, 0), follow: bool = True, **world) -> cs.World:
    """Agent 0 stands 1 m east of agent 1, which walks east at 1.4 m/s straight at it; both
    follow a field east to x = 20 (with ``follow``), in groups ``groups``."""
    field = cs.NavigationField(goal_areas=[[19.0, -4.0, 20.0, 4.0]], area=(-5.0, -4.0, 20.0, 4.0), cell=0.25)
    behaviors = [cs.Anticipate(horizon=1.0, make_way=0.6, right_of_way=right_of_way)]
    if follow:
        behaviors.insert(0, cs.FollowField([field, field]) if groups != (0, 0) else cs.FollowField(field))
    pipeline = cs.Pipeline(behaviors, slots=SLOTS, danger_mode="multiply")
    return cs.World(pipeline, [[1.0, 0.0], [0.0, 0.0]], velocities=[[0.0, 0.0], [1.4, 0.0]], radius=0.3,
                    max_speed=1.4, groups=np.asarray(groups), keep_maps=True, **world)


def anticipate_maps(world: cs.World, agent: int) -> tuple[np.ndarray, np.ndarray]:
    """Anticipate's interest and danger rows for ``agent``, as the world's step would make them."""
    maps = {part: np.asarray(values) for behavior, part, values in world.explain(agent).behaviors
            if isinstance(behavior, cs.Anticipate)}
    return maps["interest"], maps["danger"]


def test_with_right_of_way_the_agent_ahead_does_not_make_way_for_one_behind_it():
    # Agent 1 walks into agent 0 from behind (west), along the way they share.
    interest, danger = anticipate_maps(field_world(False), 0)
    assert (interest == 0.6).all() and danger[SLOTS // 2] == 1.0  # made to step aside
    interest, danger = anticipate_maps(field_world(True), 0)
    # Agent 1, farther back along the way, counts as standing: no make-way, and only the
    # ways back toward it are dangerous.
    assert (interest == 0).all()
    assert (danger[:SLOTS // 4 + 1] == 0).all() and (danger[3 * SLOTS // 4:] == 0).all()
    assert 0 < danger[SLOTS // 2] <= 1
    # The one behind still sees the one ahead as it is.
    np.testing.assert_array_equal(np.concatenate(anticipate_maps(field_world(True), 1)),
                                  np.concatenate(anticipate_maps(field_world(False), 1)))


def test_an_agent_that_has_arrived_makes_way_with_right_of_way_too():
    # Agent 0 stands at its target, short of the field's goal: once it has arrived, agent
    # 1 coming from behind makes it step aside as without right_of_way.
    worlds = [field_world(row, targets=[[1.0, 0.0], [19.5, 0.0]], goals=cs.Goals(arrival="give_way"))
              for row in (True, False)]
    for world in worlds:
        world.step(1e-3)
        world.positions[:] = [[1.0, 0.0], [0.0, 0.0]]  # as they were: agent 1 still walking in
        world.velocities[:] = [[0.0, 0.0], [1.4, 0.0]]
    assert [int(w.state[0]) for w in worlds] == [3, 3]  # arrived
    interest, danger = anticipate_maps(worlds[0], 0)
    assert (interest == 0.6).all()
    np.testing.assert_array_equal(np.concatenate([interest, danger]), np.concatenate(anticipate_maps(worlds[1], 0)))


def test_right_of_way_leaves_other_groups_and_agents_without_a_field_as_they_were():
    for kwargs in ({"groups": (0, 1)}, {"follow": False}):
        for agent in (0, 1):
            np.testing.assert_array_equal(np.concatenate(anticipate_maps(field_world(True, **kwargs), agent)),
                                          np.concatenate(anticipate_maps(field_world(False, **kwargs), agent)))


def test_a_step_with_right_of_way_decides_as_explain_shows_and_alike_at_one_and_two_threads():
    worlds = []
    for threads in (1, 2):
        world = field_world(True)
        world.threads = threads
        explained = world.explain(0)
        world.step(0.05)
        np.testing.assert_allclose(world.final[0], explained.final, atol=0)
        worlds.append(world)
    np.testing.assert_array_equal(worlds[0].positions, worlds[1].positions)
