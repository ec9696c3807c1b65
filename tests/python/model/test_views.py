"""World arrays are views of C++ memory that never dangle and say whether they may be written."""

import gc
import threading
import time

import numpy as np
import pytest

import contextsteer as cs


def make_world(n=4):
    pipeline = cs.Pipeline([cs.Chase([10.0, 0.0]), cs.Avoid()], slots=8)
    return cs.World(pipeline, np.column_stack([np.zeros(n), np.arange(n, dtype=float)]), max_speed=2.0)


def test_state_arrays_are_views_of_one_memory():
    world = make_world()
    a, b = world.positions, world.positions
    assert np.shares_memory(a, b)
    assert a.base is not None
    assert a.dtype == np.float32 and a.shape == (4, 2) and a.flags.c_contiguous


def test_writing_a_state_view_changes_the_world():
    world = make_world()
    world.positions[2] = [5.0, 5.0]
    world.max_speed[:] = 0.0
    world.step(0.1)
    np.testing.assert_allclose(world.positions[2], [5.0, 5.0])  # max speed 0: it stays


def test_maps_and_decisions_are_read_only_views_updated_by_step():
    world = make_world()
    interest = world.interest
    assert interest.shape == (4, 8)
    for view in (world.interest, world.danger, world.final, world.direction, world.strength, world.slot, world.blocked):
        assert not view.flags.writeable
        with pytest.raises(ValueError):
            view[...] = 0
    world.step(0.1)
    assert interest.max() > 0  # the view saw the step's maps without being fetched again
    assert world.blocked.dtype == bool


def test_a_view_keeps_its_memory_after_the_world_is_gone():
    world = make_world()
    world.step(0.1)
    positions, final = world.positions, world.final
    expected = positions.copy(), final.copy()
    del world
    gc.collect()
    _ = [np.ones((64, 64)) for _ in range(50)]  # give freed memory a chance to be reused
    np.testing.assert_array_equal(positions, expected[0])
    np.testing.assert_array_equal(final, expected[1])


def test_old_views_stay_valid_after_the_world_grows():
    world = make_world(2)
    old = world.positions
    before = old.copy()
    ids = world.add_agents([[7.0, 7.0], [8.0, 8.0]])
    np.testing.assert_array_equal(ids, [2, 3])
    assert len(world) == 4 and world.positions.shape == (4, 2)
    np.testing.assert_array_equal(world.positions[:2], before)
    world.step(0.1)
    np.testing.assert_array_equal(old, before)  # the old buffer keeps its last values
    assert not np.shares_memory(old, world.positions)
    assert world.interest.shape == (4, 8)


def test_empty_world_steps():
    world = cs.World(cs.Pipeline([cs.Chase([1.0, 1.0])]))
    world.step(0.1)
    assert world.positions.shape == (0, 2) and world.final.shape == (0, 16)


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


PIPELINE = cs.Pipeline([cs.Chase([5.0, 0.0]), cs.Avoid()])


def test_bad_state_written_into_views_is_caught_before_the_step():
    world = cs.World(PIPELINE, [[0.0, 0.0], [1.0, 1.0]])
    world.positions[1, 0] = np.nan
    with pytest.raises(ValueError, match="positions.*agent 1"):
        world.step(0.1)
    assert world.steps_taken == 0
    world.positions[1, 0] = 1.0
    world.max_speed[0] = -3
    with pytest.raises(ValueError, match="max_speed"):
        world.step(0.1)
    world.max_speed[0] = 1
    with pytest.raises(ValueError, match="dt"):
        world.step(0)
    with pytest.raises(ValueError, match="dt"):
        world.step(-0.1)
    world.step(0.1)
    assert world.steps_taken == 1
