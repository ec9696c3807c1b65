"""Measures of a run (contextsteer.metrics), on hand-made recordings and a real one."""

import math

import numpy as np
import pytest

import contextsteer as cs
from contextsteer import metrics


def recording(**arrays):
    steps = len(next(iter(arrays.values())))
    n = next(iter(arrays.values())).shape[1]
    time = 0.1 * np.arange(1, steps + 1)
    return cs.Recording(time, np.arange(n), recorded=tuple(arrays), **arrays)


def test_arrival_times_are_the_first_step_within_reach_or_nan():
    positions = np.array([
        [[5.0, 0.0], [9.0, 9.0], [0.5, 0.0]],
        [[2.0, 0.0], [9.0, 9.0], [3.0, 0.0]],   # agent 2 leaves again: the first arrival counts
        [[1.0, 0.0], [8.0, 8.0], [3.0, 0.0]],   # agent 0 exactly 1 m away: within
        [[0.0, 0.0], [8.0, 8.0], [0.0, 0.0]],
    ], dtype=np.float32)
    times = metrics.arrival_times(recording(positions=positions), np.zeros((3, 2)), within=1.0)
    np.testing.assert_allclose(times, [0.3, np.nan, 0.1])
    closer = metrics.arrival_times(recording(positions=positions), np.zeros((3, 2)), within=0.4)
    np.testing.assert_allclose(closer, [0.4, np.nan, 0.4])


def test_path_lengths_and_mean_speeds_add_up_the_steps():
    positions = np.array([[[0, 0]], [[3, 4]], [[3, 4]], [[6, 0]]], dtype=np.float32)   # 5 + 0 + 5 m
    velocities = np.array([[[1, 0]], [[0, 2]], [[0, 0]], [[3, 4]]], dtype=np.float32)  # 1, 2, 0, 5 m/s
    r = recording(positions=positions, velocities=velocities)
    np.testing.assert_allclose(metrics.path_lengths(r), [10.0])
    np.testing.assert_allclose(metrics.mean_speeds(r), [2.0])


def test_turn_rates_take_the_short_way_round():
    headings = np.array([[3.1, 0.0], [-3.1, 0.5], [3.1, 0.0]], dtype=np.float32)   # across +-pi; to and fro
    rates = metrics.turn_rates(recording(headings=headings))
    short = 2 * np.pi - 2 * np.float64(np.float32(3.1))
    np.testing.assert_allclose(rates, [short / 0.1, 0.5 / 0.1], rtol=1e-5)
    assert np.isnan(metrics.turn_rates(recording(headings=headings[:1]))).all()


def test_summary_holds_what_the_recording_allows():
    positions = np.array([[[0, 0], [5, 5]], [[0, 0.5], [6, 5]]], dtype=np.float32)
    overlap = np.array([[0.0, 0.2], [0.1, 0.0]], dtype=np.float32)
    r = recording(positions=positions, overlap=overlap)
    s = metrics.summary(r, np.zeros((2, 2)))
    assert s["arrived"] == 0.5 and math.isclose(s["mean_arrival_time"], 0.1)
    assert math.isclose(s["mean_path_length"], 0.75)
    assert math.isclose(s["max_overlap"], 0.2, rel_tol=1e-6)
    assert s["steps"] == 2 and s["complete"] is True
    assert not {"mean_speed", "mean_turn_rate", "max_penetration"} & set(s)
    assert "arrived" not in metrics.summary(r)  # no targets: no arrivals
    nobody = metrics.summary(r, np.full((2, 2), 100.0))
    assert nobody["arrived"] == 0 and math.isnan(nobody["mean_arrival_time"])


def test_measures_of_a_real_run():
    world = cs.World(cs.Pipeline([cs.Arrive()], slots=16), [[0.0, 0.0]], targets=[[30.0, 0.0]], max_speed=1.5,
                     max_acceleration=3.0)
    r = world.run(300, 0.1, record="state")
    x = r.positions[:, 0, 0]
    first_within = r.time[np.argmax(x >= 29.0)]
    assert metrics.arrival_times(r, world.targets)[0] == pytest.approx(first_within)
    # 29 m at 1.5 m/s after half a second of acceleration, then slowing near the target
    assert 19.0 < first_within < 23.0
    assert metrics.path_lengths(r)[0] == pytest.approx(x[-1] - x[0], rel=1e-5)   # a straight line
    assert metrics.mean_speeds(r)[0] < 1.5
    assert metrics.turn_rates(r)[0] == 0.0


