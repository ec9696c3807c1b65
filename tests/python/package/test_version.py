"""One version: CMakeLists.txt's project VERSION, which the build writes into the
package's metadata and contextsteer.__version__ reads from there."""

import re
from pathlib import Path

import contextsteer

ROOT = Path(__file__).resolve().parents[3]


def test_the_version_is_cmakes():
    cmake = re.search(r"project\(contextsteer VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text())
    assert cmake, "CMakeLists.txt names no project VERSION"
    assert contextsteer.__version__ == cmake[1]
