"""The README's Python examples run, in order, as a reader would paste them."""

import re
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")

README = Path(__file__).resolve().parents[2] / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_the_readme_examples_run(tmp_path, monkeypatch):
    blocks = python_blocks()
    assert len(blocks) >= 5
    monkeypatch.chdir(tmp_path)  # the examples write files (run.npz)
    # The names the examples leave to the reader: start points, goals, one agent's id.
    rng = np.random.default_rng(0)
    namespace = {"starts": rng.uniform(0, 30, (20, 2)), "goals": rng.uniform(0, 30, (20, 2)),
                 "more_starts": rng.uniform(0, 30, (5, 2)), "agent_id": 0}
    for number, block in enumerate(blocks, 1):
        try:
            exec(compile(block, f"README.md python block {number}", "exec"), namespace)
        except Exception as error:
            error.add_note(f"in README.md python block {number}:\n{block}")
            raise
    # What the last examples leave behind: a recording on disk, a table with a row per run.
    assert (tmp_path / "run.npz").exists()
    assert len(namespace["table"]) == 15
