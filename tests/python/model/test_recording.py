"""What a run records: the state before the first step, and every step the world took
when the run is interrupted (by an exception in a Python behaviour or by SIGINT)."""

import signal
import time

import numpy as np
import pytest

import contextsteer as cs


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


def test_a_recording_starts_with_the_state_before_the_first_step():
    world = cs.World(cs.Pipeline([cs.Chase()]), [[0.0, 0.0], [3.0, 1.0]], targets=[[5.0, 0.0], [0.0, 0.0]])
    before = world.positions.copy()
    recording = world.run(10, 0.1, record=("positions", "headings", "state"))
    assert recording.steps == 11
    assert recording.time[0] == 0
    np.testing.assert_allclose(recording.time[1:], 0.1 * np.arange(1, 11), rtol=1e-6)
    assert np.array_equal(recording.positions[0], before)
    assert np.array_equal(recording.positions[-1], world.positions)
    # The same steps as a run without it, one row later.
    twin = cs.World(cs.Pipeline([cs.Chase()]), [[0.0, 0.0], [3.0, 1.0]], targets=[[5.0, 0.0], [0.0, 0.0]])
    plain = twin.run(10, 0.1, record=("positions",), chunk=3, include_start=False)
    assert plain.steps == 10
    assert np.array_equal(plain.positions, recording.positions[1:])
    # A later run starts at the world's time then.
    later = world.run(2, 0.1)
    assert later.time[0] == pytest.approx(1.0) and later.steps == 3
    assert world.run(0, 0.1).steps == 1 and world.run(0, 0.1, include_start=False).steps == 0
    with pytest.raises(TypeError, match="include_start"):
        world.run(1, 0.1, include_start="yes")
