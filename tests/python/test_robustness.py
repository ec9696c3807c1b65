"""Holes an outside fuzzer found (issue #43): state written during a step, NaN from
finite inputs, interrupted runs and sweeps, pickles taken while another thread steps."""

import pickle
import signal
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import contextsteer as cs

# --- state written during a step ------------------------------------------------------


def world_writing(column, value, *, agents=2):
    """A world whose Python behaviour writes ``value`` into ``world.<column>`` of agent 1
    during every step."""
    def fill(batch, interest, danger):
        interest[:] = 0.5
        getattr(world, column)[1] = value

    world = cs.World(cs.Pipeline([cs.PythonBehavior(fill), cs.Avoid(agents=True)]),
                     np.column_stack([np.arange(agents, dtype=float), np.zeros(agents)]))
    return world


def test_the_reproducer_of_the_segfault_raises_instead():
    def fill(batch, interest, danger):
        interest[:] = 0.5
        w.velocities[:] = np.nan

    w = cs.World(cs.Pipeline([cs.PythonBehavior(fill)]), np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"^velocities: expected values from -1e9 to 1e9, got nan for agent 0 "
                                         r"\(written during the step"):
        w.step(0.05)
    assert w.steps_taken == 0 and w.time == 0
    np.testing.assert_array_equal(w.positions, np.zeros((2, 2)))


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf, 1e30, -3e38])
@pytest.mark.parametrize("column", ["positions", "velocities", "targets", "heading", "angular_velocity", "radius",
                                    "max_speed", "max_acceleration", "mass", "max_force"])
def test_a_python_behaviour_writing_bad_values_into_its_world_is_refused_by_name(column, value):
    if column in ("max_acceleration", "max_force") and value == np.inf:
        return  # no limit: a value these columns take
    world = world_writing(column, value)
    before = world.positions.copy()
    with pytest.raises(ValueError, match=rf"^{column}: expected values .* for agent 1 \(written during the step"):
        world.step(0.05)
    assert world.steps_taken == 0 and world.time == 0
    if column != "positions":
        np.testing.assert_array_equal(world.positions, before)  # nothing moved


def test_a_python_behaviour_writing_an_unknown_target_id_is_refused_by_name():
    world = world_writing("target_ids", 99)
    with pytest.raises(IndexError, match=r"^target_ids: .* got 99 for agent 1: no agent has id 99"):
        world.step(0.05)
    assert world.steps_taken == 0


def test_after_the_refusal_a_good_value_steps_again():
    calls = []

    def fill(batch, interest, danger):
        interest[:] = 0.5
        if not calls:
            world.velocities[0] = np.nan
        calls.append(1)

    world = cs.World(cs.Pipeline([cs.PythonBehavior(fill)]), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="velocities"):
        world.step(0.05)
    with pytest.raises(ValueError, match=r"^velocities: .* got nan for agent 0$"):  # refused at the check stage
        world.step(0.05)
    world.velocities[0] = 0.0
    world.step(0.05)
    assert world.steps_taken == 1 and np.isfinite(world.positions).all()


def test_another_thread_writing_nan_never_gives_a_normal_step_with_nan_positions():
    n = 20_000
    world = cs.World(cs.Pipeline([cs.Chase([0.0, 0.0]), cs.Avoid(agents=True)]),
                     np.random.default_rng(1).uniform(-50, 50, (n, 2)), max_speed=2.0)
    outcomes = []
    stop = threading.Event()

    def stepping():
        while not stop.is_set():
            try:
                world.step(0.05)
            except ValueError as error:
                outcomes.append(str(error))
                continue
            # Only steps move the positions: a step that returned moved them to finite values.
            outcomes.append(bool(np.isfinite(world.positions).all()))

    thread = threading.Thread(target=stepping)
    thread.start()
    try:
        for _ in range(60):
            time.sleep(0.002)
            world.velocities[:] = np.nan
            time.sleep(0.002)
            world.velocities[:] = 0.0
    finally:
        stop.set()
        thread.join()
    assert False not in outcomes
    assert all("velocities" in o or "positions" in o for o in outcomes if isinstance(o, str))


# --- NaN from finite inputs: subnormal weights ------------------------------------------


def test_the_mean_of_subnormal_weights_is_the_mean():
    np.testing.assert_array_equal(cs.combine([[0.5, 0.0, 0.25]], "mean", [1e-45]), [0.5, 0.0, 0.25])
    np.testing.assert_allclose(cs.combine([[0.5, 0.0, 0.25], [1.0, 1.0, 1.0]], "mean", [1e-45, 3e-45]),
                               [0.875, 0.75, 0.8125], rtol=0.2)  # subnormals hold few bits
    np.testing.assert_allclose(cs.combine([[0.5, 0.0, 0.25], [1.0, 1.0, 1.0]], "mean", [1e-40, 3e-40]),
                               [0.875, 0.75, 0.8125], rtol=1e-4)


