"""Bad input gets a clear exception naming the argument, what was expected and what came."""

import math

import numpy as np
import pytest

import contextsteer as cs

GOOD = np.ones((2, 8))


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: cs.slot_directions(0), ValueError, ["slots", ">= 1", "0"]),
        (lambda: cs.slot_directions(-4), ValueError, ["slots", "-4"]),
        (lambda: cs.slot_directions(70000), ValueError, ["slots", "65536", "70000"]),
        (lambda: cs.slot_directions(2.5), TypeError, ["slots", "integer", "float"]),
        (lambda: cs.slot_directions(8, offset=math.nan), ValueError, ["offset", "finite"]),
        (lambda: cs.resolve([[np.nan, 1.0]]), ValueError, ["interest", "finite", "nan", "(0, 0)"]),
        (lambda: cs.resolve(GOOD, GOOD * np.inf), ValueError, ["danger", "finite", "inf"]),
        (lambda: cs.resolve(np.ones((2, 3, 4))), ValueError, ["interest", "(n, slots)", "(2, 3, 4)"]),
        (lambda: cs.resolve(np.ones((2, 0))), ValueError, ["interest", "slot", "(2, 0)"]),
        (lambda: cs.resolve(GOOD, np.ones((2, 7))), ValueError, ["danger", "8 slots", "(2, 7)"]),
        (lambda: cs.resolve(GOOD, np.ones((3, 8))), ValueError, ["danger", "shape", "(3, 8)"]),
        (lambda: cs.resolve(GOOD, select="best"), ValueError, ["select", "'argmax'", "'best'"]),
        (lambda: cs.resolve(GOOD, danger_mode="xor"), ValueError, ["danger_mode", "'min_mask'", "'xor'"]),
        (lambda: cs.resolve(GOOD, danger_mode=3), TypeError, ["danger_mode", "str", "int"]),
        (lambda: cs.resolve(GOOD, margin=-0.1), ValueError, ["margin", ">= 0", "-0.1"]),
        (lambda: cs.resolve(GOOD, threshold=math.inf), ValueError, ["threshold", "finite"]),
        (lambda: cs.resolve("east"), TypeError, ["interest", "str"]),
        (lambda: cs.resolve(np.array(["a", "b"])), TypeError, ["interest", "dtype"]),
        (lambda: cs.resolve([[1, 2], [3]]), ValueError, ["interest", "rectangular"]),
        (lambda: cs.combine([]), ValueError, ["maps", "at least one"]),
        (lambda: cs.combine([GOOD, np.ones((2, 4))]), ValueError, ["maps[1]", "(2, 8)", "(2, 4)"]),
        (lambda: cs.combine([GOOD, GOOD], "median"), ValueError, ["rule", "'max'", "'median'"]),
        (lambda: cs.combine([GOOD, GOOD], weights=[1, 2, 3]), ValueError, ["weights", "(2,)", "(3,)"]),
        (lambda: cs.combine([GOOD, GOOD], "mean", weights=[1, -1]), ValueError, ["weights", "sum"]),
        (lambda: cs.combine(5), TypeError, ["maps", "int"]),
        (lambda: cs.blur(GOOD, -1), ValueError, ["width", ">= 0", "-1"]),
        (lambda: cs.smooth(GOOD, GOOD, factor=2), ValueError, ["factor", "<= 1", "2"]),
        (lambda: cs.smooth(GOOD, np.ones((2, 4))), ValueError, ["previous", "shape"]),
        (lambda: cs.resample(GOOD, 0), ValueError, ["slots", ">= 1"]),
        (lambda: cs.resample(GOOD, 8, method="cubic"), ValueError, ["method", "'linear'", "'cubic'"]),
        (lambda: cs.Chase([1.0, 2.0], max_distance=-1), ValueError, ["max_distance", "> 0", "-1"]),
        (lambda: cs.Chase([1.0, 2.0], falloff="cubic"), ValueError, ["falloff", "'smoothstep'", "'cubic'"]),
        (lambda: cs.Chase([1.0, 2.0], combine="avg"), ValueError, ["combine", "'sum'", "'avg'"]),
        (lambda: cs.Chase([[1.0, 2.0, 3.0]]), ValueError, ["targets", "(m, 2)", "(1, 3)"]),
        (lambda: cs.Chase([np.nan, 0.0]), ValueError, ["targets", "finite"]),
        (lambda: cs.Avoid([[0, 0, -1.0]]), ValueError, ["circles", "radii", ">= 0"]),
        (lambda: cs.Avoid(max_distance=0), ValueError, ["max_distance", "> 0"]),
        (lambda: cs.Avoid(world_obstacles="yes"), TypeError, ["world_obstacles", "bool"]),
        (lambda: cs.Pipeline([cs.Chase([1, 1])], slots=0), ValueError, ["slots", ">= 1"]),
        (lambda: cs.Pipeline(["chase"]), TypeError, ["behaviors[0]", "behaviour", "str"]),
        (lambda: cs.Pipeline([cs.Chase([1, 1])], interest_rule="x"), ValueError, ["interest_rule", "'x'"]),
        (lambda: cs.Pipeline([cs.Chase([1, 1])], smooth=1.5), ValueError, ["smooth", "<= 1"]),
        (lambda: cs.Pipeline([cs.Chase([1, 1])], blur_danger=-2), ValueError, ["blur_danger", ">= 0"]),
        (lambda: cs.Pipeline([cs.Chase([1, 1], weight=0)], interest_rule="mean"), ValueError, ["mean", "weights"]),
        (lambda: cs.World("pipeline"), TypeError, ["steering", "Pipeline", "str"]),
        (lambda: cs.classic.Steering([cs.Chase()]), TypeError, ["behaviors[0]", "classic behaviour", "Chase"]),
        (lambda: cs.World(PIPELINE).add_agents([[0.0, 0.0]], steering=3), IndexError,
         ["steering", "from 0 to 0", "got 3"]),
        (lambda: cs.World(PIPELINE, [[0.0, 0.0]]).remove_agents([[0, 0]]), ValueError, ["ids", "1-D", "(1, 2)"]),
        # Values beyond the core's bound of 1e9, reported as given (not as float32's inf).
        (lambda: cs.World(PIPELINE, [[1e10, 0.0]]), ValueError, ["positions", "-1e9 to 1e9", "1e+10", "(0, 0)"]),
        (lambda: cs.Chase([1.0, 1.0], weight=1e300), ValueError, ["weight", "-1e9 to 1e9", "1e+300"]),
        (lambda: cs.Chase([1.0, 1.0], max_distance=1e300), ValueError, ["max_distance", "or +-inf", "1e+300"]),
        # Bounds hold for the float32 the core sees, too.
        (lambda: cs.Chase([1.0, 1.0], sideways=0.99999999999), ValueError, ["sideways", "< 1.0", "float32"]),
        (lambda: cs.Avoid(max_distance=1e-300), ValueError, ["max_distance", "> 0", "0 in float32"]),
        (lambda: cs.World(PIPELINE, polygons=np.ones((3, 2))), ValueError, ["polygons", "(m, k, 2)", "(3, 2)"]),
        (lambda: cs.World(PIPELINE, polygons=[[[0, 0], [1, 0]]]), ValueError, ["polygons[0]", "3 vertices"]),
        (lambda: cs.scenarios.bottleneck(room=2000), ValueError, ["room", "<= 1000.0", "2000"]),
        (lambda: cs.scenarios.circle(seed=1.5), TypeError, ["seed", "integer", "float"]),
    ],
)
def test_bad_input_is_named(call, error, words):
    with pytest.raises(error) as info:
        call()
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"


