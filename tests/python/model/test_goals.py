"""How agents reach their goals (contextsteer.goals): states, arrival times and modes,
waiting, face-offs settled by giving way, and the events a recording keeps."""

import copy
import pickle

import numpy as np
import pytest

import contextsteer as cs
from contextsteer import AgentState, Goals

DT = 0.05


def arrive_pipeline(**avoid):
    return cs.Pipeline([cs.Arrive(sideways=0.5), cs.Avoid(agents=True, max_distance=1.5, **avoid)], slots=16,
                       select="blend")


def test_an_agent_is_moving_then_arrived_once_with_its_arrival_time():
    world = cs.World(arrive_pipeline(), [[0.0, 0.0]], targets=[[3.0, 0.0]], max_speed=1.0, radius=0.3,
                     goals=Goals(arrival_radius=0.6))
    arrived_at = None
    for _ in range(200):
        world.step(DT)
        distance = np.linalg.norm(world.positions[0] - [3.0, 0.0])
        if distance <= 0.6 and arrived_at is None:
            arrived_at = world.time
            assert list(world.events["kind"]) == ["arrived"] and world.events["agent"][0] == 0
        elif arrived_at is None:  # moving, or waiting where Arrive slows it to a crawl
            assert world.state[0] != AgentState.ARRIVED and world.arrival_time[0] == -1
        else:
            assert len(world.events["kind"]) == 0  # an arrival is one event
    assert arrived_at is not None
    assert world.state[0] == AgentState.ARRIVED
    assert world.arrival_time[0] == pytest.approx(arrived_at)


def test_an_agent_held_in_place_or_shaking_waits_and_its_wait_grows():
    # max_speed 0: it cannot move; the other one is shaken in place from here.
    world = cs.World(arrive_pipeline(), [[0.0, 0.0], [10.0, 0.0]], targets=[[5.0, 0.0], [10.0, 8.0]],
                     max_speed=[0.0, 0.0], goals=Goals(stall_time=1.0, progress_distance=0.25))
    for k in range(60):
        world.positions[1] = [10.0 + (0.1 if k % 2 else -0.1), 0.0]  # 0.2 m swings, no net progress
        world.step(DT)
    assert world.waiting_time[0] == pytest.approx(59 * DT, abs=1e-4)  # the first step sets where it stands
    assert list(world.state) == [AgentState.WAITING, AgentState.WAITING]
    # Moving on counts as progress again.
    world.max_speed[0] = 1.0
    for _ in range(10):
        world.step(DT)
    assert world.state[0] == AgentState.MOVING and world.waiting_time[0] < 1.0


def test_agents_that_leave_are_removed_at_arrival_and_recorded_as_gone():
    starts = [[0.0, 0.0], [0.0, 3.0], [0.0, 6.0]]
    targets = [[2.0, 0.0], [6.0, 3.0], [40.0, 6.0]]
    world = cs.World(arrive_pipeline(), starts, targets=targets, max_speed=1.5, radius=0.3,
                     goals=Goals(arrival="leave", arrival_radius=0.6))
    rec = world.run(200, DT, record=["positions", "state", "arrival_time"])
    assert list(world.ids) == [2] and world.agent_count == 1
    events = rec.events
    left = events[events.kind == "left"]
    assert list(left.agent) == [0, 1]
    arrived = events[events.kind == "arrived"]
    # Each leaves in the step it arrives, with its arrival time.
    assert list(arrived.step) == list(left.step) and list(arrived.time) == list(left.time)
    for agent, time in zip(left.agent, left.time):
        gone = rec.time >= time - 1e-9
        assert np.isnan(rec.positions[gone, agent]).all() and (rec.state[gone, agent] == -1).all()
        # Gone from the step it arrived in; within reach of its target at the step before.
        before = rec.time < time - 1e-9
        assert np.isfinite(rec.positions[before, agent]).all()
        last = rec.positions[before, agent][-1]
        assert np.linalg.norm(last - targets[agent]) <= 0.6 + 1.5 * DT
    assert np.isfinite(rec.positions[:, 2]).all()


def corridor(width=1.6, length=12.0):
    half = width / 2
    return np.array([[-length, -half, length, -half], [-length, half, length, half]])


