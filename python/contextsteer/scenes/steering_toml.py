"""Pipelines and behaviours to and from the tables of a scenario file.

A behaviour is a table ``{type = "Avoid", max_distance = 2.0, ...}``: its type is the
name of a built-in behaviour class, its keys the arguments it was built with (its C++
fields, listed by the class, and its own: ``targets``, ``circles``, ``waypoints``...). A
pipeline is a table of its settings (``slots``, ``select``...) with the array
``behaviors``. Both are read and written from what the objects declare, so a behaviour or
setting added to the library needs nothing here. A FollowField's navigation field is a
table ``field = {cell, clearance, keep_right, goals, goal_areas}``, built round the scene's
obstacles over its bounds; without goals and goal areas, to those of the agents' group.
"""

from __future__ import annotations

import inspect

import numpy as np

from .._internal.toml_tables import ScenarioFileError, Table, suggestion, tidy
from ..model import behaviors as _behaviors
from ..model.pipeline import _SETTINGS, Pipeline

# The behaviours a file can name: the built-in classes (PythonBehavior runs code, not data).
BEHAVIORS = {name: cls for name in _behaviors.__all__
             if isinstance(cls := getattr(_behaviors, name), type) and issubclass(cls, _behaviors.Behavior)
             and cls not in (_behaviors.Behavior, _behaviors.PythonBehavior) and cls.__name__ == name}
FIELD_KEYS = ("cell", "clearance", "keep_right", "goals", "goal_areas")
PIPELINE_KEYS = ("slots", *_SETTINGS, "behaviors")


def _arguments(cls) -> list[str]:
    """The names ``cls(...)`` takes: its own arguments, then its C++ fields."""
    own = [p.name for p in inspect.signature(cls.__init__).parameters.values()
           if p.name != "self" and p.kind != inspect.Parameter.VAR_KEYWORD]
    return list(dict.fromkeys([*own, *cls._parameters]))


def _given(obj) -> list[tuple[str, object]]:
    """The arguments ``obj`` was built with (or set since), by name, as they are now."""
    out = []
    for name, _, text, value in obj._arguments_given:
        if name is None:
            raise ValueError(f"{type(obj).__name__}: an argument given by position past its named ones "
                             "cannot be written to a file")
        out.append((name, getattr(obj, name) if text is None else value))
    return out


# --- writing -----------------------------------------------------------------------------
def describe_pipeline(pipeline, scenario, group: int) -> dict:
    """The table of ``pipeline``, steering group ``group`` of ``scenario``."""
    if not isinstance(pipeline, Pipeline):
        raise ValueError(f"steering: a scenario file holds Pipelines, got {type(pipeline).__name__}")
    table: dict = {}
    for name, value in _given(pipeline):
        if name != "behaviors" and value is not None:
            table[name] = tidy(value)
    table["behaviors"] = [describe_behavior(b, scenario, group) for b in pipeline.behaviors]
    return table


def describe_behavior(behavior, scenario, group: int) -> dict:
    cls = type(behavior)
    if BEHAVIORS.get(cls.__name__) is not cls:
        raise ValueError(f"steering: a scenario file holds the built-in behaviours ({', '.join(BEHAVIORS)}), "
                         f"got {cls.__name__}")
    table: dict = {"type": cls.__name__}
    for name, value in _given(behavior):
        if name == "field":
            table["field"] = _describe_field(value, scenario, group)
        elif value is not None:
            table[name] = tidy(value)
    return table


def _describe_field(field, scenario, group: int) -> dict:
    table = {"cell": tidy(field.cell), "clearance": tidy(field.clearance)}
    if field.keep_right:
        table["keep_right"] = tidy(field.keep_right)
    goals, areas = _group_goals(scenario, group)
    same = (np.array_equal(field.goals, np.float32(goals)) and np.array_equal(field.goal_areas, np.float32(areas)))
    if not same:
        if len(field.goals):
            table["goals"] = tidy(field.goals)
        if len(field.goal_areas):
            table["goal_areas"] = tidy(field.goal_areas)
    return table


def _group_goals(scenario, group: int) -> tuple[np.ndarray, np.ndarray]:
    """The goals and goal areas of ``Scenario.navigation_field(group=group)`` when given none."""
    areas = scenario.goal_areas[scenario.goal_area_groups == group]
    if len(areas):
        return np.zeros((0, 2)), areas
    return scenario.targets[scenario.groups == group], np.zeros((0, 4))


# --- reading -----------------------------------------------------------------------------
def _reraise(table: Table, error: Exception, names) -> ScenarioFileError:
    """``error`` of a constructor as a file error at the key its message starts with."""
    message = str(error)
    for name in names:
        if message.startswith(f"{name}: "):
            return table.error(name, message[len(name) + 2:])
    return table.error(None, message)


def read_pipeline(table: Table, scenario, group: int) -> Pipeline:
    """The pipeline of ``table`` for group ``group`` of ``scenario`` (whose geometry is read)."""
    settings = {name: table.data.pop(name) for name in list(table.data) if name in ("slots", *_SETTINGS)}
    behaviors = [read_behavior(t, scenario, group) for t in table.tables("behaviors", required=True)]
    table.done(PIPELINE_KEYS)
    try:
        return Pipeline(behaviors, **settings)
    except (TypeError, ValueError) as error:
        raise _reraise(table, error, settings) from None


def read_behavior(table: Table, scenario, group: int):
    name = table.take("type", "string", required=True)
    cls = BEHAVIORS.get(name)
    if cls is None:
        raise table.error("type", f"unknown behaviour {name!r}{suggestion(name, BEHAVIORS)}; "
                                  f"expected one of {', '.join(BEHAVIORS)}")
    known = _arguments(cls)
    arguments = {}
    for key in list(table.data):
        if key not in known:
            raise table.error(key, f"{name} has no parameter {key!r}{suggestion(key, known)}; "
                                   f"its parameters are {', '.join(known)}")
        if key == "field":
            field_table = table.table("field")
            assert field_table is not None
            arguments["field"] = read_field(field_table, scenario, group)
        else:
            arguments[key] = table.data.pop(key)
    try:
        return cls(**arguments)
    except (TypeError, ValueError) as error:
        if isinstance(error, TypeError) and "missing" in str(error):  # a required argument left out
            raise table.error(None, f"{name}: {error}") from None
        raise _reraise(table, error, arguments) from None


def read_field(table: Table, scenario, group: int):
    given = {name: table.take(name, "number") for name in ("cell", "clearance", "keep_right") if table.has(name)}
    goals = table.points("goals", 2) if table.has("goals") else None
    areas = table.points("goal_areas", 4, meaning="xmin, ymin, xmax, ymax") if table.has("goal_areas") else None
    table.done(FIELD_KEYS)
    try:
        if goals is None and areas is None:
            return scenario.navigation_field(group=group, **given)
        return scenario.navigation_field(goals=goals, goal_areas=areas, **given)
    except (TypeError, ValueError) as error:
        raise _reraise(table, error, [*given, "goals", "goal_areas"]) from None


__all__ = ["BEHAVIORS", "ScenarioFileError", "describe_pipeline", "read_pipeline"]
