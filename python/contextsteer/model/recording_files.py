"""A :class:`~contextsteer.Recording`'s files: what a recording holds by name, the
``.npz`` archive and the Parquet table :meth:`Recording.save` and
:meth:`Recording.to_parquet` write, and :func:`read`, which :meth:`Recording.load` uses to
read either back, checked: a damaged or foreign file is a ValueError naming the file."""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

from .agent_columns import AGENT_COLUMNS
from .moving import KINDS

# Name -> (values per agent, dtype), for every recordable column (agent_columns.py);
# "slots" widths are the world's slot count.
FIELDS: dict[str, tuple[int | str, type[np.generic]]] = {
    c.record: (c.width, c.dtype.type) for c in AGENT_COLUMNS if c.record is not None}
MAPS = ("interest", "danger", "final")
# What an event holds (World.events, Recording.events): its arrays' names and types.
EVENT_FIELDS = {"step": np.int64, "time": np.float64, "agent": np.int64, "kind": np.str_, "other": np.int64,
                "depth": np.float64}
# The arrays a saved recording of a world with moving obstacles holds besides its columns.
_MOVING_ARRAYS = ("moving_positions", "moving_angles", "moving_kinds", "moving_vertex_counts", "moving_local_shapes")
# Defaults of the fields a recording saved before they existed lacks.
_EVENT_DEFAULTS = {"other": -1, "depth": 0.0}


def no_events() -> dict[str, np.ndarray]:
    """The events of a run in which nothing happened."""
    return {name: np.zeros(0, dtype) for name, dtype in EVENT_FIELDS.items()}


def read(path: str | os.PathLike) -> dict[str, Any]:
    """The arguments of the Recording saved in ``path`` (``.npz`` or ``.parquet``); see
    :meth:`Recording.load`."""
    try:
        if os.fspath(path).lower().endswith(".parquet"):
            archive = _parquet_arrays(path)
        else:
            with open(path, "rb") as file:
                archive = _read_archive(file)
    except (OSError, ImportError):  # cannot be read, or pyarrow is missing: as they are
        raise
    except Exception as error:  # noqa: BLE001 - what NumPy, zipfile, zlib or pyarrow raise for damaged bytes
        reason = str(error) if type(error) is ValueError else f"{type(error).__name__}: {error}"
        raise ValueError(f"path: {os.fspath(path)} is not a recording saved by Recording.save or "
                         f"to_parquet: cannot read it ({reason})") from None
    return _recording_arguments(archive, os.fspath(path))


def file_arrays(recording) -> dict[str, Any]:
    """The arrays a file holds besides the recorded ones: the time, the ids, the flags,
    the events, the moving obstacles and the scene."""
    arrays: dict[str, Any] = {"time": recording.time, "ids": recording.ids, "complete": np.bool_(recording.complete),
                              "includes_start": np.bool_(recording.includes_start)}
    arrays.update({f"event_{name}": values for name, values in recording.event_arrays.items()})
    if recording.moving_positions is not None:

        arrays.update(moving_positions=recording.moving_positions, moving_angles=recording.moving_angles,
                      moving_kinds=np.array([KINDS.index(k) for k in recording.moving_kinds], dtype=np.int32),
                      moving_vertex_counts=np.array([len(s) for s in recording.moving_local_shapes], dtype=np.int64),
                      moving_local_shapes=np.concatenate(recording.moving_local_shapes))
    arrays.update(scene_arrays(recording.scene))
    return arrays


def _read_archive(file) -> dict[str, np.ndarray]:
    """Every array of the ``.npz`` archive open in ``file``, read whole (no pickles)."""
    if file.read(4) != b"PK\x03\x04":
        raise ValueError("it does not start as a zip archive does")
    file.seek(0)
    with np.load(file, allow_pickle=False) as archive:
        return {name: archive[name] for name in archive.files}