def test_an_arrived_agent_that_gives_way_lets_a_passer_through_and_returns():
    # A corridor 1.6 m wide; agent 0 is parked on its goal in the middle, agent 1 must pass it.
    def run(arrival):
        world = cs.World(arrive_pipeline(), [[0.0, 0.0], [-6.0, 0.0]], targets=[[0.0, 0.0], [6.0, 0.0]],
                         segments=corridor(), max_speed=1.2, radius=0.3,
                         goals=Goals(arrival=arrival, patience=1.0, give_way_time=2.0, reach=0.5))
        rec = world.run(600, DT, record=["positions", "state"])
        return world, rec

    stayed, _ = run("stay")
    assert stayed.positions[1, 0] < 0  # held behind the parked agent
    world, rec = run("give_way")
    assert np.linalg.norm(world.positions[1] - [6.0, 0.0]) < 0.6  # through
    gave = rec.events[rec.events.kind == "gave_way"]
    assert 0 in set(gave.agent)
    assert (rec.state[:, 0] == AgentState.GIVING_WAY).any()
    # The parked agent stepped aside, then back to its goal.
    assert np.abs(rec.positions[:, 0, 1]).max() > 0.3
    assert np.linalg.norm(world.positions[0]) < 0.5 and world.state[0] == AgentState.ARRIVED


def face_off(quarters=0, mirror=False, patience=1.0):
    """Two agents head-on in the open, each wanting the other's place: their danger masks
    the way ahead and Arrive gives no interest aside, so neither moves until one gives way."""
    # Exact turns by quarters, which keep the slots' directions (16 of them) on themselves.
    turn = np.linalg.matrix_power(np.array([[0.0, -1.0], [1.0, 0.0]]), quarters)
    flip = np.diag([1.0, -1.0]) if mirror else np.eye(2)
    place = turn @ flip
    starts = np.array([[-4.0, 0.0], [4.0, 0.0]]) @ place.T
    targets = np.array([[5.0, 0.0], [-5.0, 0.0]]) @ place.T
    pipeline = cs.Pipeline([cs.Arrive(), cs.Avoid(agents=True, max_distance=1.2)], slots=16,
                           danger_mode="threshold", threshold=0.4)
    world = cs.World(pipeline, starts, targets=targets, max_speed=1.0, radius=0.3,
                     goals=Goals(patience=patience, give_way_time=1.5, reach=0.6))
    rec = world.run(800, DT, record=["positions", "state", "give_way"])
    return world, rec, place, targets


def test_a_symmetric_face_off_stays_stuck_without_patience_and_is_settled_with_it():
    stuck, _, _, targets = face_off(patience=np.inf)
    assert (np.linalg.norm(stuck.positions - targets, axis=1) > 2.0).all()
    world, rec, _, targets = face_off()
    assert (np.linalg.norm(world.positions - targets, axis=1) < 0.6).all()
    gave = rec.events[rec.events.kind == "gave_way"]
    # Equal waits: the smaller id passes, the other gives way, and then goes on to its goal.
    assert set(gave.agent) == {1}


def test_agents_bound_the_same_way_settle_no_face_off():
    # Two agents led against each other, the one bound past the other and the other bound
    # away from it: each is not in the other's way to its target, so no face-off to
    # settle; bound for each other's places, they settle one.
    starts = np.array([[-0.4, 0.0], [0.4, 0.0]])
    pipeline = cs.Pipeline([cs.Arrive(), cs.Avoid(agents=True, max_distance=1.2)], slots=16,
                           danger_mode="threshold", threshold=0.4)
    apart = cs.World(pipeline, starts, targets=[[5.0, 0.0], [-5.0, 0.0]], max_speed=1.0, radius=0.3,
                     goals=Goals(patience=1.0, give_way_time=1.5, reach=0.6))
    same = cs.World(pipeline, starts * [[-1], [1]] + [[-4.0, 0.0], [4.0, 0.0]],
                    targets=[[5.0, 0.0], [5.0, 3.0]], max_speed=1.0, radius=0.3,
                    goals=Goals(patience=1.0, give_way_time=1.5, reach=0.6))
    # The second world's agents: 0 behind 1 and bound past it, 1 bound up and to the right.
    gave_apart = apart.run(200, DT, record=["positions"]).events
    gave_same = same.run(200, DT, record=["positions"]).events
    assert (gave_apart.kind == "gave_way").any()
    assert not (gave_same.kind == "gave_way").any()


