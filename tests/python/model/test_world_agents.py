"""Agents in a world: ids, add/remove/reset, classic steering beside context steering,
obstacles of every kind, neighbor queries, layers, recording and threads. The file is long
because it follows every way agents enter, leave and share a world."""

import hashlib
import inspect
import io
import math
import threading

import numpy as np
import pytest
from placement import clear_points

import contextsteer as cs
from contextsteer import classic


def chase_pipeline(**kwargs):
    return cs.Pipeline([cs.Chase(), cs.Avoid(max_distance=2.0, **kwargs)], slots=16, select="blend")


def test_ids_are_stable_and_removed_ids_fail_loudly():
    world = cs.World(chase_pipeline(), [[0, 0], [1, 0], [2, 0]])
    np.testing.assert_array_equal(world.ids, [0, 1, 2])
    more = world.add_agents([[3, 0], [4, 0]])
    np.testing.assert_array_equal(more, [3, 4])
    world.remove_agents([1, 3])
    np.testing.assert_array_equal(world.ids, [0, 2, 4])
    np.testing.assert_array_equal(world.index_of([4, 0]), [2, 0])
    np.testing.assert_allclose(world.positions[world.index_of(2)[0]], [2, 0])
    with pytest.raises(IndexError, match="^ids: agent 1 was removed"):
        world.index_of(1)
    with pytest.raises(IndexError, match="^agent: no agent has id 9 "):
        world.explain(9)
    with pytest.raises(IndexError, match=r"^agent: no agent has id -1 \(ids are whole numbers from 0\)"):
        world.neighbors(agent=-1, radius=1.0)
    with pytest.raises(IndexError, match="no agent has id 9"):
        world.remove_agents([0, 9])
    assert len(world) == 3  # nothing was removed by the failed call
    new = world.add_agents([[5, 0]])
    assert new[0] == 5  # ids are never reused


def test_reset_restores_the_spawn_state():
    world = cs.World(chase_pipeline(), [[0.0, 0.0], [5.0, 5.0]], targets=[[10, 0], [0, 10]], max_speed=2.0)
    start = world.positions.copy()
    for _ in range(20):
        world.step(0.1)
    assert not np.allclose(world.positions, start)
    world.reset()
    np.testing.assert_array_equal(world.positions, start)
    np.testing.assert_array_equal(world.velocities, 0)
    assert world.time == 0 and world.steps_taken == 0
    np.testing.assert_array_equal(world.interest, 0)


def test_context_and_classic_agents_share_a_world():
    seek = classic.Steering([classic.Seek([20.0, 0.0])])
    world = cs.World(cs.Pipeline([cs.Chase([20.0, 0.0])]), [[0.0, 1.0]], max_speed=2.0, max_acceleration=2.0)
    ids = world.add_agents([[0.0, -1.0]], steering=seek, max_speed=2.0, max_acceleration=2.0)
    assert len(world.steerings) == 2 and world.steerings[1] is seek
    np.testing.assert_array_equal(world.steering_index, [0, 1])
    for _ in range(60):
        world.step(0.1)
    # Both head east near full speed (the context agent's strength is its interest in the
    # best slot, just under 1); only the context agent has maps.
    assert (world.velocities[:, 0] > 1.95).all()
    assert np.linalg.norm(world.velocities[1]) == pytest.approx(2.0, abs=1e-4)
    assert world.final[0].max() > 0 and world.final[1].max() == 0
    assert world.index_of(ids)[0] == 1


def test_a_classic_agent_is_explained_by_its_behaviours_outputs_and_their_blend():
    # Seek toward +x at the agent's 2 m/s^2, Face toward +y (a quarter turn to go with
    # time_to_target 0.1 s): the outputs follow seed 003's formulas, the blend weighs them,
    # and the next step applies exactly the blend.
    steering = classic.Steering([classic.Seek([10.0, 0.0]), classic.Face([0.0, 10.0], weight=0.5)])
    world = cs.World(chase_pipeline(), [[0.0, 5.0]])
    agent = int(world.add_agents([[0.0, 0.0]], steering=steering, max_acceleration=2.0, max_speed=3.0)[0])
    why = world.explain(agent, dt=0.05)
    assert isinstance(why, cs.ClassicExplanation) and why.level is None and why.dt == 0.05
    (seek, seek_linear, seek_angular), (face, face_linear, face_angular) = why.behaviors
    assert seek is steering.behaviors[0] and face is steering.behaviors[1]
    np.testing.assert_allclose(seek_linear, [2.0, 0.0], rtol=1e-6)
    assert seek_angular == 0
    np.testing.assert_allclose(face_linear, [0.0, 0.0])
    assert face_angular == pytest.approx((np.pi / 2) / 0.1 / 0.1, rel=1e-5)   # (r / t - omega) / t
    np.testing.assert_allclose(why.linear, seek_linear, rtol=1e-6)
    assert why.angular == pytest.approx(0.5 * face_angular, rel=1e-6)
    assert "classic.Face" in repr(why) and "rad/s^2" in repr(why)
    # The world's next step of the same dt takes that steering: velocity and angular
    # velocity grow by it times dt (no limit is reached).
    row = world.index_of(agent)[0]
    world.step(0.05)
    np.testing.assert_allclose(world.velocities[row], why.linear * 0.05, rtol=1e-6)
    assert world.angular_velocity[row] == pytest.approx(why.angular * 0.05, rel=1e-6)
    # A context agent is still explained by its maps.
    assert isinstance(world.explain(int(world.ids[0])), cs.Explanation)


def test_a_classic_explanation_plots_each_output_and_the_steering_as_arrows():
    import matplotlib.pyplot as plt

    steering = classic.Steering([classic.Seek([10.0, 3.0]), classic.Flee([2.0, -1.0]), classic.LookWhereYouGo()])
    world = cs.World(steering, [[0.0, 0.0]], max_acceleration=3.0, max_speed=2.0)
    world.step(0.05)
    why = world.explain(0, dt=0.05)
    artists = why.plot()
    lines = [a for a in artists if hasattr(a, "get_xydata")]
    # One line from the origin per behaviour, ending on its linear output, then the steering.
    ends = [linear for _, linear, _ in why.behaviors] + [why.linear]
    assert len(lines) == len(ends) == 4
    for line, end in zip(lines, ends):
        np.testing.assert_allclose(line.get_xydata(), [[0.0, 0.0], end])
    labels = [line.get_label() for line in lines]
    assert [label.split(":")[0] for label in labels] == ["Seek", "Flee", "LookWhereYouGo", "steering"]
    assert labels[2].endswith(f"0 m/s^2, {why.behaviors[2][2]:.3g} rad/s^2")
    # Arrowheads on the three that have a length (LookWhereYouGo only turns); every arrow
    # within the square limits, on equal scales.
    assert sum(not hasattr(a, "get_xydata") for a in artists) == 3
    axis = lines[0].axes
    reach = max(np.hypot(*end) for end in ends)
    assert axis.get_xlim()[1] == axis.get_ylim()[1] > reach and axis.get_aspect() == 1.0
    plt.close(axis.figure)
    polar = plt.figure().add_subplot(projection="polar")
    with pytest.raises(ValueError, match="^ax: expected a Cartesian axis, got a 'polar' axis$"):
        why.plot(polar)
    plt.close(polar.figure)


