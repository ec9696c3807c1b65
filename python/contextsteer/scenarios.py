"""Ready-made scenes for demos, notebooks and sweeps: the standard tests of crowd and
steering methods, each a function of a few sizes and a seed.

| scene | what it tests |
| --- | --- |
| :func:`corridor` | finding a way past pillars in a corridor |
| :func:`swap` | two crowds walking through each other, head on |
| :func:`circle` | agents on a circle crossing to the opposite point: everyone meets in the middle |
| :func:`crossing` | two streams crossing at right angles |
| :func:`bottleneck` | a room emptying through a narrow door |
| :func:`two_way_door` | two crowds swapping rooms through one door, both ways at once |
| :func:`four_way` | four groups, from north, south, east and west, crossing a square |
| :func:`zigzag` | a single file through a corridor 1.5 agents wide with many bends |
| :func:`u_trap` | a U-shaped cup of walls open toward the agents, the goal behind it |

Lengths are in metres, up to 1,000 m; a scene holds up to 1,000,000 agents.
A :class:`Scenario` holds only geometry; :meth:`Scenario.world` puts it in a
:class:`~contextsteer.World` with the steering and agent parameters of your choice.
The scenes of several groups, each with a goal of its own (the door, the four-way
crossing), number them in :attr:`Scenario.groups`.

A scenario can also carry its steering, its agents' parameters and how long to run it
(:class:`~contextsteer.RunSettings`): a whole experiment, which :meth:`Scenario.save`
writes to a TOML file and :meth:`Scenario.load` reads (see docs/scenario-files.md).
Every scene of the demo ships as such a file (:func:`builtin`).

All the public scenes share this one module, their namespace, which takes it just past
500 lines.
"""