def test_two_held_at_a_gap_from_either_side_merge_one_giving_way():
    # A gap of 0.8 m for agents of radius 0.3: one at a time. Each is led into it from its
    # side (ways about 90 degrees apart, not head-on) and holds the other; without
    # patience both stay pressed against the jambs; with it they settle as a merge: one
    # gives way, and both pass.
    starts = np.array([[-0.55, 0.45], [-0.55, -0.45]])
    targets = np.array([[0.9, -1.2], [0.9, 1.2]])
    walls = np.array([[0.0, 0.4, 0.0, 3.0], [0.0, -0.4, 0.0, -3.0]])
    fields = [cs.NavigationField(goals=[t], area=(-3, -3, 3, 3), cell=0.1, clearance=0.3, segments=walls)
              for t in targets]
    pipeline = cs.Pipeline([cs.FollowField(fields), cs.Avoid(agents=True, max_distance=1.2, world_obstacles=False)],
                           slots=16, danger_mode="threshold", threshold=0.4)

    def run(patience):
        world = cs.World(pipeline, starts, targets=targets, max_speed=1.0, radius=0.3, segments=walls, groups=[0, 1],
                         goals=Goals(patience=patience, give_way_time=1.5, reach=0.6), contact=cs.Contact())
        return world, world.run(600, DT).events

    held, events = run(np.inf)
    assert (held.positions[:, 0] < 0).all() and not (events.kind == "gave_way").any()
    merged, events = run(3.0)
    assert (events.kind == "gave_way").sum() == 1
    assert (merged.positions[:, 0] > 0.3).all()


@pytest.mark.parametrize("quarters", [1, 2, 3])
def test_a_turned_face_off_is_settled_too(quarters):
    # Turned, the slots' directions round differently: the face-off may break by itself;
    # either way both agents get home.
    world, rec, _, targets = face_off(quarters)
    assert (np.linalg.norm(world.positions - targets, axis=1) < 0.6).all()
    assert set(rec.events[rec.events.kind == "gave_way"].agent) <= {1}


@pytest.mark.parametrize("quarters", [0, 2])
def test_a_mirrored_face_off_is_settled_on_the_same_hand(quarters):
    # The convention is a hand, which a mirror does not turn: the agent that gives way
    # steps to its own right, in the scene and in its mirror image alike.
    world, rec, _, targets = face_off(quarters, mirror=True)
    assert (np.linalg.norm(world.positions - targets, axis=1) < 0.6).all()
    gave = rec.events[rec.events.kind == "gave_way"]
    assert set(gave.agent) == {1}
    step = int(gave.step.iloc[0])  # row k of a recording is the state after step k
    way = targets[1] - rec.positions[step - 1, 1]
    right = np.array([way[1], -way[0]]) / np.linalg.norm(way)
    assert rec.give_way[step, 1] @ right > 0.99


def test_goals_are_kept_by_copy_and_pickle_and_results_match_at_any_thread_count():
    geometry = cs.scenarios.two_way_door(40, seed=1)
    pipelines = [cs.Pipeline([cs.FollowField(geometry.navigation_field(group=g, clearance=0.3)),
                              cs.Arrive(sideways=0.5, weight=0.5), cs.Avoid(agents=True, max_distance=1.0)],
                             select="blend") for g in range(2)]
    goals = Goals(arrival="give_way", patience=1.0, reach=0.5)
    results = []
    for threads in (1, 2):
        world = geometry.world(pipelines, radius=0.3, max_speed=1.4, threads=threads, goals=goals)
        rec = world.run(300, DT, record=["positions", "state", "give_way"])
        results.append((rec.positions.tobytes(), rec.state.tobytes(), rec.events.to_json()))
        assert pickle.loads(pickle.dumps(world)).goals == goals
        assert copy.copy(world).goals == goals
    assert results[0] == results[1]


