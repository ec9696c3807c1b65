"""A scene: where agents start, where each one goes and what stands in the way
(:class:`Scenario`), and the bounds and checks every scene's builder shares.

Lengths are in metres, up to 1,000 m; a scene holds up to 1,000,000 agents.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._internal import shapely_input
from .._internal import validation as check
from .._internal.arguments import counted
from ..model.navigation import NavigationField
from ..model.world import World
from ..recipes.crowd_steering import CrowdSteering
from . import file_format
from . import scenario_checks as checks
from .moving_bodies import MovingBody, add_bodies
from .scenario_checks import MAX_AGENTS as MAX_AGENTS  # the largest scene
from .scenario_checks import MAX_LENGTH as MAX_LENGTH  # metres


def _same(a, b) -> bool:
    """Whether two field values are equal, arrays (by shape and value), tuples and
    dataclasses compared element by element."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.shape(a) == np.shape(b) and bool(np.array_equal(a, b))
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if dataclasses.is_dataclass(a) and type(a) is type(b):
        return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    return bool(a == b)


@dataclass(frozen=True)
class Scenario:
    """A scene: where agents start, where each one goes and what stands in the way.

    ``steering``, ``agent_parameters`` and ``run`` are the experiment, for :meth:`world`
    without arguments, :meth:`save` and the command line (None or empty for a scene of
    geometry alone).

    Parameters
    ----------
    name : str
        The scene's name.
    starts, targets : ndarray, shape (n, 2)
        Each agent's start and target, metres.
    bounds : tuple of 4 floats
        ``(xmin, ymin, xmax, ymax)``, metres: the scene's walls, as :attr:`World.bounds
        <contextsteer.World.bounds>` (every world of the scene has them, on every layer;
        every start and target lies within them), and the area its fields and plots cover.
    circles : ndarray, shape (m, 3), optional
        Circles as x, y, radius in metres (``obstacles``, the name before, still works, with
        a DeprecationWarning, until the next release).
    segments : ndarray, shape (k, 4), optional
        Walls as x0, y0, x1, y1 in metres (or shapely lines, rings and polygons, each edge a
        wall, or their WKT; the ``shapely`` extra for WKT).
    goal_areas : ndarray, shape (k, 4), optional
        Rectangles ``(xmin, ymin, xmax, ymax)`` in metres that the agents head for as a
        whole (the field beyond an exit, holding their targets), for
        :meth:`navigation_field`; none for most scenes.
    groups : ndarray of int, shape (n,), optional
        The group of each agent, 0 to ``g - 1`` (all 0 when not given); the agents of a
        group share a goal and are listed together, group by group.
    goal_area_groups : ndarray of int, shape (k,), optional
        The group each goal area is for (all 0 when not given).
    polygons : tuple of ndarray of shape (k, 2), optional
        Vertex arrays, metres, each an obstacle (as for :class:`~contextsteer.World`), or
        shapely (multi)polygons or their WKT; goal areas may be shapely boxes too.
    moving : tuple of MovingBody, optional
        :class:`~contextsteer.moving_scenes.MovingBody` obstacles that move (none for most
        scenes; scenario files do not describe them).
    steering : Pipeline, sequence of Pipeline or CrowdSteering, optional
        The scene's steering, or one per group.
    agent_parameters : dict, optional
        The agents' parameters of :meth:`World.add_agents
        <contextsteer.World.add_agents>` (radius, max_speed, ...), each a number or ``(n,)``.
    run : RunSettings, optional
        The step, the length of the run, what is recorded.

    Raises
    ------
    ValueError
        A field of the wrong shape, a NaN, an infinite value or one beyond +-1e9, a negative
        radius, bounds inside out, a start or target outside the bounds, or groups that are
        not whole numbers from 0: one error naming the field and the row.
    TypeError
        A field of the wrong kind of object (a string for an array, say).

    Examples
    --------
    >>> import contextsteer as cs
    >>> scene = cs.scenarios.corridor(agents=4)
    >>> scene.starts.shape, scene.group_count
    ((4, 2), 1)
    >>> world = scene.world(cs.Pipeline([cs.Seek(), cs.Avoid(agents=True)]))
    >>> len(world)
    4
    """

    name: str
    starts: np.ndarray
    targets: np.ndarray
    bounds: tuple[float, float, float, float]
    circles: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    segments: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    goal_areas: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    groups: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    goal_area_groups: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    polygons: tuple = ()
    moving: tuple = ()
    steering: Any = field(default=None, compare=False)
    agent_parameters: dict = field(default_factory=dict, compare=False)
    run: Any = field(default=None, compare=False)

    def __post_init__(self):
        if not isinstance(self.name, str):
            raise TypeError(f"name: expected a str, got {type(self.name).__name__}")
        # Walls, goal areas and polygons given as shapely geometries or WKT: their arrays.
        for name, convert in (("segments", shapely_input.segments), ("goal_areas", shapely_input.rectangles),
                              ("polygons", shapely_input.polygons)):
            if shapely_input.has_geometry(getattr(self, name)):
                object.__setattr__(self, name, convert(name, getattr(self, name)))
        # Checked as World checks them, kept as float64 (plain floats for the bounds).
        bounds = checks.bounds(self.bounds)
        starts, targets = checks.agents(self.starts, self.targets)
        checks.inside("starts", starts, bounds)
        checks.inside("targets", targets, bounds)
        goal_areas = checks.rectangles(self.goal_areas)
        checked = {"bounds": bounds, "starts": starts, "targets": targets, "circles": checks.circles(self.circles),
                   "segments": checks.rows("segments", self.segments, 4, "x0, y0, x1, y1"),
                   "goal_areas": goal_areas, "polygons": checks.polygons(self.polygons),
                   "groups": checks.group_numbers("groups", self.groups, len(starts)),
                   "goal_area_groups": checks.group_numbers("goal_area_groups", self.goal_area_groups,
                                                            len(goal_areas))}
        for name, value in checked.items():
            object.__setattr__(self, name, value)
        if not isinstance(self.moving, (tuple, list)) or not all(isinstance(m, MovingBody) for m in self.moving):
            raise TypeError(f"moving: expected a tuple of MovingBody, got {self.moving!r:.80}")
        object.__setattr__(self, "moving", tuple(self.moving))
        if not isinstance(self.agent_parameters, dict):
            raise TypeError(f"agent_parameters: expected a dict, got {type(self.agent_parameters).__name__}")

    def __setstate__(self, state: dict) -> None:
        # A pickle of before holds the circles as obstacles.
        if "obstacles" in state:
            state = {**state, "circles": state["obstacles"]}
            del state["obstacles"]
        self.__dict__.update(state)

    @property
    def obstacles(self) -> np.ndarray:
        """:attr:`circles`, by the name it had before (deprecated: DeprecationWarning)."""
        warnings.warn(_OBSTACLES_RENAMED, DeprecationWarning, stacklevel=2)
        return self.circles

    def __eq__(self, other) -> bool:
        # The same scene: name, agents, obstacles, areas, groups and moving bodies, arrays
        # by value; the experiment (steering, agent_parameters, run) is not compared.
        if not isinstance(other, Scenario):
            return NotImplemented
        return all(_same(getattr(self, f.name), getattr(other, f.name)) for f in dataclasses.fields(self) if f.compare)

    @property
    def group_count(self) -> int:
        """How many groups the agents form (1 for the scenes of one goal)."""
        return int(self.groups.max()) + 1 if len(self.groups) else 1

    def __repr__(self) -> str:
        # What the scene holds, not every coordinate of it.
        held = [(len(self.starts), "agent"), (len(self.circles), "circle"), (len(self.segments), "wall")]
        if self.polygons:
            held.append((len(self.polygons), "polygon"))
        if len(self.goal_areas):
            held.append((len(self.goal_areas), "goal area"))
        if self.moving:
            held.append((len(self.moving), "moving obstacle"))
        counts = ", ".join(counted(n, noun) for n, noun in held)
        bounds = ", ".join(f"{b:g}" for b in self.bounds)
        return f"Scenario({self.name!r}: {counts}, bounds=({bounds}))"

    @property
    def target(self) -> np.ndarray:
        """``(2,)`` the target every agent shares, metres; ValueError when they differ."""
        if len(self.targets) == 0 or not (self.targets == self.targets[0]).all():
            raise ValueError(f"target: the agents of scenario {self.name!r} do not share one target; use targets")
        return self.targets[0]

    def world(self, steering=None, **agent_parameters):
        """A :class:`~contextsteer.World` of this scene: agents at ``starts`` with their
        ``targets``, the circles, walls and polygons as obstacles, and the scene's
        :attr:`bounds` as the world's bounds (walls on every layer, so that every agent of
        every run stays within them). ``steering`` and the
        keyword arguments (max_speed, radius, threads, ...) are those of ``World``; without
        a steering, the scenario's own :attr:`steering`, with its :attr:`agent_parameters`
        (the keyword arguments given override them).

        A :class:`~contextsteer.CrowdSteering` built for this scene steers it as
        :meth:`CrowdSteering.world <contextsteer.CrowdSteering.world>` does.

        A scene of several groups also takes a sequence of steerings, one per group: the
        agents of group ``g`` are steered by ``steering[g]``; the world's rows keep the
        order of :attr:`starts` either way. Either way the world's ``groups`` are
        :attr:`groups` (unless given): one pipeline whose :class:`~contextsteer.FollowField`
        holds a field per group (``FollowField([field0, field1])``) steers every group.

        Parameters
        ----------
        steering : Pipeline, classic.Steering, CrowdSteering or sequence of them, optional
            The steering, or one per group; the scenario's own when None.
        **agent_parameters
            Keyword arguments of :class:`~contextsteer.World` and
            :meth:`~contextsteer.World.add_agents` (max_speed, radius, threads, ...);
            ``bounds`` given replace the scene's (None: no walls round the scene).

        Returns
        -------
        World
            A new world of this scene.

        Raises
        ------
        ValueError
            No steering given and none of its own, not one steering per group, or a
            crowd steering built for another scene.

        Examples
        --------
        >>> import contextsteer as cs
        >>> scene = cs.scenarios.circle(agents=8)
        >>> world = scene.world(cs.Pipeline([cs.Seek(), cs.Avoid(agents=True)]), max_speed=1.3)
        >>> len(world), float(world.max_speed[0])
        (8, 1.2999999523162842)
        """
        if steering is None:
            if self.steering is None:
                raise ValueError(f"steering: scenario {self.name!r} has no steering of its own; pass one")
            steering = self.steering
            agent_parameters = {**self.agent_parameters, **agent_parameters}
        if isinstance(steering, CrowdSteering):
            if steering.scene is not self and steering.scene != self:
                raise ValueError(f"steering: expected a crowd steering built for scenario {self.name!r}, got one "
                                 f"built for {steering.scene!r}")
            return steering.world(**agent_parameters)
        obstacles = {"circles": self.circles, "segments": self.segments}
        if self.polygons:
            obstacles["polygons"] = list(self.polygons)
        if len(self.groups) and "groups" not in agent_parameters:
            agent_parameters["groups"] = self.groups
        agent_parameters.setdefault("bounds", self.bounds)
        if isinstance(steering, (list, tuple)):
            if len(steering) != self.group_count:
                raise ValueError(f"steering: expected one steering per group of scenario {self.name!r} "
                                 f"({self.group_count}), got {len(steering)}")
            of_world = {k: agent_parameters.pop(k) for k in _WORLD_PARAMETERS & set(agent_parameters)}
            world = World(steering[0], **obstacles, **of_world)
            add_bodies(world, self.moving)
            cuts = [0, *(np.flatnonzero(np.diff(self.groups)) + 1).tolist(), len(self.groups)]
            for begin, end in zip(cuts[:-1], cuts[1:]):
                rows = slice(begin, end)
                world.add_agents(self.starts[rows], steering=steering[int(self.groups[begin])],
                                 targets=self.targets[rows], **_rows_of(agent_parameters, rows, len(self.starts)))
            return world
        world = World(steering, self.starts, targets=self.targets, **obstacles, **agent_parameters)
        add_bodies(world, self.moving)
        return world

    @classmethod
    def load(cls, path: str | os.PathLike) -> Scenario:
        """The scenario of a TOML file (docs/scenario-files.md): geometry, agents, steering
        and run.

        Parameters
        ----------
        path : str or os.PathLike
            The file.

        Returns
        -------
        Scenario
            The scenario it describes.

        Raises
        ------
        ScenarioFileError
            A ValueError naming the file and the key of what is wrong.
        OSError
            The file cannot be read.

        Examples
        --------
        >>> import os, tempfile
        >>> import contextsteer as cs
        >>> path = os.path.join(tempfile.mkdtemp(), "bottleneck.toml")
        >>> cs.scenarios.builtin("bottleneck").save(path)
        >>> cs.Scenario.load(path)
        Scenario('bottleneck': 50 agents, 0 circles, 5 walls, 1 goal area, bounds=(-7, -7, 32, 7))
        """
        return file_format.load(path, cls)

    def save(self, path: str | os.PathLike) -> None:
        """Writes this scenario as TOML, which :meth:`load` reads back to the same bits.

        Parameters
        ----------
        path : str or os.PathLike
            The file to write.

        Raises
        ------
        ValueError
            A steering a file cannot describe (a :class:`~contextsteer.PythonBehavior`, a
            classic steering).

        Examples
        --------
        >>> import os, tempfile
        >>> import contextsteer as cs
        >>> path = os.path.join(tempfile.mkdtemp(), "corridor.toml")
        >>> cs.scenarios.corridor(agents=3).save(path)
        >>> cs.Scenario.load(path).starts.shape
        (3, 2)
        """
        file_format.save(self, path)

    def navigation_field(self, *, goals=None, goal_areas=None, cell: float = 0.25, clearance: float = 0.0,
                         keep_right: float = 0.0, group: int | None = None):
        """A :class:`~contextsteer.NavigationField` over :attr:`bounds` round this scene's
        circles and walls, to ``goals`` ``(k, 2)`` and ``goal_areas`` ``(k, 4)``. When
        neither is given: the scene's own :attr:`goal_areas` if it has some, else every
        agent's target (each agent is then led to the nearest one); with ``group``, only
        those of that group.

        Parameters
        ----------
        goals : array_like, shape (k, 2), optional
            Goal points, metres.
        goal_areas : array_like, shape (k, 4), optional
            Goal rectangles ``(xmin, ymin, xmax, ymax)``, metres.
        cell : float, default 0.25
            Cell size, metres.
        clearance : float, default 0
            Metres kept from the obstacles, as for the field.
        keep_right : float, default 0
            Metres, as for the field.
        group : int, optional
            The group whose goals are taken.

        Returns
        -------
        NavigationField
            The field.

        Examples
        --------
        >>> import contextsteer as cs
        >>> field = cs.scenarios.builtin("bottleneck").navigation_field(cell=0.5, clearance=0.3)
        >>> field.cell
        0.5
        """
        if group is not None:
            group = check.count("group", group, maximum=self.group_count - 1)
        if goals is None and goal_areas is None:
            areas = self.goal_areas if group is None else self.goal_areas[self.goal_area_groups == group]
            if len(areas):
                goal_areas = areas
            else:
                goals = self.targets if group is None else self.targets[self.groups == group]
        return NavigationField(goals, goal_areas=goal_areas, area=self.bounds, cell=cell, clearance=clearance,
                               keep_right=keep_right, circles=self.circles, segments=self.segments,
                               polygons=list(self.polygons) or None)


