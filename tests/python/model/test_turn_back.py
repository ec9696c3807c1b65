"""A pipeline's turn_back: a weak decision that would turn an agent back (more than 90
degrees from the way it faces) brakes it instead, until it has waited turn_back_wait."""

import math

import numpy as np
import pytest

import contextsteer as cs


def walking_east(weight: float, **settings) -> cs.World:
    """One agent walking east at 1 m/s, led back west by a Seek of ``weight`` (its
    decision's strength)."""
    pipeline = cs.Pipeline([cs.Seek([[-20.0, 0.0]], weight=weight)], slots=16, **settings)
    world = cs.World(pipeline, [[0.0, 0.0]], targets=[[-20.0, 0.0]], max_speed=1.0, max_acceleration=10.0)
    world.velocities[:] = [[1.0, 0.0]]
    world.heading[:] = 0.0
    return world


def test_a_weak_decision_back_brakes_the_agent_and_it_keeps_facing_its_way():
    world = walking_east(0.3, turn_back=0.5, turn_back_wait=math.inf)
    rec = world.run(40, 0.05, record=["positions", "velocities", "headings", "strength", "direction"])
    assert (rec.strength[1:] == 0).all()  # braked, not turned
    np.testing.assert_allclose(rec.direction[-1, 0], [-1.0, 0.0], atol=1e-6)  # the way it would have gone
    assert np.linalg.norm(world.velocities[0]) == 0.0
    assert np.diff(rec.positions[:, 0, 0]).min() >= 0.0  # never a step back west
    assert world.heading[0] == 0.0


def test_without_turn_back_the_same_agent_turns_back():
    world = walking_east(0.3)
    world.run(40, 0.05, record=None)
    assert world.velocities[0, 0] == pytest.approx(-0.3, abs=1e-4)


def test_a_strong_decision_turns_the_agent_back():
    world = walking_east(0.8, turn_back=0.5)
    world.run(40, 0.05, record=None)
    assert world.velocities[0, 0] == pytest.approx(-0.8, abs=1e-4)


def test_a_weak_decision_ahead_or_aside_is_followed():
    # Led north-east (45 degrees off its way) or north (90): within 90 degrees, it goes.
    for target in ([20.0, 20.0], [0.0, 20.0]):
        pipeline = cs.Pipeline([cs.Seek([target], weight=0.3)], slots=16, turn_back=0.5)
        world = cs.World(pipeline, [[0.0, 0.0]], max_speed=1.0, max_acceleration=10.0)
        world.velocities[:] = [[1.0, 0.0]]
        world.run(2, 0.05, record=None)
        assert world.velocities[0, 1] > 0.1


def test_an_agent_that_has_waited_turn_back_wait_turns_freely():
    world = walking_east(0.3, turn_back=0.5, turn_back_wait=1.0)
    rec = world.run(60, 0.05, record=["strength", "waiting_time"])
    held = rec.strength[1:, 0] == 0
    first_free = int(np.argmin(held))
    assert held[:first_free].all() and not held[first_free:].any()  # held, then free for good
    assert rec.waiting_time[first_free, 0] >= 1.0 > rec.waiting_time[first_free - 1, 0]
    assert world.velocities[0, 0] < -0.29


def test_outside_a_world_the_velocity_is_the_way_an_agent_faces():
    pipeline = cs.Pipeline([cs.Seek([[-20.0, 0.0]], weight=0.3)], slots=16, turn_back=0.5)
    east, west = pipeline.evaluate([[0.0, 0.0]], [[1.0, 0.0]]), pipeline.evaluate([[0.0, 0.0]], [[-1.0, 0.0]])
    assert east.decision.strength[0] == 0 and west.decision.strength[0] == pytest.approx(0.3)
    standing = pipeline.evaluate([[0.0, 0.0]], [[0.0, 0.0]])  # facing nowhere: no way is back
    assert standing.decision.strength[0] == pytest.approx(0.3)


def test_a_live_pipeline_takes_turn_back_and_refuses_bad_values():
    pipeline = cs.Pipeline([cs.Seek([[5.0, 0.0]])])
    assert pipeline.turn_back == 0 and pipeline.turn_back_wait == 10
    pipeline.turn_back, pipeline.turn_back_wait = 0.25, math.inf
    assert pipeline.turn_back == 0.25 and pipeline.turn_back_wait == math.inf
    for name, value in (("turn_back", 1.5), ("turn_back", -0.1), ("turn_back", math.nan), ("turn_back_wait", -1.0),
                        ("turn_back_wait", math.nan)):
        with pytest.raises(ValueError, match=name):
            cs.Pipeline([cs.Seek([[5.0, 0.0]])], **{name: value})
        with pytest.raises(ValueError, match=name):
            setattr(pipeline, name, value)
    with pytest.raises(TypeError, match="turn_back"):
        cs.Pipeline([cs.Seek([[5.0, 0.0]])], turn_back="half")


def at_its_target(toward, weight: float, turn_back: float) -> cs.World:
    """One agent standing on its target (a world with goals: it has arrived), facing
    east, led toward ``toward`` by a Seek of ``weight``."""
    pipeline = cs.Pipeline([cs.Seek([toward], weight=weight)], slots=16, turn_back=turn_back)
    world = cs.World(pipeline, [[0.0, 0.0]], targets=[[0.0, 0.0]], max_speed=1.0, max_acceleration=10.0,
                     goals=cs.Goals())
    world.step(0.05)  # the goals stage finds it arrived; the next decisions know it
    world.positions[:], world.velocities[:], world.heading[:] = 0.0, 0.0, 0.0
    return world


def test_an_arrived_agent_does_not_turn_back_at_any_strength():
    world = at_its_target([-20.0, 0.0], 1.0, turn_back=0.5)
    rec = world.run(20, 0.05, record=["state", "strength", "positions"])
    assert (rec.state[1:, 0] == 3).all()  # arrived throughout
    assert (rec.strength[1:, 0] == 0).all()  # braked at full strength back west
    assert world.heading[0] == 0.0 and abs(world.positions[0, 0]) < 0.06


def test_an_arrived_agent_still_steps_aside_and_turns_back_without_turn_back():
    aside = at_its_target([0.0, 20.0], 1.0, turn_back=0.5)  # led north: 90 degrees off its heading
    aside.run(4, 0.05, record=None)
    assert aside.velocities[0, 1] > 0.5
    free = at_its_target([-20.0, 0.0], 1.0, turn_back=0.0)
    free.run(4, 0.05, record=None)
    assert free.velocities[0, 0] < -0.5
