"""Recording.save / to_parquet and Recording.load: every field back, the scene (geometry,
targets, groups, radii) with it, from npz and Parquet alike; a table written by pandas alone."""

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
    assert loaded.scene.keys() == recording.scene.keys()
    for key, value in recording.scene.items():
        if key == "polygons":
            assert len(loaded.scene[key]) == len(value)
            assert all(np.array_equal(a, b) for a, b in zip(loaded.scene[key], value))
        else:
            assert np.array_equal(loaded.scene[key], value), key


@pytest.mark.parametrize("suffix", [".npz", ".parquet"])
def test_a_recording_comes_back_from_its_file_with_its_scene(tmp_path, suffix):
    world = _world()
    recording = world.run(40, 0.05)
    assert recording.scene["groups"].tolist() == [0, 1, 1]
    assert np.allclose(recording.scene["circles"], [[3.0, 0.2, 0.6]]) and len(recording.scene["polygons"]) == 1
    assert recording.scene["bounds"].tolist() == [-2.0, -4.0, 9.0, 4.0]
    recording.scene.update(name="three", dt=0.05)
    path = tmp_path / f"run{suffix}"
    (recording.save if suffix == ".npz" else recording.to_parquet)(path)
    loaded = cs.Recording.load(path)
    _assert_same(loaded, recording, recording.recorded)
    assert loaded.scene["name"] == "three" and loaded.scene["dt"] == 0.05


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
    table.insert(3, "group", np.tile(recording.scene["groups"], recording.steps))
    table.to_parquet(path, index=False)
    loaded = cs.Recording.load(path)
    assert np.array_equal(loaded.positions, recording.positions) and np.array_equal(loaded.ids, recording.ids)
    assert np.array_equal(loaded.time, recording.time) and loaded.scene["groups"].tolist() == [0, 1, 1]
    pd.DataFrame({"a": [1]}).to_parquet(tmp_path / "other.parquet")
    with pytest.raises(ValueError, match="step, time and id"):
        cs.Recording.load(tmp_path / "other.parquet")


def test_a_truncated_or_joined_recording_keeps_its_scene():
    world = _world()
    first = world.run(5, 0.05)
    joined = cs.Recording.joined([first, world.run(5, 0.05, include_start=False)])
    assert joined.scene is first.scene and first.truncated(3).scene is first.scene
