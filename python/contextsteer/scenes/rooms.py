"""Rooms and doors: a room emptying through its door, two crowds swapping rooms through one door."""

from __future__ import annotations

import math

import numpy as np

from .._internal.scene_shapes import box_walls, scatter, scatter_inside
from .scenario import Scenario, agent_count, scene_length, scene_rng


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
    agents = agent_count(agents, 1)
    door = scene_length("door", door)
    room = scene_length("room", room)
    if door >= room:
        raise ValueError(f"door: expected a door narrower than the room ({room} m), got {door}")
    rng = scene_rng(seed)
    half = room / 2
    starts = scatter(agents, (-half + 0.5, -half + 0.5, -0.5, half - 0.5), 1.0, rng,
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
    targets = scatter(agents, tuple(outside[0]), spacing, rng, "the field outside")
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
    agents = agent_count(agents, 2)
    door = scene_length("door", door)
    room = scene_length("room", room)
    height = scene_length("height", height)
    clear = scene_length("clear", clear, positive=False)
    if door >= height:
        raise ValueError(f"door: expected a door narrower than the rooms' height ({height} m), got {door}")
    if clear + 1.2 > room - 0.5:
        raise ValueError(f"clear: expected at most {room - 1.7:g} m in a room {room} m deep, got {clear}")
    rng = scene_rng(seed)
    half = height / 2
    west, east = agents // 2, agents - agents // 2
    west_box = (-room + 0.5, -half + 0.5, -clear, half - 0.5)
    east_box = (clear, -half + 0.5, room - 0.5, half - 0.5)
    what = f"a room {room} x {height} m ({clear} m clear of the door)"
    starts = np.concatenate([scatter_inside(west, west_box, 1.2, rng, what),
                             scatter_inside(east, east_box, 1.2, rng, what)])
    targets = np.concatenate([scatter_inside(west, east_box, 1.2, rng, what),
                              scatter_inside(east, west_box, 1.2, rng, what)])
    segments = np.concatenate([
        box_walls(-room, -half, room, half),
        [[0.0, -half, 0.0, -door / 2], [0.0, door / 2, 0.0, half]],  # the middle wall, each side of the door
    ])
    goal_areas = np.array([[clear, -half, room, half], [-room, -half, -clear, half]])
    return Scenario("two_way_door", starts, targets, (-room - 0.5, -half - 0.5, room + 0.5, half + 0.5),
                    segments=segments, goal_areas=goal_areas, groups=np.repeat([0, 1], [west, east]),
                    goal_area_groups=np.array([0, 1]))
