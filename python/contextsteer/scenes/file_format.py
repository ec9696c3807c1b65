"""The format of scenario files (its tables are described in :mod:`contextsteer.scenario_file`
and docs/scenario-files.md): a file read into a :class:`~contextsteer.Scenario` and a
scenario written as one. The functions take the class to build, which
:meth:`Scenario.load <contextsteer.Scenario.load>` and the public face,
:mod:`contextsteer.scenario_file`, pass in.

This module is long because reading and writing must agree on every table, side by side,
and every value read is checked with an error naming its key."""

from __future__ import annotations

import dataclasses
import os
import re
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._internal import validation as check
from .._internal.toml_tables import ScenarioFileError, Table, geometry_numbers, suggestion, tidy
from ..model.agent_columns import SPAWNED
from ..model.contact import Contact
from ..model.goals import Goals
from ..model.world import World
from ..model.world.agents import AGENT_PARAMETERS, spawn_values
from ..recipes.crowd_steering import CrowdSteering, crowd_steering
from . import scenario_checks
from .moving_bodies import MovingBody
from .steering_toml import describe_pipeline, read_pipeline

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the same parser, as a package
    import tomli as tomllib

FORMAT = 1  # the version of the format this module reads and writes
# The deepest nesting of arrays and tables a file needs is 8 (a FollowField's goals:
# groups[0].pipeline.behaviors[0].field.goals[0][0]); deeper is refused before reading.
MAX_DEPTH = 16
HEADER = "# A contextsteer scenario: docs/scenario-files.md describes the format.\n"
TOP_KEYS = ("format", "name", "geometry", "run", "goals", "contact", "agents", "pipeline", "steering", "groups")
GEOMETRY_KEYS = ("bounds", "circles", "walls", "polygons", "moving")
# [geometry] keys by their names before, read with a DeprecationWarning for one release.
RENAMED_GEOMETRY_KEYS = {"obstacles": "circles"}
MOVING_KEYS = tuple(f.name for f in dataclasses.fields(MovingBody))
GROUP_KEYS = ("name", "starts", "targets", "goal_areas", "agents", "pipeline")
RUN_KEYS = ("dt", "steps", "substeps", "record", "within")
# [steering]: a steering the library builds from the file's scene, by kind.
STEERING_KEYS = ("kind", "slots", "max_fields")
STEERING_KINDS = ("crowd",)
# Agent parameters a file sets (targets come with the group; target ids name other agents).
AGENT_KEYS = tuple(name for name in (c.name for c in SPAWNED) if name in AGENT_PARAMETERS - {"targets", "target_ids"})
_COLUMNS = {c.name: c for c in SPAWNED}


@dataclass(frozen=True)
class RunSettings:
    """How a scenario runs: ``steps`` steps of ``dt`` seconds, each integrated in
    ``substeps`` parts.

    Parameters
    ----------
    dt : float, default 0.05
        Seconds per step.
    steps : int, default 1000
        Steps of the run (at least 1).
    substeps : int, default 1
        Equal parts each step is integrated in.
    record : str or tuple of str, default 'state'
        What :meth:`World.run <contextsteer.World.run>` records (``"state"``, ``"all"``,
        ``"none"`` or a tuple of names).
    within : float, default 1
        Metres from its target at which an agent counts as arrived, for the metrics.

    Raises
    ------
    ValueError, TypeError
        A value out of range or of the wrong type, naming the setting.

    Examples
    --------
    >>> import contextsteer as cs
    >>> settings = cs.RunSettings(dt=0.02, steps=500, record=("positions", "state"))
    >>> settings.record_names
    ('positions', 'state')
    """

    dt: float = 0.05
    steps: int = 1000
    substeps: int = 1
    record: str | tuple[str, ...] = "state"
    within: float = 1.0

    def __post_init__(self):
        dt, substeps = check.time_step(self.dt, self.substeps)
        object.__setattr__(self, "dt", dt)
        object.__setattr__(self, "substeps", substeps)
        object.__setattr__(self, "steps", check.count("steps", self.steps, minimum=1))
        object.__setattr__(self, "within", check.number("within", self.within, minimum=0.0))
        record = self.record if isinstance(self.record, str) else tuple(self.record)
        World._record_names(None if record == "none" else record)  # raises for an unknown name
        object.__setattr__(self, "record", record)

    @property
    def record_names(self) -> tuple[str, ...]:
        """The arrays recorded, as names."""
        return World._record_names(None if self.record == "none" else self.record)


