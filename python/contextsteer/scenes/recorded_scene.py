"""A recording's scene as a :class:`~contextsteer.Scenario`: :func:`scenario_of_record`
makes one of the arrays a world's run or a recording's file keeps
(:attr:`Recording.scene <contextsteer.Recording.scene>`), so that a loaded run can be run
again. The model layer holds the recording and cannot name the Scenario: this module sets
its maker as it is imported."""

from __future__ import annotations

import numpy as np

from ..model import recording
from .file_format import RunSettings
from .scenario import Scenario

MARGIN = 1.0  # metres: the bounds round a scene recorded without bounds, beyond all it holds


def scenario_of_record(record: dict, run: recording.Recording) -> Scenario | None:
    """The Scenario of ``record`` (``circles``, ``segments``, ``polygons``, ``bounds``,
    ``starts``, ``targets``, ``groups``, ``goal_areas``, ``goal_area_groups``, ``radius``,
    ``name``, ``dt``; the files of before lack ``starts``: the first recorded positions,
    or the targets), or None for a record without the agents' targets (a table alone) or
    one no Scenario can hold (more than MAX_AGENTS agents)."""
    if "targets" not in record:
        return None
    try:
        return _scenario(record, run)
    except (TypeError, ValueError):
        return None


def _scenario(record: dict, run: recording.Recording) -> Scenario:
    targets = np.asarray(record["targets"], dtype=np.float64).reshape(-1, 2)
    starts = record.get("starts")
    if starts is None:
        starts = run.positions[0] if run.positions is not None and len(run.positions) else targets
    starts = np.asarray(starts, dtype=np.float64).reshape(-1, 2)
    circles = np.asarray(record.get("circles", np.zeros((0, 3))), dtype=np.float64).reshape(-1, 3)
    segments = np.asarray(record.get("segments", np.zeros((0, 4))), dtype=np.float64).reshape(-1, 4)
    polygons = tuple(np.asarray(p, dtype=np.float64).reshape(-1, 2) for p in record.get("polygons", ()))
    parameters = {}
    if "radius" in record and np.size(record["radius"]):
        radius = np.asarray(record["radius"], dtype=np.float64)
        parameters["radius"] = float(radius.flat[0]) if np.all(radius == radius.flat[0]) else radius
    dt = record.get("dt")
    return Scenario(str(record.get("name", "recorded")), starts, targets,
                    _bounds(record, starts, targets, circles, segments, polygons),
                    circles=circles, segments=segments, polygons=polygons,
                    goal_areas=record.get("goal_areas", np.zeros((0, 4))),
                    groups=record.get("groups", np.zeros(0, dtype=np.int64)),
                    goal_area_groups=record.get("goal_area_groups", np.zeros(0, dtype=np.int64)),
                    agent_parameters=parameters,
                    run=None if dt is None else RunSettings(dt=float(dt), steps=max(run.steps_run, 1)))


def _bounds(record, starts, targets, circles, segments, polygons) -> tuple[float, float, float, float]:
    """The world's bounds, grown to hold every start and target (a world may have agents
    beyond its walls; a scene may not); without bounds, the box round the obstacles and the
    agents' starts and targets, MARGIN wider on each side (a run's positions are not
    known when its recording is made)."""
    points = [starts, targets]
    if "bounds" not in record:
        points += [circles[:, :2] - circles[:, 2:], circles[:, :2] + circles[:, 2:], segments.reshape(-1, 2),
                   *polygons]
    held = np.vstack([np.zeros((0, 2)), *points])
    held = held[np.isfinite(held).all(axis=1)]  # not the rows of agents that left: NaN
    if not len(held):
        held = np.zeros((1, 2))
    low, high = held.min(axis=0, initial=np.inf), held.max(axis=0, initial=-np.inf)
    if "bounds" in record:
        x0, y0, x1, y1 = np.asarray(record["bounds"], dtype=np.float64).ravel()
        return (float(min(x0, low[0])), float(min(y0, low[1])), float(max(x1, high[0])), float(max(y1, high[1])))
    return (float(low[0] - MARGIN), float(low[1] - MARGIN), float(high[0] + MARGIN), float(high[1] + MARGIN))


recording.scene_maker = scenario_of_record
