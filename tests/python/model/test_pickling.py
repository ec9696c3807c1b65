"""Pickling: behaviours, pipelines, classic steerings, fields, tracks and whole worlds
travel to other processes (sweeps on process pools, Dask) and steer there exactly as here."""

import copy
import functools
import multiprocessing
import pickle
import threading
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import contextsteer as cs
from contextsteer import _core, classic

PILLARS = [[6.0, 1.0, 1.0], [10.0, -2.0, 1.5]]
WALL = [[0.0, -6.0, 20.0, -6.0]]


def round_trip(value):
    return pickle.loads(pickle.dumps(value))


def toward_plus_x(batch, interest, danger):
    """A Python behaviour at the top of a module: pickled by reference."""
    interest[:] = np.maximum(batch.slot_directions @ [1.0, 0.0], 0)


def field():
    return cs.NavigationField([18.0, 0.0], area=(-4, -8, 22, 8), cell=0.5, clearance=0.3, circles=PILLARS,
                              segments=WALL)


def context_pipelines():
    """Pipelines that hold every context behaviour between them, with settings off their defaults."""
    return [
        cs.Pipeline([cs.Chase([[18.0, 0.0]], sideways=0.4), cs.Avoid(PILLARS, agents=True, keep_right=0.2),
                     cs.Rays(length=4.0, mode="binary"), cs.Flee([[0.0, 0.0]], radius=3.0, weight=0.5),
                     cs.Separation(radius=2.0), cs.Alignment(radius=3.0), cs.Cohesion(radius=3.0, weight=0.2)],
                    slots=24, select="blend", blur_danger=1.0, smooth=0.3, hysteresis=0.2),
        cs.Pipeline([cs.FollowField(field(), sideways=0.5), cs.Forward(weight=0.1), cs.Wander(seed=3, weight=0.3),
                     cs.TimeToCollision(radius=6.0), cs.Arrive(slowing_radius=2.0), cs.Leave([[0.0, 0.0]]),
                     cs.Pursue(max_prediction=0.5), cs.Evade(radius=1.0, weight=0.2)], slots=16),
        cs.Pipeline([cs.FollowPath([[0, 0], [8, 4], [16, -3], [18, 0]], lookahead=1.5),
                     cs.PythonBehavior(toward_plus_x, memory=1, weight=0.3), cs.Avoid(agents=True)],
                    slots=12, danger_mode="threshold", select="parabolic"),
    ]


def steered(steering, steps=40):
    """Positions, headings and final maps of 30 agents after `steps` steps of `steering`."""
    starts = np.random.default_rng(5).uniform([-2, -4], [3, 4], (30, 2))
    world = cs.World(steering, starts, targets=np.tile([18.0, 0.0], (30, 1)), target_ids=np.roll(np.arange(30), 1),
                     circles=PILLARS, segments=WALL, max_speed=2.0, max_acceleration=4.0, max_turn_rate=4.0,
                     radius=0.3)
    world.run(steps, 0.05)
    final = world.final.copy() if isinstance(steering, cs.Pipeline) else None
    return world.positions.copy(), world.heading.copy(), final


@pytest.mark.parametrize("index", range(3))
def test_a_pickled_pipeline_prints_and_steers_exactly_as_the_original(index):
    pipeline = context_pipelines()[index]
    loaded = round_trip(pipeline)
    assert loaded is not pipeline and repr(loaded) == repr(pipeline)
    assert [type(b) for b in loaded.behaviors] == [type(b) for b in pipeline.behaviors]
    here, there = steered(pipeline), steered(loaded)
    for a, b in zip(here, there):
        np.testing.assert_array_equal(a, b)
    assert np.abs(here[0] - steered(context_pipelines()[(index + 1) % 3])[0]).max() > 0.1  # the test can tell


def test_a_deep_copy_is_a_new_pipeline_that_steers_alike():
    pipeline = context_pipelines()[0]
    twin = copy.deepcopy(pipeline)
    assert twin.behaviors[0] is not pipeline.behaviors[0] and repr(twin) == repr(pipeline)
    np.testing.assert_array_equal(steered(twin)[0], steered(pipeline)[0])


