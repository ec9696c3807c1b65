"""Small API holes: target ids naming agents of the same add_agents call; FollowPath ending
at each agent's own target; a recording that starts with the state before the first step."""

from __future__ import annotations

import numpy as np
import pytest

import contextsteer as cs


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