def test_a_classic_explanation_names_the_priority_level_taken_and_the_step_it_is_for():
    steering = classic.Steering([classic.Leave([0.0, 0.0], danger_radius=1.0, priority=0),
                                 classic.Arrive([10.0, 0.0], time_to_target=0.1, priority=1)], combiner="priority")
    world = cs.World(steering, [[5.0, 0.0], [-0.5, 0.0]], max_acceleration=100.0, max_speed=1.0)
    far, near = world.explain(0), world.explain(1)
    assert far.level == 1 and near.level == 0          # out of Leave's reach, then within it
    np.testing.assert_allclose(far.behaviors[0][1], [0.0, 0.0])
    assert near.linear[0] < 0                          # Leave: away from (0, 0), not on to the target
    # Arrive reaches its desired velocity (1 m/s toward the target) over time_to_target, or
    # over the step when the step is longer.
    assert far.linear[0] == pytest.approx(1.0 / 0.1, rel=1e-6)
    assert world.explain(0, dt=0.5).linear[0] == pytest.approx(1.0 / 0.5, rel=1e-6)
    with pytest.raises(ValueError, match="dt: expected a number >= 1e-06, got 0"):
        world.explain(0, dt=0.0)
    with pytest.raises(IndexError, match="agent: no agent has id 7"):
        world.explain(7)


def test_kinematic_limits_hold_under_any_behaviour():
    rng = np.random.default_rng(2)
    steerings = [
        chase_pipeline(),
        classic.Steering([classic.Flee(), classic.Face()], combiner="blend"),
        classic.Steering([classic.Pursue(max_prediction=1.5), classic.LookWhereYouGo()]),
        classic.Steering([classic.Arrive(slowing_radius=4.0), classic.Evade()], combiner="priority"),
    ]
    world = cs.World(steerings[0])
    n = 40
    for s in steerings:
        world.add_agents(rng.uniform(-10, 10, (n, 2)), rng.uniform(-1, 1, (n, 2)), steering=s, max_speed=2.5,
                         max_acceleration=3.0, max_turn_rate=1.2, targets=rng.uniform(-10, 10, (n, 2)),
                         target_ids=rng.integers(0, n, n), heading=rng.uniform(-3, 3, n))
    dt = 0.05
    velocity = world.velocities.copy()
    heading = world.heading.copy()
    for _ in range(200):
        world.step(dt)
        v = world.velocities
        assert (np.linalg.norm(v, axis=1) <= 2.5 + 1e-4).all()
        assert (np.linalg.norm(v - velocity, axis=1) <= 3.0 * dt + 1e-4).all()
        turn = np.angle(np.exp(1j * (world.heading - heading)))
        assert (np.abs(turn) <= 1.2 * dt + 1e-4).all()
        velocity, heading = v.copy(), world.heading.copy()


def test_an_agent_faster_than_its_max_speed_brakes_at_its_limit_or_at_once_if_classic():
    # Both start at 10 m/s east under a max_speed of 2 and seek a point far east.
    world = cs.World(cs.Pipeline([cs.Chase([1e4, 0.0])]), [[0.0, 0.0]], [[10.0, 0.0]], max_speed=2.0,
                     max_acceleration=4.0)
    world.add_agents([[0.0, 5.0]], [[10.0, 0.0]], steering=classic.Steering([classic.Seek([1e4, 5.0])]),
                     max_speed=2.0, max_acceleration=4.0)
    dt = 0.1
    speeds = []
    for _ in range(30):
        world.step(dt)
        speeds.append(np.linalg.norm(world.velocities, axis=1))
    speeds = np.array(speeds)
    # The context agent loses 0.4 m/s a step (4 m/s^2) until it reaches its desired
    # 2 m/s (strength 1: the target lies on a slot), then holds it.
    np.testing.assert_allclose(speeds[:20, 0], np.maximum(10.0 - 0.4 * np.arange(1, 21), 2.0), rtol=1e-5)
    np.testing.assert_allclose(speeds[20:, 0], 2.0, rtol=1e-5)
    np.testing.assert_allclose(speeds[:, 1], 2.0, rtol=1e-5)  # classic: truncated in the first step
    assert (np.diff(speeds[:, 0]) <= 1e-5).all()              # never speeds up again


@pytest.mark.parametrize("time_to_target", [0.1, 0.01, 0.001])
def test_face_settles_on_its_target_whatever_the_time_to_target(time_to_target):
    # A time_to_target shorter than the step used to overshoot the turn every step, and
    # with an unlimited turn rate the angular velocity grew without bound.
    world = cs.World(classic.Steering([classic.Face([5.0, 5.0], time_to_target=time_to_target)]), [[0.0, 0.0]])
    for _ in range(120):
        world.step(1 / 60)
    assert world.heading[0] == pytest.approx(math.pi / 4, abs=0.02)
    assert abs(world.angular_velocity[0]) < 0.1


def test_an_overshooting_blend_turns_at_most_half_a_turn_per_substep():
    # Face weighted 5 asks for five times the turn that reaches the target: the agent
    # spins, but its angular velocity stays within pi / h instead of growing step by step.
    world = cs.World(classic.Steering([classic.Face([5.0, 5.0], time_to_target=0.01, weight=5.0)]), [[0.0, 0.0]])
    for substeps in (1, 4):
        for _ in range(200):
            world.step(0.1, substeps=substeps)
            assert abs(world.angular_velocity[0]) <= math.pi / (0.1 / substeps) * (1 + 1e-6)
    assert np.isfinite(world.heading).all()