PIPELINE = cs.Pipeline([cs.Chase([5.0, 0.0]), cs.Avoid()])


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"positions": np.ones((3, 3))}, ValueError, ["positions", "(m, 2)", "(3, 3)"]),
        ({"positions": [[0, 0]], "velocities": [[0, 0], [1, 1]]}, ValueError, ["velocities", "(1, 2)", "(2, 2)"]),
        ({"positions": [[0, 0]], "max_speed": -1}, ValueError, ["max_speed", "values from 0 to 1e9", "got -1"]),
        ({"positions": [[0, 0]], "max_speed": [1, 2]}, ValueError, ["max_speed", "(1,)", "(2,)"]),
        ({"positions": [[0, 0]], "max_speed": math.inf}, ValueError, ["max_speed", "from 0 to 1e9, got inf"]),
        ({"positions": [[0, 0]], "max_acceleration": math.nan}, ValueError, ["max_acceleration", "or inf, got nan"]),
        ({"positions": [[0, 0]], "radius": -0.5}, ValueError, ["radius", "from 0 to 1e9, got -0.5"]),
        ({"positions": [[math.inf, 0]]}, ValueError, ["positions", "finite"]),
        ({"circles": [[0, 0]]}, ValueError, ["circles", "(m, 3)", "(1, 2)"]),
        # A misspelt agent parameter is named as World's, with or without positions.
        ({"positions": [[0, 0]], "max_sped": 2}, TypeError, ["World()", "max_sped", "max_speed"]),
        ({"maxspeed": 2, "radiuss": 1}, TypeError, ["World()", "maxspeed, radiuss", "sense_masks"]),
    ],
)
def test_bad_world_input_is_named(kwargs, error, words):
    with pytest.raises(error) as info:
        cs.World(PIPELINE, **kwargs)
    for word in words:
        assert word in str(info.value)


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


