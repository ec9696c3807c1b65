"""mypy in strict mode sees a user's script through the package's annotations: the map
functions take array-likes and return ``NDArray[np.float32]``, and a decision's arrays
are typed with their dtype."""

import mypy.api

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


def test_a_user_script_type_checks_in_strict_mode(tmp_path):
    script = tmp_path / "user_script.py"
    script.write_text(SCRIPT)
    out, err, status = mypy.api.run(["--strict", "--cache-dir", str(tmp_path / "mypy"), "--no-error-summary",
                                     str(script)])
    assert status == 0, out + err


def test_a_wrong_type_is_seen(tmp_path):
    # The check above can fail: a map is not a Decision.
    script = tmp_path / "user_script.py"
    script.write_text(SCRIPT + "assert_type(cs.blur(interest, 1.5), cs.Decision)\n")
    out, _, status = mypy.api.run(["--strict", "--cache-dir", str(tmp_path / "mypy"), "--no-error-summary",
                                   str(script)])
    assert status == 1 and "[assert-type]" in out and ":22:" in out, out