def test_state_beyond_the_cores_bound_is_named_before_the_step():
    world = cs.World(chase_pipeline(), [[0.0, 0.0], [1.0, 1.0]])
    world.positions[1, 0] = 2e9
    with pytest.raises(ValueError, match=r"^positions: expected values from -1e9 to 1e9, got 2e\+09 for agent 1$"):
        world.step(0.1)
    world.positions[1, 0] = 1.0
    world.max_turn_rate[0] = 5e9
    with pytest.raises(ValueError, match=r"^max_turn_rate: expected values from 0 to 1e9 or inf, got 5e\+09"):
        world.step(0.1)
    world.max_turn_rate[0] = np.inf
    world.step(0.1)
    with pytest.raises(ValueError, match=r"dt: expected a number >= 1e-06, got 1e-07"):
        world.step(1e-7)
    with pytest.raises(ValueError, match=r"substeps: expected substeps of at least 1e-06 s, got 1000000 of a 0.1 s"):
        world.step(0.1, substeps=10**6)
    assert world.steps_taken == 1


def test_a_mass_too_light_to_divide_a_force_by_is_refused_before_anything_moves():
    # A classic agent's force is divided by its mass: 1 / 1e-44 is inf in float32, and
    # such an agent used to reach the grid with a NaN position (and leave it there).
    seek = classic.Steering([classic.Seek([100.0, 0.0])])
    with pytest.raises(ValueError, match=r"^mass: expected values from 1e-9 to 1e9, got 1e-44$"):
        cs.World(seek, [[0.0, 0.0]], mass=1e-44)
    with pytest.raises(ValueError, match=r"^mass: expected values from 1e-9 to 1e9, got 5e\+09$"):
        cs.World(seek, [[0.0, 0.0]], mass=5e9)
    world = cs.World(seek, [[0.0, 0.0], [1.0, 0.0]], max_speed=2.0, max_force=1e9)
    for mass in (1e-44, 1e-10, 0.0, -1.0, 2e9, np.inf, np.nan):
        world.mass[1] = mass
        with pytest.raises(ValueError, match=r"^mass: expected values from 1e-9 to 1e9, got .* for agent 1$"):
            world.step(0.1)
        assert world.steps_taken == 0 and (world.positions == [[0, 0], [1, 0]]).all()
    world.mass[1] = 1e-9  # the lightest accepted: its force over its mass stays finite
    world.step(0.1)
    assert np.isfinite(world.velocities).all()
    assert world.velocities[1] == pytest.approx(world.velocities[0])  # the same seek at any mass


def test_walls_polygons_and_bounds_keep_agents_out():
    pipeline = cs.Pipeline([cs.Chase(), cs.Avoid(max_distance=3.0)], slots=16, select="blend")
    # A wedge pointing at the agents: they slide along its faces. (A wide face square to
    # the target direction is a dead end for any reactive steering; paths handle those.)
    square = [[8, 0.5], [12, -1.5], [12, 2.5]]
    world = cs.World(pipeline, [[0.0, y] for y in np.linspace(-3, 3, 7)], targets=[[20.0, 0.0]] * 7,
                     max_speed=2.0, max_acceleration=4.0, radius=0.4, polygons=[square],
                     segments=[[15, 1.0, 15, 6.0]], bounds=(-5, -6, 25, 6))
    worst = 0.0
    for _ in range(500):
        world.step(0.05)
        worst = max(worst, float(world.penetration.max()))
    assert worst < 0.05
    assert (np.linalg.norm(world.positions - [20, 0], axis=1) < 1.5).all()
    assert world.bounds == (-5, -6, 25, 6)
    np.testing.assert_allclose(world.polygons[0], square)
    np.testing.assert_allclose(world.segments, [[15, 1, 15, 6]])


def test_bounds_and_obstacles_can_be_taken_away():
    pipeline = cs.Pipeline([cs.Chase(), cs.Avoid(max_distance=2.0)], slots=16)
    world = cs.World(pipeline, [[0.0, 0.0]], targets=[[30.0, 0.0]], max_speed=2.0, radius=0.5,
                     bounds=(-5, -5, 5, 5))
    world.run(100, 0.1, record=None)
    assert 3.5 < world.positions[0, 0] <= 4.5 + 1e-4  # held by the east side of the bounds
    world.bounds = None
    assert world.bounds is None
    world.run(200, 0.1, record=None)
    assert world.positions[0, 0] > 25  # nothing in the way any more

    # An agent inside a circle, a polygon and across a wall: penetrating all three, then none.
    with pytest.warns(UserWarning, match=r"1 of 1 agents start with their body in an obstacle \(rows 0\)"):
        world = cs.World(pipeline, [[0.0, 0.0]], max_speed=0.0, radius=0.5, circles=[[0, 0, 1]],
                         segments=[[-2, 0, 2, 0]], polygons=[[[-1, -1], [1, -1], [0, 1]]], bounds=(-9, -9, 9, 9))
    world.step(0.1)
    assert world.penetration[0] > 1
    world.clear_obstacles()
    assert world.bounds is None
    assert world.circles.shape == (0, 3) and world.segments.shape == (0, 4) and len(world.polygons) == 0
    world.step(0.1)
    assert world.penetration[0] == 0


def test_obstacles_far_off_change_nothing_near_the_agents():
    # Agents among 300 pillars (and Rays on them); then the same with obstacles far
    # off: a pillar 1,000 km away, a copy of the room 50 km away, or bounds 100 km wide.
    # None is ever within reach, so the runs are the same to the bit, however the
    # obstacles' index lays out its cells for them.
    rng = np.random.default_rng(21)
    pillars = np.column_stack([rng.uniform(0, 60, (300, 2)), rng.uniform(0.2, 0.6, 300)])
    walls = np.column_stack([rng.uniform(0, 60, (40, 2)), rng.uniform(0, 60, (40, 2))])
    walls[:, 2:] = walls[:, :2] + rng.uniform(-3, 3, (40, 2))
    starts = rng.uniform(0, 60, (200, 2))
    pipeline = cs.Pipeline([cs.Chase(), cs.Avoid(max_distance=2.0), cs.Rays(length=4.0)], slots=16,
                           select="blend")

    def run(circles, segments, bounds=None):
        # Some agents start in the pillars, so that penetration is measured at once.
        with pytest.warns(UserWarning, match="agents start with their body in an obstacle"):
            world = cs.World(pipeline, starts, targets=starts[::-1].copy(), max_speed=2.0, radius=0.3,
                             circles=circles, segments=segments, bounds=bounds)
        penetration = 0.0
        for _ in range(40):
            world.step(0.1)
            penetration = max(penetration, float(world.penetration.max()))
        return world.positions.copy(), penetration

    near, penetration = run(pillars, walls)
    assert penetration > 0  # the pillars were met
    far_town = np.vstack([pillars, pillars + [5e4, 5e4, 0]])
    for circles, segments, bounds in [(np.vstack([pillars, [1e6, -1e6, 1.0]]), walls, None),
                                      (far_town, np.vstack([walls, walls + 5e4]), None),
                                      (pillars, walls, (-1e5, -1e5, 1e5, 1e5))]:
        positions, far_penetration = run(circles, segments, bounds)
        np.testing.assert_array_equal(positions, near)
        assert far_penetration == penetration


