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
    r = world.run(steps, 0.1, record="all")
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