_OBSTACLES_RENAMED = ("Scenario: obstacles is now circles (as World names them); the name obstacles is deprecated "
                      "and will be removed in the next release")


@functools.wraps(Scenario.__init__)
def _init_taking_obstacles(self, *args, **kwargs):
    """Scenario's ``__init__``, taking ``obstacles=`` (deprecated) for ``circles=``."""
    if "obstacles" in kwargs:
        if "circles" in kwargs:
            raise TypeError("Scenario: expected circles or obstacles (its name before), got both")
        warnings.warn(_OBSTACLES_RENAMED, DeprecationWarning, stacklevel=2)
        kwargs["circles"] = kwargs.pop("obstacles")
    _dataclass_init(self, *args, **kwargs)


_dataclass_init = Scenario.__init__
Scenario.__init__ = _init_taking_obstacles  # type: ignore[method-assign]

_WORLD_PARAMETERS = {"threads", "keep_maps", "bounds", "polygons", "goals", "contact"}  # of World, not of its agents


def _rows_of(parameters: dict, rows: slice, n: int) -> dict:
    """The agent parameters of ``rows``: per-agent arrays ``(n,)`` cut, numbers as they are."""
    return {name: value[rows] if np.ndim(value) and len(value) == n else value for name, value in parameters.items()}


# Scenes are built in NumPy, place by place: MAX_AGENTS and MAX_LENGTH keep a slip of the
# keyboard (1e30 metres, 10**12 agents) a clear error instead of an attempt at a huge array.
def agent_count(value, minimum: int) -> int:
    return check.count("agents", value, minimum=minimum, maximum=MAX_AGENTS)


def scene_length(name: str, value, *, positive: bool = True) -> float:
    """A length of the scene in metres: > 0 (or >= 0 unless ``positive``), at most MAX_LENGTH."""
    if positive:
        return check.number(name, value, above=0.0, maximum=MAX_LENGTH)
    return check.number(name, value, minimum=0.0, maximum=MAX_LENGTH)


def scene_rng(seed) -> np.random.Generator:
    return np.random.default_rng(check.count("seed", seed, maximum=2**128))
