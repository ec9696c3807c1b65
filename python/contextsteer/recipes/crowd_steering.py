"""One crowd steering for any scene: :func:`crowd_steering` builds, from a scene's
geometry and its agents' goals, the pipeline, the agents' groups and the world's goals and
contact stage that take a crowd home through doors, crossings, corridors and round traps.
What must vary with the scene (the navigation fields' cells and clearance, their lanes, the
groups) is derived from its geometry, its agents' radius and the slots; nothing is tuned
per scene.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._internal import validation as check
from ..model.behaviors import Anticipate, Avoid, FollowField
from ..model.contact import Contact
from ..model.goals import Goals
from ..model.navigation import NavigationField
from ..model.obstacle_overlap import bodies_in_obstacles, distances_to_obstacles
from ..model.pipeline import Pipeline
from ..model.world import World

# Arrived agents step aside for those still coming; a face-off that lasts 3 s is settled.
CROWD_GOALS = Goals(arrival="give_way", patience=3.0)
# Overlapping agents are pushed apart to within 10 um of touching and no body ends a step
# in a wall; half of each push falls on the agent that walked into the other, so that
# a standing agent is not shoved about by those passing; contacts are not events (a dense
# crowd touches at every step).
CROWD_CONTACT = Contact(slop=1e-5, events=False, motion_share=0.5)
# Metres: the smallest side of the squares a crowd's own targets are grouped by (each
# square a goal area, the field's way ending at it and going on straight to the target).
GOAL_SQUARE = 2.0
LANES = 2.25  # metres the fields keep right by where several groups may meet
MAKE_WAY = 0.6  # Anticipate's make_way where the way is wide enough for two agents abreast
# Seconds between the crowd's re-marches of the fields of up to CROWD_FIELDS groups; more
# groups are re-marched less often, in proportion, so that the re-march costs a step no
# more than that of CROWD_FIELDS fields.
CROWD_EVERY = 0.5
CROWD_FIELDS = 4
TURN_BACK = 0.5  # the pipeline's turn_back: a jammed agent turns back only for half its pace
TURN_BACK_WAIT = 10.0  # seconds without progress after which a jammed agent turns back freely
_FINE_CELL = 0.1  # metres: the cell of the fields where the coarse one finds no way
_SCENE_FIELDS = ("starts", "targets", "bounds", "obstacles", "segments", "polygons", "groups", "goal_areas",
                 "goal_area_groups")


@dataclass(frozen=True)
class CrowdSteering:
    """What :func:`crowd_steering` builds for a scene: ``crowd.world(max_speed=...)`` is
    the crowd's world (or ``scene.world(crowd, ...)``).

    Parameters
    ----------
    pipeline : Pipeline
        The one pipeline of every agent.
    pipelines : tuple of Pipeline
        The same, one per group, each following its group's field alone (for
        :meth:`Scenario.world <contextsteer.Scenario.world>` with a steering per group, and
        for scenario files, which describe one field per pipeline).
    groups : ndarray of int, shape (n,)
        Each agent's group: the navigation field it follows is ``fields[groups[i]]``.
    fields : tuple of NavigationField
        One per group.
    goals : Goals
        The world's goals.
    contact : Contact
        The world's contact stage.
    radius : float
        Metres: the agents' radius it was built for (its fields keep that clearance).
    slots : int
        Slots of its context maps.
    max_fields : int
        At most this many groups of the agents' own targets, as :func:`crowd_steering` took it.
    scene : Scenario
        The scene it was built for (its starts, targets and obstacles).

    Examples
    --------
    >>> import numpy as np
    >>> import contextsteer as cs
    >>> scene = cs.Scenario("one", np.array([[0.0, 0.0]]), np.array([[5.0, 0.0]]), bounds=(-1, -2, 6, 2))
    >>> crowd = cs.crowd_steering(scene, radius=0.3)
    >>> sorted(crowd.world_parameters), len(crowd.fields)
    (['contact', 'goals', 'groups'], 1)
    >>> world = crowd.world(max_speed=1.4)
    >>> len(world), float(world.radius[0])
    (1, 0.30000001192092896)
    """

    pipeline: Pipeline
    pipelines: tuple
    groups: np.ndarray
    fields: tuple
    goals: Goals
    contact: Contact
    radius: float
    slots: int
    max_fields: int
    scene: Any = field(repr=False, compare=False)

    def __repr__(self) -> str:
        # What it holds, not every field and pipeline.
        return (f"CrowdSteering({len(self.groups)} agents, {len(self.fields)} fields, radius={self.radius:g}, "
                f"slots={self.slots}, max_fields={self.max_fields})")

    @property
    def world_parameters(self) -> dict:
        """``groups``, ``goals`` and ``contact``, as :class:`~contextsteer.World` and
        :meth:`Scenario.world <contextsteer.Scenario.world>` take them."""
        return {"groups": self.groups, "goals": self.goals, "contact": self.contact}

    @property
    def per_group(self) -> bool:
        """Whether each group has a pipeline of its own in :meth:`world`: where the
        crowd's groups are the scene's (the scenes of several goal areas), each group
        makes way by the room on its own way; elsewhere every agent follows
        :attr:`pipeline`."""
        return bool(np.array_equal(self.groups, self.scene.groups))

    def world(self, **agent_parameters) -> World:
        """The crowd's :class:`~contextsteer.World`: the scene's agents at their starts
        with their targets, its obstacles (the moving ones too), steered by this crowd
        steering (:attr:`pipelines`, one per group, where :attr:`per_group`, else
        :attr:`pipeline`), with its :attr:`groups`, :attr:`goals` and :attr:`contact`.

        Parameters
        ----------
        **agent_parameters
            Keyword arguments of :class:`~contextsteer.World` and
            :meth:`~contextsteer.World.add_agents` (max_speed, max_acceleration, threads,
            ...). ``radius`` is :attr:`radius` when not given, and may be no larger (a
            number or ``(n,)``); ``goals`` and ``contact`` given replace the crowd's
            (``contact=None``: no contact stage).

        Returns
        -------
        World
            A new world of the scene.

        Raises
        ------
        ValueError
            A radius larger than :attr:`radius`, or ``groups`` given (the crowd's
            groups are its fields').

        Examples
        --------
        >>> import numpy as np
        >>> import contextsteer as cs
        >>> starts = np.array([[-8.0, 0.5], [8.0, -0.5]])
        >>> scene = cs.Scenario("two", starts, -starts, bounds=(-10, -4, 10, 4), obstacles=[[0.0, 0.0, 1.0]])
        >>> world = cs.crowd_steering(scene, radius=0.3).world(max_speed=1.4, max_acceleration=4.0)
        >>> world.contact is not None, world.groups.tolist()
        (True, [1, 0])
        """
        if "groups" in agent_parameters:
            raise ValueError("groups: the crowd steering sets each agent's group (CrowdSteering.groups, one per "
                             "field); build it again from a scene of other groups instead")
        radius = agent_parameters.pop("radius", self.radius)
        check.real_array("radius", radius)  # numbers: the world checks each agent's
        largest = float(np.max(np.asarray(radius, dtype=np.float64), initial=0.0))
        if largest > self.radius * (1 + 1e-9):
            raise ValueError(f"radius: expected at most {self.radius:g} m, the radius the crowd steering was built "
                             f"for (its fields keep that clearance from the obstacles; build it with "
                             f"crowd_steering(scene, radius={largest:g}) for larger agents), got {largest:g}")
        parameters = {"goals": self.goals, "contact": self.contact, "radius": radius, **agent_parameters}
        if self.per_group:
            return self.scene.world(self.pipelines, **parameters)
        return self.scene.world(self.pipeline, groups=self.groups, **parameters)


def crowd_steering(scene, *, radius: float, slots: int = 16, max_fields: int = 32) -> CrowdSteering:
    """The crowd steering of ``scene`` (a :class:`~contextsteer.Scenario`: its starts,
    targets, obstacles, walls, polygons, bounds, groups and goal areas) for agents of
    ``radius`` metres, with ``slots`` slots.

    Each group follows a navigation field (:class:`~contextsteer.FollowField`) round the
    obstacles to its goal, then on straight to each agent's own target
    (``to_target``), slowing within its last metre; it avoids the walls within 0.5 m and
    anticipates the other agents (:class:`~contextsteer.Anticipate`: within 3 m over
    0.5 s, keeping right, making way where there is room, taking 0.9 of the avoiding on
    itself, each slot as open as the clearest of its direction and its arc's edges:
    ``arc_edges``, and, where several groups may meet, not holding back for its group's
    agents farther back along the way: ``right_of_way``); danger multiplies interest, so
    that each agent walks at the pace that stays clear, and the choice leans toward the
    way it already walks (``hysteresis=1``); a jammed agent turns back only for at least half its pace
    (``turn_back=0.5``), and waits otherwise, for up to 10 s without progress
    (``turn_back_wait``); an arrived agent does not turn back at all.
    The world's goals (:data:`CROWD_GOALS`) step arrived agents aside and settle a face-off
    after 3 s; its contact stage (:data:`CROWD_CONTACT`) keeps bodies apart and out of the
    walls, half of each push falling on the agent that walked into the other.

    Derived from the scene:

    - groups: the scene's groups that have goal areas go to them; the agents of other
      groups are grouped by the square of :data:`GOAL_SQUARE` metres (larger, when the
      scene's spread would need more than ``max_fields`` fields) their target lies in,
      each square a goal area;
    - the fields keep ``radius`` from the obstacles on cells of 0.25 m; where that leaves
      an agent no way to its goal (a passage narrower than about twice the radius plus a
      cell), on cells of 0.1 m, with the clearance lowered down to half the radius;
    - where there are several groups, an agent goes before its group's agents farther
      back along the way (Anticipate's ``right_of_way``; in one group's file it only adds
      turns), and the fields keep right by :data:`LANES` metres and are marched again
      from the crowd (FollowField's ``crowd_density`` 0.5,
      ``crowd_counterflow`` 1), so that counter-flows split into lanes and a group's way
      bends round another's: every :data:`CROWD_EVERY` seconds for up to
      :data:`CROWD_FIELDS` groups, less often in proportion for more, so that a scene of
      many groups costs a step no more than four; one group walks one way and needs neither;
    - an agent makes way (Anticipate's ``make_way``) by :data:`MAKE_WAY` times the share
      of a body's width that the narrowest passage on its group's way leaves beside one
      body (all of it where two walk abreast, none where one barely passes; measured on
      cells of 0.1 m, so up to about a cell narrower than it is): where there is no room
      to step aside, stepping aside only stops the file;
    - at fewer than 16 slots walls are measured over the share ``slots / 16`` of each
      slot's arc (Avoid's ``wall_arc``), so that a corridor's way stays open.

    Parameters
    ----------
    scene : Scenario
        The scene (read through its fields; its steering is ignored).
    radius : float
        Metres, above 0: the agents' radius (:meth:`CrowdSteering.world` gives the
        world's agents this radius unless told a smaller one).
    slots : int, default 16
        Slots of the context maps, at least 4.
    max_fields : int, default 32
        At most this many squares of one's own targets (before squares near an obstacle
        are split, so that each sees all its targets), each a field: above 0.

    Returns
    -------
    CrowdSteering
        The pipeline, the groups, their fields, the world's goals and contact, and
        :meth:`CrowdSteering.world`, the crowd's world.

    Raises
    ------
    TypeError
        ``scene`` is not a scene.
    ValueError
        A bad ``radius``, ``slots`` or ``max_fields``; targets outside the scene's bounds;
        starts or targets in or touching an obstacle, or agents with no way to their
        goal, naming how many and which rows.

    Examples
    --------
    >>> import numpy as np
    >>> import contextsteer as cs
    >>> starts = np.array([[-8.0, 0.5], [8.0, -0.5]])
    >>> scene = cs.Scenario("two", starts, -starts, bounds=(-10, -4, 10, 4), obstacles=[[0.0, 0.0, 1.0]])
    >>> crowd = cs.crowd_steering(scene, radius=0.3)
    >>> crowd.groups, crowd.pipeline.slots
    (array([1, 0]), 16)
    >>> world = crowd.world(max_speed=1.4)
    >>> rec = world.run(400, 0.05)
    >>> bool((np.linalg.norm(world.positions - scene.targets, axis=1) < 0.6).all())
    True
    """
    check.having("scene", scene, _SCENE_FIELDS, "a contextsteer.Scenario")
    radius = check.number("radius", radius, above=0.0)
    slots = check.count("slots", slots, minimum=4)
    max_fields = check.count("max_fields", max_fields, minimum=1)
    starts = np.asarray(scene.starts, dtype=np.float64)
    targets = np.asarray(scene.targets, dtype=np.float64)
    obstacles = {"circles": scene.circles, "segments": scene.segments, "polygons": list(scene.polygons) or None}
    _check_places(starts, targets, scene.bounds, radius, obstacles)
    groups, areas = _goal_groups(scene, targets, radius, obstacles, max_fields)
    fields = tuple(_field(scene.bounds, goal_areas, starts[groups == g], g, np.flatnonzero(groups == g), radius,
                          LANES if len(areas) > 1 else 0.0, obstacles)
                   for g, goal_areas in enumerate(areas))
    crowd = 1.0 if len(areas) > 1 else 0.0
    every = CROWD_EVERY * max(1.0, len(fields) / CROWD_FIELDS)
    room = _room_beside(scene.bounds, areas, starts, groups, radius, obstacles)
    pipeline = _pipeline(list(fields) if len(fields) > 1 else fields[0], slots, crowd, every, MAKE_WAY * min(room))
    pipelines = tuple(_pipeline(field, slots, crowd, every, MAKE_WAY * r) for field, r in zip(fields, room))
    return CrowdSteering(pipeline, pipelines, groups, fields, CROWD_GOALS, CROWD_CONTACT, radius, slots, max_fields,
                         scene)


def _pipeline(field, slots: int, crowd: float, crowd_every: float, make_way: float) -> Pipeline:
    return Pipeline([
        FollowField(field, sideways=0.5, to_target=True, slowing_radius=1.0, crowd_density=0.5 * crowd,
                    crowd_counterflow=crowd, crowd_every=crowd_every),
        Avoid(max_distance=0.5, wall_arc=min(1.0, slots / 16)),
        Anticipate(radius=3.0, horizon=0.5, keep_right=0.3, make_way=make_way, responsibility=0.9, arc_edges=True,
                   right_of_way=crowd > 0)],
        slots=slots, select="blend", danger_mode="multiply", hysteresis=1.0, turn_back=TURN_BACK,
        turn_back_wait=TURN_BACK_WAIT)


def _rows(mask: np.ndarray, total: int) -> str:
    rows = np.flatnonzero(mask)
    shown = ", ".join(str(r) for r in rows[:10]) + (", ..." if len(rows) > 10 else "")
    return f"{len(rows)} of {total} (rows {shown})"


def _check_places(starts, targets, bounds, radius, obstacles) -> None:
    x0, y0, x1, y1 = bounds
    outside = (targets[:, 0] < x0) | (targets[:, 0] > x1) | (targets[:, 1] < y0) | (targets[:, 1] > y1)
    if outside.any():
        raise ValueError(f"scene: targets outside its bounds {tuple(bounds)}: {_rows(outside, len(targets))}")
    for what, points in (("starts", starts), ("targets", targets)):
        inside = bodies_in_obstacles(points, radius, **obstacles)
        if inside.any():
            raise ValueError(f"scene: {what} in or touching an obstacle (agents of radius {radius} m): "
                             f"{_rows(inside, len(points))}")


def _goal_groups(scene, targets, radius: float, obstacles: dict,
                 max_fields: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """Each agent's group and each group's goal areas: a scene group with goal areas of
    its own keeps them; the other agents are grouped by the square their target lies in
    (:func:`_squares`)."""
    scene_groups = np.asarray(scene.groups, dtype=np.int64)
    goal_areas = np.asarray(scene.goal_areas, dtype=np.float64).reshape(-1, 4)
    area_groups = np.asarray(scene.goal_area_groups, dtype=np.int64)
    groups = np.full(len(targets), -1, dtype=np.int64)
    areas: list[np.ndarray] = []
    for g in np.unique(scene_groups):
        if (area_groups == g).any():
            groups[scene_groups == g] = len(areas)
            areas.append(goal_areas[area_groups == g])
    rest = np.flatnonzero(groups < 0)
    if len(rest):
        # Squares on a grid through the middle of the bounds: a scene turned about it (or
        # mirrored) has its squares turned (or mirrored) with it.
        x0, y0 = (scene.bounds[0] + scene.bounds[2]) / 2, (scene.bounds[1] + scene.bounds[3]) / 2
        span = max(scene.bounds[2] - scene.bounds[0], scene.bounds[3] - scene.bounds[1])
        square = GOAL_SQUARE
        while True:  # keys: (scene group, square column, square row); one square past the span
            cells = np.floor((targets[rest] - [x0, y0]) / square) if square <= span else np.zeros((len(rest), 2))
            keys = np.column_stack([scene_groups[rest], cells])
            unique, which = np.unique(keys.astype(np.int64), axis=0, return_inverse=True)
            if len(unique) + len(areas) <= max_fields or square > span:
                break
            square *= 1.5
        which = which.ravel()
        for k, (_, i, j) in enumerate(unique):
            rows = rest[which == k]
            if square > span:  # a square over the whole scene: its bounds, one per scene group
                pieces = _squares(rows, targets, np.array(scene.bounds[:2], dtype=float), span, radius, obstacles)
            else:
                pieces = _squares(rows, targets, np.array([x0 + i * square, y0 + j * square]), square, radius,
                                  obstacles)
            for piece_rows, rectangle in pieces:
                groups[piece_rows] = len(areas)
                areas.append(rectangle[None, :])
    return groups, areas


def _squares(rows, targets, corner, size, radius, obstacles):
    """(rows, rectangle) pairs covering the targets of ``rows`` in the square at
    ``corner``: the square itself when no obstacle comes within ``radius`` of it (every
    point of it then sees every target in it), else its quarters, down to squares of
    4 radii; a target in a smaller square than that gets a square of its own, within the
    clear disc round it."""
    rectangle = np.array([*corner, *(corner + size)])
    if not _near_obstacle(rectangle, radius, obstacles):
        return [(rows, rectangle)]
    if size / 2 >= 4 * radius:
        out = []
        for quarter in ((0, 0), (1, 0), (0, 1), (1, 1)):
            low = corner + np.array(quarter) * size / 2
            inside = ((targets[rows] >= low) & (targets[rows] < low + size / 2)).all(axis=1)
            if inside.any():
                out += _squares(rows[inside], targets, low, size / 2, radius, obstacles)
        return out
    # Half the side of a square inside the disc of clearance round the target (at least
    # a sliver, so that the field has a goal).
    clear = np.maximum(_clearance(targets[rows], obstacles) - radius, 1e-3) / np.sqrt(2)
    return [([r], np.array([*(targets[r] - h), *(targets[r] + h)])) for r, h in zip(rows, clear)]


def _clearance(points, obstacles) -> np.ndarray:
    """``(m,)`` metres from each point to the nearest obstacle (inf with none)."""
    return distances_to_obstacles(points, **obstacles)


def _near_obstacle(rectangle, radius, obstacles) -> bool:
    """Whether an obstacle comes within ``radius`` of the rectangle ``(x0, y0, x1, y1)``:
    its centre's distance to the nearest obstacle below its half diagonal plus radius,
    tested on a grid of points half a radius apart over it."""
    x0, y0, x1, y1 = rectangle
    n = int(np.ceil((x1 - x0) / (0.5 * radius))) + 1
    xs, ys = np.meshgrid(np.linspace(x0, x1, n), np.linspace(y0, y1, n))
    points = np.column_stack([xs.ravel(), ys.ravel()])
    return bool((distances_to_obstacles(points, **obstacles) < 1.25 * radius).any())


def _room_beside(bounds, areas, starts, groups, radius, obstacles) -> list[float]:
    """Per group, the share (0 to 1) of a body's width (``2 radius``) that the narrowest
    passage on its way leaves beside one body: ``(w - 2 radius) / (2 radius)`` clipped,
    ``w`` twice the largest distance from the obstacles that a way from every start to the
    goal areas keeps (cells of :data:`_FINE_CELL`; a start counts as reached when the
    cells kept touch its clear disc)."""
    x0, y0, x1, y1 = bounds
    xs, ys = np.arange(x0, x1 + _FINE_CELL, _FINE_CELL), np.arange(y0, y1 + _FINE_CELL, _FINE_CELL)
    gx, gy = np.meshgrid(xs, ys)
    gaps = distances_to_obstacles(np.column_stack([gx.ravel(), gy.ravel()]), **obstacles).reshape(gx.shape)
    start_gaps = distances_to_obstacles(starts, **obstacles)
    rooms = []
    for g, goal_areas in enumerate(areas):
        goal = np.zeros(gx.shape, dtype=bool)
        for ax0, ay0, ax1, ay1 in goal_areas:
            goal |= (gx >= ax0) & (gx <= ax1) & (gy >= ay0) & (gy <= ay1)
        mine = np.flatnonzero(groups == g)
        low, high = radius, 2 * radius  # half widths: the way keeps `low`; is `high` kept?
        if _kept(gaps >= high, goal, gx, gy, starts[mine], start_gaps[mine]):
            rooms.append(1.0)
            continue
        for _ in range(6):
            middle = (low + high) / 2
            low, high = (middle, high) if _kept(gaps >= middle, goal, gx, gy, starts[mine], start_gaps[mine]) \
                else (low, middle)
        rooms.append(float(np.clip((2 * low - 2 * radius) / (2 * radius), 0.0, 1.0)))
    return rooms


def _kept(free, goal, gx, gy, starts, start_gaps) -> bool:
    """Whether the cells of ``free`` connected to the goal cells touch every start's clear disc."""
    reached = free & goal
    while True:  # grow through free cells by 4-neighbours until nothing changes
        grown = reached.copy()
        grown[1:] |= reached[:-1]
        grown[:-1] |= reached[1:]
        grown[:, 1:] |= reached[:, :-1]
        grown[:, :-1] |= reached[:, 1:]
        grown &= free
        if (grown == reached).all():
            break
        reached = grown
    ry, rx = np.nonzero(reached)
    if not len(rx):
        return False
    points = np.column_stack([gx[ry, rx], gy[ry, rx]])
    return all((np.hypot(*(points - s).T) < gap).any() for s, gap in zip(starts, start_gaps))


def _field(bounds, goal_areas, starts, group, rows, radius, lanes, obstacles) -> NavigationField:
    """The group's field: cells of 0.25 m, ``radius`` from the obstacles, unless that
    leaves a start with no way, then finer cells and less clearance."""
    for cell, clearance in ((0.25, radius), (_FINE_CELL, radius), (_FINE_CELL, 0.8 * radius),
                            (_FINE_CELL, 0.5 * radius)):
        field = NavigationField(goal_areas=goal_areas, area=bounds, cell=cell, clearance=clearance,
                                keep_right=lanes, **obstacles)
        stuck = ~np.isfinite(field.distance_at(starts))
        if not stuck.any():
            return field
    raise ValueError(f"scene: agents with no way from their start to their goal (group {group}, its goal areas "
                     f"{goal_areas.tolist()}): {len(rows[stuck])} (rows {', '.join(map(str, rows[stuck][:10]))})")
