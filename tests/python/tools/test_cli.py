"""``contextsteer run``: each demo scene's file to a metrics table, a playable MP4 and a
Parquet file; GIF and npz; bad arguments; Ctrl-C. Recording.to_parquet and to_pedpy."""

import os
import re
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import imageio_ffmpeg  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import contextsteer as cs  # noqa: E402
from contextsteer.__main__ import main  # noqa: E402
from contextsteer.model import recording as recording_module  # noqa: E402

STEPS = 4


def _decoded(video):
    """Width, height and ``(frames, height, width, 3)`` RGB of a video, decoded by the ffmpeg
    of imageio-ffmpeg (its read_frames leaves pipes open once ffmpeg has exited)."""
    done = subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-i", str(video), "-f", "rawvideo", "-pix_fmt", "rgb24",
                           "-"], capture_output=True, check=True)
    width, height = map(int, re.search(rb"Video: .*?, (\d+)x(\d+)", done.stderr).groups())
    return width, height, np.frombuffer(done.stdout, np.uint8).reshape(-1, height, width, 3)


@pytest.mark.parametrize("scene", cs.scenario_file.builtin_names())
def test_run_writes_a_playable_video_and_a_parquet_file(scene, tmp_path, capsys):
    video, table = tmp_path / "run.mp4", tmp_path / "run.parquet"
    assert main(["run", scene, "--steps", str(STEPS), "--video", str(video), "--record", str(table), "--quiet"]) == 0
    out = capsys.readouterr().out
    dt = cs.scenarios.builtin(scene).run.dt
    assert f"{scene}: {STEPS} steps of {dt:g} s" in out and "arrived" in out and "deepest_overlap" in out
    width, height, frames = _decoded(video)
    assert len(frames) == STEPS and width == 1280 and height % 16 == 0 and height >= 300
    assert frames.std() > 10  # a picture, not a blank
    # the same run, in Python: the same table
    expected = cs.scenarios.builtin(scene).world().run(STEPS, dt)
    written = pd.read_parquet(table)
    assert (written["group"].to_numpy() == np.tile(expected.scene.groups, STEPS + 1)).all()
    pd.testing.assert_frame_equal(written.drop(columns="group"), expected.to_dataframe())
    # the file alone: the recording, the scene's geometry and name
    loaded = cs.Recording.load(table)
    assert np.array_equal(loaded.positions, expected.positions) and loaded.scene.name == scene
    assert np.array_equal(loaded.scene.circles, expected.scene.circles) and loaded.scene.run.dt == dt
    assert loaded.scene.bounds == pytest.approx(cs.scenarios.builtin(scene).bounds)  # its walls, as float32


def test_run_writes_a_gif_and_an_npz_of_a_file(tmp_path, capsys):
    scene = tmp_path / "scene.toml"
    cs.scenarios.builtin("circle").save(scene)
    gif, archive = tmp_path / "run.gif", tmp_path / "run.npz"
    assert main(["run", str(scene), "--duration", "0.5", "--video", str(gif), "--record", str(archive),
                 "--speed", "1", "--fps", "10", "--watch", "3", "--quiet"]) == 0
    from PIL import Image

    with Image.open(gif) as image:
        assert image.n_frames == 5  # 10 steps of 0.05 s, a frame every 2 steps (10 frames a simulated second)
    recording = cs.Recording.load(archive)
    assert recording.steps_run == 10 and recording.steps == 11 and recording.complete  # the start, 10 steps