def _recording_arguments(archive: dict[str, np.ndarray], path: str) -> dict[str, Any]:
    """Recording's arguments from the arrays :meth:`Recording.save` wrote, checked: a
    ValueError naming the file and the array for anything else."""
    def wrong(what: str) -> ValueError:
        return ValueError(f"path: expected a recording saved by Recording.save, but {path} {what}")

    names = set(archive)
    event_names = {f"event_{name}" for name in EVENT_FIELDS}
    missing = {"time", "ids", "complete"} - names
    unknown = (names - {"time", "ids", "complete", "includes_start"} - set(FIELDS) - event_names
               - set(_MOVING_ARRAYS) - {name for name in names if name.startswith("scene_")})
    if missing or unknown:
        raise wrong(f"lacks {sorted(missing)} and holds unknown arrays {sorted(unknown)}")

    def take(name: str, kind: str, shape: tuple) -> np.ndarray:
        """archive[name], of a dtype of ``kind`` and ``shape`` (None: any length)."""
        a = archive[name]
        if a.dtype.kind not in kind or a.ndim != len(shape) or any(
                want is not None and got != want for got, want in zip(a.shape, shape)):
            expected = "(" + ", ".join("any" if w is None else str(w) for w in shape) + ("," if len(shape) == 1 else "")
            raise wrong(f"holds {name} of shape {a.shape} and dtype {a.dtype}, not of shape {expected}) "
                        f"and kind {kind!r}")
        return a

    time = take("time", "f", (None,))
    ids = take("ids", "iu", (None,))
    steps, agents = len(time), len(ids)
    flags = {name: bool(take(name, "b", ())) for name in ("complete", "includes_start") if name in names}
    recorded = tuple(name for name in FIELDS if name in names)
    maps = [archive[name] for name in recorded if isinstance(FIELDS[name][0], str)]
    slots = maps[0].shape[-1] if maps and maps[0].ndim else None  # the world's, the same for every map
    arrays = {}
    for name in recorded:
        width, dtype = FIELDS[name]
        shape = (steps, agents) if width == 1 else (steps, agents, slots if isinstance(width, str) else width)
        arrays[name] = take(name, np.dtype(dtype).kind, shape)
    events = no_events()
    if {"event_step", "event_kind"} <= names:
        count = len(take("event_step", "i", (None,)))
        events = {name: take(f"event_{name}", np.dtype(dtype).kind, (count,))
                  if f"event_{name}" in names else np.full(count, _EVENT_DEFAULTS[name], dtype)
                  for name, dtype in EVENT_FIELDS.items()}
    moving: dict[str, Any] = {}
    if set(_MOVING_ARRAYS) & names:
        if not set(_MOVING_ARRAYS) <= names:
            raise wrong(f"holds {sorted(set(_MOVING_ARRAYS) & names)} without {sorted(set(_MOVING_ARRAYS) - names)}")

        kinds = take("moving_kinds", "iu", (None,))
        bodies = len(kinds)
        counts = take("moving_vertex_counts", "iu", (bodies,))
        shapes = take("moving_local_shapes", "f", (int(counts.sum()) if (counts >= 0).all() else -1, 2))
        if len(kinds) and not ((kinds >= 0) & (kinds < len(KINDS))).all():
            raise wrong(f"holds moving_kinds outside 0 to {len(KINDS) - 1}")
        moving = {"moving_positions": take("moving_positions", "f", (steps, bodies, 2)),
                  "moving_angles": take("moving_angles", "f", (steps, bodies)),
                  "moving_kinds": tuple(KINDS[k] for k in kinds),
                  "moving_local_shapes": tuple(np.split(shapes, np.cumsum(counts)[:-1]))}
    return dict(time=time, ids=ids, complete=flags["complete"], recorded=recorded,
                includes_start=flags.get("includes_start", False), event_arrays=events,
                scene=scene_of_arrays(archive), **moving, **arrays)


# The key of a Parquet file's metadata that holds what its table does not: a JSON object of
# arrays by name (as file_arrays gives them), each {"dtype", "shape", "data"}.
PARQUET_KEY = b"contextsteer.recording"
# The table's columns of each recorded array that is not a map (Recording.to_dataframe).
TABLE_COLUMNS = {name: {"positions": ("x", "y"), "velocities": ("vx", "vy"), "headings": ("heading",),
                        "direction": ("direction_x", "direction_y"),
                        "give_way": ("give_way_x", "give_way_y")}.get(name, (name,))
                 for name in FIELDS if name not in MAPS}


def scene_record(scene) -> dict[str, Any]:
    """What a file keeps of a recording's scene (a :class:`~contextsteer.Scenario`, read by
    its fields; a dict of them as it is; None: nothing): its name, geometry, agents' starts,
    targets, groups and radius, and the step ``dt`` of its run."""
    if scene is None or isinstance(scene, dict):
        return dict(scene or {})
    record: dict[str, Any] = {"name": scene.name, "starts": scene.starts, "targets": scene.targets,
                              "bounds": np.asarray(scene.bounds, dtype=np.float64), "circles": scene.circles,
                              "segments": scene.segments, "polygons": list(scene.polygons), "groups": scene.groups}
    if len(scene.goal_areas):
        record.update(goal_areas=scene.goal_areas, goal_area_groups=scene.goal_area_groups)
    if "radius" in scene.agent_parameters:
        record["radius"] = np.asarray(scene.agent_parameters["radius"], dtype=np.float32)
    if scene.run is not None:
        record["dt"] = float(scene.run.dt)
    return record


