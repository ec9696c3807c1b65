"""Behaviours written in Python: against their C++ twins, composed with the built-in ones,
keeping values per agent, freed with their worlds, and serving worlds on several threads."""

import math
import threading

import numpy as np
import pytest
from behavior_maps import maps_of

import contextsteer as cs


class PyChase(cs.PythonBehavior):
    """Chase written in Python: the twin of cs.Chase() (own targets, no distance limit)."""

    def fill(self, batch, interest, danger):
        to = batch.targets - batch.positions
        d = np.linalg.norm(to, axis=1, keepdims=True)
        u = np.divide(to, d, out=np.zeros_like(to), where=d >= 1e-6)
        interest[:] = np.maximum(u @ batch.slot_directions.T, 0)


def py_separation(batch, interest, danger, radius=4.0):
    """Separation written in Python with the batch's neighbor query: the twin of cs.Separation."""
    nb = batch.neighbors(radius)
    for k in range(len(batch)):
        for j in range(nb.offsets[k], nb.offsets[k + 1]):
            away = batch.positions[k] - nb.positions[j]
            d = np.linalg.norm(away)
            if d >= 1e-6:
                lobe_k = np.maximum(batch.slot_directions @ (away * (1 - d / radius) / d), 0)
                interest[k] = np.maximum(interest[k], lobe_k)


def test_python_behaviours_equal_their_cpp_twins():
    rng = np.random.default_rng(4)
    positions = rng.uniform(-5, 5, (40, 2))
    targets = rng.uniform(-5, 5, (40, 2))
    py, _, _ = maps_of([PyChase()], positions, targets=targets, slots=16)
    cpp, _, _ = maps_of([cs.Chase()], positions, targets=targets, slots=16)
    np.testing.assert_allclose(py, cpp, atol=1e-6)
    py, _, _ = maps_of([cs.PythonBehavior(py_separation, neighbor_radius=4.0)], positions, slots=16)
    cpp, _, _ = maps_of([cs.Separation(radius=4.0)], positions, slots=16)
    np.testing.assert_allclose(py, cpp, atol=1e-5)


def test_python_behaviours_compose_with_builtins_and_report_errors():
    pipeline = cs.Pipeline([PyChase(), cs.Avoid(agents=True, max_distance=3.0)], slots=16, select="blend")
    world = cs.World(pipeline, [[0.0, 0.0], [20.0, 0.5]], targets=[[20.0, 0.0], [0.0, 0.0]], max_speed=2.0)
    world.run(200, 0.05, record=None)
    assert (np.linalg.norm(world.positions - [[20, 0], [0, 0]], axis=1) < 1.5).all()
    assert world.overlap.max() == 0

    def bad(batch, interest, danger):
        interest[0, 0] = np.nan

    world = cs.World(cs.Pipeline([cs.PythonBehavior(bad)]), [[0.0, 0.0]])
    with pytest.raises(ValueError, match="not finite"):
        world.step(0.1)

    def huge(batch, interest, danger):
        interest[0, 3] = 1e30

    world = cs.World(cs.Pipeline([cs.PythonBehavior(huge)]), [[0.0, 0.0]])
    with pytest.raises(ValueError, match=r"^interest: .* within -1e9 to 1e9, 1e\+30 at row 0, slot 3$"):
        world.step(0.1)

    def broken(batch, interest, danger):
        raise RuntimeError("user bug")

    world = cs.World(cs.Pipeline([cs.PythonBehavior(broken)]), [[0.0, 0.0]])
    with pytest.raises(RuntimeError, match="user bug"):
        world.step(0.1)
    kept = {}
    world = cs.World(cs.Pipeline([cs.PythonBehavior(lambda b, i, d: kept.setdefault("b", b))]), [[0.0, 0.0]])
    world.step(0.1)
    with pytest.raises(ValueError, match="only available while"):
        kept["b"].neighbors(1.0)
    with pytest.raises(TypeError, match="fill"):
        cs.PythonBehavior()
    with pytest.raises(ValueError, match="fills"):
        cs.PythonBehavior(lambda b, i, d: None, fills="both kinds")


def test_python_behaviours_keep_values_per_agent_in_the_world():
    seen = []

    def count_steps(batch, interest, danger):
        seen.append(dict(zip(batch.ids.tolist(), batch.memory[:, 1].tolist())))
        batch.memory[:, 1] = np.nan_to_num(batch.memory[:, 1]) + 1
        interest[:, 0] = 1.0

    counter = cs.PythonBehavior(count_steps, memory=2)
    world = cs.World(cs.Pipeline([counter], slots=8), np.zeros((3, 2)), max_speed=0.0)
    for _ in range(3):
        world.step(0.1)
    assert all(math.isnan(v) for v in seen[0].values()) and seen[2] == {0: 2.0, 1: 2.0, 2: 2.0}
    new = world.add_agents([[5.0, 5.0]])
    world.remove_agents([1])
    world.explain(0)  # an explanation changes nothing
    world.step(0.1)
    assert seen[-2] == {0: 3.0}  # the explanation saw the kept values
    assert math.isnan(seen[-1][int(new[0])]) and {k: v for k, v in seen[-1].items() if k != new[0]} == {0: 3.0, 2: 3.0}
    world.reset()
    world.step(0.1)
    assert all(math.isnan(v) for v in seen[-1].values())
    # Outside a world nothing is kept: every step starts from NaN.
    for _ in range(2):
        cs.Pipeline([counter], slots=8).evaluate([[0.0, 0.0]])
    assert math.isnan(seen[-1][0]) and math.isnan(seen[-2][0])

    def keep_inf(batch, interest, danger):
        batch.memory[0, 0] = np.inf

    world = cs.World(cs.Pipeline([cs.PythonBehavior(keep_inf, memory=1)]), [[0.0, 0.0]])
    with pytest.raises(ValueError, match=r"^memory: .* neither NaN nor within -1e9 to 1e9, inf at row 0, value 0$"):
        world.step(0.1)
    for bad in (-1, 257):
        with pytest.raises(ValueError, match="memory"):
            cs.PythonBehavior(keep_inf, memory=bad)
    with pytest.raises(TypeError, match="memory"):
        cs.PythonBehavior(keep_inf, memory=1.5)