def test_penetration_and_overlap_are_measured():
    with pytest.warns(UserWarning, match=r"1 of 3 agents start with their body in an obstacle \(rows 2\)"):
        world = cs.World(cs.Pipeline([cs.Chase()]), [[0, 0], [0.6, 0], [30, 0]], max_speed=0.0, radius=0.5,
                         circles=[[30.0, 0.9, 0.5]])
    world.step(0.1)
    np.testing.assert_allclose(world.overlap, [0.4, 0.4, 0.0], atol=1e-5)
    np.testing.assert_allclose(world.penetration, [0, 0, 0.1], atol=1e-5)


def test_neighbor_queries_equal_brute_force_and_respect_layers():
    rng = np.random.default_rng(8)
    positions = rng.uniform(-30, 30, (400, 2))
    layers = rng.integers(1, 4, 400)  # 1, 2 or 3
    world = cs.World(cs.Pipeline([cs.Chase()]), positions, layers=layers)
    for _ in range(20):
        point, radius = rng.uniform(-30, 30, 2), rng.uniform(0, 15)
        mask = int(rng.integers(1, 4))
        got = world.neighbors(point, radius, layers=mask)
        near = np.linalg.norm(world.positions - point, axis=1) <= radius
        want = world.ids[near & ((layers & mask) != 0)]
        np.testing.assert_array_equal(np.sort(got), np.sort(want))
    agent = 7
    world.sense_masks[agent] = 2
    got = world.neighbors(agent=agent, radius=10.0)
    near = np.linalg.norm(world.positions - world.positions[agent], axis=1) <= 10.0
    want = world.ids[near & ((layers & 2) != 0) & (world.ids != agent)]
    np.testing.assert_array_equal(np.sort(got), np.sort(want))
    with pytest.raises(ValueError, match="point: .* got the number 7 .*agent="):
        world.neighbors(agent, 10.0)  # an id where the point goes


def test_agents_avoid_only_the_layers_they_sense():
    pipeline = cs.Pipeline([cs.Chase(), cs.Avoid(agents=True, world_obstacles=False, max_distance=3.0)])
    # Two agents on a collision course; the first senses nothing of layer 2.
    world = cs.World(pipeline, [[0.0, 0.0], [10.0, 0.0]], targets=[[10.0, 0.0], [0.0, 0.0]],
                     layers=[1, 2], sense_masks=[1, 1])
    world.step(0.1)
    assert world.danger[0].max() == 0  # agent 0 does not sense agent 1 (layer 2)...
    world.step(0.1)
    world2 = cs.World(pipeline, [[0.0, 0.0], [2.0, 0.0]], targets=[[10.0, 0.0], [0.0, 0.0]])
    world2.step(0.1)
    assert world2.danger[0, 0] > 0 and world2.danger[1, 8] > 0  # ...while these see each other


def test_run_records_arrays_of_the_documented_shapes():
    world = cs.World(chase_pipeline(), np.zeros((5, 2)), targets=[[10, 0]] * 5, max_speed=1.0)
    rec = world.run(30, 0.1, record="all")
    assert rec.complete and rec.steps == 31 and rec.steps_run == 30 and rec.includes_start  # the start, the steps
    assert rec.positions.shape == (31, 5, 2) and rec.headings.shape == (31, 5)
    assert rec.interest.shape == (31, 5, 16) and rec.blocked.dtype == bool
    np.testing.assert_allclose(rec.time, 0.1 * np.arange(0, 31), rtol=1e-6)
    np.testing.assert_array_equal(rec.positions[-1], world.positions)
    np.testing.assert_array_equal(rec.ids, world.ids)
    only = world.run(3, 0.1, record=["positions", "overlap"])
    assert only.velocities is None and only.overlap.shape == (4, 5)
    one = world.run(2, 0.1, record="danger")  # a single name, without a list
    assert one.recorded == ("danger",) and one.danger.shape == (3, 5, 16) and one.positions is None
    assert cs.recording.bytes_per_step(cs.recording.STATE, 5, 16) == 8 + 20 * 5
    with pytest.raises(ValueError, match="record"):
        world.run(3, record=["speed"])
    with pytest.raises(ValueError, match="record: .*got 'speed'"):
        world.run(3, record="speed")


def test_a_recording_larger_than_the_memory_available_is_refused_before_the_run(monkeypatch):
    world = cs.World(chase_pipeline(), np.zeros((5, 2)), targets=[[10, 0]] * 5, max_speed=1.0)
    per_step = cs.recording.bytes_per_step(cs.recording.FIELDS, 5, 16)
    monkeypatch.setattr(cs.recording, "available_bytes", lambda: 100 * per_step)
    assert world.run(99, 0.1, record="all").steps == 100  # exactly what is available: the start and 99 steps
    with pytest.raises(MemoryError, match=r"^record: 100 steps of positions, .* for 5 agents need .* GB, more than"):
        world.run(100, 0.1, record="all")
    assert world.steps_taken == 99
    assert world.run(1000, 0.1, record=None).steps == 1001  # the time alone fits
    monkeypatch.undo()
    available = cs.recording.available_bytes()  # Linux: MemAvailable, read for real
    assert available is None or 0 < available < 2**50


def test_runs_under_way_at_once_share_the_memory_available(monkeypatch):
    # MemAvailable does not count a recording until its run writes it, so runs started at
    # once (a sweep's workers) hold their recordings' sizes against one another.
    import threading

    started, release = threading.Event(), threading.Event()

    def wait_for_release(batch, interest, danger):
        started.set()
        assert release.wait(30)

    slow = cs.World(cs.Pipeline([cs.PythonBehavior(wait_for_release)]), np.zeros((5, 2)))
    fast = cs.World(chase_pipeline(), np.zeros((5, 2)), targets=[[10, 0]] * 5, max_speed=1.0)
    per_step = cs.recording.bytes_per_step(cs.recording.STATE, 5, 16)
    monkeypatch.setattr(cs.recording, "available_bytes", lambda: 100 * per_step)
    done = []
    runner = threading.Thread(target=lambda: done.append(slow.run(60, 0.1, record="state", include_start=False)))
    runner.start()
    try:
        assert started.wait(30)
        with pytest.raises(MemoryError, match=r"^record: 41 steps of .* for 5 agents need .* GB, more than the .* GB "
                                              r"this machine has available, less .* GB held by other runs under way"):
            fast.run(41, 0.1, record="state", include_start=False)
        assert fast.steps_taken == 0
        assert fast.run(40, 0.1, record="state", include_start=False).steps == 40  # what is left
    finally:
        release.set()
        runner.join()
    assert done[0].steps == 60
    assert fast.run(99, 0.1, record="state").steps == 100  # all of it, once the other run ended
    with pytest.raises(MemoryError):  # a refused run holds nothing afterwards
        fast.run(100, 0.1, record="state")
    assert fast.run(99, 0.1, record="state").steps == 100