def test_a_classic_steering_pickles_with_its_targets_weights_and_priorities():
    steering = classic.Steering([classic.Arrive([18.0, 0.0], slowing_radius=4.0, priority=1),
                                 classic.Evade(max_prediction=0.5, weight=0.4), classic.Face(time_to_target=0.2),
                                 classic.LookWhereYouGo(weight=0.5)], combiner="priority", epsilon=0.01)
    loaded = round_trip(steering)
    assert repr(loaded) == repr(steering) and "priority=1" in repr(loaded)
    for a, b in zip(steered(steering), steered(loaded)):
        np.testing.assert_array_equal(a, b)


class Scaled(cs.PythonBehavior):
    """A Python behaviour with arguments and a public attribute of its own."""

    def __init__(self, direction, *, weight=1.0):
        super().__init__(weight=weight)
        self.direction = np.asarray(direction, float)
        self.gain = 1.0

    def fill(self, batch, interest, danger):
        interest[:] = self.gain * np.maximum(batch.slot_directions @ self.direction, 0)


def test_a_python_behaviour_subclass_pickles_with_its_arguments_and_attributes_as_they_are_now():
    behaviour = Scaled([0.0, 1.0], weight=0.5)
    behaviour.gain = 0.25
    loaded = round_trip(behaviour)
    assert type(loaded) is Scaled and loaded.gain == 0.25 and loaded.weight == 0.5
    np.testing.assert_array_equal(loaded.direction, [0.0, 1.0])
    pipeline = cs.Pipeline([behaviour])
    here = pipeline.evaluate([[0.0, 0.0]]).interest
    np.testing.assert_array_equal(round_trip(pipeline).evaluate([[0.0, 0.0]]).interest, here)
    assert here.max() == np.float32(0.25 * 0.5)   # the gain as set, times the weight


def test_what_was_changed_after_building_is_pickled_as_it_is_now():
    points = np.array([[5.0, 5.0]])
    chase = cs.Chase(points)
    points[0] = [-5.0, -5.0]              # the caller's array changes, the behaviour does not
    assert round_trip(chase).targets.tolist() == [[5.0, 5.0]]
    chase.targets = [[1.0, 2.0], [3.0, 4.0]]   # a setting with a setter: as it is now
    assert round_trip(chase).targets.tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_a_field_pickles_as_built_and_stays_shared_by_those_that_follow_it():
    built = field()
    loaded = round_trip(built)
    for name in ("distances", "directions", "blocked", "goals", "goal_areas"):
        np.testing.assert_array_equal(getattr(loaded, name), getattr(built, name), err_msg=name)
    points = np.random.default_rng(1).uniform([-4, -8], [22, 8], (500, 2))
    np.testing.assert_array_equal(loaded.direction_at(points), built.direction_at(points))
    np.testing.assert_array_equal(loaded.path_from([0.0, 0.0]), built.path_from([0.0, 0.0]))
    assert repr(loaded) == repr(built)
    # Two behaviours on one field: one field after loading too.
    first, second = round_trip([cs.FollowField(built), cs.FollowField(built, weight=0.5)])
    assert first.field is second.field


def test_a_field_a_world_built_pickles_too():
    world = cs.World(cs.Pipeline([cs.Chase()]), [[0.0, 0.0]], circles=PILLARS, bounds=(-4, -8, 22, 8))
    built = world.navigation_field([18.0, 0.0], clearance=0.3, cell=0.5)
    loaded = round_trip(built)
    np.testing.assert_array_equal(loaded.distances, built.distances)
    np.testing.assert_array_equal(loaded.directions, built.directions)


def test_a_field_state_that_no_build_gives_is_refused_by_name():
    state = list(field()._core.__getstate__())
    empty = _core.NavigationField.__new__(_core.NavigationField)
    with pytest.raises(ValueError, match="distances: expected .* values for .* cells, got 3"):
        empty.__setstate__(tuple(state[:9] + [np.zeros(3, np.float32)] + state[10:]))
    with pytest.raises(ValueError, match="distances: expected values >= 0 .* got nan at cell 4"):
        distances = state[9].copy()
        distances[4] = np.nan
        empty.__setstate__(tuple(state[:9] + [distances] + state[10:]))
    with pytest.raises(ValueError, match="expected the state of a pickled field, 13 items of format 2, got 3 items"):
        empty.__setstate__((1, 2, 3))
    with pytest.raises(ValueError, match="of format 7"):
        empty.__setstate__(tuple([7] + state[1:]))


