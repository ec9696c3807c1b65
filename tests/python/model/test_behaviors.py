"""Every behaviour against hand-computed maps, and the laws the behaviours obey."""

import math

import numpy as np
import pytest
from behavior_maps import DIRS8, lobe, maps_of
from placement import clear_points

import contextsteer as cs


def test_falloff_curves_by_name():
    x = 0.5  # a target at half the maximum distance
    expected = {"step": 1.0, "linear": 0.5, "smoothstep": 0.5, "inverse_square": 1 / (1 + 16 * x * x),
                "exponential": math.exp(-2)}
    for name, value in expected.items():
        interest, _, _ = maps_of(cs.Chase([4.0, 0.0], max_distance=8.0, falloff=name), [[0.0, 0.0]])
        assert interest[0, 0] == pytest.approx(value, rel=1e-5), name


def test_chase_targets_per_agent():
    interest, _, _ = maps_of(cs.Chase(), [[0.0, 0.0], [0.0, 0.0]], targets=[[3.0, 0.0], [0.0, -3.0]])
    np.testing.assert_allclose(interest[0], lobe([1, 0]), atol=1e-6)
    np.testing.assert_allclose(interest[1], lobe([0, -1]), atol=1e-6)


def test_flee():
    interest, _, _ = maps_of(cs.Flee([[2.0, 0.0]], radius=8.0), [[0.0, 0.0], [20.0, 0.0]])
    np.testing.assert_allclose(interest[0], 0.75 * lobe([-1, 0]), atol=1e-6)  # away, falloff 1 - 2/8
    np.testing.assert_array_equal(interest[1], 0)  # beyond the radius


def test_forward_follows_the_heading():
    interest, _, _ = maps_of(cs.Forward(strength=0.8), [[0.0, 0.0]], heading=math.pi / 2)
    np.testing.assert_allclose(interest[0], 0.8 * lobe([0, 1]), atol=1e-6)


def test_pursue_aims_ahead_where_chase_aims_at_the_target():
    # Prey 10 m east running north at 2 m/s; the hunter is at rest, so the prediction is
    # the maximum, 2 s: the aim is (10, 4).
    positions = [[0.0, 0.0], [10.0, 0.0]]
    common = {"velocities": [[0.0, 0.0], [0.0, 2.0]], "target_ids": [1, -1], "slots": 64}
    pursue, _, _ = maps_of(cs.Pursue(max_prediction=2.0), positions, **common)
    chase, _, _ = maps_of(cs.Chase(), positions, targets=[[0, 0], [0, 0]], **{**common, "target_ids": [1, -1]})
    dirs = cs.slot_directions(64).astype(np.float64)
    np.testing.assert_allclose(pursue[0], lobe(np.array([10.0, 4.0]) / math.hypot(10, 4), dirs), atol=1e-5)
    np.testing.assert_allclose(chase[0], lobe([1, 0], dirs), atol=1e-5)
    assert np.argmax(pursue[0]) > np.argmax(chase[0])  # counter-clockwise of the target: ahead of it


def test_evade_flees_the_predicted_position():
    interest, _, _ = maps_of(cs.Evade(max_prediction=1.0, radius=20.0, falloff="step"), [[0.0, 0.0], [4.0, -3.0]],
                             velocities=[[0.0, 0.0], [0.0, 3.0]], target_ids=[1, -1])
    # Aim point (4, 0) after 1 s: flee along -x.
    np.testing.assert_allclose(interest[0], lobe([-1, 0]), atol=1e-6)


def test_arrive_strength_ramps_and_is_zero_inside_the_target_radius():
    positions = [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]
    targets = [[10.0, 0.0], [2.0, 0.0], [0.4, 0.0]]
    interest, _, _ = maps_of(cs.Arrive(target_radius=0.5, slowing_radius=4.0), positions, targets=targets)
    np.testing.assert_allclose(interest[0], lobe([1, 0]), atol=1e-6)        # beyond: strength 1
    np.testing.assert_allclose(interest[1], 0.5 * lobe([1, 0]), atol=1e-6)  # 2 / 4
    np.testing.assert_array_equal(interest[2], 0)                           # inside the target radius


