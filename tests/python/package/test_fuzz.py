"""The fuzzer of the public API (fuzz_api.py), in a subprocess: a crash is a failure of
this test, with the fuzzer's output, and not the end of the run. Every target runs: the
arrays, the world and Python behaviours writing into it, moving obstacles, goals and
contact, scenarios and the crowd steering, scenario files, recordings and the command line. FUZZ_EXAMPLES sets the
examples per target (default 60, some seconds; tests/run.sh --full runs more through the
sanitized module, tests/sanitize_python.sh)."""

import os
import subprocess
import sys
from pathlib import Path


def test_the_public_api_raises_only_documented_exceptions_and_survives():
    examples = os.environ.get("FUZZ_EXAMPLES", "60")
    fuzzer = Path(__file__).resolve().parents[1] / "fuzz_api.py"
    done = subprocess.run([sys.executable, str(fuzzer), examples], capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, f"the fuzzer ended with {done.returncode}:\n{done.stdout}\n{done.stderr[-6000:]}"
    for target in ("python_behaviour_writing_its_world", "moving_obstacles", "goals_and_contact", "scenario_fields",
                   "crowd_steering", "scenario_files", "damaged_recordings", "command_line"):
        assert f"{target}: {examples} examples" in done.stdout, done.stdout
    # Scenarios, the crowd steering and scenario files: some 290 calls an example (100,000
    # and more in the full run's 400 examples).
    scene_calls = [int(line.split()[-4]) for line in done.stdout.splitlines()
                   if line.startswith(("goals_and_contact:", "scenario_files:"))]
    assert scene_calls[1] - scene_calls[0] >= 250 * int(examples), done.stdout