def test_a_recording_saves_and_loads_whole(tmp_path):
    world = cs.World(chase_pipeline(), np.zeros((4, 2)), targets=[[10, 0]] * 4, max_speed=1.0)
    rec = world.run(12, 0.1, record=["positions", "final", "blocked", "overlap"]).truncated(10)
    rec.save(tmp_path / "run")
    back = cs.Recording.load(tmp_path / "run.npz")
    assert back.recorded == rec.recorded and back.complete is False and back.steps == 10
    for name in ("time", "ids", *rec.recorded):
        np.testing.assert_array_equal(getattr(back, name), getattr(rec, name))
        assert getattr(back, name).dtype == getattr(rec, name).dtype
    assert back.velocities is None
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    with pytest.raises(ValueError, match="Recording.save"):
        cs.Recording.load(tmp_path / "other.npz")


def _damaged(good: bytes, how: str) -> bytes:
    """The bytes of a saved recording, damaged: emptied, cut short, flipped, or another file."""
    if how == "empty":
        return b""
    if how == "cut short":
        return good[:len(good) // 2]
    if how == "flipped":  # the middle of the compressed data, past the first header
        middle = bytearray(good)
        middle[len(good) // 3:len(good) // 3 + 16] = bytes(16)
        return bytes(middle)
    if how == "text":
        return b"time,x\n0,1\n"
    buffer = io.BytesIO()
    np.save(buffer, np.zeros(3))  # a single .npy array
    return buffer.getvalue()


@pytest.mark.parametrize("how", ["empty", "cut short", "flipped", "text", "npy"])
def test_a_damaged_recording_raises_a_value_error_naming_the_file(tmp_path, how):
    world = cs.World(chase_pipeline(), np.zeros((4, 2)), targets=[[10, 0]] * 4, max_speed=1.0)
    world.run(12, 0.1, record="all").save(tmp_path / "good.npz")
    path = tmp_path / "damaged.npz"
    path.write_bytes(_damaged((tmp_path / "good.npz").read_bytes(), how))
    with pytest.raises(ValueError, match=rf"^path: .*{path}") as caught:
        cs.Recording.load(path)
    assert type(caught.value) is ValueError


@pytest.mark.parametrize(("arrays", "words"), [
    ({"positions": np.zeros((4, 2, 2), np.float32)}, "holds positions of shape (4, 2, 2) and dtype float32, "
                                                     "not of shape (3, 2, 2)"),
    ({"strength": np.zeros((3, 2), np.int64)}, "holds strength of shape (3, 2) and dtype int64"),
    ({"complete": np.zeros(3)}, "holds complete of shape (3,)"),
    ({"event_step": np.int64(3), "event_kind": np.array(["arrived"])}, "holds event_step of shape ()"),
    ({"moving_positions": np.zeros((3, 1, 2), np.float32)}, "without ['moving_angles'"),
])
def test_a_recording_of_arrays_save_never_writes_is_refused_by_name(tmp_path, arrays, words):
    path = tmp_path / "odd.npz"
    np.savez(path, **{"time": np.zeros(3), "ids": np.arange(2), "complete": np.bool_(True), **arrays})
    with pytest.raises(ValueError, match="path: expected a recording saved by Recording.save") as caught:
        cs.Recording.load(path)
    assert str(path) in str(caught.value) and words in str(caught.value)


def test_a_recording_that_cannot_be_read_raises_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        cs.Recording.load(tmp_path / "missing.npz")
    with pytest.raises(IsADirectoryError):
        cs.Recording.load(tmp_path)


def test_a_recording_becomes_a_long_table_with_a_row_per_step_and_agent():
    world = cs.World(chase_pipeline(agents=True), [[0, 0], [1, 0], [2, 0]], targets=[[5, 5]] * 3, max_speed=1.0)
    world.remove_agents([1])  # ids 0 and 2: the table carries ids, not rows
    rec = world.run(4, 0.25, record="all")
    table = rec.to_dataframe()
    assert list(table.columns) == ["step", "time", "id", "x", "y", "vx", "vy", "heading", "direction_x",
                                   "direction_y", "strength", "slot", "blocked", "penetration", "overlap", "state",
                                   "waiting_time", "arrival_time", "give_way_x", "give_way_y"]
    assert len(table) == 5 * 2  # the start and 4 steps, 2 agents
    row = table[(table.step == 2) & (table.id == 2)].iloc[0]
    assert row.time == pytest.approx(0.5)
    assert (row.x, row.y) == (rec.positions[2, 1, 0], rec.positions[2, 1, 1])
    assert (row.vx, row.vy, row.heading) == (rec.velocities[2, 1, 0], rec.velocities[2, 1, 1], rec.headings[2, 1])
    assert (row.direction_y, row.slot, row.overlap) == (rec.direction[2, 1, 1], rec.slot[2, 1], rec.overlap[2, 1])
    # Columns follow what was recorded; the per-agent means agree with the arrays.
    later = world.run(3, 0.25)
    state = later.to_dataframe()
    assert list(state.columns) == ["step", "time", "id", "x", "y", "vx", "vy", "heading"]
    np.testing.assert_allclose(state.groupby("id").x.mean().to_numpy(), later.positions[..., 0].mean(axis=0),
                               rtol=1e-6)
    empty = rec.truncated(0).to_dataframe()
    assert len(empty) == 0 and list(empty.columns) == list(table.columns)


def test_reprs_say_what_matters():
    pipeline = cs.Pipeline([cs.Chase(), cs.Avoid(agents=True)], slots=12)
    world = cs.World(pipeline, np.zeros((3, 2)), threads=2)
    rec = world.run(4, 0.25, record=["positions", "overlap"])
    assert repr(pipeline) == "Pipeline([Chase(), Avoid(agents=True)], slots=12)"
    assert repr(world) == "World(agents=3, steerings=1, threads=2, time=1 s)"
    assert repr(rec) == "Recording(steps=5, agents=3, recorded=('positions', 'overlap'), complete=True)"
    rival = classic.Steering([classic.Seek([1, 2]), classic.LookWhereYouGo(weight=0.5, priority=1)],
                             combiner="priority")
    assert repr(rival) == ("classic.Steering([classic.Seek(target=(1.0, 2.0), weight=1, priority=0), "
                           "classic.LookWhereYouGo(weight=0.5, priority=1)], combiner='priority')")
    assert [b.kind for b in rival.behaviors] == ["seek", "look_where_you_go"]
    # Counts in words, and how much of the grid leads to a goal (not the inside of a box).
    box = [[-2, -2], [2, -2], [2, 2], [-2, 2]]
    field = cs.NavigationField([[3.0, 3.0], [-3.0, -3.0]], area=(-4, -4, 4, 4), cell=0.5, polygons=[box])
    assert repr(field) == "NavigationField(2 goal points, 0 goal areas, 16 x 16 cells of 0.5 m, clearance 0 m, " \
                          f"{np.isfinite(field.distances).mean():.0%} of cells reached)"
    assert 0.5 < np.isfinite(field.distances).mean() < 0.85


def test_a_behaviour_pipeline_or_track_shows_the_call_that_built_it():
    # Given arguments only, positional as given, numbers as typed, large arrays by shape.
    assert repr(cs.Chase([20.0, 0.0], sideways=0.5)) == "Chase([[20, 0]], sideways=0.5)"
    assert repr(cs.Avoid(max_distance=3.0, agents=True, keep_right=0.3)) == \
        "Avoid(max_distance=3, agents=True, keep_right=0.3)"
    path = np.c_[np.arange(20.0), np.zeros(20)]
    assert repr(cs.FollowPath(path, loop=True)) == "FollowPath(<array of shape (20, 2)>, loop=True)"
    assert repr(cs.Avoid(points=[[1, 2]], max_distance=np.float32(0.1))) == "Avoid(points=[[1, 2]], max_distance=0.1)"
    track = cs.Track([[0, 0], [50, 0]], 5.0)
    assert repr(cs.RacingLanes(track, lanes=9)) == "RacingLanes(Track([[0, 0], [50, 0]], 5), lanes=9)"
    # A few objects written out, many (a field per group of a crowd) by their count.
    fields = [cs.NavigationField([[float(k), 1.0]], area=(0, 0, 10, 2), cell=0.5) for k in range(9)]
    assert repr(cs.FollowField(fields[:2])).startswith("FollowField([NavigationField(1 goal point, ")
    assert repr(cs.FollowField(fields, sideways=0.5)) == "FollowField(<list of 9 NavigationFields>, sideways=0.5)"

    # An argument is written down when given: changing the array afterwards changes neither.
    circles = np.array([[1.0, 2.0, 0.5]])
    avoid = cs.Avoid(circles)
    circles[:] = 9
    assert repr(avoid) == "Avoid([[1, 2, 0.5]])"
    # What can be set afterwards is shown as it is now, in a pipeline too.
    chase = cs.Chase([[1.0, 2.0]])
    pipeline = cs.Pipeline((b for b in [chase, avoid]), select="blend")
    chase.targets = [[5.0, 6.0]]
    assert repr(pipeline) == "Pipeline([Chase([[5, 6]]), Avoid([[1, 2, 0.5]])], select='blend')"

    # Python behaviours: by their function, or as the user's subclass with its own arguments.
    def toward(batch, interest, danger):
        pass

    class Gain(cs.PythonBehavior):
        def __init__(self, gain, **kwargs):
            super().__init__(**kwargs)
            self.gain = gain

        def fill(self, batch, interest, danger):
            pass

    assert repr(cs.PythonBehavior(toward, fills="danger")).endswith("toward, fills='danger')")
    assert repr(Gain(2.5, weight=0.5)) == "Gain(2.5, weight=0.5)"
    # A wrong call is refused by the interpreter as before, and the signature is the real one.
    with pytest.raises(TypeError, match="positional argument"):
        cs.Chase([0, 0], 3.0)
    assert list(inspect.signature(cs.Chase).parameters)[:2] == ["targets", "max_distance"]


def test_behaviours_give_back_what_they_were_made_with():
    chase = cs.Chase([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(chase.targets, [[1, 2], [3, 4]])
    chase.targets = [[5.0, 6.0]]
    np.testing.assert_array_equal(chase.targets, [[5, 6]])
    avoid = cs.Avoid([[0.0, 1.0, 2.0]], points=[[3.0, 4.0]])
    np.testing.assert_array_equal(avoid.circles, [[0, 1, 2], [3, 4, 0]])
    path = cs.FollowPath([[0.0, 0.0], [3.0, 4.0]])
    np.testing.assert_array_equal(path.waypoints, [[0, 0], [3, 4]])
    assert path.length == pytest.approx(5.0)
    lanes = cs.RacingLanes(cs.Track([[0.0, 0.0], [100.0, 0.0]], 4.0), lanes=5)
    assert lanes.lanes == 5
    # One behaviour stands for a list of one, in either kind of steering.
    alone = cs.Pipeline(cs.Chase([1.0, 0.0]), slots=8, offset=0.25)
    assert len(alone.behaviors) == 1 and alone.offset == pytest.approx(0.25)
    assert len(classic.Steering(classic.Seek([1.0, 0.0])).behaviors) == 1


def test_run_matches_stepping():
    def make():
        return cs.World(chase_pipeline(), np.random.default_rng(1).uniform(-5, 5, (20, 2)),
                        targets=[[10, 0]] * 20, max_speed=1.0, max_acceleration=2.0)
    a, b = make(), make()
    rec = a.run(25, 0.05, substeps=2)
    for _ in range(25):
        b.step(0.05, substeps=2)
    np.testing.assert_array_equal(rec.positions[-1], b.positions)


def test_an_interrupted_run_keeps_the_finished_steps(monkeypatch):
    world = cs.World(chase_pipeline(), np.zeros((3, 2)), targets=[[5, 0]] * 3)
    real_run = world._core.run
    calls = {"n": 0}

    def interrupt_on_third(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real_run(*args, **kwargs)

    monkeypatch.setattr(world, "_core", _Proxy(world._core, run=interrupt_on_third))
    rec = world.run(100, 0.1, chunk=10)
    assert not rec.complete and rec.steps == 21 and rec.steps_run == 20
    assert rec.positions.shape == (21, 3, 2)
    assert np.isfinite(rec.positions).all()


class _Proxy:
    """Forwards to an object, with some attributes replaced."""

    def __init__(self, target, **overrides):
        self._target, self._overrides = target, overrides

    def __getattr__(self, name):
        return self._overrides.get(name) or getattr(self._target, name)


def test_changing_the_pipeline_resamples_the_maps():
    world = cs.World(cs.Pipeline([cs.Chase([10.0, 0.0])], slots=16, smooth=0.5), [[0.0, 0.0]])
    world.step(0.1)
    east = float(world.interest[0, 0])
    world.set_steering(cs.Pipeline([cs.Chase([10.0, 0.0])], slots=8, smooth=0.5))
    assert world.slots == 8 and world.interest.shape == (1, 8)
    assert world.interest[0, 0] == pytest.approx(east)
    world.step(0.1)
    np.testing.assert_allclose(world.direction[0], [1, 0], atol=1e-6)
    with pytest.raises(ValueError, match="slot count"):
        world.add_agents([[1, 1]], steering=cs.Pipeline([cs.Chase()], slots=12))


def test_results_are_bit_identical_for_one_and_two_threads():
    def digest(threads):
        rng = np.random.default_rng(5)
        pipeline = cs.Pipeline([cs.Chase(), cs.Avoid(agents=True, max_distance=4.0)], slots=16, select="parabolic",
                               smooth=0.3)
        pillar = {"circles": [[0, 0, 5]]}
        world = cs.World(pipeline, clear_points(rng, -40, 40, 1500, 0.5, **pillar),
                         targets=clear_points(rng, -40, 40, 1500, 0.5, **pillar), max_speed=2.0, max_acceleration=3.0,
                         threads=threads, **pillar)
        world.add_agents(clear_points(rng, -40, 40, 300, 0.5, **pillar), steering=classic.Steering([classic.Arrive()]),
                         targets=clear_points(rng, -40, 40, 300, 0.5, **pillar), max_speed=1.5, max_acceleration=2.0)
        rec = world.run(200, 0.05, record="all")
        h = hashlib.sha256()
        for name in rec.recorded:
            h.update(np.ascontiguousarray(getattr(rec, name)).tobytes())
        return h.hexdigest()

    assert digest(1) == digest(2)


def test_bad_world_arguments_are_named():
    world = cs.World(chase_pipeline(), [[0, 0]])
    with pytest.raises(IndexError, match="steering"):
        world.add_agents([[1, 1]], steering=5)
    with pytest.raises(ValueError, match="mass"):
        world.add_agents([[1, 1]], mass=0)
    with pytest.raises(IndexError, match=r"target_ids: .* got 42 for agent 0: no agent has id 42 "
                                         r"\(ids so far run from 0 to 1\)"):
        world.add_agents([[1, 1]], target_ids=[42])  # ids 0 (in the world) and 1 (added)
    with pytest.raises(IndexError, match=r"target_ids: .* got 4 for agent 2: no agent has id 4 "
                                         r"\(ids so far run from 0 to 2\)"):
        cs.World(chase_pipeline(), np.zeros((3, 2)), target_ids=[1, 2, 4])
    with pytest.raises(IndexError, match=r"no agent has id 0 \(the world has no agents yet\)"):
        cs.World(chase_pipeline(), np.zeros((0, 2))).index_of([0])
    with pytest.raises(ValueError, match="threads"):
        world.threads = 0
    with pytest.raises(ValueError, match="threads: expected an integer from 1 to 1024, got 10000000000"):
        world.threads = 10**10
    with pytest.raises(ValueError, match="steps: expected an integer from 0 to 2147483647"):
        world.run(2**31)
    world.remove_agents([])  # no ids: nothing to remove
    assert len(world) == 1
    with pytest.raises(ValueError, match="substeps"):
        world.step(0.1, substeps=0)
    with pytest.raises(ValueError, match="vertices"):
        world.add_polygon([[0, 0], [1, 1]])
    with pytest.raises(ValueError, match="bounds"):
        world.bounds = (1, 1, 0, 0)
    with pytest.raises(TypeError, match="layers"):
        world.add_agents([[1, 1]], layers=1.5)
    with pytest.raises(ValueError, match="point, agent"):
        world.neighbors(radius=2.0)
    world.target_ids[0] = 77
    with pytest.raises(IndexError, match="target_ids: .* got 77 for agent 0: no agent has id 77"):
        world.step(0.1)
    world.target_ids[0] = -1
    world.step(0.1)
    assert math.isfinite(world.time)


def test_a_copy_branches_a_run_and_owns_its_state():
    import copy

    rng = np.random.default_rng(8)
    path = [[-30.0, -30.0], [30.0, -30.0], [30.0, 30.0], [-30.0, 30.0]]
    pipeline = cs.Pipeline([cs.FollowPath(path, loop=True), cs.Wander(seed=3, strength=0.3),
                            cs.Avoid(agents=True, max_distance=3.0)], slots=16, smooth=0.3, hysteresis=0.05)
    world = cs.World(pipeline, clear_points(rng, -35, 35, 300, 0.5, circles=[[0, 0, 4]]), max_speed=2.0,
                     max_acceleration=3.0, circles=[[0, 0, 4]], segments=[[-40, 40, 40, 40]], threads=2)
    chasers = world.add_agents(clear_points(rng, -35, 35, 20, 0.5, circles=[[0, 0, 4]]),
                               steering=classic.Steering([classic.Pursue()]),
                               target_ids=world.ids[:20], max_speed=2.5, max_acceleration=3.0)
    world.run(25, 0.05, record=None)
    twin = world.copy()
    assert twin is not world and twin.time == world.time and twin.steps_taken == 25 and len(twin) == len(world)
    # Stepped alike, both give the same results to the bit (kept path progress, smoothed
    # maps and hysteresis included).
    ours, theirs = world.run(40, 0.05, record="all"), twin.run(40, 0.05, record="all")
    for name in ("time", *ours.recorded):
        np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name), err_msg=name)
    # Each owns its state: views, obstacles, agents and ids part ways.
    assert not np.shares_memory(world.positions, twin.positions)
    twin.positions[:] += 1.0
    assert not np.array_equal(world.positions, twin.positions)
    twin.add_circles([[*world.positions[0], 2.0]])
    world.remove_agents([int(chasers[0])])
    world.step(0.05), twin.step(0.05)
    assert len(twin) == len(world) + 1 and world.penetration.max() < twin.penetration.max()
    assert int(world.add_agents([[100.0, 100.0]])[0]) == int(twin.add_agents([[100.0, 100.0]])[0])  # ids go on alike
    # Both keep the spawn state: a reset twin starts where the original started.
    twin.reset()
    start = world.copy()
    start.reset()
    np.testing.assert_array_equal(twin.positions[twin.index_of(start.ids)], start.positions)
    # The copy modules do the same; the steerings are shared, as they never change.
    for made in (copy.copy(world), copy.deepcopy(world)):
        assert isinstance(made, cs.World) and made.steerings == world.steerings
        np.testing.assert_array_equal(made.positions, world.positions)
    view = world.positions
    del world
    assert np.isfinite(view).all()  # a view outlives its world


def test_a_world_refuses_changes_from_another_thread_while_it_steps():
    # A Python behaviour that, on the first step, says it is inside and waits: the step
    # (which releases the GIL) stays open while this thread calls the world.
    inside, release = threading.Event(), threading.Event()

    def hold(batch, interest, danger):
        if not release.is_set():
            inside.set()
            assert release.wait(10)
        interest[:] = 1.0

    world = cs.World(cs.Pipeline([cs.PythonBehavior(hold)], slots=8), [[0.0, 0.0], [5.0, 0.0]])
    stepping = threading.Thread(target=world.step, args=(0.1,))
    stepping.start()
    try:
        assert inside.wait(10)
        changes = {
            "step": lambda: world.step(0.1),
            "run": lambda: world.run(3, 0.1),
            "add_agents": lambda: world.add_agents([[1.0, 1.0]]),
            "remove_agents": lambda: world.remove_agents([0]),
            "reset": world.reset,
            "explain": lambda: world.explain(0),
            "neighbors": lambda: world.neighbors([0.0, 0.0], 1.0),
            "obstacles": lambda: world.add_circles([[0.0, 0.0, 1.0]]),
            "set_steering": lambda: world.set_steering(cs.Pipeline([cs.Chase()], slots=8)),
            "copy": world.copy,
        }
        for name, change in changes.items():
            with pytest.raises(RuntimeError, match=f"{name}: the world is busy with step"):
                change()
        # Reading is allowed meanwhile, and the refused calls left the world as it was.
        assert len(world) == 2 and world.steps_taken == 0 and len(world.steerings) == 1
    finally:
        release.set()
        stepping.join()
    assert world.steps_taken == 1
    world.add_agents([[1.0, 1.0]])
    world.step(0.1)
    assert len(world) == 3 and world.steps_taken == 2


def test_a_steering_the_world_refuses_is_not_kept():
    world = cs.World(cs.Pipeline([cs.Chase()], slots=16), [[0.0, 0.0]])
    with pytest.raises(ValueError, match="same slot count"):
        world.add_agents([[1.0, 0.0]], steering=cs.Pipeline([cs.Chase()], slots=8))
    assert len(world.steerings) == 1 and len(world) == 1


def test_target_ids_may_name_agents_added_in_the_same_call():
    world = cs.World(cs.Pipeline([cs.Chase()]))
    world.add_agents([[0.0, 0.0], [5.0, 0.0]])
    ids = world.add_agents([[0.0, 5.0], [5.0, 5.0], [9.0, 9.0]], target_ids=[3, 2, 0])
    assert list(ids) == [2, 3, 4]
    assert list(world.target_ids[2:]) == [3, 2, 0]
    world.run(30, 0.05)
    # The two of the call chase each other: 5 m apart, they close in.
    assert np.linalg.norm(world.positions[2] - world.positions[3]) < 2.5
    with pytest.raises(IndexError, match="target_ids"):
        world.add_agents([[0.0, 0.0], [1.0, 1.0]], target_ids=[6, 7])  # 7 would be a third agent's


def test_agents_placed_in_an_obstacle_are_named_by_a_warning():
    walls, square = [[-5.0, 3.0, 5.0, 3.0]], [[10.0, 10.0], [12.0, 10.0], [12.0, 12.0], [10.0, 12.0]]
    starts = [[0.0, 0.0], [0.5, 0.2], [0.0, 3.2], [11.0, 11.0], [-8.0, 0.0], [1.3, 0.0]]
    targets = [[-8.0, -8.0], [-8.0, -7.0], [-8.0, -6.0], [-8.0, -5.0], [0.0, 2.9], [-8.0, -4.0]]
    # in the circle, in it, across the wall, inside the polygon; clear; touching the circle (not in it)
    with pytest.warns(UserWarning, match=r"^World: 4 of 6 agents start with their body in an obstacle "
                                         r"\(rows 0, 1, 2, 3\); 1 of 6 agents have their target where their body "
                                         r"would be in an obstacle \(rows 4\): a body cannot stand there"):
        world = cs.World(chase_pipeline(), starts, targets=targets, radius=0.3, circles=[[0.0, 0.0, 1.0]],
                         segments=walls, polygons=[square])
    with pytest.warns(UserWarning, match=r"1 of 2 agents start with their body in an obstacle \(rows 7\)"):
        world.add_agents([[-8.0, 8.0], [0.0, -1.0]], radius=0.3)  # rows of the world, not of the call
    world.add_agents([[0.0, -1.2]], radius=0.3, sense_masks=2)  # senses no obstacle of layer 1
    world.add_agents([[-8.0, 8.0]], radius=0.3, target_ids=[0], targets=[[0.0, 0.0]])  # follows agent 0
    world.add_agents([[-8.0, 8.0]], radius=0.3)  # no target given: the origin is no place of its own
    with pytest.warns(UserWarning, match=r"1 of 1 agents start with their body in an obstacle \(rows 11\)"):
        world.add_agents([[0.0, -1.2]], radius=0.3, layers=2)  # on another layer, sensing layer 1 still


def test_bodies_in_obstacles_agrees_with_the_distances_to_every_obstacle():
    from contextsteer.model.obstacle_overlap import bodies_in_obstacles, distances_to_obstacles

    rng = np.random.default_rng(4)
    for trial in range(24):
        points = rng.uniform(-30, 30, (int(rng.integers(1, 2000)), 2))
        if trial % 4 == 1:  # a body far off: the grid's cells found by search
            points = np.vstack([points, [[1e8, -3e8]]])
        radius = rng.uniform(0.05, 2.0, len(points)) if trial % 2 else float(rng.uniform(0.05, 3.0))
        k = int(rng.integers(0, 20))
        circles = np.column_stack([rng.uniform(-30, 30, (k, 2)), rng.uniform(0.1, 8.0 if trial % 3 else 200.0, k)])
        k = int(rng.integers(0, 20))
        walls = np.column_stack([rng.uniform(-30, 30, (k, 2)), rng.uniform(-30, 30, (k, 2))])
        polygons = [np.array([[0, 0], [10, 0], [10, 5], [5, 2], [0, 5]], float) + rng.uniform(-20, 20, 2)
                    for _ in range(int(rng.integers(0, 3)))]
        expected = distances_to_obstacles(points, circles=circles, segments=walls, polygons=polygons) < radius
        got = bodies_in_obstacles(points, radius, circles=circles, segments=walls, polygons=polygons)
        np.testing.assert_array_equal(got, expected, err_msg=f"trial {trial}")