# --- reading -----------------------------------------------------------------------------
def load(path: str | os.PathLike, scenario_type: type):
    """The scenario of the file ``path``, a ``scenario_type`` (see :meth:`Scenario.load`)."""
    return loads(read_text(path), path, scenario_type)


def read_text(path: str | os.PathLike) -> str:
    """The text of the file ``path``: OSError when it cannot be read, ScenarioFileError
    when it is not UTF-8 (as TOML is)."""
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise ScenarioFileError(path, None, f"not UTF-8 text (as TOML is): byte {data[error.start]:#04x} "
                                            f"at line {line}") from None


def loads(text: str, path: str | os.PathLike, scenario_type: type):
    """The scenario of the TOML ``text``, a ``scenario_type``; ``path`` names it in errors."""
    if not isinstance(text, str):
        raise TypeError(f"text: expected a str, got {type(text).__name__}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ScenarioFileError(path, None, f"not valid TOML: {error}") from None
    except RecursionError:  # the parser recurses once per level of arrays or inline tables
        raise ScenarioFileError(path, None, "not a scenario: arrays or tables nested too deeply for the TOML "
                                            "parser") from None
    too_deep = _nested_too_deep(data)
    if too_deep is not None:
        raise ScenarioFileError(path, too_deep, f"expected arrays and tables nested at most {MAX_DEPTH} deep, "
                                                f"got more")
    top = Table(path, "", data)
    version = top.take("format", "integer", FORMAT)
    if version != FORMAT:
        raise top.error("format", f"expected {FORMAT}, the format this version of contextsteer reads, got {version}")
    name = top.take("name", "string", Path(path).stem)
    geometry = top.table("geometry", required=True)
    assert geometry is not None
    bounds, circles, walls, polygons, moving = _read_geometry(geometry)
    run_table = top.table("run")
    run = None if run_table is None else _read_run(run_table)
    goals_table = top.table("goals")
    contact_table = top.table("contact")
    shared_agents = top.table("agents")
    shared_pipeline = top.take("pipeline", "table")
    built = top.table("steering")
    groups = top.tables("groups", required=True)
    top.done(TOP_KEYS)
    if not groups:
        raise top.error("groups", "expected at least one group, got none")
    read = [_read_group(g, bounds) for g in groups]
    counts = [len(starts) for starts, _, _ in read]
    try:
        scenario = scenario_type(
            name, np.concatenate([r[0] for r in read]), np.concatenate([r[1] for r in read]), bounds,
            circles=circles, segments=walls, polygons=polygons, moving=moving,
            goal_areas=np.concatenate([r[2] for r in read]), groups=np.repeat(np.arange(len(read)), counts),
            goal_area_groups=np.repeat(np.arange(len(read)), [len(r[2]) for r in read]))
    except (TypeError, ValueError) as error:  # what the groups' own checks leave: the geometry's
        field, _, message = str(error).partition(": ")
        key = _FILE_KEYS.get(field.split("[")[0], "groups")
        raise ScenarioFileError(path, key + field[len(field.split("[")[0]):], message or str(error)) from None
    parameters = _read_agents(shared_agents, groups, counts)
    if goals_table is not None:
        parameters["goals"] = _read_settings(Goals, goals_table)
    if contact_table is not None:
        parameters["contact"] = _read_settings(Contact, contact_table)
    if built is None:
        steering = _read_steering(path, shared_pipeline, groups, scenario)
    else:
        steering = _read_crowd(built, shared_pipeline, groups, scenario, parameters)
    return dataclasses.replace(scenario, steering=steering, agent_parameters=parameters, run=run)


def _nested_too_deep(data: dict) -> str | None:
    """The key path of a value nested more than MAX_DEPTH arrays and tables deep in
    ``data``, or None; found without recursion, so that no nesting exhausts Python's stack."""
    stack: list[tuple[object, int, str]] = [(data, 0, "")]
    while stack:
        value, level, key = stack.pop()
        if level > MAX_DEPTH:
            return key
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for name, item in items:
            if isinstance(item, (dict, list)):
                stack.append((item, level + 1, f"{key}[{name}]" if isinstance(name, int)
                              else f"{key}.{name}" if key else name))
    return None


def _read_geometry(table: Table):
    for old, new in RENAMED_GEOMETRY_KEYS.items():
        if table.has(old):
            if table.has(new):
                raise table.error(old, f"expected {new} or {old} (its name before), got both")
            warnings.warn(f"{table.path}: {table.at(old)} is now {new}; the key {old} is deprecated and will be "
                          f"removed in the next release", DeprecationWarning, stacklevel=5)
            table.data[new] = table.data.pop(old)
    bounds = table.take("bounds", "array", required=True)
    if not (len(bounds) == 4 and all(not isinstance(b, list) for b in bounds)):
        raise table.error("bounds", f"expected [xmin, ymin, xmax, ymax], got {bounds}")
    try:
        bounds = scenario_checks.bounds(bounds)
    except ValueError as error:
        raise table.error("bounds", str(error).split(": ", 1)[-1]) from None
    circles = table.points("circles", 3, meaning="x, y, radius")
    if (circles[:, 2] < 0).any():
        raise table.error("circles", f"expected radii >= 0, got {circles[:, 2].min():g}")
    walls = table.points("walls", 4, meaning="x0, y0, x1, y1")
    polygons = table.take("polygons", "array", [])
    for i, polygon in enumerate(polygons):
        try:
            check.polygon(f"polygons[{i}]", polygon)
        except (TypeError, ValueError) as error:
            raise table.error(f"polygons[{i}]", str(error).split(": ", 1)[-1]) from None
    moving = tuple(_read_moving(body) for body in table.tables("moving"))
    table.done(GEOMETRY_KEYS)
    for name, array in (("circles", circles), ("walls", walls)):
        try:
            check.points(name, array, columns=array.shape[1])
        except (TypeError, ValueError) as error:
            raise table.error(name, str(error).split(": ", 1)[-1]) from None
    return tuple(bounds), circles, walls, tuple(np.asarray(p, dtype=np.float64) for p in polygons), moving


def _read_moving(table: Table) -> MovingBody:
    """A ``[[geometry.moving]]`` table: the fields of :class:`MovingBody`, by name."""
    kinds = {"kind": "string", "shape": "array", "velocity": "array", "angular_velocity": "number",
             "waypoints": "array", "speed": "number", "mode": "string", "layer": "integer"}
    given = {name: table.take(name, kind) for name, kind in kinds.items() if table.has(name)}
    table.done(MOVING_KEYS)
    for name in ("kind", "shape"):
        if name not in given:
            raise table.error(name, f"missing: expected {'a string' if name == 'kind' else 'an array of numbers'}")
    try:
        return MovingBody(**given)
    except (TypeError, ValueError) as error:
        message = str(error)
        key = next((name for name in given if message.startswith(f"{name}: ")), None)
        raise table.error(key, message.split(": ", 1)[-1] if key else message) from None


def _read_run(table: Table) -> RunSettings:
    given = {name: table.data.pop(name) for name in RUN_KEYS if table.has(name)}
    if isinstance(given.get("record"), list):
        given["record"] = tuple(given["record"])
    table.done(RUN_KEYS)
    try:
        return RunSettings(**given)
    except (TypeError, ValueError) as error:
        message = str(error)
        key = next((name for name in given if message.startswith(f"{name}: ")), None)
        raise table.error(key, message.split(": ", 1)[-1] if key else message) from None


def _read_settings(kind, table: Table):
    """A world's settings (Goals or Contact) from their table, each error naming its key."""
    given = dict(table.data)
    table.data.clear()
    try:
        return kind(**given)
    except (TypeError, ValueError) as error:
        message = str(error)
        key = next((name for name in given if message.startswith(f"{name}: ")), None)
        if key is None and "unexpected keyword argument" in message:
            key = next(name for name in given if f"'{name}'" in message)
            message = f"{kind.__name__} has no setting {key!r}; its settings are {', '.join(kind._fields)}"
        raise table.error(key, message.split(": ", 1)[-1] if key and message.startswith(key) else message) from None


# The file's key of each field of a Scenario (the groups' fields are checked by group).
_FILE_KEYS = {"name": "name", "bounds": "geometry.bounds", "circles": "geometry.circles", "segments": "geometry.walls",
              "polygons": "geometry.polygons", "moving": "geometry.moving"}


def _read_group(table: Table, bounds: tuple[float, float, float, float]):
    starts = table.points("starts", 2, required=True, meaning="x, y")
    targets = table.points("targets", 2, required=True, meaning="x, y")
    if len(starts) == 0:
        raise table.error("starts", "expected at least one agent, got none")
    if len(targets) != len(starts):
        raise table.error("targets", f"expected one target per start ({len(starts)}), got {len(targets)}")
    areas = table.points("goal_areas", 4, meaning="xmin, ymin, xmax, ymax")
    for name, array in (("starts", starts), ("targets", targets)):
        try:
            check.points(name, array)
            scenario_checks.inside(name, array, bounds)
        except (TypeError, ValueError) as error:
            raise table.error(name, str(error).split(": ", 1)[-1]) from None
    try:
        scenario_checks.rectangles(areas)
    except ValueError as error:
        raise table.error("goal_areas", str(error).split(": ", 1)[-1]) from None
    return starts, targets, areas


def _agent_values(table: Table, count: int | None) -> dict:
    """The agent parameters of ``table``, each checked for ``count`` agents (None: numbers only)."""
    values = {}
    for name in list(table.data):
        if name not in AGENT_KEYS:
            raise table.error(name, f"unknown agent parameter{suggestion(name, AGENT_KEYS)}; expected one of "
                                    f"{', '.join(AGENT_KEYS)}")
        per_agent = count is not None and isinstance(table.data[name], list)
        value = table.take(name, "array" if per_agent else "number")
        try:
            spawn_values(_COLUMNS[name], value, 1 if count is None else count)
        except (TypeError, ValueError) as error:
            raise table.error(name, str(error).split(": ", 1)[-1]) from None
        values[name] = value
    return values


def _read_agents(shared: Table | None, groups: list[Table], counts: list[int]) -> dict:
    """The agent parameters of every group (the shared ones overridden by a group's own):
    a number where all agents share it, else ``(n,)`` values."""
    common = {} if shared is None else _agent_values(shared, None)
    own = []
    for group, count in zip(groups, counts):
        table = group.table("agents")
        own.append({**common, **({} if table is None else _agent_values(table, count))})
    names = list(dict.fromkeys(name for values in own for name in values))
    parameters = {}
    for name in names:
        values = [values.get(name, _COLUMNS[name].default) for values in own]
        if all(not isinstance(v, list) for v in values) and len(set(values)) == 1:
            parameters[name] = values[0]
        else:
            parameters[name] = np.concatenate([np.broadcast_to(np.asarray(v), (c,))
                                               for v, c in zip(values, counts)])
    return parameters


def _read_steering(path, shared: dict | None, groups: list[Table], scenario):
    tables = [g.table("pipeline") for g in groups]
    for group in groups:
        group.done(GROUP_KEYS)
    if shared is None and all(t is None for t in tables):
        return None
    pipelines = []
    for g, table in enumerate(tables):
        if table is None:
            if shared is None:
                raise groups[g].error("pipeline", "missing: expected a pipeline of the group's own, or [pipeline] "
                                                  "shared by every group")
            table = Table(path, "pipeline", shared)
        pipelines.append(read_pipeline(table, scenario, g))
        if pipelines[g].slots != pipelines[0].slots:  # one world holds every group's maps
            where = groups[g].at("pipeline") if tables[g] is not None else "pipeline"
            raise ScenarioFileError(path, f"{where}.slots", f"expected the slot count of group 0's pipeline "
                                                            f"({pipelines[0].slots}), as every group's maps share "
                                                            f"one world, got {pipelines[g].slots}")
    return pipelines[0] if len(pipelines) == 1 else tuple(pipelines)


def _read_crowd(table: Table, shared_pipeline, groups: list[Table], scenario, parameters: dict) -> CrowdSteering:
    """``[steering]``: the public crowd steering of the file's scene
    (:func:`~contextsteer.crowd_steering`) for agents of the file's radius."""
    kind = table.take("kind", "string", required=True)
    if kind not in STEERING_KINDS:
        raise table.error("kind", f"expected one of {', '.join(repr(k) for k in STEERING_KINDS)} (a steering the "
                                  f"library builds from the scene), got {kind!r}")
    slots = table.take("slots", "integer", 16)
    max_fields = table.take("max_fields", "integer", 32)
    table.done(STEERING_KEYS)
    if shared_pipeline is not None:
        raise table.error(None, "expected [steering] or [pipeline], got both (one of them steers the agents)")
    for group in groups:
        if group.has("pipeline"):
            raise group.error("pipeline", "expected no pipeline of the group's own where [steering] steers every "
                                          "agent, got one")
        group.done(GROUP_KEYS)
    radius = parameters.get("radius", _COLUMNS["radius"].default)
    if np.ndim(radius):
        raise ScenarioFileError(table.path, "agents.radius", "expected one radius for every agent where [steering] "
                                                             "is the crowd steering (its fields keep one clearance), "
                                                             "got radii of their own per group")
    try:
        return crowd_steering(scenario, radius=radius, slots=slots, max_fields=max_fields)
    except (TypeError, ValueError) as error:
        message = str(error)
        key = next((name for name in ("slots", "max_fields") if message.startswith(f"{name}: ")), None)
        raise table.error(key, message.split(": ", 1)[-1] if key else message) from None


# --- writing -----------------------------------------------------------------------------
def save(scenario, path: str | os.PathLike, header: str = HEADER) -> None:
    """Writes ``scenario`` to ``path`` (see :meth:`Scenario.save`)."""
    Path(path).write_text(dumps(scenario, header), encoding="utf-8")


def dumps(scenario, header: str = HEADER) -> str:
    """``scenario`` (a :class:`~contextsteer.Scenario`) as the text of a scenario file."""
    import tomli_w

    groups = scenario.groups
    if len(groups) and (np.diff(groups) < 0).any():
        raise ValueError(f"scenario: a file lists the agents group by group, but scenario {scenario.name!r} "
                         "has its groups out of order")
    count = scenario.group_count
    rows = [np.flatnonzero(groups == g) for g in range(count)]
    doc: dict = {"format": FORMAT, "name": scenario.name, "geometry": _geometry(scenario)}
    if scenario.run is not None:
        run = scenario.run
        doc["run"] = {"dt": tidy(run.dt), "steps": run.steps, "substeps": run.substeps,
                      "record": run.record if isinstance(run.record, str) else list(run.record),
                      "within": tidy(run.within)}
    parameters = dict(scenario.agent_parameters)
    goals = parameters.pop("goals", None)
    if goals is not None:
        doc["goals"] = {name: tidy(value) for name, value in goals.settings().items()}
    contact = parameters.pop("contact", None)
    if contact is not None:
        doc["contact"] = {name: tidy(value) for name, value in contact.settings().items()}
    if isinstance(scenario.steering, CrowdSteering):  # built, as the file is read, for its agents' one radius
        crowd = scenario.steering
        given = parameters.setdefault("radius", crowd.radius)
        if np.ndim(given) or given != crowd.radius:
            raise ValueError(f"agent_parameters: a file's crowd steering is built for its agents' radius, but "
                             f"scenario {scenario.name!r} gives its agents radius {given} and its crowd steering "
                             f"radius {crowd.radius:g}")
    agents = [_group_agents(parameters, r, len(groups)) for r in rows]
    pipelines: list[dict | None] = [None] * count
    if scenario.steering is not None and not isinstance(scenario.steering, CrowdSteering):
        steering = scenario.steering
        if isinstance(steering, (list, tuple)):
            if len(steering) != count:
                raise ValueError(f"steering: expected one steering per group of scenario {scenario.name!r} "
                                 f"({count}), got {len(steering)}")
        else:
            steering = [steering] * count
        pipelines = [describe_pipeline(p, scenario, g) for g, p in enumerate(steering)]
    shared_agents = all(a == agents[0] for a in agents) and not any(isinstance(v, list) for v in agents[0].values())
    shared_pipeline = pipelines[0] is not None and all(p == pipelines[0] for p in pipelines)
    if shared_agents and agents[0]:
        doc["agents"] = agents[0]
    if isinstance(scenario.steering, CrowdSteering):
        doc["steering"] = {"kind": "crowd", "slots": scenario.steering.slots,
                           "max_fields": scenario.steering.max_fields}
    if shared_pipeline:
        doc["pipeline"] = pipelines[0]
    doc["groups"] = []
    for g, r in enumerate(rows):
        group: dict = {"starts": geometry_numbers(scenario.starts[r]), "targets": geometry_numbers(scenario.targets[r])}
        areas = scenario.goal_areas[scenario.goal_area_groups == g]
        if len(areas):
            group["goal_areas"] = geometry_numbers(areas)
        if not shared_agents and agents[g]:
            group["agents"] = agents[g]
        if not shared_pipeline and pipelines[g] is not None:
            group["pipeline"] = pipelines[g]
        doc["groups"].append(group)
    return header + _compact(tomli_w.dumps(doc))


def _geometry(scenario) -> dict:
    table: dict = {"bounds": list(scenario.bounds)}
    if len(scenario.circles):
        table["circles"] = geometry_numbers(scenario.circles)
    if len(scenario.segments):
        table["walls"] = geometry_numbers(scenario.segments)
    if scenario.polygons:
        table["polygons"] = [geometry_numbers(p) for p in scenario.polygons]
    if scenario.moving:
        table["moving"] = [_moving_table(body) for body in scenario.moving]
    return table


def _moving_table(body: MovingBody) -> dict:
    """``body``'s fields that differ from their defaults; geometry to the bit."""
    default = MovingBody(body.kind, body.shape)
    table: dict = {"kind": body.kind, "shape": geometry_numbers(body.shape)}
    for name in MOVING_KEYS[2:]:
        value = getattr(body, name)
        if name == "waypoints":
            if value is not None:
                table[name] = geometry_numbers(value)
        elif value != getattr(default, name):
            table[name] = list(value) if isinstance(value, tuple) else value
    return table


def _group_agents(parameters: dict, rows: np.ndarray, n: int) -> dict:
    out = {}
    for name, value in parameters.items():
        if name not in AGENT_KEYS:
            raise ValueError(f"agent_parameters: a file holds {', '.join(AGENT_KEYS)}, got {name!r}")
        if np.ndim(value) and len(value) == n:
            part = np.asarray(value)[rows]
            out[name] = tidy(part[0]) if (part == part[0]).all() else part.tolist()
        else:
            out[name] = value.item() if isinstance(value, np.generic) else value
    return out


# tomli-w writes every number of an array on a line of its own: the innermost arrays of
# numbers are put back on one line each ([x, y] per agent).
_INNER = re.compile(r"\[\n((?:[ ]*[-+0-9.eEinfa]+,\n)+)[ ]*\]")


def _compact(text: str) -> str:
    return _INNER.sub(lambda m: "[" + ", ".join(v.strip().rstrip(",") for v in m.group(1).splitlines()) + "]", text)