@pytest.mark.parametrize("steps, agents", [(0, 3), (4, 0), (1, 2)])
def test_short_and_empty_runs_give_nan_where_nothing_was_measured(steps, agents):
    world = cs.World(cs.Pipeline([cs.Arrive()], slots=8), np.full((agents, 2), 5.0), max_speed=1.0)
    r = world.run(steps, 0.1, record="all", include_start=False)  # rows of the steps alone
    s = metrics.summary(r, world.targets)
    assert s["steps"] == steps and set(s) >= {"arrived", "mean_path_length", "mean_speed", "max_overlap"}
    assert metrics.arrival_times(r, world.targets).shape == (agents,)
    if steps == 0 or agents == 0:
        measures = ("arrived", "mean_arrival_time", "mean_path_length", "mean_speed", "max_overlap")
        assert all(np.isnan(s[k]) for k in measures)
    assert np.isnan(s["mean_turn_rate"]) == (steps < 2 or agents == 0)


def test_bad_input_names_the_argument():
    r = recording(headings=np.zeros((3, 2), dtype=np.float32))
    with pytest.raises(ValueError, match="recording: arrival_times needs positions"):
        metrics.arrival_times(r, np.zeros((2, 2)))
    with pytest.raises(ValueError, match="recording: mean_speeds needs velocities"):
        metrics.mean_speeds(r)
    with pytest.raises(TypeError, match="recording: expected a Recording"):
        metrics.summary({"positions": np.zeros((3, 2, 2))})
    positioned = recording(positions=np.zeros((3, 2, 2), dtype=np.float32))
    with pytest.raises(ValueError, match=r"targets: expected an array of shape \(2, 2\)"):
        metrics.arrival_times(positioned, np.zeros((3, 2)))
    with pytest.raises(ValueError, match="targets: expected finite values"):
        metrics.arrival_times(positioned, [[0, 0], [np.nan, 0]])
    with pytest.raises(ValueError, match="within: expected a number > 0"):
        metrics.arrival_times(positioned, np.zeros((2, 2)), within=0)


# --- crowd measures on trajectories -----------------------------------------------------


def line(xs, y=0.0):
    """A trajectory ``(T + 1, 1, 2)`` of one agent along y = const."""
    return np.column_stack([xs, np.full(len(xs), y)])[:, None, :]


def test_arrival_share_and_time_to_95_percent():
    # 20 agents; agent k arrives at frame k (1 m from its target at the origin), agent 19 never.
    frames = 30
    positions = np.full((frames + 1, 20, 2), 10.0)
    for k in range(19):
        positions[k:, k] = [1.0, 0.0]
    arrival = metrics.arrival_steps(positions, np.zeros((20, 2)), within=1.0)
    np.testing.assert_array_equal(arrival, [*range(19), -1])
    assert metrics.time_to_share(arrival, 0.5, 0.95) == 18 * 0.5     # the 19th of 20 arrivals
    assert math.isnan(metrics.time_to_share(arrival, 0.5, 1.0))       # the 20th never came
    assert metrics.time_to_share(arrival, 0.5, 0.05) == 0.0           # the first, at the start
    row = metrics.crowd_metrics(positions, dt=0.5, radius=0.1, max_speed=1.0, targets=np.zeros((20, 2)))
    assert row["arrived"] == 0.95 and row["time_to_95"] == 9.0 and row["duration"] == 15.0


def test_an_agent_that_stops_away_from_its_goal_is_stalled_and_one_at_its_goal_is_not():
    dt, frames = 0.1, 100   # 10 s, windows of 3 s = 30 frames
    walker = np.linspace(0, 14, frames + 1)                      # 1.4 m/s throughout
    stopper = np.minimum(np.arange(frames + 1) * 0.14, 7.0)     # stops at 7 m (frame 50), 7 m from its goal
    home = np.minimum(np.arange(frames + 1) * 0.14, 14.0)       # reaches its goal at 14 m (frame 100)
    creeper = np.arange(frames + 1) * 0.14 * 0.04                # 4% of the max speed
    positions = np.concatenate([line(walker), line(stopper), line(home, 5.0), line(creeper, 9.0)], axis=1)
    targets = np.array([[30.0, 0.0], [14.0, 0.0], [14.0, 5.0], [30.0, 9.0]])
    stalled = metrics.stalled_agents(positions, targets, dt, 1.4, within=1.0)
    assert stalled.shape == (frames + 1 - 30, 4)
    # the stopper (at frame 50): from the window of frames 49-79 on, 0.14 m < 5% of 1.4 m/s over 3 s
    np.testing.assert_array_equal(np.flatnonzero(stalled[:, 1]) + 30, np.arange(79, frames + 1))
    assert not stalled[:, [0, 2]].any() and stalled[:, 3].all()
    row = metrics.crowd_metrics(positions, dt=dt, radius=0.3, max_speed=1.4, targets=targets)
    assert row["stalled_end"] == 2 and row["stalled_ever"] == 2
    assert metrics.stalled_agents(positions[:30], targets, dt, 1.4).shape == (0, 4)   # shorter than a window