def test_normal_weights_give_the_bits_they_gave():
    rng = np.random.default_rng(3)
    maps = rng.uniform(-2, 2, (3, 40)).astype(np.float32)
    weights = np.array([0.3, 2.0, 1e-3], np.float32)
    expected = weights[0] * maps[0]
    for w, m in zip(weights[1:], maps[1:]):
        expected = expected + w * m
    expected = expected * (np.float32(1) / (weights[0] + weights[1] + weights[2]))
    np.testing.assert_array_equal(cs.combine(maps[:, None, :], "mean", weights)[0], expected)


def test_weights_that_cancel_out_are_refused_by_name():
    with pytest.raises(ValueError, match=r"^weights: the mean needs weights whose sum is at least a millionth"):
        cs.combine([[0.5, 0.0], [1.0, 1.0], [1.0, 0.0]], "mean", [1.0, -1.0, 1e-45])
    with pytest.raises(ValueError, match=r"^weights: the mean needs weights whose sum is not zero"):
        cs.combine([[0.5, 0.0], [1.0, 1.0]], "mean", [1.0, -1.0])


@pytest.mark.parametrize("make", [lambda w: cs.Chase([5.0, 0.0], weight=w), lambda w: cs.Avoid(agents=True, weight=w),
                                  lambda w: cs.Rays(weight=w), lambda w: cs.TimeToCollision(weight=w)])
@pytest.mark.parametrize("weight", [1e-40, 1e-45, -1e-44])
def test_pipelines_with_subnormal_weights_keep_finite_maps(make, weight):
    behavior = make(weight)
    pipeline = cs.Pipeline([behavior], interest_rule="mean", danger_rule="mean")
    rng = np.random.default_rng(0)
    world = cs.World(pipeline, rng.uniform(-2, 2, (30, 2)), velocities=rng.uniform(-1, 1, (30, 2)),
                     circles=[[0.0, 0.0, 0.5]])
    for _ in range(3):
        world.step(0.05)
    for name in ("interest", "danger", "final", "direction", "strength", "positions"):
        assert np.isfinite(getattr(world, name)).all(), name


finite32 = st.floats(-1e9, 1e9, width=32, allow_subnormal=True)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4).flatmap(lambda k: st.tuples(
    st.lists(st.lists(finite32, min_size=3, max_size=3), min_size=k, max_size=k),
    st.lists(finite32, min_size=k, max_size=k))), st.sampled_from(["max", "sum", "mean", "min"]))
def test_combine_never_gives_nan_or_inf_from_accepted_finite_input(maps_and_weights, rule):
    maps, weights = maps_and_weights
    try:
        out = cs.combine(maps, rule, weights)
    except ValueError as error:
        assert rule == "mean" and str(error).startswith("weights: the mean needs weights whose sum")
        return
    assert np.isfinite(out).all(), (maps, weights, rule, out)


# --- an interrupted run ---------------------------------------------------------------------


def interrupting_world(at_call, agents=50):
    """A world whose Python behaviour raises KeyboardInterrupt at its at_call-th call (1-based)."""
    calls = [0]

    def fill(batch, interest, danger):
        calls[0] += 1
        if calls[0] == at_call:
            raise KeyboardInterrupt
        interest[:] = 0.5

    rng = np.random.default_rng(2)
    return cs.World(cs.Pipeline([cs.PythonBehavior(fill), cs.Chase([3.0, 3.0])]), rng.uniform(-5, 5, (agents, 2)))


def assert_world_and_recording_agree(world, recording, start_steps, start_positions):
    taken = world.steps_taken - start_steps
    assert recording.steps == taken + 1  # the start's row, then the steps'
    np.testing.assert_array_equal(recording.positions[0], start_positions)
    np.testing.assert_array_equal(recording.positions[-1], world.positions)
    assert recording.time[-1] == world.time


@pytest.mark.parametrize("at_call", [2, 3, 10, 11, 12, 13, 21, 22, 30, 31])
def test_an_interrupted_run_records_every_step_the_world_took(at_call):
    # Call 1 is the step before the run; its run steps 1 to 29 (chunks of 10) are calls 2 to 30.
    world = interrupting_world(at_call)
    world.step(0.05)  # the run starts from a world that stepped already
    before = world.positions.copy()
    recording = world.run(29, 0.05, record="positions", chunk=10)
    assert recording.complete is (at_call > 30)
    assert world.steps_taken == 1 + min(at_call - 2, 29)
    assert_world_and_recording_agree(world, recording, 1, before)


