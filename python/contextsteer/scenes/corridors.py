"""Ways past obstacles: pillars in a corridor, a narrow corridor of many bends, a U-shaped trap."""

from __future__ import annotations

import math

import numpy as np

from .._internal import validation as check
from .._internal.scene_shapes import field_of_places, offset_polyline, scatter_inside, wall
from .scenario import Scenario, agent_count, scene_length, scene_rng


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
    agents = agent_count(agents, 1)
    rng = scene_rng(seed)
    half_width = 4.0
    walls = np.concatenate([wall(-2, 42, half_width + 0.6, 0.6), wall(-2, 42, -half_width - 0.6, 0.6),
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
        circles=np.concatenate([walls, pillars]),
        bounds=(-3.5, -5.5, 42.5, 5.5),
    )


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
    agents = agent_count(agents, 1)
    width = scene_length("width", width)
    bends = check.count("bends", bends, minimum=2, maximum=1000)
    leg = scene_length("leg", leg)
    angle = check.number("angle", angle, above=0.0, maximum=80.0)
    spacing = scene_length("spacing", spacing)
    rng = scene_rng(seed)
    entry = (agents + 0.5) * spacing
    turn = math.radians(angle)
    headings = [0.0] + [turn if k % 2 == 0 else -turn for k in range(bends - 1)] + [0.0]
    lengths = [entry] + [leg] * bends
    steps = np.array([[length * math.cos(h), length * math.sin(h)] for h, length in zip(headings, lengths)])
    centre = np.concatenate([[[0.0, 0.0]], np.cumsum(steps, axis=0)])
    left, right = offset_polyline(centre, width / 2), offset_polyline(centre, -width / 2)
    segments = np.concatenate([
        np.column_stack([left[:-1], left[1:]]),
        np.column_stack([right[:-1], right[1:]]),
        [[0.0, -width / 2, 0.0, width / 2]],  # the closed end
    ])
    starts = np.column_stack([spacing * (np.arange(agents, 0, -1) - 0.5) + rng.uniform(-0.15, 0.15, agents) * spacing,
                              np.zeros(agents)])
    end = centre[-1]
    targets, area = field_of_places(agents, end[0] + 2.0, 6.0, 1.2, rng, "the field past the corridor")
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
    agents = agent_count(agents, 1)
    cup_width = scene_length("cup_width", cup_width)
    cup_depth = scene_length("cup_depth", cup_depth)
    if cup_width < 2.2:
        raise ValueError(f"cup_width: expected at least 2.2 m (a start block 1.2 m high inside the arms), "
                         f"got {cup_width}")
    rng = scene_rng(seed)
    half = cup_width / 2
    rows = max(1, math.floor((cup_width - 1.0) / 1.2))
    block_depth = math.ceil(agents / rows) * 1.2
    front = -cup_depth - 2.0
    starts = scatter_inside(agents, (front - block_depth, -rows * 0.6, front, rows * 0.6), 1.2, rng,
                      "the start block in front of the cup")
    targets, area = field_of_places(agents, 2.0, cup_width, 1.2, rng, "the field behind the cup")
    segments = np.array([
        [0.0, -half, 0.0, half],               # the bottom
        [-cup_depth, half, 0.0, half],         # the north arm
        [-cup_depth, -half, 0.0, -half],       # the south arm
    ])
    reach = half + 4.0
    return Scenario("u_trap", starts, targets, (front - block_depth - 1.0, -reach, area[2] + 1.0, reach),
                    segments=segments, goal_areas=area[None])