@pytest.mark.parametrize("setting, value, expected", [
    ("arrival", "fly", "arrival: expected one of 'stay', 'give_way', 'leave'"),
    ("arrival_radius", 0.0, "arrival_radius"),
    ("arrival_radius", float("nan"), "arrival_radius"),
    ("progress_distance", -1.0, "progress_distance"),
    ("stall_time", 0.0, "stall_time"),
    ("patience", -1.0, "patience"),
    ("give_way_time", float("inf"), "give_way_time"),
    ("reach", -0.1, "reach"),
    ("reach", "far", "reach"),
])
def test_bad_goal_settings_name_themselves(setting, value, expected):
    with pytest.raises((ValueError, TypeError), match=expected):
        Goals(**{setting: value})


def test_goals_refuse_what_they_do_not_know():
    with pytest.raises(TypeError, match="unexpected keyword argument 'patient'"):
        Goals(patient=2.0)
    world = cs.World(arrive_pipeline(), [[0.0, 0.0]])
    with pytest.raises(TypeError, match="goals: expected a contextsteer.Goals"):
        world.goals = {"patience": 2.0}
    assert world.goals == Goals() and Goals(patience=2.0).replace(reach=1.0) == Goals(patience=2.0, reach=1.0)
    assert repr(Goals(arrival="leave")) == "Goals(arrival='leave')"


def test_an_agent_with_no_free_way_aside_is_passed_by_the_other_giving_way():
    # Agent 1 stands deep in a dead end 0.8 m wide and wants out; agent 0 wants in. Equal
    # waits: agent 0 would pass, but agent 1 has walls on both sides and behind, so agent 0
    # gives way instead.
    walls = [[-0.9, -0.4, 0.6, -0.4], [-0.9, 0.4, 0.6, 0.4], [-0.9, -0.4, -0.9, 0.4]]
    pipeline = cs.Pipeline([cs.Arrive(), cs.Avoid(agents=True, world_obstacles=False, max_distance=1.2),
                            cs.Avoid(max_distance=0.35)], slots=16, danger_mode="threshold", threshold=0.4)
    world = cs.World(pipeline, [[0.5, 0.0], [-0.5, 0.0]], targets=[[-0.6, 0.0], [5.0, 0.0]], segments=walls,
                     max_speed=1.0, radius=0.3, goals=Goals(patience=1.0, give_way_time=2.0, reach=0.6))
    rec = world.run(400, DT, record=["positions"])
    gave = rec.events[rec.events.kind == "gave_way"]
    assert len(gave) and gave.agent.iloc[0] == 0
    assert np.linalg.norm(world.positions[1] - [5.0, 0.0]) < 0.6  # out of the dead end


def test_an_arrived_agent_off_a_coarse_slot_but_on_the_line_to_the_target_gives_way():
    # 8 slots, 45 degrees apart. Agent 0's target lies 63 degrees up; arrived agent 1 touches
    # it at 118 degrees (blocking the 90-degree slot) and arrived agent 2 grazes the
    # 45-degree slot, so agent 0's interest peaks at 45 degrees with agent 1 73 degrees
    # off that way, but 55 degrees off the straight line to the target.
    starts = [[0.0, 0.0], [-0.28, 0.53], [0.62, -0.22]]
    targets = [[0.63, 1.25], [-0.28, 0.53], [0.62, -0.22]]
    pipeline = cs.Pipeline([cs.Arrive(sideways=0.5),
                            cs.Anticipate(radius=3.0, horizon=0.5, make_way=0.6, responsibility=0.9)],
                           slots=8, select="blend", danger_mode="multiply")
    world = cs.World(pipeline, starts, targets=targets, max_speed=1.4, max_acceleration=4.0, radius=0.3,
                     goals=Goals(arrival="give_way", patience=2.0))
    rec = world.run(600, DT, record=["positions", "state"])
    assert world.state[0] == AgentState.ARRIVED
    assert 1 in set(rec.events[rec.events.kind == "gave_way"].agent)
    assert np.linalg.norm(world.positions[1:] - np.array(targets[1:]), axis=1).max() < 0.5  # back on their goals