@pytest.mark.parametrize("sideways", [0.0, 0.3, 0.5, 0.8])
def test_sideways_widens_every_target_lobe(sideways):
    def wide(u, peak=1.0):
        return peak * np.maximum(0, sideways + (1 - sideways) * (DIRS8 @ np.asarray(u, float)))

    positions = [[0.0, 0.0], [0.0, 0.0]]
    chase, _, _ = maps_of(cs.Chase([[0.0, 5.0]], max_distance=10.0, sideways=sideways), positions)
    np.testing.assert_allclose(chase[0], wide([0, 1], 0.5), atol=1e-6)
    arrive, _, _ = maps_of(cs.Arrive(slowing_radius=4.0, sideways=sideways), positions,
                           targets=[[10.0, 0.0], [-2.0, 0.0]])
    np.testing.assert_allclose(arrive[0], wide([1, 0]), atol=1e-6)
    np.testing.assert_allclose(arrive[1], wide([-1, 0], 0.5), atol=1e-6)
    assert arrive[0][2] == pytest.approx(sideways, abs=1e-6)  # at right angles: the share asked for
    field = cs.NavigationField([8.0, 0.0], area=(-2, -2, 10, 2), cell=0.25)
    follow, _, _ = maps_of(cs.FollowField(field, sideways=sideways), [[0.125, 0.125]])
    np.testing.assert_allclose(follow[0], wide([1, 0]), atol=0.02)
    path, _, _ = maps_of(cs.FollowPath([[0.0, 0.0], [0.0, 20.0]], sideways=sideways), [[0.0, 0.0]])
    np.testing.assert_allclose(path[0], wide([0, 1]), atol=1e-6)
    pursue, _, _ = maps_of(cs.Pursue(sideways=sideways), [[0.0, 0.0], [-4.0, 0.0]], target_ids=[1, -1])
    np.testing.assert_allclose(pursue[0], wide([-1, 0]), atol=1e-6)  # a target at rest: at it
    # The lobes that point away: Flee, Leave, Evade.
    away = [[0.0, 0.0], [0.0, 0.0], [3.0, 0.0]]
    flee, _, _ = maps_of(cs.Flee([[2.0, 0.0]], radius=4.0, sideways=sideways), away[:1])
    np.testing.assert_allclose(flee[0], wide([-1, 0], 0.5), atol=1e-6)
    leave, _, _ = maps_of(cs.Leave([[0.0, 1.0]], escape_radius=2.0, sideways=sideways), away[:1])
    np.testing.assert_allclose(leave[0], wide([0, -1]), atol=1e-6)
    evade, _, _ = maps_of(cs.Evade(radius=6.0, sideways=sideways), [[0.0, 0.0], [3.0, 0.0]], target_ids=[1, -1])
    np.testing.assert_allclose(evade[0], wide([-1, 0], 0.5), atol=1e-6)
    for behaviour in (cs.Chase(sideways=sideways), cs.Arrive(sideways=sideways), cs.Pursue(sideways=sideways),
                      cs.FollowPath([[0, 0], [1, 0]], sideways=sideways), cs.FollowField(field, sideways=sideways),
                      cs.Flee(sideways=sideways), cs.Leave(sideways=sideways), cs.Evade(sideways=sideways)):
        assert behaviour.sideways == pytest.approx(sideways)


@pytest.mark.parametrize("make", [lambda w: cs.Chase([1.0, 0.0], sideways=w), lambda w: cs.Arrive(sideways=w),
                                  lambda w: cs.Pursue(sideways=w), lambda w: cs.Flee(sideways=w),
                                  lambda w: cs.Leave(sideways=w), lambda w: cs.Evade(sideways=w),
                                  lambda w: cs.FollowPath([[0, 0], [1, 0]], sideways=w),
                                  lambda w: cs.FollowField(cs.NavigationField([1.0, 1.0], area=(0, 0, 2, 2)),
                                                           sideways=w)])