def test_run_of_a_moving_scene_draws_and_records_its_bodies(tmp_path, capsys):
    gif, archive = tmp_path / "run.gif", tmp_path / "run.npz"
    assert main(["run", "moving_crossing", "--steps", "40", "--video", str(gif), "--record", str(archive),
                 "--speed", "2", "--fps", "5", "--quiet"]) == 0
    assert "moving_crossing: 40 steps of 0.1 s" in capsys.readouterr().out
    recording = cs.Recording.load(archive)
    assert recording.moving_kinds == ("circle",) and recording.moving_positions.shape == (41, 1, 2)
    assert recording.moving_positions[-1, 0, 1] == pytest.approx(-12.0 + 40 * 0.1 * 0.8, abs=1e-3)
    from PIL import Image

    with Image.open(gif) as image:
        frames = []
        for k in (0, image.n_frames - 1):
            image.seek(k)
            frames.append(np.asarray(image.convert("RGB"), dtype=np.int16))
    orange = [(np.abs(f - [255, 153, 62]).sum(axis=2) < 40) for f in frames]  # the disc: tab:orange at alpha 0.8
    rows = [np.flatnonzero(o.any(axis=1)).mean() for o in orange]
    assert min(o.sum() for o in orange) > 20 and rows[1] < rows[0] - 5  # drawn, and higher up the picture later