def busy_world():
    """Two steerings (one classic), obstacles on two layers, removed agents, kept values
    (FollowPath's progress, smoothing, hysteresis), 25 steps taken."""
    rng = np.random.default_rng(2)
    pipeline = cs.Pipeline([cs.FollowPath([[0, 0], [8, 4], [16, -3]]), cs.Avoid(agents=True, keep_right=0.2),
                            cs.Chase(sideways=0.3, weight=0.5)], slots=16, smooth=0.4, hysteresis=0.2)
    world = cs.World(pipeline, rng.uniform(-4, 4, (40, 2)), targets=rng.uniform(10, 20, (40, 2)), circles=PILLARS,
                     segments=WALL, polygons=[[[12, 3], [14, 3], [13, 5]]], bounds=(-10, -10, 30, 10), max_speed=2.0,
                     max_acceleration=3.0, layers=rng.integers(1, 4, 40), sense_masks=3, threads=2)
    world.add_circles([[8.0, 2.0, 0.5]], layer=2)
    world.add_segments([[2.0, 6.0, 9.0, 6.0]], layer=4)
    world.add_agents(rng.uniform(-4, 4, (6, 2)), steering=classic.Steering([classic.Seek([20, 0]),
                                                                            classic.LookWhereYouGo()]))
    world.run(20, 0.05)
    world.remove_agents([3, 7, 41])
    world.run(5, 0.05)
    return world


def test_a_pickled_world_goes_on_exactly_as_the_original():
    world = busy_world()
    loaded = round_trip(world)
    assert repr(loaded) == repr(world) and loaded.threads == 2 and loaded.steps_taken == 25
    np.testing.assert_array_equal(loaded.ids, world.ids)
    for name in ("circles", "segments", "bounds"):
        np.testing.assert_array_equal(getattr(loaded, name), getattr(world, name), err_msg=name)
    for a, b in zip(loaded._core.obstacle_layers, world._core.obstacle_layers):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(IndexError, match="removed"):
        loaded.index_of([7])
    here, there = world.run(30, 0.05, record="all"), loaded.run(30, 0.05, record="all")
    for name in ("positions", "velocities", "headings", "interest", "danger", "final", "slot", "overlap",
                 "penetration"):
        np.testing.assert_array_equal(getattr(there, name), getattr(here, name), err_msg=name)
    assert np.abs(here.positions[-1] - here.positions[0]).max() > 1.0   # they did move
    # New agents take the same ids, and a reset goes back to the same spawn state.
    np.testing.assert_array_equal(loaded.add_agents([[0.0, 0.0]]), world.add_agents([[0.0, 0.0]]))
    world.reset(), loaded.reset()
    np.testing.assert_array_equal(loaded.positions, world.positions)


class TaggedWorld(cs.World):
    """A subclass with an attribute of its own."""


def test_a_world_subclass_keeps_its_class_and_attributes():
    world = TaggedWorld(cs.Pipeline([cs.Chase([5.0, 0.0])]), [[0.0, 0.0], [1.0, 1.0]])
    world.tag = "run 3"
    loaded = round_trip(world)
    assert type(loaded) is TaggedWorld and loaded.tag == "run 3"


def test_a_world_holding_what_a_step_refuses_loads_and_refuses_it_alike():
    # An agent may travel past the bound in a step; the world is saved as it stands.
    world = cs.World(cs.Pipeline([cs.Chase([5.0, 0.0])]), [[0.0, 0.0], [1.0, 1.0]])
    world.positions[1] = [2e9, 0.0]
    loaded = round_trip(world)
    np.testing.assert_array_equal(loaded.positions, world.positions)
    for w in (world, loaded):
        with pytest.raises(ValueError, match=r"positions: .* got 2e\+09 for agent 1"):
            w.step(0.1)