def test_sideways_is_a_share_below_one(make):
    for bad in (1.0, -0.1, math.nan):
        with pytest.raises(ValueError, match="sideways"):
            make(bad)
    with pytest.raises(TypeError, match="sideways"):
        make("wide")


def test_sideways_interest_takes_a_crowd_round_where_the_cosine_lobe_stops_it():
    def share_home(sideways):
        pipeline = cs.Pipeline([cs.Arrive(sideways=sideways), cs.Avoid(agents=True, max_distance=2.0)], slots=16,
                               select="blend")
        world = cs.scenarios.circle(16, radius=12.0, jitter=0.5).world(pipeline, max_speed=1.5,
                                                                      max_acceleration=3.0, radius=0.3)
        rec = world.run(1200, 0.1, record=["positions", "overlap"])
        assert rec.overlap.max() < 0.1
        return (np.linalg.norm(world.positions - world.targets, axis=1) < 1).mean()

    assert share_home(0.5) == 1.0
    assert share_home(0.0) < 0.2  # everyone stops in the middle, the way ahead blocked


def head_on_pair(keep_right: float, steps: int = 400):
    """Two agents 20 m apart walking straight at each other's start: the positions of both,
    (steps, 2, 2), and each one's final distance from its target, (2,) metres."""
    pipeline = cs.Pipeline([cs.Arrive(), cs.Avoid(agents=True, max_distance=2.0, keep_right=keep_right)], slots=16,
                           select="blend")
    starts = np.array([[-10.0, 0.0], [10.0, 0.0]])
    world = cs.World(pipeline, starts, targets=starts[::-1], max_speed=1.5, max_acceleration=3.0, radius=0.3)
    rec = world.run(steps, 0.1, record=["positions", "overlap"])
    assert rec.overlap.max() == 0
    return rec.positions, np.linalg.norm(world.positions - world.targets, axis=1)


def test_keep_right_lets_two_agents_meeting_head_on_pass_each_other():
    # Mirror images of each other, they stop face to face without it.
    _, apart = head_on_pair(0.0)
    np.testing.assert_array_less(10.0, apart)
    for keep_right in (0.1, 0.2, 0.4):
        path, apart = head_on_pair(keep_right)
        np.testing.assert_array_less(apart, 0.5)
        # Each passes on its own right: the one walking +x goes by at -y, the other at +y.
        assert path[:, 0, 1].min() < -0.25 and path[:, 0, 1].max() < 0.05
        assert path[:, 1, 1].max() > 0.25 and path[:, 1, 1].min() > -0.05
    # Negative: both keep left, the same passing mirrored.
    path, apart = head_on_pair(-0.2)
    np.testing.assert_array_less(apart, 0.5)
    assert path[:, 0, 1].max() > 0.25 and path[:, 1, 1].min() < -0.25


def test_keep_right_frees_exact_circles_and_leaves_obstacles_alone():
    def share_home(agents, keep_right):
        pipeline = cs.Pipeline([cs.Arrive(sideways=0.5), cs.Avoid(agents=True, max_distance=2.0,
                                                                  keep_right=keep_right)], slots=16, select="blend")
        world = cs.scenarios.circle(agents, radius=12.0).world(pipeline, max_speed=1.5, max_acceleration=3.0,
                                                               radius=0.3)
        world.run(1500, 0.1, record=[])
        return (np.linalg.norm(world.positions - world.targets, axis=1) < 1).mean()

    for agents in (8, 32):
        assert share_home(agents, 0.0) == 0.0  # symmetric to the last bit: a ring round the centre
        assert share_home(agents, 0.3) == 1.0
    # A pillar dead ahead is not turned: its danger stays symmetric about the bearing.
    maps = [cs.Pipeline([cs.Avoid([[3.0, 0.0, 0.5]], keep_right=k)], slots=16).evaluate(np.zeros((1, 2))).danger[0]
            for k in (0.0, 0.4)]
    np.testing.assert_array_equal(maps[0], maps[1])
    np.testing.assert_array_equal(maps[1][1:], maps[1][1:][::-1])