def scene_arrays(scene) -> dict[str, np.ndarray]:
    """A recording's scene (:func:`scene_record`) as arrays named ``scene_<key>`` (the
    polygons as their vertices end to end and their vertex counts), for a file."""
    arrays = {}
    for key, value in scene_record(scene).items():
        if key == "polygons":
            arrays["scene_polygon_counts"] = np.array([len(p) for p in value], dtype=np.int64)
            arrays["scene_polygons"] = (np.concatenate(value).astype(np.float32) if len(value)
                                        else np.zeros((0, 2), np.float32))
        else:
            arrays[f"scene_{key}"] = np.asarray(value)
    return arrays


def scene_of_arrays(archive) -> dict[str, Any]:
    """The scene of :func:`scene_arrays`'s arrays in ``archive`` (arrays by name)."""
    scene: dict[str, Any] = {}
    for name in archive:
        if name.startswith("scene_") and name not in ("scene_polygons", "scene_polygon_counts"):
            value = archive[name]
            scene[name.removeprefix("scene_")] = value.item() if value.ndim == 0 else value
    if "scene_polygon_counts" in archive:
        counts = archive["scene_polygon_counts"]
        scene["polygons"] = list(np.split(archive["scene_polygons"], np.cumsum(counts)[:-1])) if len(counts) else []
    return scene


def _json_of(values) -> dict:
    values = np.asarray(values)
    return {"dtype": values.dtype.str, "shape": list(values.shape), "data": values.ravel().tolist()}


def write_parquet(recording, path: str | os.PathLike) -> None:
    """Writes ``recording`` (see :meth:`Recording.to_parquet`): its table, a ``group``
    column where its scene has groups, and what the table does not hold as metadata."""
    try:
        import pyarrow as pa  # type: ignore[import-untyped]
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError as exc:
        raise ImportError('to_parquet needs pyarrow (pip install ".[cli]" or pip install pyarrow)') from exc
    table = recording.to_dataframe()
    if recording.scene is not None:
        table.insert(3, "group", np.tile(np.asarray(scene_record(recording.scene)["groups"], np.int64),
                                         recording.steps))
    arrow = pa.Table.from_pandas(table, preserve_index=False)
    meta = dict(arrow.schema.metadata or {})
    meta[PARQUET_KEY] = json.dumps({name: _json_of(values) for name, values in file_arrays(recording).items()})
    pq.write_table(arrow.replace_schema_metadata(meta), path)


def _parquet_arrays(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """The arrays of a Parquet file written by :meth:`Recording.to_parquet` (or any table
    of its columns, one row per step and agent, step by step)."""
    try:
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError as exc:
        raise ImportError('reading a Parquet recording needs pyarrow (pip install ".[cli]" or pip install pyarrow)'
                          ) from exc
    table = pq.read_table(path)
    meta = (table.schema.metadata or {}).get(PARQUET_KEY)
    frame = table.to_pandas()
    arrays: dict[str, np.ndarray] = {}
    if meta is not None:
        for name, item in json.loads(meta).items():
            arrays[name] = np.array(item["data"], dtype=np.dtype(item["dtype"])).reshape(item["shape"])
    else:  # a table alone: its steps, times and ids tell the rest
        if not {"step", "time", "id"} <= set(frame.columns):
            raise ValueError(f"path: expected a recording's table with columns step, time and id, "
                             f"got columns {list(frame.columns)}")
        first = frame["step"].to_numpy() == frame["step"].iloc[0] if len(frame) else np.zeros(0, bool)
        arrays["ids"] = frame["id"].to_numpy(np.int64)[first]
        arrays["time"] = frame["time"].to_numpy(np.float64)[::max(len(arrays["ids"]), 1)]
        arrays["complete"] = np.array(True)
        if "group" in frame.columns:
            arrays["scene_groups"] = frame["group"].to_numpy(np.int64)[first]
    steps, agents = len(arrays["time"]), len(arrays["ids"])
    for name, columns in TABLE_COLUMNS.items():
        if set(columns) <= set(frame.columns):
            width, dtype = FIELDS[name]
            values = np.stack([frame[c].to_numpy(dtype) for c in columns], axis=-1)
            arrays[name] = values.reshape((steps, agents) if width == 1 else (steps, agents, len(columns)))
    return arrays
