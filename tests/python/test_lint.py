"""The Python sources pass ruff with the project's settings (pyproject.toml: [tool.ruff])."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ruff_finds_nothing():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--output-format", "concise",
                             "python", "tests", "benchmarks"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_would_find_a_line_too_long(tmp_path):
    # The check can fail: the same settings flag a line past 120 characters.
    source = tmp_path / "long.py"
    source.write_text("x = " + "1 + " * 40 + "1\n")
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--config", str(ROOT / "pyproject.toml"),
                             "--output-format", "concise", str(source)], capture_output=True, text=True)
    assert result.returncode == 1 and "E501" in result.stdout