def test_explain_and_neighbors_refuse_bad_state_as_a_step_does():
    # explain once read an unknown target id written into the view past the end of the
    # id table (a crash), and neighbors failed on a NaN position with a vector's length error.
    world = cs.World(PIPELINE, [[0.0, 0.0], [1.0, 1.0]])
    world.target_ids[0] = 10**12
    with pytest.raises(IndexError, match="target_ids: .* got 1000000000000 for agent 0"):
        world.explain(0)
    world.target_ids[0] = -1
    world.positions[1, 0] = np.nan
    with pytest.raises(ValueError, match="positions: .* for agent 1"):
        world.neighbors([0.0, 0.0], 2.0)
    with pytest.raises(ValueError, match="positions: .* for agent 1"):
        world.explain(0)
    world.positions[1, 0] = 1.0
    assert world.neighbors([0.0, 0.0], 2.0).tolist() == [0, 1]
    # A classic agent's explanation reads the same state.
    classic_world = cs.World(cs.classic.Steering([cs.classic.Seek()]), [[0.0, 0.0], [1.0, 1.0]])
    classic_world.positions[1, 1] = np.inf
    with pytest.raises(ValueError, match="positions: .* for agent 1"):
        classic_world.explain(0)


@pytest.mark.parametrize("threads", [1, 2])
def test_bad_state_is_named_the_same_on_any_thread_count(threads):
    # The state is checked in ranges of agents on every thread; the message must still
    # name the first bad value in agent order, past the first range too.
    rng = np.random.default_rng(0)
    world = cs.World(PIPELINE, rng.uniform(-500, 500, (30000, 2)), threads=threads)
    world.velocities[25000] = [np.inf, 0.0]
    world.positions[17000, 1] = np.nan
    world.positions[29000, 0] = np.nan
    with pytest.raises(ValueError, match=r"^positions: .* for agent 17000$"):
        world.step(0.1)
    world.positions[[17000, 29000]] = 0.0
    with pytest.raises(ValueError, match=r"^velocities: .* for agent 25000$"):
        world.step(0.1)
    world.velocities[25000] = 0.0
    world.step(0.1)
    assert world.steps_taken == 1


def test_a_blur_wider_than_any_kernel_averages_the_map():
    # Widths of millions of slots are capped before they are converted to a kernel radius
    # (the conversion used to overflow an int and ask for a huge vector).
    maps = np.arange(8.0)
    assert cs.blur(maps, 1e9) == pytest.approx(np.full(8, maps.mean()), abs=1e-4)


def test_core_guards_direct_calls():
    """The raw module also refuses bad shapes instead of reading out of bounds."""
    from contextsteer import _core

    with pytest.raises(ValueError, match="danger"):
        _core.resolve(np.ones((2, 8), np.float32), np.ones((1, 8), np.float32), "subtract", 0.5, 0.0, "argmax", 0.0)
    with pytest.raises(ValueError, match="weights"):
        _core.combine(np.ones((2, 8), np.float32), "sum", np.ones(3, np.float32))