def test_keep_right_lets_two_lines_crossing_at_right_angles_pass():
    # Nine agents heading east, nine heading north, 1.5 m apart, all sensing each other.
    def crossing(keep_right):
        ys = np.linspace(-6, 6, 9)
        east, north = np.column_stack([np.full(9, -15.0), ys]), np.column_stack([ys, np.full(9, -15.0)])
        pipeline = cs.Pipeline([cs.Chase(), cs.Avoid(agents=True, max_distance=3.0, keep_right=keep_right)],
                               slots=16, select="blend")
        world = cs.World(pipeline, np.concatenate([east, north]),
                         targets=np.concatenate([east + [30, 0], north + [0, 30]]), max_speed=1.5,
                         max_acceleration=3.0, radius=0.4)
        rec = world.run(400, 0.1, record=["positions"])
        gaps = np.linalg.norm(rec.positions[:, :, None] - rec.positions[:, None], axis=3)
        closest = gaps[:, ~np.eye(18, dtype=bool)].min()
        return (np.linalg.norm(world.positions - world.targets, axis=1) < 1).mean(), closest

    # Without it the lines lock into each other and drift off along the diagonal together.
    home, _ = crossing(0.0)
    assert home == 0.0
    for keep_right in (0.1, 0.2, 0.3, -0.2):
        home, closest = crossing(keep_right)
        # Everyone home; agents of radius 0.4 at most graze (0.02 m at 0.1 and 0.3, none at 0.2).
        assert home == 1.0 and closest > 0.75


@pytest.mark.parametrize("bad, error", [(0.8, ValueError), (-0.79, ValueError), (math.nan, ValueError),
                                        ("right", TypeError)])
def test_keep_right_is_at_most_a_quarter_turn(bad, error):
    with pytest.raises(error, match="keep_right"):
        cs.Avoid(agents=True, keep_right=bad)
    assert cs.Avoid(agents=True, keep_right=math.pi / 4).keep_right == pytest.approx(math.pi / 4)


def test_leave_follows_the_seed_ramp():
    positions = [[0.0, 0.0]] * 3
    threats = [[0.5, 0.0], [2.0, 0.0], [6.0, 0.0]]
    interest, _, _ = maps_of(cs.Leave(escape_radius=1.0, danger_radius=4.0), positions, targets=threats)
    np.testing.assert_allclose(interest[0], lobe([-1, 0]), atol=1e-6)
    np.testing.assert_allclose(interest[1], 0.5 * lobe([-1, 0]), atol=1e-6)  # 1 - 2/4
    np.testing.assert_array_equal(interest[2], 0)