def test_a_python_behaviours_memory_leaves_a_built_in_behaviours_alone():
    # FollowPath keeps each agent's place on the path in its own part of the world's
    # memory; a Python behaviour beside it keeps its own part. FollowPath then moves the
    # agents exactly as it does alone (the Python behaviour adds no interest).
    def scribble(batch, interest, danger):
        batch.memory[:] = 7.0

    path = [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]
    starts = [[0.0, 0.5], [9.0, -0.5], [10.5, 6.0]]

    def run(behaviors):
        world = cs.World(cs.Pipeline(behaviors, slots=16), starts, max_speed=2.0)
        world.run(120, 0.05, record=None)
        return world.positions.copy()

    alone = run([cs.FollowPath(path)])
    beside = run([cs.PythonBehavior(scribble, memory=3), cs.FollowPath(path)])
    np.testing.assert_array_equal(beside, alone)
    assert np.linalg.norm(alone - np.array(starts, np.float32), axis=1).min() > 5.0  # they did follow it


def test_python_behaviours_and_the_worlds_their_functions_refer_to_are_freed():
    # The core calls a behaviour through a weak reference: a strong one would close a
    # cycle through C++ that the garbage collector cannot see, and nothing in it, a
    # world of agents included, would ever be freed.
    import gc
    import weakref

    def make_world():
        world = None

        def steer_home(batch, interest, danger):  # refers to its own world
            interest[:, 0] = 1.0 + 0.0 * world.time

        world = cs.World(cs.Pipeline([cs.PythonBehavior(steer_home)], slots=8), np.zeros((1000, 2)))
        world.step(0.1)
        assert world.velocities[:, 0].min() > 0  # the behaviour ran, through its world
        return world

    class Memo(cs.PythonBehavior):  # a subclass whose fill keeps state on the behaviour
        def fill(self, batch, interest, danger):
            self.seen = len(batch)
            interest[:, 2] = 1.0

    memo = Memo()
    worlds = [make_world(), cs.World(cs.Pipeline([memo]), [[0.0, 0.0]])]
    worlds[1].step(0.1)
    assert memo.seen == 1
    freed = [weakref.ref(w) for w in worlds] + [weakref.ref(w._core) for w in worlds] + [weakref.ref(memo)]
    del worlds, memo
    gc.collect()
    assert [ref() for ref in freed] == [None] * len(freed)

    # Only a caller of the bare core can outlive the behaviour; it is told so.
    core = cs.PythonBehavior(lambda b, i, d: None)._core
    gc.collect()
    pipeline = cs._core.Pipeline([core], 8, 0.0, "max", "max", "subtract", 0.5, 0.0, "argmax", 0.0, 0.0, 0.0, 0.0, 0.0,
                                     10.0)
    world = cs._core.World(pipeline)
    world.add_agents({"positions": np.zeros((1, 2), np.float32)}, 0)
    with pytest.raises(RuntimeError, match="PythonBehavior: the behaviour was freed"):
        world.step(0.1, 1)


def test_one_python_behaviour_serves_worlds_stepping_at_once_in_several_threads():
    # The behaviour keeps no rows of its own (each world's cache does): two worlds of
    # different sizes, stepped at the same time, move as each does when stepped alone.
    shared = cs.Pipeline([PyChase(), cs.Avoid(agents=True, max_distance=2.0)], slots=16)
    rng = np.random.default_rng(8)

    def make(n):
        return cs.World(shared, rng.uniform(-20, 20, (n, 2)), targets=rng.uniform(-20, 20, (n, 2)), max_speed=1.5)

    worlds = [make(300), make(57)]
    alone = [make(0), make(0)]
    for w, copy in zip(worlds, alone):
        copy.add_agents(w.positions.copy(), targets=w.targets.copy(), max_speed=1.5)
        copy.run(40, 0.05, record=None)
    threads = [threading.Thread(target=w.run, args=(40, 0.05), kwargs={"record": None}) for w in worlds]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for w, copy in zip(worlds, alone):
        assert w.steps_taken == 40
        np.testing.assert_array_equal(w.positions, copy.positions)


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


def test_explain_refuses_a_state_a_python_behaviour_wrote_during_it():
    world = world_writing("positions", np.nan)
    with pytest.raises(ValueError, match=r"^positions: expected values .* for agent 1 \(written during explain"):
        world.explain(0)
    assert world.steps_taken == 0


def test_a_call_from_a_behaviour_inside_the_step_is_told_it_came_from_inside():
    messages = []

    def fill(batch, interest, danger):
        interest[:] = 0.5
        try:
            world.add_agents([[3.0, 3.0]])
        except RuntimeError as error:
            messages.append(str(error))

    world = cs.World(cs.Pipeline([cs.PythonBehavior(fill)]), np.zeros((2, 2)))
    world.step(0.05)
    world.explain(0)
    assert messages[0].startswith("add_agents: the world is busy with step(), and this call came from inside it, "
                                  "on the same thread")
    assert messages[1].startswith("add_agents: the world is busy with explain(), and this call came from inside it")
    assert len(world) == 2 and world.steps_taken == 1
