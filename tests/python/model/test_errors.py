"""Bad input to the model's calls (maps, behaviours, pipelines, worlds, classic steering and
the scenes built on them) gets a Python exception that names the argument, what was
expected and what came."""

import math

import numpy as np
import pytest

import contextsteer as cs

GOOD = np.ones((2, 8))


PIPELINE = cs.Pipeline([cs.Chase([5.0, 0.0]), cs.Avoid()])


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
