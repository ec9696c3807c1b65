"""Crowds that meet in the open: two crowds head on, a circle crossing at its centre, two
streams at right angles, four groups crossing a square."""

from __future__ import annotations

import math

import numpy as np

from .._internal import validation as check
from .._internal.scene_shapes import scatter, scatter_inside
from .scenario import MAX_AGENTS, Scenario, agent_count, scene_length, scene_rng


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
    agents = agent_count(agents, 2)
    spacing = scene_length("spacing", spacing)
    columns = check.count("columns", columns, minimum=1, maximum=MAX_AGENTS)
    gap = scene_length("gap", gap, positive=False)
    rng = scene_rng(seed)
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
    agents = agent_count(agents, 1)
    radius = scene_length("radius", radius)
    jitter = scene_length("jitter", jitter, positive=False)
    rng = scene_rng(0 if seed is None else seed)
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
    agents = agent_count(agents, 2)
    width = scene_length("width", width)
    depth = scene_length("depth", depth)
    approach = scene_length("approach", approach, positive=False)
    rng = scene_rng(seed)
    block = (-approach - depth, -width / 2, -approach, width / 2)
    east = scatter(agents - agents // 2, block, 1.5, rng, f"a lane block of {width} x {depth} m")
    north = scatter(agents // 2, block, 1.5, rng, f"a lane block of {width} x {depth} m")[:, ::-1]
    starts = np.concatenate([east, north])
    targets = np.concatenate([east * [-1, 1], north * [1, -1]])
    reach = approach + depth + 2
    return Scenario("crossing", starts, targets, (-reach, -reach, reach, reach))


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
    agents = agent_count(agents, 4)
    square = scene_length("square", square)
    depth = scene_length("depth", depth)
    rng = scene_rng(seed)
    counts = [agents // 4 + (1 if g < agents % 4 else 0) for g in range(4)]
    half = square / 2
    block = (-half - depth, -half, -half, half)  # the west group's, turned for the others
    what = f"a block of {square} x {depth} m"
    west = scatter_inside(counts[0], block, 1.2, rng, what)
    east = scatter_inside(counts[1], block, 1.2, rng, what) * [-1, 1]
    south = scatter_inside(counts[2], block, 1.2, rng, what)[:, ::-1]
    north = scatter_inside(counts[3], block, 1.2, rng, what)[:, ::-1] * [1, -1]
    starts = np.concatenate([west, east, south, north])
    targets = np.concatenate([west * [-1, 1], east * [-1, 1], south * [1, -1], north * [1, -1]])
    goal_areas = np.array([[half, -half, half + depth, half], [-half - depth, -half, -half, half],
                           [-half, half, half, half + depth], [-half, -half - depth, half, -half]])
    reach = half + depth + 1
    return Scenario("four_way", starts, targets, (-reach, -reach, reach, reach), goal_areas=goal_areas,
                    groups=np.repeat(np.arange(4), counts), goal_area_groups=np.arange(4))