from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import _validation as check
from ._arguments import counted
from ._scene_shapes import _box_walls, _field_of_places, _offset_polyline, _scatter, _scatter_inside, _wall


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
        ``(xmin, ymin, xmax, ymax)`` of the area worth plotting, metres (the order of
        :attr:`World.bounds`).
    obstacles : ndarray, shape (m, 3), optional
        Circles as x, y, radius in metres.
    segments : ndarray, shape (k, 4), optional
        Walls as x0, y0, x1, y1 in metres.
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
        Vertex arrays, metres, each an obstacle (as for :class:`~contextsteer.World`).
    moving : tuple of MovingBody, optional
        :class:`~contextsteer.moving_scenes.MovingBody` obstacles that move (none for most
        scenes; scenario files do not describe them).
    steering : Pipeline or sequence of Pipeline, optional
        The scene's steering, or one per group.
    agent_parameters : dict, optional
        The agents' parameters of :meth:`World.add_agents
        <contextsteer.World.add_agents>` (radius, max_speed, ...), each a number or ``(n,)``.
    run : RunSettings, optional
        The step, the length of the run, what is recorded.

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
    obstacles: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
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
        # Plain floats, whatever arithmetic built them (NumPy scalars would show in reprs).
        object.__setattr__(self, "bounds", tuple(float(b) for b in self.bounds))
        for name, rows in (("groups", len(self.starts)), ("goal_area_groups", len(self.goal_areas))):
            value = np.asarray(getattr(self, name), dtype=np.int64)
            object.__setattr__(self, name, np.zeros(rows, dtype=np.int64) if len(value) == 0 else value)
        object.__setattr__(self, "polygons", tuple(np.asarray(p, dtype=np.float64) for p in self.polygons))

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
        held = [(len(self.starts), "agent"), (len(self.obstacles), "circle"), (len(self.segments), "wall")]
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
        ``targets``, the circles, walls and polygons as obstacles. ``steering`` and the
        keyword arguments (max_speed, radius, threads, ...) are those of ``World``; without
        a steering, the scenario's own :attr:`steering`, with its :attr:`agent_parameters`
        (the keyword arguments given override them).

        A scene of several groups also takes a sequence of steerings, one per group: the
        agents of group ``g`` are steered by ``steering[g]``; the world's rows keep the
        order of :attr:`starts` either way. Either way the world's ``groups`` are
        :attr:`groups` (unless given): one pipeline whose :class:`~contextsteer.FollowField`
        holds a field per group (``FollowField([field0, field1])``) steers every group.

        Parameters
        ----------
        steering : Pipeline, classic.Steering or sequence of them, optional
            The steering, or one per group; the scenario's own when None.
        **agent_parameters
            Keyword arguments of :class:`~contextsteer.World` and
            :meth:`~contextsteer.World.add_agents` (max_speed, radius, threads, ...).

        Returns
        -------
        World
            A new world of this scene.

        Raises
        ------
        ValueError
            No steering given and none of its own, or not one steering per group.

        Examples
        --------
        >>> import contextsteer as cs
        >>> scene = cs.scenarios.circle(agents=8)
        >>> world = scene.world(cs.Pipeline([cs.Seek(), cs.Avoid(agents=True)]), max_speed=1.3)
        >>> len(world), float(world.max_speed[0])
        (8, 1.2999999523162842)
        """
        from .world import World

        if steering is None:
            if self.steering is None:
                raise ValueError(f"steering: scenario {self.name!r} has no steering of its own; pass one")
            steering = self.steering
            agent_parameters = {**self.agent_parameters, **agent_parameters}
        obstacles = {"circles": self.obstacles, "segments": self.segments}
        if self.polygons:
            obstacles["polygons"] = list(self.polygons)
        if len(self.groups) and "groups" not in agent_parameters:
            agent_parameters["groups"] = self.groups
        if isinstance(steering, (list, tuple)):
            if len(steering) != self.group_count:
                raise ValueError(f"steering: expected one steering per group of scenario {self.name!r} "
                                 f"({self.group_count}), got {len(steering)}")
            of_world = {k: agent_parameters.pop(k) for k in _WORLD_PARAMETERS & set(agent_parameters)}
            world = World(steering[0], **obstacles, **of_world)
            _add_bodies(world, self.moving)
            cuts = [0, *(np.flatnonzero(np.diff(self.groups)) + 1).tolist(), len(self.groups)]
            for begin, end in zip(cuts[:-1], cuts[1:]):
                rows = slice(begin, end)
                world.add_agents(self.starts[rows], steering=steering[int(self.groups[begin])],
                                 targets=self.targets[rows], **_rows_of(agent_parameters, rows, len(self.starts)))
            return world
        return _add_bodies(World(steering, self.starts, targets=self.targets, **obstacles, **agent_parameters),
                           self.moving)

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
        from .scenario_file import load

        return load(path)

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
        from .scenario_file import save

        save(self, path)

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
        from .navigation import NavigationField

        if group is not None:
            group = check.count("group", group, maximum=self.group_count - 1)
        if goals is None and goal_areas is None:
            areas = self.goal_areas if group is None else self.goal_areas[self.goal_area_groups == group]
            if len(areas):
                goal_areas = areas
            else:
                goals = self.targets if group is None else self.targets[self.groups == group]
        return NavigationField(goals, goal_areas=goal_areas, area=self.bounds, cell=cell, clearance=clearance,
                               keep_right=keep_right, circles=self.obstacles, segments=self.segments,
                               polygons=list(self.polygons) or None)


def _add_bodies(world, bodies):
    from .moving_scenes import add_bodies

    add_bodies(world, bodies)
    return world


_WORLD_PARAMETERS = {"threads", "keep_maps", "bounds", "polygons", "goals", "contact"}  # of World, not of its agents


def _rows_of(parameters: dict, rows: slice, n: int) -> dict:
    """The agent parameters of ``rows``: per-agent arrays ``(n,)`` cut, numbers as they are."""
    return {name: value[rows] if np.ndim(value) and len(value) == n else value for name, value in parameters.items()}


# Scenes are built in NumPy, place by place: these bounds keep a slip of the keyboard
# (1e30 metres, 10**12 agents) a clear error instead of an attempt at a huge array.
MAX_AGENTS = 1_000_000
MAX_LENGTH = 1000.0  # metres


def _agents(value, minimum: int) -> int:
    return check.count("agents", value, minimum=minimum, maximum=MAX_AGENTS)


def _length(name: str, value, *, positive: bool = True) -> float:
    """A length of the scene in metres: > 0 (or >= 0 unless ``positive``), at most MAX_LENGTH."""
    if positive:
        return check.number(name, value, above=0.0, maximum=MAX_LENGTH)
    return check.number(name, value, minimum=0.0, maximum=MAX_LENGTH)


def _rng(seed) -> np.random.Generator:
    return np.random.default_rng(check.count("seed", seed, maximum=2**128))


def corridor(agents: int = 12, *, seed: int = 0) -> Scenario:
    """The path-finding corridor: agents start at the west end of a corridor
    8 m wide and 40 m long and must reach a target at the east end, past pillars.

    Parameters
    ----------
    agents : int, default 12
        How many agents, scattered over the start area.
    seed : int, default 0
        Of the random placement (the same seed gives the same scene).

    Returns
    -------
    Scenario
        The scene.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.scenarios.corridor(agents=6)
    Scenario('corridor': 6 agents, 114 circles, 0 walls, bounds=(-3.5, -5.5, 42.5, 5.5))
    """
    agents = _agents(agents, 1)
    rng = _rng(seed)
    half_width = 4.0
    walls = np.concatenate([_wall(-2, 42, half_width + 0.6, 0.6), _wall(-2, 42, -half_width - 0.6, 0.6),
                            np.array([[-2.6, y, 0.6] for y in np.arange(-4.6, 4.7, 0.9)])])
    # Each pillar either closes one side of the corridor or leaves a gap over 2 m wide:
    # chase + avoid find their way past such pillars without a planner.
    pillars = np.array([
        [10.0, 2.2, 1.8],
        [17.0, -2.0, 1.8],
        [24.0, 0.0, 1.5],
        [31.0, -2.5, 1.5],
        [35.5, 2.6, 1.1],
    ])
    starts = np.column_stack([rng.uniform(0.5, 4.0, agents), rng.uniform(-3.0, 3.0, agents)])
    return Scenario(
        name="corridor",
        starts=starts,
        targets=np.tile([39.0, 0.0], (agents, 1)),
        obstacles=np.concatenate([walls, pillars]),
        bounds=(-3.5, -5.5, 42.5, 5.5),
    )


def swap(agents: int = 400, *, spacing: float = 5.0, columns: int = 10, gap: float = 65.0, seed: int = 0) -> Scenario:
    """Two crowds swap sides, head on: half the agents (the west crowd) face the other
    half across ``gap`` metres, and each heads for its mirror image across x = 0.

    Each crowd stands on a grid ``columns`` wide with ``spacing`` metres between places
    (``spacing**2`` m^2 per agent), as many rows as it needs, centred on y = 0; the agents
    take places at random and stand up to 0.3 ``spacing`` off them, so that no two touch
    for radii under 0.2 ``spacing``.

    Parameters
    ----------
    agents : int, default 400
        How many agents.
    spacing : float, default 5
        Metres between places.
    columns : int, default 10
        Places across each crowd's grid.
    gap : float, default 65
        Metres between the crowds.
    seed : int, default 0
        Of the random placement (the same seed gives the same scene).

    Returns
    -------
    Scenario
        The scene.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.scenarios.swap(agents=20)
    Scenario('swap': 20 agents, 0 circles, 0 walls, bounds=(-82.5, -7.5, 82.5, 7.5))
    """
    agents = _agents(agents, 2)
    spacing = _length("spacing", spacing)
    columns = check.count("columns", columns, minimum=1, maximum=MAX_AGENTS)
    gap = _length("gap", gap, positive=False)
    rng = _rng(seed)
    west_count, east_count = agents // 2, agents - agents // 2
    rows = math.ceil(east_count / columns)
    gx, gy = np.meshgrid(np.arange(columns) * spacing + gap / 2, (np.arange(rows) - (rows - 1) / 2) * spacing)
    places = np.column_stack([gx.ravel(), gy.ravel()])
    east = places[rng.permutation(len(places))[:east_count]]
    west = places[rng.permutation(len(places))[:west_count]] * [-1, 1]
    starts = np.concatenate([west, east]) + rng.uniform(-0.3 * spacing, 0.3 * spacing, (agents, 2))
    reach = gap / 2 + columns * spacing
    half_height = rows * spacing / 2 + spacing
    return Scenario("swap", starts, starts * [-1, 1], (-reach, -half_height, reach, half_height))


def circle(agents: int = 32, *, radius: float = 20.0, jitter: float = 0.0, seed: int | None = None) -> Scenario:
    """Agents evenly spaced on a circle of ``radius`` metres around the origin, each
    heading for the opposite point: every path crosses the centre at once. ``seed`` turns
    the circle by a random angle (None: agent 0 starts on +x); each start then moves by up
    to ``jitter`` metres along x and y, at random (by ``seed``, or 0 when None), while the
    targets stay where they are.

    Reactive avoidance jams in the middle here. With a cosine lobe toward the target
    (Arrive + Avoid) agents stop when the way ahead is blocked; with ``sideways`` interest
    (``cs.Arrive(sideways=0.5)``) they go round once the circle is jittered. The exact
    circle, symmetric to the last bit, still locks into a ring round the centre; with
    ``cs.Avoid(agents=True, keep_right=0.3)`` as well, 8 or 32 agents get across, 16 do not.

    Parameters
    ----------
    agents : int, default 32
        How many agents.
    radius : float, default 20
        Metres.
    jitter : float, default 0
        Metres each start moves by at most, along x and y.
    seed : int, optional
        Turns the circle and draws the jitter (None: agent 0 on +x, no turn).

    Returns
    -------
    Scenario
        The scene.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.scenarios.circle(agents=8)
    Scenario('circle': 8 agents, 0 circles, 0 walls, bounds=(-23, -23, 23, 23))
    """
    agents = _agents(agents, 1)
    radius = _length("radius", radius)
    jitter = _length("jitter", jitter, positive=False)
    rng = _rng(0 if seed is None else seed)
    turn = 0.0 if seed is None else float(rng.uniform(0, 2 * np.pi))
    angles = turn + 2 * np.pi * np.arange(agents) / agents
    targets = -radius * np.column_stack([np.cos(angles), np.sin(angles)])
    starts = -targets + (rng.uniform(-jitter, jitter, (agents, 2)) if jitter else 0.0)
    margin = radius * 1.15 + jitter
    return Scenario("circle", starts, targets, (-margin, -margin, margin, margin))


def crossing(agents: int = 40, *, width: float = 10.0, depth: float = 20.0, approach: float = 10.0,
             seed: int = 0) -> Scenario:
    """Two streams cross at right angles: the first half of the agents walk east, the
    others north, each in a lane ``width`` metres wide through the origin. A stream starts
    as a block ``depth`` metres deep whose front is ``approach`` metres before the origin
    (agents at random places of a grid 1.5 m apart), and each agent heads for its mirror
    image through the crossing: (x, y) -> (-x, y) walking east, (x, y) -> (x, -y) north.

    Parameters
    ----------
    agents : int, default 40
        How many agents.
    width : float, default 10
        Metres, each lane's width.
    depth : float, default 20
        Metres, each stream's depth.
    approach : float, default 10
        Metres from a stream's front to the origin.
    seed : int, default 0
        Of the random placement (the same seed gives the same scene).

    Returns
    -------
    Scenario
        The scene.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.scenarios.crossing(agents=10)
    Scenario('crossing': 10 agents, 0 circles, 0 walls, bounds=(-32, -32, 32, 32))
    """
    agents = _agents(agents, 2)
    width = _length("width", width)
    depth = _length("depth", depth)
    approach = _length("approach", approach, positive=False)
    rng = _rng(seed)
    block = (-approach - depth, -width / 2, -approach, width / 2)
    east = _scatter(agents - agents // 2, block, 1.5, rng, f"a lane block of {width} x {depth} m")
    north = _scatter(agents // 2, block, 1.5, rng, f"a lane block of {width} x {depth} m")[:, ::-1]
    starts = np.concatenate([east, north])
    targets = np.concatenate([east * [-1, 1], north * [1, -1]])
    reach = approach + depth + 2
    return Scenario("crossing", starts, targets, (-reach, -reach, reach, reach))


def bottleneck(agents: int = 50, *, door: float = 1.6, room: float = 12.0, seed: int = 0) -> Scenario:
    """A square room ``room`` metres wide empties through a door ``door`` metres wide in
    the middle of its east wall. The agents start at random places of a grid 1 m apart in
    the room's west half (up to 0.2 m off them). Each heads for a place of its own, at
    random, on a grid 2 m apart in a field that starts 3 m east of the door, as high as
    the room and as deep as a quarter more places than agents take: its
    :attr:`~Scenario.goal_areas`.

    Reactive steering finds its limits here: an agent pressed against the wall beside the
    door, its target behind the wall, has no interest along the wall and stops. A
    :class:`~contextsteer.FollowField` over :meth:`~Scenario.navigation_field` (to the
    field outside) leads the crowd out by the door; those that are out walk on to their
    places instead of stopping in front of it.

    Parameters
    ----------
    agents : int, default 50
        How many agents.
    door : float, default 1.6
        Metres.
    room : float, default 12
        Metres.
    seed : int, default 0
        Of the random placement (the same seed gives the same scene).

    Returns
    -------
    Scenario
        The scene.

    Raises
    ------
    ValueError
        A count or length out of range, or agents that do not fit.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.scenarios.bottleneck(agents=10)
    Scenario('bottleneck': 10 agents, 0 circles, 5 walls, 1 goal area, bounds=(-7, -7, 16, 7))
    """
    agents = _agents(agents, 1)
    door = _length("door", door)
    room = _length("room", room)
    if door >= room:
        raise ValueError(f"door: expected a door narrower than the room ({room} m), got {door}")
    rng = _rng(seed)
    half = room / 2
    starts = _scatter(agents, (-half + 0.5, -half + 0.5, -0.5, half - 0.5), 1.0, rng,
                      f"the west half of a room {room} m wide")
    segments = np.array([
        [-half, -half, half, -half],        # south
        [-half, half, half, half],          # north
        [-half, -half, -half, half],        # west
        [half, -half, half, -door / 2],     # east, below the door
        [half, door / 2, half, half],       # east, above the door
    ])
    # Each agent a place of its own outside, 2 m apart, 3 m clear of the door: a single
    # point would count as reached by the few agents that fit around it, and places packed
    # right outside the door would fill with the first agents out and plug it.
    spacing, rows = 2.0, max(1, math.floor(room / 2.0))
    columns = math.ceil(1.25 * agents / rows)
    outside = np.array([[half + 3, -rows * spacing / 2, half + 3 + columns * spacing, rows * spacing / 2]])
    targets = _scatter(agents, tuple(outside[0]), spacing, rng, "the field outside")
    bounds = (-half - 1, -half - 1, outside[0, 2] + 1, half + 1)
    return Scenario("bottleneck", starts, targets, bounds, segments=segments, goal_areas=outside)


def two_way_door(agents: int = 200, *, door: float = 1.8, room: float = 14.0, height: float = 16.0,
                 clear: float = 2.0, seed: int = 0) -> Scenario:
    """Two rooms ``room`` metres deep and ``height`` high side by side, x < 0 and x > 0,
    joined by one door ``door`` metres wide in the middle of the wall between them (the
    default is three widths of the demo's 0.6 m agents). The first half of the agents
    (group 0) start in the west room and want the east one, the others (group 1) the other
    way round: the two crowds meet in the door.

    Starts and targets are random places of a grid 1.2 m apart (each up to 0.24 m off its
    place, so no two closer than 0.72 m), kept ``clear`` metres away from the middle wall,
    0.5 m from the others; each group's :attr:`~Scenario.goal_areas` is the part of its
    room beyond ``clear``.

    Parameters
    ----------
    agents : int, default 200
        How many agents.
    door : float, default 1.8
        Metres.
    room : float, default 14
        Metres, each room's depth.
    height : float, default 16
        Metres.
    clear : float, default 2
        Metres kept free on each side of the middle wall.
    seed : int, default 0
        Of the random placement (the same seed gives the same scene).

    Returns
    -------
    Scenario
        The scene.

    Raises
    ------
    ValueError
        A count or length out of range, or agents that do not fit.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.scenarios.two_way_door(agents=20)
    Scenario('two_way_door': 20 agents, 0 circles, 6 walls, 2 goal areas, bounds=(-14.5, -8.5, 14.5, 8.5))
    """
    agents = _agents(agents, 2)
    door = _length("door", door)
    room = _length("room", room)
    height = _length("height", height)
    clear = _length("clear", clear, positive=False)
    if door >= height:
        raise ValueError(f"door: expected a door narrower than the rooms' height ({height} m), got {door}")
    if clear + 1.2 > room - 0.5:
        raise ValueError(f"clear: expected at most {room - 1.7:g} m in a room {room} m deep, got {clear}")
    rng = _rng(seed)
    half = height / 2
    west, east = agents // 2, agents - agents // 2
    west_box = (-room + 0.5, -half + 0.5, -clear, half - 0.5)
    east_box = (clear, -half + 0.5, room - 0.5, half - 0.5)
    what = f"a room {room} x {height} m ({clear} m clear of the door)"
    starts = np.concatenate([_scatter_inside(west, west_box, 1.2, rng, what),
                             _scatter_inside(east, east_box, 1.2, rng, what)])
    targets = np.concatenate([_scatter_inside(west, east_box, 1.2, rng, what),
                              _scatter_inside(east, west_box, 1.2, rng, what)])
    segments = np.concatenate([
        _box_walls(-room, -half, room, half),
        [[0.0, -half, 0.0, -door / 2], [0.0, door / 2, 0.0, half]],  # the middle wall, each side of the door
    ])
    goal_areas = np.array([[clear, -half, room, half], [-room, -half, -clear, half]])
    return Scenario("two_way_door", starts, targets, (-room - 0.5, -half - 0.5, room + 0.5, half + 0.5),
                    segments=segments, goal_areas=goal_areas, groups=np.repeat([0, 1], [west, east]),
                    goal_area_groups=np.array([0, 1]))


def four_way(agents: int = 200, *, square: float = 12.0, depth: float = 8.0, seed: int = 0) -> Scenario:
    """Four groups cross an open square ``square`` metres wide centred on the origin, each
    from one side to the opposite one: group 0 from the west walks east, 1 from the east
    west, 2 from the south north and 3 from the north south (a quarter of the agents each,
    the first groups one more when they do not divide evenly). A group starts as a block
    as wide as the square and ``depth`` metres deep, its front at the square's edge
    (random places of a grid 1.2 m apart, each up to 0.24 m off), and each agent heads for
    its mirror image through the square's centre line across its way: the west group's
    (x, y) -> (-x, y). Each group's :attr:`~Scenario.goal_areas` is the block its targets
    lie in. No walls.

    Parameters
    ----------
    agents : int, default 200
        How many agents.
    square : float, default 12
        Metres.
    depth : float, default 8
        Metres, each group's depth.
    seed : int, default 0
        Of the random placement (the same seed gives the same scene).

    Returns
    -------
    Scenario
        The scene.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.scenarios.four_way(agents=20)
    Scenario('four_way': 20 agents, 0 circles, 0 walls, 4 goal areas, bounds=(-15, -15, 15, 15))
    """
    agents = _agents(agents, 4)
    square = _length("square", square)
    depth = _length("depth", depth)
    rng = _rng(seed)
    counts = [agents // 4 + (1 if g < agents % 4 else 0) for g in range(4)]
    half = square / 2
    block = (-half - depth, -half, -half, half)  # the west group's, turned for the others
    what = f"a block of {square} x {depth} m"
    west = _scatter_inside(counts[0], block, 1.2, rng, what)
    east = _scatter_inside(counts[1], block, 1.2, rng, what) * [-1, 1]
    south = _scatter_inside(counts[2], block, 1.2, rng, what)[:, ::-1]
    north = _scatter_inside(counts[3], block, 1.2, rng, what)[:, ::-1] * [1, -1]
    starts = np.concatenate([west, east, south, north])
    targets = np.concatenate([west * [-1, 1], east * [-1, 1], south * [1, -1], north * [1, -1]])
    goal_areas = np.array([[half, -half, half + depth, half], [-half - depth, -half, -half, half],
                           [-half, half, half, half + depth], [-half, -half - depth, half, -half]])
    reach = half + depth + 1
    return Scenario("four_way", starts, targets, (-reach, -reach, reach, reach), goal_areas=goal_areas,
                    groups=np.repeat(np.arange(4), counts), goal_area_groups=np.arange(4))


def zigzag(agents: int = 10, *, width: float = 0.9, bends: int = 8, leg: float = 3.0, angle: float = 45.0,
           spacing: float = 1.2, seed: int = 0) -> Scenario:
    """A narrow corridor ``width`` metres wide (the default: 1.5 diameters of the demo's
    0.3 m agents) with ``bends`` bends, walked in single file. Its centre line runs east
    along y = 0 from a closed end, long enough for the agents ``spacing`` metres apart,
    then in legs ``leg`` metres long turned ``angle`` degrees north and south of east in
    turn (bends - 1 of them), then east again for ``leg`` metres to the open end. The
    agents start on the centre line of the first leg, the first one ``spacing`` metres from
    the closed end and each moved by up to 0.15 ``spacing`` along it at random (``seed``);
    each heads for a place of its own at random on a grid 1.2 m apart in a field that
    starts 2 m past the open end (its :attr:`~Scenario.goal_areas`).

    Parameters
    ----------
    agents : int, default 10
        How many agents.
    width : float, default 0.9
        Metres.
    bends : int, default 8
        How many bends.
    leg : float, default 3
        Metres, each leg's length.
    angle : float, default 45
        Degrees the legs turn from east.
    spacing : float, default 1.2
        Metres between agents.
    seed : int, default 0
        Of the random placement (the same seed gives the same scene).

    Returns
    -------
    Scenario
        The scene.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.scenarios.zigzag(agents=4)
    Scenario('zigzag': 4 agents, 0 circles, 19 walls, 1 goal area, bounds=(-1, -1.87868, 27.4492, 6.12132))
    """
    agents = _agents(agents, 1)
    width = _length("width", width)
    bends = check.count("bends", bends, minimum=2, maximum=1000)
    leg = _length("leg", leg)
    angle = check.number("angle", angle, above=0.0, maximum=80.0)
    spacing = _length("spacing", spacing)
    rng = _rng(seed)
    entry = (agents + 0.5) * spacing
    turn = math.radians(angle)
    headings = [0.0] + [turn if k % 2 == 0 else -turn for k in range(bends - 1)] + [0.0]
    lengths = [entry] + [leg] * bends
    steps = np.array([[length * math.cos(h), length * math.sin(h)] for h, length in zip(headings, lengths)])
    centre = np.concatenate([[[0.0, 0.0]], np.cumsum(steps, axis=0)])
    left, right = _offset_polyline(centre, width / 2), _offset_polyline(centre, -width / 2)
    segments = np.concatenate([
        np.column_stack([left[:-1], left[1:]]),
        np.column_stack([right[:-1], right[1:]]),
        [[0.0, -width / 2, 0.0, width / 2]],  # the closed end
    ])
    starts = np.column_stack([spacing * (np.arange(agents, 0, -1) - 0.5) + rng.uniform(-0.15, 0.15, agents) * spacing,
                              np.zeros(agents)])
    end = centre[-1]
    targets, area = _field_of_places(agents, end[0] + 2.0, 6.0, 1.2, rng, "the field past the corridor")
    targets[:, 1] += end[1]
    area[[1, 3]] += end[1]
    corners = np.concatenate([left, right, area.reshape(2, 2)])
    low, high = corners.min(axis=0) - 1.0, corners.max(axis=0) + 1.0
    return Scenario("zigzag", starts, targets, (low[0], low[1], high[0], high[1]), segments=segments,
                    goal_areas=area[None])


def u_trap(agents: int = 20, *, cup_width: float = 6.0, cup_depth: float = 4.0, seed: int = 0) -> Scenario:
    """A U-shaped cup of three walls open to the west: its bottom on x = 0 from
    y = -cup_width / 2 to cup_width / 2, its arms reaching ``cup_depth`` metres west. The
    agents start west of the cup, in a block as high as its mouth (0.5 m in from the arms)
    whose front is 2 m before the mouth (random places of a grid 1.2 m apart, each up to
    0.24 m off), and each heads for a place of its own behind the cup (a grid 1.2 m apart
    in a field from 2 m east of the bottom, as high as the cup: its
    :attr:`~Scenario.goal_areas`): walking straight at its target leads into the cup.
    :attr:`~Scenario.bounds` leave 4 m round the cup to walk round it.

    Parameters
    ----------
    agents : int, default 20
        How many agents.
    cup_width : float, default 6
        Metres.
    cup_depth : float, default 4
        Metres.
    seed : int, default 0
        Of the random placement (the same seed gives the same scene).

    Returns
    -------
    Scenario
        The scene.

    Raises
    ------
    ValueError
        A count or length out of range, or agents that do not fit.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.scenarios.u_trap(agents=6)
    Scenario('u_trap': 6 agents, 0 circles, 3 walls, 1 goal area, bounds=(-9.4, -7, 5.4, 7))
    """
    agents = _agents(agents, 1)
    cup_width = _length("cup_width", cup_width)
    cup_depth = _length("cup_depth", cup_depth)
    if cup_width < 2.2:
        raise ValueError(f"cup_width: expected at least 2.2 m (a start block 1.2 m high inside the arms), "
                         f"got {cup_width}")
    rng = _rng(seed)
    half = cup_width / 2
    rows = max(1, math.floor((cup_width - 1.0) / 1.2))
    block_depth = math.ceil(agents / rows) * 1.2
    front = -cup_depth - 2.0
    starts = _scatter_inside(agents, (front - block_depth, -rows * 0.6, front, rows * 0.6), 1.2, rng,
                      "the start block in front of the cup")
    targets, area = _field_of_places(agents, 2.0, cup_width, 1.2, rng, "the field behind the cup")
    segments = np.array([
        [0.0, -half, 0.0, half],               # the bottom
        [-cup_depth, half, 0.0, half],         # the north arm
        [-cup_depth, -half, 0.0, -half],       # the south arm
    ])
    reach = half + 4.0
    return Scenario("u_trap", starts, targets, (front - block_depth - 1.0, -reach, area[2] + 1.0, reach),
                    segments=segments, goal_areas=area[None])


def builtin(name: str) -> Scenario:
    """The built-in scene ``name`` (one of :data:`contextsteer.demo.SCENES` or
    :data:`contextsteer.moving_scenes.MOVING_SCENES`) as its file in the package holds it:
    geometry, moving obstacles, steering, agent parameters and run, loaded with
    :meth:`Scenario.load`. The same scenario as :func:`contextsteer.demo.scene_setup` (or
    :func:`~contextsteer.moving_scenes.moving_scene_setup`) builds, to the bit.

    Parameters
    ----------
    name : str
        One of :data:`contextsteer.demo.SCENES` or
        :data:`contextsteer.moving_scenes.MOVING_SCENES`.

    Returns
    -------
    Scenario
        The scene.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.scenarios.builtin("corridor")
    Scenario('corridor': 12 agents, 114 circles, 0 walls, bounds=(-3.5, -5.5, 42.5, 5.5))
    """
    from .scenario_file import builtin_path

    return Scenario.load(builtin_path(name))


__all__ = ["Scenario", "bottleneck", "builtin", "circle", "corridor", "crossing", "four_way", "swap", "two_way_door",
           "u_trap",
           "zigzag"]