def test_shaking_in_place_is_stalled_and_counts_its_reversals():
    dt, frames = 0.05, 1200   # one minute
    shake = 0.05 * (np.arange(frames + 1) % 2)                   # to and fro each frame, 1 m/s
    positions = line(shake)
    stalled = metrics.stalled_agents(positions, [[10.0, 0.0]], dt, 1.0)
    assert stalled.all()
    # every frame after the first turns back: 1199 reversals in one agent-minute
    np.testing.assert_array_equal(metrics.heading_reversals(positions, dt, 1.0), [frames - 1])
    row = metrics.crowd_metrics(positions, dt=dt, radius=0.3, max_speed=1.0, targets=[[10.0, 0.0]])
    assert row["reversals_per_agent_minute"] == frames - 1


def test_reversals_ignore_standing_and_turns_of_90_degrees_or_less():
    steps = [[1, 0], [0, 1], [0, 0], [0, 0], [-1, 0.5], [0.001, 0], [1, 1], [-1, -1]]   # m per frame
    positions = np.concatenate([[[0.0, 0.0]], np.cumsum(steps, axis=0)])[:, None, :]
    # [1,0]->[0,1]: 90 degrees, not more; standing; [0,1]->[-1,.5]: 63 degrees; the 1 mm step is
    # standing; [-1,.5]->[1,1]: 117 degrees, a reversal; [1,1]->[-1,-1]: 180, another
    np.testing.assert_array_equal(metrics.heading_reversals(positions, 1.0, 1.0), [2])
    # beyond 60 degrees: the right angle and the 63 degrees as well
    np.testing.assert_array_equal(metrics.heading_reversals(positions, 1.0, 1.0, angle=math.radians(60)), [4])


def test_deepest_overlap_is_the_deepest_pair_in_any_frame():
    positions = np.array([
        [[0.0, 0.0], [2.0, 0.0], [10.0, 10.0]],
        [[0.0, 0.0], [0.7, 0.0], [10.0, 10.0]],    # 0 and 1 overlap by 0.8 - 0.7 = 0.1
        [[0.0, 0.0], [5.0, 0.0], [5.0, 0.5]],      # 1 and 2 (radii 0.4 and 0.2) by 0.1 as well ...
        [[0.0, 0.0], [5.0, 0.0], [5.3, 0.3]],      # ... and here by 0.6 - sqrt(0.18)
    ])
    radius = [0.4, 0.4, 0.2]
    assert metrics.deepest_overlap(positions, radius) == pytest.approx(0.6 - math.sqrt(0.18))
    assert metrics.deepest_overlap(positions[:1], radius) == 0.0          # apart: no overlap, not negative
    many = np.random.default_rng(0).uniform(0, 20, (3, 300, 2))           # the sweep against all pairs
    d = np.linalg.norm(many[:, :, None] - many[:, None], axis=3) + np.eye(300) * 1e9
    assert metrics.deepest_overlap(many, 0.5) == pytest.approx((1.0 - d).max())