def test_a_moving_obstacle_value_a_step_refuses_is_refused_by_pickle_too():
    # The moving obstacles' index is built from their poses on load: a NaN pose has no
    # cell to go in, so the pickle refuses it by name rather than writing bytes load refuses.
    world = cs.World(cs.Pipeline([cs.Chase([5.0, 0.0])]), [[0.0, 0.0]])
    world.add_moving_circles([[2.0, 2.0, 0.5], [4.0, 2.0, 0.5]])
    world.moving_positions[1, 0] = np.nan
    for refused in (lambda: pickle.dumps(world), lambda: world.step(0.1)):
        with pytest.raises(ValueError, match=r"moving_positions: expected values within -1e9 to 1e9, got \(nan\) "
                                             r"at flat index 2"):
            refused()
    world.moving_positions[1, 0] = 4.0
    np.testing.assert_array_equal(round_trip(world).moving_positions, world.moving_positions)


def test_a_world_state_that_no_world_gives_is_refused_by_name_and_changes_nothing():
    world = cs.World(cs.Pipeline([cs.FollowPath([[0, 0], [10, 0]])]), [[0.0, 0.0], [1.0, 1.0]])
    world.step(0.1)   # FollowPath keeps each agent's progress, in the last column
    before = world.positions.copy()
    state = list(world._core.saved_state())

    def with_column(k, values):
        columns = list(state[2])
        columns[k] = values
        return tuple(state[:2] + [columns] + state[3:])

    with pytest.raises(ValueError, match="columns: expected column 0 of 16 bytes .* got 15 bytes"):
        world._core.restore_state(with_column(0, state[2][0][:-1]))
    with pytest.raises(ValueError, match="memory: expected NaN or values within -1e9 to 1e9, got 1e\\+30"):
        world._core.restore_state(with_column(-1, np.full(2, 1e30, np.float32).tobytes()))
    with pytest.raises(ValueError, match="index_of_id: expected 2 ids of current agents, got 1"):
        world._core.restore_state(tuple(state[:3] + [np.array([0, -1], np.int32)] + state[4:]))
    with pytest.raises(ValueError, match="state of a pickled world"):
        world._core.restore_state((1, 2))
    np.testing.assert_array_equal(world.positions, before)   # unchanged by the refusals
    world._core.restore_state(tuple(state))                   # the state as saved is taken


def crossing(pipeline, seed):
    """A world of `pipeline` (pickled to reach a worker process) for a sweep."""
    starts = np.random.default_rng(seed).uniform(-8, 8, (20, 2))
    return cs.World(pipeline, starts, targets=-starts, max_speed=1.5, max_acceleration=3.0, radius=0.4)


def test_a_sweep_on_processes_takes_a_pipeline_built_here():
    pipeline = cs.Pipeline([cs.Arrive(sideways=0.5), cs.Avoid(agents=True, max_distance=2.0, keep_right=0.3)])
    make = functools.partial(crossing, pipeline)
    here = cs.sweep(make, {"seed": [0, 1]}, steps=40, dt=0.1)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        there = cs.sweep(make, {"seed": [0, 1]}, steps=40, dt=0.1, executor=pool)
    assert here.drop(columns="seconds").equals(there.drop(columns="seconds"))


def test_a_dask_cluster_runs_a_sweep_of_a_pipeline_built_here_and_steps_a_world_sent_to_it():
    from distributed import Client, LocalCluster

    pipeline = cs.Pipeline([cs.Arrive(sideways=0.5), cs.Avoid(agents=True, max_distance=2.0, keep_right=0.3)])
    make = functools.partial(crossing, pipeline)
    here = cs.sweep(make, {"seed": [0, 1]}, steps=40, dt=0.1)
    world = make(seed=3)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        there = cs.sweep(make, {"seed": [0, 1]}, steps=40, dt=0.1, executor=client.get_executor())
        stepped = client.submit(run_for, world, 30).result()
    assert here.drop(columns="seconds").equals(there.drop(columns="seconds"))
    world.run(30, 0.1, record=None)
    assert stepped.steps_taken == 30 and stepped is not world
    np.testing.assert_array_equal(stepped.positions, world.positions)


def run_for(world, steps):
    """Steps a world where it is (a worker), then sends it back."""
    world.run(steps, 0.1, record=None)
    return world


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