def test_a_run_interrupted_by_sigint_at_random_moments_agrees_with_its_world():
    rng = np.random.default_rng(4)
    world = cs.World(cs.Pipeline([cs.Chase([0.0, 0.0]), cs.Avoid(agents=True)]), rng.uniform(-40, 40, (3000, 2)))
    world.run(3, 0.05, record=None)
    started = time.perf_counter()
    world.run(50, 0.05, record=None)
    per_step = (time.perf_counter() - started) / 50
    escaped = 0
    for _ in range(20):
        start_steps, start_positions = world.steps_taken, world.positions.copy()
        signal.setitimer(signal.ITIMER_REAL, float(rng.uniform(0.0, 200 * per_step)))
        previous = signal.signal(signal.SIGALRM, signal.default_int_handler)  # SIGALRM as Ctrl-C
        try:
            recording = world.run(200, 0.05, record="positions", chunk=int(rng.integers(1, 40)))
            signal.setitimer(signal.ITIMER_REAL, 0)
        except KeyboardInterrupt:  # it came before the run began or after it returned: no step or all of them
            escaped += 1
            assert world.steps_taken in (start_steps, start_steps + 200)
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        assert_world_and_recording_agree(world, recording, start_steps, start_positions)
    assert escaped < 20


# --- a pickle taken while another thread steps --------------------------------------------


def test_pickling_a_world_another_thread_steps_raises_busy_or_holds_a_whole_step():
    rng = np.random.default_rng(5)
    world = cs.World(cs.Pipeline([cs.Chase([0.0, 0.0]), cs.Avoid(agents=True)]), rng.uniform(-60, 60, (20_000, 2)),
                     max_speed=2.0)
    reference = world.copy()
    steps = 30
    expected = reference.run(steps, 0.05, record="positions").positions  # from the start

    def stepping():
        while world.steps_taken < steps:
            try:
                world.step(0.05)
            except RuntimeError as error:  # a pickle under way holds the world: step again
                assert str(error).startswith("step: the world is busy")

    thread = threading.Thread(target=stepping)
    thread.start()
    busy, whole = 0, 0
    try:
        while thread.is_alive():
            try:
                loaded = pickle.loads(pickle.dumps(world))
            except RuntimeError as error:
                assert str(error).startswith("pickle: the world is busy with step() in another thread")
                busy += 1
                continue
            np.testing.assert_array_equal(loaded.positions, expected[loaded.steps_taken])
            whole += 1
    finally:
        thread.join()
    assert busy > 0, "no pickle met a step under way"


# --- sweeps ------------------------------------------------------------------------------


def tiny_world(**_):
    return cs.World(cs.Pipeline([cs.Chase([1.0, 0.0])]), [[0.0, 0.0]])


@pytest.mark.parametrize("params", [np.array(1.0), {"a": np.array(1.0)}])
def test_a_sweep_over_a_0d_array_names_params(params):
    with pytest.raises(TypeError, match=r"^params: expected"):
        cs.sweep(tiny_world, params, steps=1)


def test_an_interruption_during_the_sweeps_start_up_returns_the_empty_table(monkeypatch):
    import contextsteer.sweeps as sweeps

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(sweeps, "progress_bar", interrupted)
    with pytest.warns(RuntimeWarning, match="sweep interrupted: returning the 0 of 2 runs"):
        table = cs.sweep(tiny_world, {"a": [1, 2]}, steps=1, progress=True)
    assert len(table) == 0 and table.attrs["complete"] is False


# --- piles of agents ------------------------------------------------------------------


def test_a_pile_of_agents_at_one_point_is_refused_before_anything_moves():
    limit = 16384
    pile = cs.World(cs.Pipeline([cs.Chase([5.0, 0.0])]), np.zeros((limit + 1, 2)))
    with pytest.raises(ValueError, match=r"positions: 16385 agents lie in one cell of the neighbour grid .*"
                                         r"near \(0, 0\)\); a step takes at most 16384 there"):
        pile.step(0.05)
    assert pile.steps_taken == 0 and pile.time == 0
    np.testing.assert_array_equal(pile.positions, 0)
    with pytest.raises(ValueError, match="16385 agents lie in one cell"):
        pile.run(3, 0.05)
    assert pile.steps_taken == 0
    # One agent fewer steps, and so does the same crowd spread out.
    cs.World(cs.Pipeline([cs.Chase([5.0, 0.0])]), np.zeros((limit, 2))).step(0.05)
    spread = cs.World(cs.Pipeline([cs.Chase([5.0, 0.0]), cs.Avoid(agents=True)]),
                      np.random.default_rng(0).uniform(-200, 200, (limit + 1, 2)))
    spread.step(0.05)
    assert spread.steps_taken == 1