def test_wall_penetration_reaches_discs_into_walls_and_catches_a_crossing():
    wall = [[0.0, -5.0, 0.0, 5.0]]
    xs = np.array([-1.0, -0.5, -0.25, -0.5, 0.8])   # 0.25 m into the wall, then through it in one frame
    depth = metrics.wall_penetration(line(xs), 0.3, segments=wall)
    np.testing.assert_allclose(depth[:, 0], [-0.7, -0.2, 0.05, -0.2, 0.3])
    far = metrics.wall_penetration(line([-1.0, -2.0]), 0.3, segments=wall)
    np.testing.assert_allclose(far[:, 0], [-0.7, -1.7])
    square = [np.array([[2.0, 2.0], [4.0, 2.0], [4.0, 4.0], [2.0, 4.0]])]
    inside = metrics.wall_penetration(np.array([[[3.0, 2.5]], [[5.0, 3.0]]]), 0.3, polygons=square)
    np.testing.assert_allclose(inside[:, 0], [0.8, 0.3])        # 0.5 m inside; out through an edge
    outside = metrics.wall_penetration(np.array([[[5.0, 3.0]], [[5.0, 3.5]]]), 0.3, polygons=square)
    np.testing.assert_allclose(outside[:, 0], [-0.7, -0.7])
    positions = np.concatenate([line(xs), line(np.full(5, -3.0), 1.0), line([-1, -0.5, -0.295, -0.5, -1], 2.0)],
                               axis=1)
    row = metrics.crowd_metrics(positions, dt=0.1, radius=0.3, max_speed=1.0, targets=np.zeros((3, 2)),
                                segments=wall)
    assert row["wall_penetrations"] == 1 and row["deepest_wall_penetration"] == pytest.approx(0.3)
    assert row["deepest_overlap"] == 0.0


def test_scene_report_measures_a_scene_run_by_its_own_targets_and_walls():
    scene = cs.scenarios.u_trap(6, seed=0)
    positions = np.stack([scene.starts, scene.starts, scene.targets])
    row = metrics.scene_report(scene, positions, dt=1.0, radius=0.3, max_speed=1.4)
    assert row["scene"] == "u_trap" and row["arrived"] == 1.0 and row["time_to_95"] == 2.0
    # the jump from the starts to the targets goes through the cup's bottom
    assert row["wall_penetrations"] == 6 and row["deepest_wall_penetration"] == pytest.approx(0.3)
    walked_round = metrics.scene_report(scene, positions[:2], dt=1.0, radius=0.3, max_speed=1.4)
    assert walked_round["wall_penetrations"] == 0 and walked_round["arrived"] == 0.0
    with pytest.raises(TypeError, match="scene: expected a contextsteer.scenarios.Scenario"):
        metrics.scene_report("u_trap", positions, dt=1.0, radius=0.3, max_speed=1.4)


@pytest.mark.parametrize("call, message", [
    (lambda: metrics.crowd_metrics(np.zeros((3, 2)), dt=0.1, radius=0.3, max_speed=1.0, targets=np.zeros((3, 2))),
     r"positions: expected a trajectory of shape \(T \+ 1, n, 2\)"),
    (lambda: metrics.crowd_metrics(np.full((3, 2, 2), np.nan), dt=0.1, radius=0.3, max_speed=1.0,
                                   targets=np.zeros((2, 2))), "positions: expected finite"),
    (lambda: metrics.crowd_metrics(np.zeros((3, 2, 2)), dt=0.0, radius=0.3, max_speed=1.0, targets=np.zeros((2, 2))),
     "dt: expected a number > 0"),
    (lambda: metrics.crowd_metrics(np.zeros((3, 2, 2)), dt=0.1, radius=[0.3], max_speed=1.0,
                                   targets=np.zeros((2, 2))), r"radius: expected a number or an array of shape \(2,\)"),
    (lambda: metrics.crowd_metrics(np.zeros((3, 2, 2)), dt=0.1, radius=0.3, max_speed=-1.0,
                                   targets=np.zeros((2, 2))), "max_speed: expected finite values >= 0"),
    (lambda: metrics.crowd_metrics(np.zeros((3, 2, 2)), dt=0.1, radius=0.3, max_speed=1.0, targets=np.zeros((3, 2))),
     r"targets: expected finite points of shape \(2, 2\)"),
    (lambda: metrics.crowd_metrics(np.zeros((3, 2, 2)), dt=0.1, radius=0.3, max_speed=1.0, targets=np.zeros((2, 2)),
                                   within=0), "within: expected a number > 0"),
    (lambda: metrics.crowd_metrics(np.zeros((3, 2, 2)), dt=0.1, radius=0.3, max_speed=1.0, targets=np.zeros((2, 2)),
                                   segments=[[0, 1, 2]]), r"segments: expected an array of shape \(m, 4\)"),
    (lambda: metrics.time_to_share([0, 1], 0.1, share=1.5), "share: expected a number <= 1"),
    (lambda: metrics.heading_reversals(np.zeros((3, 1, 2)), 0.1, 1.0, angle=4.0), "angle: expected a number <= "),
])
def test_crowd_measures_name_bad_arguments(call, message):
    with pytest.raises(ValueError, match=message):
        call()
