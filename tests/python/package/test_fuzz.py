"""The fuzzer of the public API (fuzz_api.py), in a subprocess: a crash is a failure of
this test, with the fuzzer's output, and not the end of the run. FUZZ_EXAMPLES sets the
examples per target (default 60, a few seconds; tests/sanitize_python.sh takes it from
the environment for a long run under the sanitizers)."""

import os
import subprocess
import sys
from pathlib import Path


def test_the_public_api_raises_only_documented_exceptions_and_survives():
    examples = os.environ.get("FUZZ_EXAMPLES", "60")
    fuzzer = Path(__file__).resolve().parents[1] / "fuzz_api.py"
    done = subprocess.run([sys.executable, str(fuzzer), examples], capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, f"the fuzzer ended with {done.returncode}:\n{done.stdout}\n{done.stderr[-6000:]}"
    assert "python_behaviour_writing_its_world" in done.stdout
