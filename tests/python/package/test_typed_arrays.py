"""mypy in strict mode sees a user's script through the package's annotations: the map
functions take array-likes and return ``NDArray[np.float32]``, a decision's arrays and a
world's per-agent arrays are typed with their dtype, and a sweep's and a search's tables
are pandas DataFrames."""

import re

import mypy.api
import pytest


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory):
    """One cache for the module's runs: NumPy's and pandas' stubs are read once."""
    return str(tmp_path_factory.mktemp("mypy"))

SCRIPT = '''
import numpy as np
from numpy.typing import NDArray
from typing_extensions import assert_type

import contextsteer as cs

directions = cs.slot_directions(16, offset=0.1)
assert_type(directions, NDArray[np.float32])
interest = np.maximum(0.0, directions @ np.array([0.8, 0.6], dtype=np.float32))
danger = np.zeros_like(interest)
danger[:2] = 0.9
decision = cs.resolve(interest, danger, danger_mode="threshold", select="blend")
assert_type(decision, cs.Decision)
assert_type(decision.direction, NDArray[np.float32])
assert_type(decision.blocked, NDArray[np.bool_])
assert_type(cs.combine([interest, danger], "max"), NDArray[np.float32])
assert_type(cs.blur(interest, 1.5), NDArray[np.float32])
assert_type(cs.smooth(interest, danger, 0.25), NDArray[np.float32])
assert_type(cs.resample(danger, 32, "max"), NDArray[np.float32])
speed: float = float(decision.strength.max()) * 1.5
'''


def test_a_user_script_type_checks_in_strict_mode(tmp_path, mypy_cache):
    script = tmp_path / "user_script.py"
    script.write_text(SCRIPT)
    out, err, status = mypy.api.run(["--strict", "--cache-dir", mypy_cache, "--no-error-summary",
                                     str(script)])
    assert status == 0, out + err


def test_a_wrong_type_is_seen(tmp_path, mypy_cache):
    # The check above can fail: a map is not a Decision.
    script = tmp_path / "user_script.py"
    script.write_text(SCRIPT + "assert_type(cs.blur(interest, 1.5), cs.Decision)\n")
    out, _, status = mypy.api.run(["--strict", "--cache-dir", mypy_cache, "--no-error-summary",
                                   str(script)])
    assert status == 1 and "[assert-type]" in out and ":22:" in out, out


WORLD_SCRIPT = '''
import numpy as np
import pandas as pd
from numpy.typing import NDArray
from typing_extensions import assert_type

import contextsteer as cs


def make_world(max_distance: float = 3.0) -> cs.World:
    pipeline = cs.Pipeline([cs.Chase(), cs.Avoid(max_distance=max_distance, agents=True)], slots=16)
    return cs.World(pipeline, np.zeros((4, 2), np.float32), targets=np.ones((4, 2)), bounds=(-5, -5, 5, 5))


world = make_world()
world.step(1 / 60)
reveal_type(world.positions)
assert_type(world.positions, NDArray[np.float32])
assert_type(world.velocities, NDArray[np.float32])
assert_type(world.ids, NDArray[np.int64])
assert_type(world.layers, NDArray[np.uint32])
assert_type(world.blocked, NDArray[np.bool_])
assert_type(world.state, NDArray[np.int32])
assert_type(world.interest, NDArray[np.float32])
assert_type(world.circles, NDArray[np.float32])
assert_type(world.time, float)
assert_type(world.agent_count, int)
frame = cs.sweep(make_world, {"max_distance": [2.0, 3.0]}, steps=10)
assert_type(frame, pd.DataFrame)
result = cs.tune(make_world, {"max_distance": (1.0, 4.0)}, trials=2, steps=10)
assert_type(result.trials, pd.DataFrame)
mean_speed: float = float(np.linalg.norm(world.velocities, axis=1).mean())
'''


def test_a_world_script_sees_the_dtypes_of_the_arrays_and_the_tables(tmp_path, mypy_cache):
    script = tmp_path / "world_script.py"
    script.write_text(WORLD_SCRIPT)
    out, err, status = mypy.api.run(["--strict", "--cache-dir", mypy_cache, "--no-error-summary",
                                     str(script)])
    # reveal_type is a note, not an error: the script passes and mypy says what it sees
    assert status == 0, out + err
    revealed = re.search(r'Revealed type is "(.*)"', out)
    assert revealed, out
    assert re.fullmatch(r"numpy\.ndarray\[.*, numpy\.dtype\[numpy\.floating\[.*_32Bit\]\]\]", revealed[1]), revealed[1]


def test_a_wrong_dtype_is_seen(tmp_path, mypy_cache):
    script = tmp_path / "world_script.py"
    script.write_text(WORLD_SCRIPT + "assert_type(world.ids, NDArray[np.float32])\n")
    out, _, status = mypy.api.run(["--strict", "--cache-dir", mypy_cache, "--no-error-summary",
                                   str(script)])
    assert status == 1 and "[assert-type]" in out, out
