"""Recording.save / to_parquet and Recording.load: every field back, the scene (a Scenario:
geometry, starts, targets, groups, radii) with it, from npz and Parquet alike, run again
from the file; files of before (the scene as a dict of arrays) and a table written by
pandas alone."""

import dataclasses

import numpy as np
import pandas as pd
import pytest

import contextsteer as cs


def _world():
    world = cs.World(cs.Pipeline([cs.Seek(), cs.Avoid(agents=True)]), [[0.0, 0.0], [0.0, 1.5], [0.5, -1.5]],
                     targets=[[6.0, 0.0], [6.0, 1.5], [6.0, -1.5]], circles=[[3.0, 0.2, 0.6]],
                     segments=[[-1.0, -3.0, 8.0, -3.0]], polygons=[[[3.0, 2.0], [4.0, 2.0], [3.5, 2.8]]],
                     radius=[0.3, 0.35, 0.4], groups=[0, 1, 1])
    world.bounds = (-2.0, -4.0, 9.0, 4.0)
    world.add_moving_circles([[0.0, 3.5, 0.3]], [[1.0, 0.0]])
    return world


def _assert_same(loaded, recording, names):
    assert loaded.recorded == names and loaded.complete == recording.complete
    assert loaded.includes_start == recording.includes_start
    assert np.array_equal(loaded.time, recording.time) and np.array_equal(loaded.ids, recording.ids)
    for name in names:
        assert getattr(loaded, name).dtype == getattr(recording, name).dtype, name
        assert np.array_equal(getattr(loaded, name), getattr(recording, name), equal_nan=True), name
    for name in cs.Recording.__dataclass_fields__["event_arrays"].default_factory():
        assert np.array_equal(loaded.event_arrays[name], recording.event_arrays[name]), name
    assert np.array_equal(loaded.moving_positions, recording.moving_positions)
    assert loaded.moving_kinds == recording.moving_kinds
    assert isinstance(loaded.scene, cs.Scenario) and loaded.scene == recording.scene
    np.testing.assert_array_equal(loaded.scene.agent_parameters["radius"], recording.scene.agent_parameters["radius"])
    assert (loaded.scene.run is None) == (recording.scene.run is None)


@pytest.mark.parametrize("suffix", [".npz", ".parquet"])
def test_a_recording_comes_back_from_its_file_with_its_scene(tmp_path, suffix):
    world = _world()
    recording = world.run(40, 0.05)
    scene = recording.scene
    assert isinstance(scene, cs.Scenario) and scene.groups.tolist() == [0, 1, 1]
    assert np.allclose(scene.circles, [[3.0, 0.2, 0.6]]) and len(scene.polygons) == 1
    assert scene.bounds == (-2.0, -4.0, 9.0, 4.0)
    np.testing.assert_array_equal(scene.starts, [[0.0, 0.0], [0.0, 1.5], [0.5, -1.5]])
    np.testing.assert_allclose(scene.agent_parameters["radius"], [0.3, 0.35, 0.4])
    recording.scene = dataclasses.replace(scene, name="three", run=cs.RunSettings(dt=0.05, steps=40))
    path = tmp_path / f"run{suffix}"
    (recording.save if suffix == ".npz" else recording.to_parquet)(path)
    loaded = cs.Recording.load(path)
    _assert_same(loaded, recording, recording.recorded)
    assert loaded.scene.name == "three" and loaded.scene.run.dt == 0.05


@pytest.mark.parametrize("suffix", [".npz", ".parquet"])
def test_a_loaded_scene_runs_again_to_the_same_bits(tmp_path, suffix):
    pipeline = cs.Pipeline([cs.Seek(), cs.Avoid(agents=True)])
    world = _world()
    recording = world.run(40, 0.05)
    path = tmp_path / f"run{suffix}"
    (recording.save if suffix == ".npz" else recording.to_parquet)(path)
    scene = cs.Recording.load(path).scene
    again = scene.world(pipeline, **scene.agent_parameters)  # the agents' radii
    again.add_moving_circles([[0.0, 3.5, 0.3]], [[1.0, 0.0]])  # moving bodies are not part of a recorded scene
    assert again.bounds == world.bounds
    np.testing.assert_array_equal(again.run(40, 0.05).positions, recording.positions)


def test_a_crowd_run_from_its_file_runs_again(tmp_path):
    scene = cs.scenarios.builtin("bottleneck")
    crowd = cs.crowd_steering(scene, radius=0.3)
    recording = crowd.world(max_speed=1.3).run(30, 0.05)
    recording.save(tmp_path / "run.npz")
    loaded = cs.Recording.load(tmp_path / "run.npz").scene
    # The world's starts, in the float32 it holds them in.
    assert loaded.bounds == scene.bounds and np.array_equal(loaded.starts, scene.starts.astype(np.float32))
    again = loaded.world(crowd.pipeline, radius=0.3, max_speed=1.3, **crowd.world_parameters)
    np.testing.assert_array_equal(again.run(30, 0.05).positions, recording.positions)


def test_a_file_of_before_with_its_scene_as_arrays_loads_to_a_scenario(tmp_path):
    recording = _world().run(10, 0.05)
    path = tmp_path / "old.npz"
    recording.save(path)
    with np.load(path) as archive:
        arrays = {name: archive[name] for name in archive.files}
    for name in ("scene_starts", "scene_name", "scene_bounds"):  # before: no starts; bounds only when set
        arrays.pop(name, None)
    np.savez_compressed(path, **arrays)
    loaded = cs.Recording.load(path).scene
    assert isinstance(loaded, cs.Scenario) and loaded.name == "recorded"
    np.testing.assert_array_equal(loaded.starts, recording.positions[0])  # the first recorded row
    # Without bounds: the box round the obstacles (the wall's ends, the polygon's top at
    # y = 2.8), the starts and the targets, a metre wider.
    assert loaded.bounds == pytest.approx((-2.0, -4.0, 9.0, 3.8))
    assert cs.Recording(recording.time, recording.ids, scene={}).scene is None


def test_parquet_keeps_every_column_but_the_maps(tmp_path):
    recording = _world().run(20, 0.05, record="all")
    path = tmp_path / "run.parquet"
    recording.to_parquet(path)
    loaded = cs.Recording.load(path)
    kept = tuple(name for name in recording.recorded if name not in ("interest", "danger", "final"))
    _assert_same(loaded, recording, kept)
    assert loaded.interest is None


def test_a_table_written_by_pandas_alone_is_read(tmp_path):
    recording = _world().run(10, 0.05)
    path = tmp_path / "plain.parquet"
    table = recording.to_dataframe()
    table.insert(3, "group", np.tile(recording.scene.groups, recording.steps))
    table.to_parquet(path, index=False)
    loaded = cs.Recording.load(path)
    assert np.array_equal(loaded.positions, recording.positions) and np.array_equal(loaded.ids, recording.ids)
    assert np.array_equal(loaded.time, recording.time) and loaded.scene is None  # no targets: no scene
    pd.DataFrame({"a": [1]}).to_parquet(tmp_path / "other.parquet")
    with pytest.raises(ValueError, match="step, time and id"):
        cs.Recording.load(tmp_path / "other.parquet")


def test_a_truncated_or_joined_recording_keeps_its_scene():
    world = _world()
    first = world.run(5, 0.05)
    joined = cs.Recording.joined([first, world.run(5, 0.05, include_start=False)])
    assert joined.scene is first.scene and first.truncated(3).scene is first.scene