@pytest.mark.parametrize(("arguments", "words"), [
    (["--video", "run.avi"], "--video: expected a file ending in .mp4 or .gif"),
    (["--record", "run.csv"], "--record: expected a file ending in .parquet or .npz"),
    (["--steps", "0"], "--steps: expected an integer from 1 to 2147483647, got 0"),
    (["--duration", "-1"], "--duration: expected a finite number above 0, got -1.0"),
    (["--watch", "99"], "--watch: expected an agent row from 0 to 15"),
    # The reproducers of #53: each one line, before anything runs.
    (["--duration", "1e30"], "--duration: expected at most 2147483647 steps of 0.05 s, got 1e+30 s"),
    (["--steps", "1180591620717411303424"], "--steps: expected an integer from 1 to 2147483647"),
    (["--steps", "3000000000"], "--steps: expected an integer from 1 to 2147483647, got 3000000000"),
    (["--steps", "1180591620717411303424", "--video", "x.gif"], "--steps: expected an integer from 1"),
    (["--video", "/nonexistent/d/v.mp4"], "--video: cannot write /nonexistent/d/v.mp4: No such file or directory"),
    (["--record", "/nonexistent/r.npz"], "--record: cannot write /nonexistent/r.npz: No such file or directory"),
    (["--record", "/nonexistent/r.parquet"], "--record: cannot write /nonexistent/r.parquet"),
    (["--record", "."], "--record: expected a file ending in .parquet or .npz"),
    (["--video", "q.gif", "--fps", "0"], "--fps: expected a finite number from 0.01 to 1000, got 0.0"),
    (["--video", "q.gif", "--fps", "nan"], "--fps: expected a finite number from 0.01 to 1000, got nan"),
    (["--video", "q.gif", "--fps", "-5"], "--fps: expected a finite number from 0.01 to 1000, got -5.0"),
    (["--video", "q.gif", "--fps", "1e-300"], "--fps: expected a finite number from 0.01 to 1000"),
    (["--video", "q.gif", "--speed", "inf"], "--speed: expected a finite number above 0, got inf"),
    (["--video", "q.gif", "--speed", "0"], "--speed: expected a finite number above 0, got 0.0"),
    (["--video", "q.gif", "--speed", "-1"], "--speed: expected a finite number above 0, got -1.0"),
    (["--threads", "0"], "--threads: expected an integer from 1 to 1024, got 0"),
    (["--watch", "-1"], "--watch: expected an integer from 0"),
    (["--steps", "x"], "argument --steps: invalid int value: 'x'"),
])
def test_run_refuses_bad_arguments_in_one_line(arguments, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        code = main(["run", "circle", *arguments])
    except SystemExit as exit_:  # argparse's own
        code = exit_.code
    assert code == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and err.startswith("contextsteer run: error: ")
    assert list(tmp_path.iterdir()) == []  # nothing written, not even the path tried


def test_a_run_too_long_for_memory_is_refused_before_it_starts(capsys, monkeypatch):
    monkeypatch.setattr(recording_module, "available_bytes", lambda: 10**9)  # 1 GB free
    assert main(["run", "circle", "--steps", "2000000000", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("contextsteer run: error: --steps: a run of 2000000000 steps of 16 "
                                                    "agents would need ")
    assert "GB, more than the 1 GB this machine has available; run fewer steps" in err


@pytest.mark.parametrize(("scene", "words"), [
    ("nosuch", "nosuch: no such file, nor a built-in scene (one of corridor, "),
    ("deep", "deep.toml: "),  # nested past the TOML parser's recursion, or past 16 levels
    ("binary", "binary.toml: not UTF-8 text"),
    ("folder", "cannot read it: Is a directory"),
])
def test_run_refuses_a_scene_it_cannot_read_in_one_line(scene, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deep.toml").write_text("format = 1\nx = " + "[" * 500 + "]" * 500)
    (tmp_path / "binary.toml").write_bytes(b"\x89PNG\r\n")
    (tmp_path / "folder").mkdir()
    path = {"deep": "deep.toml", "binary": "binary.toml"}.get(scene, scene)
    assert main(["run", path]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and ("nested" in err or scene != "deep")


def test_live_refuses_bad_arguments_in_one_line(capsys, tmp_path):
    scene = tmp_path / "scene.toml"
    cs.scenarios.builtin("circle").save(scene)
    for arguments, words in ((["--every", "0"], "--every: expected an integer from 1 to 10000, got 0"),
                             (["--every", "99999999999"], "--every: expected an integer from 1 to 10000"),):
        assert main(["live", str(scene), *arguments]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1
    assert main(["live", str(tmp_path / "missing.toml")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"contextsteer live: error: {tmp_path / 'missing.toml'}: no such file, nor a built-in scene")
    assert err.count("\n") == 1


def test_live_opens_a_built_in_scene_by_name_as_run_does(monkeypatch):
    from contextsteer.tools import live

    opened = []
    monkeypatch.setattr(live, "has_display", lambda: True)
    monkeypatch.setattr(live, "show", lambda run: opened.append(run.path))
    assert main(["live", "bottleneck"]) == 0
    assert opened == [cs.scenario_file.builtin_path("bottleneck").resolve()]


def test_live_with_a_display_but_without_watchfiles_fails_at_once_with_one_line(capsys, monkeypatch):
    from contextsteer.tools import cli, live

    monkeypatch.setattr(cli.importlib, "import_module", refusing("watchfiles", cli.importlib.import_module))
    monkeypatch.setattr(live, "has_display", lambda: True)
    monkeypatch.setattr(live, "LiveRun", lambda *a, **k: pytest.fail("the run started"))
    assert main(["live", "bottleneck"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "watchfiles" in err[0] and 'pip install ".[cli]"' in err[0], err


def test_run_names_the_key_of_a_bad_file(tmp_path, capsys):
    scene = tmp_path / "scene.toml"
    scene.write_text(cs.scenario_file.builtin_path("circle").read_text().replace("max_distance", "max_dist"))
    assert main(["run", str(scene)]) == 2
    assert f"{scene}: pipeline.behaviors[1].max_dist: Avoid has no parameter" in capsys.readouterr().err


def test_ctrl_c_writes_what_finished(tmp_path, capsys, monkeypatch):
    calls = []
    run = cs.World.run

    def interrupted(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return run(self, *args, **kwargs)

    monkeypatch.setattr(cs.World, "run", interrupted)
    table = tmp_path / "run.parquet"
    # 200 steps, run 2 at a time (1% of the run): two calls finish before Ctrl-C
    assert main(["run", "circle", "--steps", "200", "--record", str(table), "--quiet"]) == 130
    captured = capsys.readouterr()
    assert "interrupted: 4 of 200 steps ran" in captured.err and "arrived" in captured.out
    assert pd.read_parquet(table)["step"].max() == 4  # the start, then 4 steps


def _recording():
    world = cs.scenarios.builtin("crossing").world()
    return world.run(12, 0.05)


def test_to_parquet_reads_back_as_to_dataframe(tmp_path):
    recording = _recording()
    recording.to_parquet(tmp_path / "r.parquet")
    table = pd.read_parquet(tmp_path / "r.parquet")
    assert (table.pop("group") == np.tile(recording.scene.groups, recording.steps)).all()
    pd.testing.assert_frame_equal(table, recording.to_dataframe())


def test_to_pedpy_gives_trajectory_data_at_the_step_rate():
    recording = _recording()
    if sys.version_info < (3, 10):  # PedPy needs Python 3.10
        with pytest.raises(ImportError, match="to_pedpy needs PedPy"):
            recording.to_pedpy()
        return
    import pedpy

    data = recording.to_pedpy()
    assert isinstance(data, pedpy.TrajectoryData) and data.frame_rate == 20.0
    assert len(data.data) == 13 * 40 and set(data.data["frame"]) == set(range(13))  # the start, 12 steps
    row = data.data[(data.data["id"] == 5) & (data.data["frame"] == 7)].iloc[0]
    assert (row["x"], row["y"]) == tuple(recording.positions[7, 5].astype(np.float64))
    speeds = pedpy.compute_individual_speed(traj_data=data, frame_step=2)
    assert (speeds["speed"] >= 0).all() and (speeds["speed"] <= 1.5 + 1e-6).all()
    assert recording.to_pedpy(frame_rate=10.0).frame_rate == 10.0
    with pytest.raises(ValueError, match="frame_rate: expected a number > 0"):
        recording.to_pedpy(frame_rate=0.0)


@pytest.mark.parametrize(("option", "name", "module"), [("--record", "run.parquet", "pyarrow"),
                                                         ("--video", "run.mp4", "imageio_ffmpeg")])
def test_a_missing_optional_package_fails_at_once_with_one_line(option, name, module, tmp_path, capsys,
                                                                 monkeypatch):
    from contextsteer.tools import cli

    monkeypatch.setattr(cli.importlib, "import_module", refusing(module, cli.importlib.import_module))
    ran = []
    monkeypatch.setattr(cli, "_run", lambda *a: ran.append(a))
    assert main(["run", "circle", option, str(tmp_path / name), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and 'pip install ".[cli]"' in err[0] and option in err[0], err
    assert not ran and not (tmp_path / name).exists()


def refusing(refused: str, import_module):
    """``import_module`` as if ``refused`` were not installed."""
    def imported(name, *args):
        if name == refused:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return import_module(name, *args)
    return imported


# A package that raises as it is imported: the module of a broken install (a NumPy ABI
# mismatch raises ImportError, or another error, from within the package).
BROKEN = {"ImportError": 'raise ImportError("numpy.core.multiarray failed to import")\n',
          "RuntimeError": 'raise RuntimeError("module compiled against ABI version 0x1000009 but this version of '
                          'numpy is 0x2000000")\n',
          "AttributeError": 'import numpy\nnumpy.no_such_name\n'}


@pytest.mark.parametrize("error", sorted(BROKEN))
def test_a_broken_pyarrow_fails_a_parquet_run_before_it_starts_with_one_line(error, tmp_path):
    fake = tmp_path / "fake" / "pyarrow"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(BROKEN[error])
    out = tmp_path / "run.parquet"
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(fake.parent), os.environ.get("PYTHONPATH", "")])}
    # The scene's whole run (200 agents, 1,200 steps) would take minutes: the command ends first.
    done = subprocess.run([sys.executable, "-m", "contextsteer", "run", "two_way_door", "--record", str(out)],
                          capture_output=True, text=True, env=environment, timeout=120)
    err = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(err) == 1 and err[0].startswith(f"contextsteer run: error: --record {out}: needs pyarrow, which cannot "
                                               f"be imported ({error}"), err
    assert 'install the cli extra (pip install ".[cli]"' in err[0]
    assert not out.exists() and done.stdout == ""


def test_run_prints_each_measure_with_its_unit(capsys):
    assert main(["run", "circle", "--steps", "4", "--quiet"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[1:]}
    assert lines["arrived"].endswith("% of agents") and lines["duration"].endswith(" s")
    assert lines["wall_penetrations"].endswith("agents") and lines["deepest_overlap"].endswith(" m")
    assert lines["stalled_ever"].split()[1:] == ["n/a"]   # no 3 s window in 0.2 s


def test_run_help_lists_the_built_in_scenes(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert all(name in out for name in cs.scenario_file.builtin_names())
