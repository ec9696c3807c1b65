"""The demo command, the corridor scenario and the plotting helpers."""

import subprocess
import sys

import matplotlib.pyplot as plt
import numpy as np
import pytest

import contextsteer as cs
from contextsteer.demo import run_corridor, summary
from contextsteer.plotting import plot_context_maps, plot_obstacles, plot_segments, plot_trajectories


def test_demo_command_writes_a_png_and_reports_arrivals(tmp_path):
    out = tmp_path / "corridor.png"
    result = subprocess.run([sys.executable, "-m", "contextsteer", "demo", "--out", str(out)],
                            capture_output=True, text=True, check=True)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "12 of 12 agents reached the target" in result.stdout
    assert "steps" in result.stdout


def test_demo_command_reports_bad_arguments():
    result = subprocess.run([sys.executable, "-m", "contextsteer", "demo", "--agents", "0"],
                            capture_output=True, text=True)
    assert result.returncode == 2
    assert "--agents" in result.stderr


def test_corridor_run_arrivals_are_consistent_with_trajectories():
    run = run_corridor(6, steps=800, seed=2)
    assert run.trajectories.shape[1:] == (6, 2)
    arrived = run.arrival_step >= 0
    assert arrived.all()
    for agent, step in enumerate(run.arrival_step):
        distances = np.linalg.norm(run.trajectories[:, agent] - run.scenario.target, axis=1)
        assert distances[step] <= 1.0 and (distances[:step] > 1.0).all()
    assert "6 of 6 agents reached the target" in summary(run)
    assert run.snapshot.danger.shape == (16,)


def test_corridor_run_checks_steps_and_watched_agent():
    with pytest.raises(ValueError, match="steps"):
        run_corridor(3, steps=0)
    with pytest.raises(IndexError, match="watch"):
        run_corridor(3, steps=5, watch=3)
    # One step is enough for a snapshot of the watched agent's maps.
    run = run_corridor(3, steps=1, watch=2)
    assert run.snapshot.agent == 2 and run.snapshot.step == 1


def test_plotting_returns_artists_on_the_given_axes():
    fig, ax = plt.subplots()
    patches = plot_obstacles([[0, 0, 1], [3, 0, 0.5]], ax)
    lines = plot_trajectories(np.zeros((5, 3, 2)), ax, mark_ends=False)
    assert len(patches) == 2 and all(p.axes is ax for p in patches)
    assert len(lines) == 3
    walls = plot_segments([[0, 0, 4, 0], [4, 0, 4, 3]], ax)
    assert walls.axes is ax
    np.testing.assert_array_equal(np.asarray(walls.get_segments()), [[[0, 0], [4, 0]], [[4, 0], [4, 3]]])
    polar = fig.add_subplot(122, projection="polar")
    artists = plot_context_maps({"interest": np.ones(8), "danger": np.zeros(8)}, polar, direction=[1.0, 0.0])
    assert len(artists) == 3 and artists[0].axes is polar
    plt.close(fig)


def test_plotting_refuses_wrong_inputs():
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="polar"):
        plot_context_maps({"interest": np.ones(8)}, ax)
    with pytest.raises(ValueError, match="trajectories"):
        plot_trajectories(np.zeros((5, 2)), ax)
    with pytest.raises(ValueError, match=r"segments: expected an array of shape \(m, 4\)"):
        plot_segments(np.zeros((3, 3)), ax)
    plt.close(fig)


def test_import_does_not_load_matplotlib():
    code = "import sys, contextsteer; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
    assert cs.__version__