def test_separation_alignment_cohesion():
    positions = [[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [30.0, 30.0]]
    velocities = [[0.0, 0.0], [1.0, 0.0], [0.0, 3.0], [5.0, 0.0]]
    sep, _, _ = maps_of(cs.Separation(radius=4.0), positions, velocities=velocities)
    np.testing.assert_allclose(sep[0], np.maximum(0.75 * lobe([-1, 0]), 0.5 * lobe([0, -1])), atol=1e-6)
    ali, _, _ = maps_of(cs.Alignment(radius=4.0), positions, velocities=velocities)
    np.testing.assert_allclose(ali[0], lobe([0.5, 0.5]), atol=1e-6)  # mean of (1, 0) and (0, 1)
    coh, _, _ = maps_of(cs.Cohesion(radius=4.0), positions, velocities=velocities)
    c = np.array([0.5, 1.0])
    np.testing.assert_allclose(coh[0], lobe(c / np.linalg.norm(c)) * np.linalg.norm(c) / 4, atol=1e-6)
    np.testing.assert_array_equal(sep[3], 0)  # nobody within reach


def test_wander_is_reproducible_and_drifts():
    def wander_maps(seed, steps):
        w = cs.World(cs.Pipeline([cs.Wander(seed=seed, rate=2.0, spread=1.0)], slots=32), np.zeros((5, 2)),
                     max_speed=1.0)
        return [w.step(0.1) or w.interest.copy() for _ in range(steps)]
    a, b, c = wander_maps(7, 20), wander_maps(7, 20), wander_maps(8, 20)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert any(not np.array_equal(x, y) for x, y in zip(a, c))
    assert not np.array_equal(a[0][0], a[0][1])  # agents wander apart
    offsets = [cs.Wander(seed=7, rate=2.0, spread=1.0).offset(0, t) for t in np.linspace(0, 5, 200)]
    assert max(abs(o) for o in offsets) <= 1.0 and np.ptp(offsets) > 0.5
    # Smooth in time: the slope is at most 1.5 (smoothstep) * 2 spread * rate = 6 rad/s.
    assert max(abs(np.diff(offsets))) <= 6.0 * (5 / 199) + 1e-6


def test_follow_path_aims_ahead_along_the_path_and_arrives():
    path = cs.FollowPath([[0, 0], [10, 0], [10, 10]], lookahead=2.0, arrive_radius=0.5, slowing_radius=4.0)
    interest, _, _ = maps_of(path, [[3.0, 1.0], [10.5, 5.0], [10.0, 9.8]], slots=16)
    dirs = cs.slot_directions(16).astype(np.float64)
    # On the first leg: closest point (3, 0), aim (5, 0).
    np.testing.assert_allclose(interest[0], lobe(np.array([2.0, -1.0]) / math.hypot(2, 1), dirs), atol=1e-6)
    # On the second leg: closest (10, 5), aim (10, 7).
    np.testing.assert_allclose(interest[1], lobe(np.array([-0.5, 2.0]) / math.hypot(0.5, 2), dirs), atol=1e-6)
    np.testing.assert_array_equal(interest[2], 0)  # arrived at the last waypoint
    world = cs.World(cs.Pipeline([path], slots=16, select="blend"), [[0.0, 0.5]], max_speed=2.0,
                     max_acceleration=4.0)
    world.run(400, 0.05, record=None)
    assert np.linalg.norm(world.positions[0] - [10, 10]) < 0.6


def test_follow_path_keeps_each_agents_progress_through_a_crossing():
    # The fourth leg crosses the first at (10, 0). Taking the closest point of the whole
    # path each step, an agent there is pulled back onto the first leg and goes round for
    # ever; with its progress kept, it goes on down the fourth leg to the end.
    waypoints = [[0, 0], [20, 0], [20, 10], [10, 10], [10, -10], [0, -10]]
    path = cs.FollowPath(waypoints, lookahead=2.0)
    assert path.length == pytest.approx(70.0)
    world = cs.World(cs.Pipeline([path], slots=16, select="blend"), [[0.0, 0.0], [0.0, 0.0]],
                     max_speed=2.0, max_acceleration=4.0, threads=2)
    rec = world.run(1200, 0.05, record=["positions"])
    for agent in range(2):
        track = rec.positions[:, agent]
        closest = [int(np.argmin(np.linalg.norm(track - w, axis=1))) for w in waypoints]
        distances = [float(np.min(np.linalg.norm(track - w, axis=1))) for w in waypoints]
        assert closest == sorted(closest), closest  # every corner, in order
        assert max(distances) < 1.0, distances
        assert np.linalg.norm(track[-1] - waypoints[-1]) < 0.6
    # Outside a world (no progress kept), the closest point of the whole path.
    assert path.progress([12.0, 0.2]) == pytest.approx(12.0)
    assert path.progress([12.0, 0.2], last=48.0) == pytest.approx(49.8)
    with pytest.raises(ValueError, match="window"):
        cs.FollowPath(waypoints, window=0.0)
    with pytest.raises(ValueError, match="point"):
        path.progress([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="last"):
        path.progress([1.0, 2.0], last=float("inf"))
    with pytest.raises(TypeError, match="last"):
        path.progress([1.0, 2.0], last="x")


def test_follow_path_loop_patrols_round_and_round():
    square = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float)
    path = cs.FollowPath(square, lookahead=2.0, loop=True)
    assert path.loop and path.length == pytest.approx(40.0)
    world = cs.World(cs.Pipeline([path], slots=16, select="blend"), [[0.0, 0.0]], max_speed=2.0,
                     max_acceleration=4.0)
    rec = world.run(2000, 0.05, record=["positions", "velocities"])  # 100 s at 2 m/s: 5 laps
    track = rec.positions[:, 0]
    # The corners passed, in the order passed: 0, 1, 2, 3, 0, 1, ... lap after lap.
    corner = np.argmin(np.linalg.norm(track[:, None] - square[None], axis=2), axis=1)
    at_corner = np.min(np.linalg.norm(track[:, None] - square[None], axis=2), axis=1) < 1.2
    passed = [int(c) for i, c in enumerate(corner) if at_corner[i] and (i == 0 or not at_corner[i - 1])]
    assert passed == [k % 4 for k in range(len(passed))] and len(passed) >= 4 * 4 + 1, passed
    assert np.linalg.norm(rec.velocities[-400:, 0], axis=1).min() > 1.5  # never arrives
    with pytest.raises(TypeError, match="loop"):
        cs.FollowPath(square, loop=1)
    with pytest.raises(ValueError, match="loop needs two distinct"):
        cs.FollowPath([[1.0, 1.0]], loop=True)


def test_a_step_longer_than_the_window_is_refused_before_anything_moves():
    path = cs.FollowPath([[0.0, 0.0], [100.0, 0.0]], window=4.0)
    world = cs.World(cs.Pipeline([path]), [[0.0, 0.0], [0.0, 2.0]], max_speed=[10.0, 50.0])
    with pytest.raises(ValueError, match=r"dt: an agent at its max_speed of 50 m/s travels 5 m in a step of "
                                         r"0\.1 s, as far as or farther than the window of 4 m"):
        world.step(0.1)
    np.testing.assert_array_equal(world.positions, [[0, 0], [0, 2]])  # the step did not start
    assert world.steps_taken == 0
    world.step(0.05)                                                   # 2.5 m: within the window
    world.max_speed[1] = 10.0
    world.step(0.1)
    assert world.steps_taken == 2
    # Steerings without a window are not concerned, however fast.
    fast = cs.World(cs.Pipeline([cs.Arrive()]), [[0.0, 0.0]], max_speed=1000.0)
    fast.step(1.0)


def test_rays_binary_and_distance():
    positions = [[0.0, 0.0]]
    kwargs = {"circles": [[4.0, 0.0, 1.0]], "radius": 0.0}
    _, binary, _ = maps_of(cs.Rays(length=5.0, mode="binary"), positions, **kwargs)
    _, graded, _ = maps_of(cs.Rays(length=5.0, mode="distance"), positions, **kwargs)
    assert binary[0, 0] == 1 and graded[0, 0] == pytest.approx(1 - 3 / 5)  # hit at 3 m
    np.testing.assert_array_equal(binary[0, 1:], 0)  # 45 degrees passes by (distance 2.8 > 1)
    _, wall, _ = maps_of(cs.Rays(length=5.0, mode="distance"), positions, segments=[[-5, 2, 5, 2]], radius=0.5)
    assert wall[0, 2] == pytest.approx(1 - 1.5 / 5)  # north, 1.5 m to the inflated wall
    assert wall[0, 1] == pytest.approx(1 - 1.5 * math.sqrt(2) / 5, rel=1e-5)
    np.testing.assert_array_equal(wall[0, [0, 4, 5, 6, 7]], 0)


def test_time_to_collision_puts_danger_where_the_neighbor_will_be():
    # The agent walks north at 2 m/s; a neighbor 10 m east and 4.6 m north walks west at
    # 5 m/s. Relative to the agent: dp = (10, 4.6), dv = (-5, -2), closest approach at
    # t* = 59.2 / 29 = 2.04 s, when the neighbor is at about (-0.21, 0.52): within the two
    # radii (1 m), so a collision is coming, from the north, half-way into the 4 s horizon.
    positions = [[0.0, 0.0], [10.0, 4.6]]
    velocities = [[0.0, 2.0], [-5.0, 0.0]]
    _, danger, _ = maps_of(cs.TimeToCollision(radius=20.0, horizon=4.0), positions, velocities=velocities,
                           radius=0.5, slots=16)
    _, now, _ = maps_of(cs.Avoid(agents=True, world_obstacles=False, max_distance=20.0), positions,
                        velocities=velocities, radius=0.5, slots=16)
    expected = 1 - (59.2 / 29) / 4
    assert danger[0, 4] == pytest.approx(expected, rel=1e-5)  # north, where it will be
    assert danger[0, 6] == pytest.approx(expected, rel=1e-5) and now[0, 6] == 0  # north-west: only the future says so
    assert danger[0, 12] == 0  # south stays free
    _, passing, _ = maps_of(cs.TimeToCollision(radius=20.0), positions, velocities=[[0.0, 2.0], [-5.0, 2.0]],
                            radius=0.5, slots=16)
    np.testing.assert_array_equal(passing, 0)  # it passes 4 m north: no collision, no danger


@pytest.mark.parametrize("k", [1, 3, 6])
def test_rotating_the_scene_rotates_maps_and_decision(k):
    """Every behaviour: rotating all positions, velocities and headings by k slots rotates
    each map and the chosen slot by k."""
    slots = 16
    angle = 2 * math.pi * k / slots
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    rng = np.random.default_rng(k)
    circles = np.array([[1.0, 2.0, 1.0], [-3.0, -1.0, 0.5]])
    positions = clear_points(rng, -6, 6, 12, 0.4, circles=circles)
    velocities = rng.uniform(-1, 1, (12, 2))
    heading = rng.uniform(-math.pi, math.pi, 12)
    targets = rng.uniform(-6, 6, (12, 2))
    behaviors = [cs.Chase(), cs.Flee(radius=6.0), cs.Forward(), cs.Arrive(slowing_radius=5.0),
                 cs.Leave(danger_radius=6.0), cs.Separation(radius=4.0), cs.Alignment(radius=6.0),
                 cs.Cohesion(radius=6.0), cs.Avoid(agents=True, max_distance=3.0), cs.Rays(length=4.0),
                 cs.TimeToCollision(radius=8.0), cs.Pursue(), cs.Evade(radius=8.0)]

    def run(transform, shift_heading):
        w = cs.World(cs.Pipeline(behaviors, slots=slots, interest_rule="sum"), transform(positions),
                     transform(velocities), heading=heading + shift_heading, targets=transform(targets),
                     target_ids=np.roll(np.arange(12), 1), circles=np.column_stack([transform(circles[:, :2]),
                                                                                    circles[:, 2]]),
                     max_speed=0.0, radius=0.4)
        w.step(0.01)
        return w.interest.copy(), w.danger.copy(), w.slot.copy(), w.blocked.copy()

    a = run(lambda x: x, 0.0)
    b = run(lambda x: x @ rot.T, angle)
    np.testing.assert_allclose(np.roll(a[0], k, axis=1), b[0], atol=2e-4)
    np.testing.assert_allclose(np.roll(a[1], k, axis=1), b[1], atol=2e-4)
    open_ = ~a[3]
    np.testing.assert_allclose((a[2][open_] + k) % slots, b[2][open_], atol=1e-3)


def test_an_obstacle_between_two_slot_centres_marks_both():
    for slots in (4, 8, 12):
        half = math.pi / slots  # the edge between slots 0 and 1
        centre = 6 * np.array([math.cos(half), math.sin(half)])
        _, danger, _ = maps_of(cs.Avoid([[*centre, 0.2]], max_distance=10.0), [[0.0, 0.0]], slots=slots,
                               radius=0.0)
        assert danger[0, 0] > 0 and danger[0, 1] > 0 and (danger[0, 2:] == 0).all()


def test_avoid_wall_arc_measures_walls_over_that_share_of_each_slot_s_arc():
    # an agent of radius 0.3 m in the middle of a corridor 0.9 m wide along x: 0.15 m from
    # each wall's capsule; 8 slots, arcs of +-22.5 degrees
    def danger(**params) -> np.ndarray:
        world = cs.World(cs.Pipeline([cs.Avoid(max_distance=0.5, **params)], slots=8), [[0.0, 0.0]], radius=0.3,
                         segments=[[-5.0, 0.45, 5.0, 0.45], [-5.0, -0.45, 5.0, -0.45]])
        world.step(1e-3)
        return world.danger[0]

    def seen_at(degrees: float) -> float:  # the danger of the wall first met along a ray this far off the x axis
        return 1.0 - 0.15 / math.sin(math.radians(degrees)) / 0.5

    whole, half = danger(), danger(wall_arc=0.5)
    np.testing.assert_array_equal(whole, danger(wall_arc=1.0))
    # along the corridor the whole arc meets the walls 0.39 m off; half of it, within 11.25
    # degrees, meets them beyond max_distance
    assert whole[0] == whole[4] == pytest.approx(seen_at(22.5), abs=1e-5)
    assert half[0] == half[4] == 0.0
    # straight at a wall, its clearance either way; between, the nearer edge of each arc
    assert whole[2] == half[2] == pytest.approx(1.0 - 0.15 / 0.5, abs=1e-5)
    assert whole[1] == pytest.approx(seen_at(67.5), abs=1e-5)
    assert half[1] == pytest.approx(seen_at(56.25), abs=1e-5)
    # the corridor is mirror-symmetric, and so are both maps
    for row in (whole, half):
        np.testing.assert_allclose(row[[1, 2, 3]], row[[7, 6, 5]], atol=1e-6)


@pytest.mark.parametrize("bad", [0.0, -0.5, 1.5, math.nan])
def test_avoid_wall_arc_is_a_share_above_zero_up_to_one(bad):
    with pytest.raises(ValueError, match="wall_arc"):
        cs.Avoid(wall_arc=bad)


def test_follow_path_to_target_ends_each_agents_path_at_its_own_target():
    waypoints = [[0.0, 0.0], [10.0, 0.0]]
    targets = np.array([[12.0, 4.0], [12.0, -4.0]])
    starts = [[0.0, 0.5], [0.0, -0.5]]
    shared = cs.World(cs.Pipeline([cs.FollowPath(waypoints)]), starts, targets=targets, max_speed=2.0)
    own = cs.World(cs.Pipeline([cs.FollowPath(waypoints, to_target=True)]), starts, targets=targets, max_speed=2.0)
    shared.run(400, 0.05)
    own.run(400, 0.05)
    assert np.all(np.linalg.norm(shared.positions - [10.0, 0.0], axis=1) < 1.0)
    assert np.all(np.linalg.norm(own.positions - targets, axis=1) < 1.0)
    assert cs.FollowPath(waypoints, to_target=True).to_target is True
    with pytest.raises((TypeError, ValueError), match="to_target"):
        cs.FollowPath(waypoints, to_target="yes")
