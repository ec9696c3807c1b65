"""Ready-made scenes for demos, notebooks and sweeps: the standard tests of crowd and
steering methods, each a function of a few sizes and a seed.

| scene | what it tests |
| --- | --- |
| :func:`corridor` | finding a way past pillars in a corridor (seed 000) |
| :func:`swap` | two crowds walking through each other, head on |
| :func:`circle` | agents on a circle crossing to the opposite point: everyone meets in the middle |
| :func:`crossing` | two streams crossing at right angles |
| :func:`bottleneck` | a room emptying through a narrow door |

Lengths are in metres, up to 1,000 m; a scene holds up to 1,000,000 agents.
A :class:`Scenario` holds only geometry; :meth:`Scenario.world` puts it in a
:class:`~contextsteer.World` with the steering and agent parameters of your choice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from . import _validation as check
from ._arguments import counted


@dataclass(frozen=True)
class Scenario:
    """A scene: where agents start, where each one goes and what stands in the way.

    starts, targets: ``(n, 2)`` each agent's start and target, metres.
    obstacles: ``(m, 3)`` circles as x, y, radius in metres.
    segments: ``(k, 4)`` walls as x0, y0, x1, y1 in metres.
    bounds: ``(xmin, ymin, xmax, ymax)`` of the area worth plotting, metres (the order of
    :attr:`World.bounds`).
    goal_areas: ``(k, 4)`` rectangles ``(xmin, ymin, xmax, ymax)`` in metres that the
    agents head for as a whole (the field beyond an exit, holding their targets), for
    :meth:`navigation_field`; none for most scenes.
    """

    name: str
    starts: np.ndarray
    targets: np.ndarray
    bounds: tuple[float, float, float, float]
    obstacles: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    segments: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    goal_areas: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))

    def __post_init__(self):
        # Plain floats, whatever arithmetic built them (NumPy scalars would show in reprs).
        object.__setattr__(self, "bounds", tuple(float(b) for b in self.bounds))

    def __repr__(self) -> str:
        # What the scene holds, not every coordinate of it.
        held = [(len(self.starts), "agent"), (len(self.obstacles), "circle"), (len(self.segments), "wall")]
        if len(self.goal_areas):
            held.append((len(self.goal_areas), "goal area"))
        counts = ", ".join(counted(n, noun) for n, noun in held)
        bounds = ", ".join(f"{b:g}" for b in self.bounds)
        return f"Scenario({self.name!r}: {counts}, bounds=({bounds}))"

    @property
    def target(self) -> np.ndarray:
        """``(2,)`` the target every agent shares, metres; ValueError when they differ."""
        if len(self.targets) == 0 or not (self.targets == self.targets[0]).all():
            raise ValueError(f"target: the agents of scenario {self.name!r} do not share one target; use targets")
        return self.targets[0]

    def world(self, steering, **agent_parameters):
        """A :class:`~contextsteer.World` of this scene: agents at ``starts`` with their
        ``targets``, the circles and walls as obstacles. ``steering`` and the keyword
        arguments (max_speed, radius, threads, ...) are those of ``World``."""
        from .world import World

        return World(steering, self.starts, targets=self.targets, circles=self.obstacles, segments=self.segments,
                     **agent_parameters)

    def navigation_field(self, *, goals=None, goal_areas=None, cell: float = 0.25, clearance: float = 0.0):
        """A :class:`~contextsteer.NavigationField` over :attr:`bounds` round this scene's
        circles and walls, to ``goals`` ``(k, 2)`` and ``goal_areas`` ``(k, 4)``. When
        neither is given: the scene's own :attr:`goal_areas` if it has some, else every
        agent's target (each agent is then led to the nearest one). ``cell`` and
        ``clearance`` in metres."""
        from .navigation import NavigationField

        if goals is None and goal_areas is None:
            if len(self.goal_areas):
                goal_areas = self.goal_areas
            else:
                goals = self.targets
        return NavigationField(goals, goal_areas=goal_areas, area=self.bounds, cell=cell, clearance=clearance,
                               circles=self.obstacles, segments=self.segments)


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


def _wall(x0: float, x1: float, y: float, radius: float) -> np.ndarray:
    """A straight wall of touching circles from x0 to x1 at height y."""
    xs = np.arange(x0, x1 + 1e-9, radius * 1.5)
    return np.column_stack([xs, np.full_like(xs, y), np.full_like(xs, radius)])


def _scatter(count: int, box: tuple[float, float, float, float], spacing: float, rng: np.random.Generator,
             what: str) -> np.ndarray:
    """``(count, 2)`` positions at random places of a grid of ``spacing`` metres inside
    box = (xmin, ymin, xmax, ymax), each up to 0.2 ``spacing`` off its place: no two
    closer than 0.6 ``spacing``. ValueError naming ``what`` when the box has too few places."""
    x0, y0, x1, y1 = box
    xs = np.arange(x0 + spacing / 2, x1, spacing)
    ys = np.arange(y0 + spacing / 2, y1, spacing)
    if count > len(xs) * len(ys):
        raise ValueError(f"agents: {what} holds at most {len(xs) * len(ys)} agents {spacing} m apart, got {count}")
    gx, gy = np.meshgrid(xs, ys)
    places = np.column_stack([gx.ravel(), gy.ravel()])
    return places[rng.permutation(len(places))[:count]] + rng.uniform(-0.2, 0.2, (count, 2)) * spacing


def corridor(agents: int = 12, *, seed: int = 0) -> Scenario:
    """The path-finding corridor (seed 000): agents start at the west end of a corridor
    8 m wide and 40 m long and must reach a target at the east end, past pillars.

    agents: how many agents, scattered over the start area with ``seed``.
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
    ``cs.Avoid(agents=True, keep_right=0.3)`` as well, 8 or 32 agents get across, 16 do not."""
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
    image through the crossing: (x, y) -> (-x, y) walking east, (x, y) -> (x, -y) north."""
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
    places instead of stopping in front of it."""
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


__all__ = ["Scenario", "bottleneck", "circle", "corridor", "crossing", "swap"]
