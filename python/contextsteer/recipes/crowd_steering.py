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
from ..model.obstacle_overlap import bodies_in_obstacles
from ..model.pipeline import Pipeline
from ..model.world import World
from .crowd_fields import cell_for, field_boxes, group_field, room_beside
from .crowd_groups import GOAL_SQUARE as GOAL_SQUARE  # metres: the smallest squares targets are grouped by
from .crowd_groups import goal_groups

# Arrived agents step aside for those still coming; a face-off that lasts 3 s is settled.
CROWD_GOALS = Goals(arrival="give_way", patience=3.0)
# Overlapping agents are pushed apart to within 10 um of touching and no body ends a step
# in a wall; half of each push falls on the agent that walked into the other, so that
# a standing agent is not shoved about by those passing; contacts are not events (a dense
# crowd touches at every step).
CROWD_CONTACT = Contact(slop=1e-5, events=False, motion_share=0.5)
LANES = 2.25  # metres the fields keep right by where groups may meet head-on
MAKE_WAY = 0.6  # Anticipate's make_way where the way is wide enough for two agents abreast
# Seconds between the crowd's re-marches of the fields of up to CROWD_FIELDS groups; more
# groups are re-marched less often, in proportion, so that the re-march costs a step no
# more than that of CROWD_FIELDS fields.
CROWD_EVERY = 0.5
CROWD_FIELDS = 4
# Cells a second the crowd re-marches, at most: REMARCH_RATE per agent (a cell costs a
# third to a tenth of an agent's step, so at 10 to 20 steps a second a few tenths of the
# agents' own steps at most) or REMARCH_FLOOR (four fields of a room 40 m across every
# half second), the more of the two; a crowd on a large map re-marches its large fields
# less often.
REMARCH_RATE = 15.0
REMARCH_FLOOR = 200_000.0
# m/s^2: the crowd world's agents' max_acceleration unless told another, a brisk walker's
# (from standing to 1.34 m/s in a third of a second); an agent that could reverse at once
# would turn back and forth at full pace in a crush.
CROWD_ACCELERATION = 4.0
TURN_BACK = 0.5  # the pipeline's turn_back: a jammed agent turns back only for half its pace
TURN_BACK_WAIT = 10.0  # seconds without progress after which a jammed agent turns back freely
_SCENE_FIELDS = ("starts", "targets", "bounds", "circles", "segments", "polygons", "groups", "goal_areas",
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
    (['contact', 'goals', 'groups', 'max_acceleration'], 1)
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
        """``groups``, ``goals``, ``contact`` and ``max_acceleration``
        (:data:`CROWD_ACCELERATION`), as :class:`~contextsteer.World` and
        :meth:`Scenario.world <contextsteer.Scenario.world>` take them (a dict: give
        another acceleration by ``{**crowd.world_parameters, "max_acceleration": a}``)."""
        return {"groups": self.groups, "goals": self.goals, "contact": self.contact,
                "max_acceleration": CROWD_ACCELERATION}

    @property
    def per_group(self) -> bool:
        """Whether each group has a pipeline of its own in :meth:`world`: where the
        crowd's groups are the scene's (the scenes of several goal areas), each group
        makes way by the room on its own way; elsewhere every agent follows
        :attr:`pipeline`."""
        return bool(len(self.fields)) and bool(np.array_equal(self.groups, self.scene.groups))

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
            number or ``(n,)``); ``max_acceleration`` is :data:`CROWD_ACCELERATION`
            (4 m/s^2, a brisk walker's) when not given; ``goals`` and ``contact`` given replace
            the crowd's (``contact=None``: no contact stage).

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
        >>> scene = cs.Scenario("two", starts, -starts, bounds=(-10, -4, 10, 4), circles=[[0.0, 0.0, 1.0]])
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
        parameters = {**self.world_parameters, "radius": radius, **agent_parameters}
        parameters.pop("groups")
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
      groups are grouped by the square of :data:`GOAL_SQUARE` metres their target lies
      in, each square a goal area, split where an obstacle comes near it (larger squares,
      and larger pieces near obstacles, where that would make more than ``max_fields``
      groups), then merged where their agents walk the same way, no obstacle comes near
      the box round them and one field costs no more than two
      (``contextsteer.recipes.crowd_groups``);
    - each group's field covers the ground the group walks: its starts and goal areas
      with 3 m round them (a quarter of the smaller side for a large group), within the
      bounds (all of them where that leaves a start no way); it keeps ``radius`` from the
      obstacles on cells of 0.25 m (larger where all fields together would pass 4
      million cells: open ground on a large map); where that leaves an agent no way to
      its goal (a passage narrower than about twice the radius plus a cell), on cells of
      0.1 m, with the clearance lowered down to half the radius
      (``contextsteer.recipes.crowd_fields``);
    - where there are several groups, an agent goes before its group's agents farther
      back along the way (Anticipate's ``right_of_way``; in one group's file it only adds
      turns), and the fields are marched again
      from the crowd (FollowField's ``crowd_density`` 0.5,
      ``crowd_counterflow`` 1), so that counter-flows split into lanes and a group's way
      bends round another's: every :data:`CROWD_EVERY` seconds for up to
      :data:`CROWD_FIELDS` groups, less often in proportion for more, so that a scene of
      many groups costs a step no more than four, and less often still where that
      would re-march more than :data:`REMARCH_RATE` cells a second per agent and
      :data:`REMARCH_FLOOR` in all (a crowd on a large map), each march spread
      over a few steps (FollowField's crowd-updated fields); one group walks one way and
      needs neither;
    - where two groups' ways point more than a right angle apart (from their starts'
      mean to their goal areas' mean centre), so that they may meet head-on, the fields
      keep right by :data:`LANES` metres; crowds bound the same way keep to the middle
      of a passage, not to its right jamb;
    - an agent makes way (Anticipate's ``make_way``) by :data:`MAKE_WAY` times the share
      of a body's width that the narrowest passage on its group's way leaves beside one
      body (all of it where two walk abreast, none where one barely passes; measured by
      the widest way, ``contextsteer.model.navigation.widest_way``, over the field's
      ground on cells of 0.1 m, so up to about a cell narrower than it is): where there is
      no room to step aside, stepping aside only stops the file;
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
        At most this many groups of the agents' own targets, each a field (besides the
        scene's groups with goal areas): above 0.

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
    >>> scene = cs.Scenario("two", starts, -starts, bounds=(-10, -4, 10, 4), circles=[[0.0, 0.0, 1.0]])
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
    starts = np.asarray(scene.starts, dtype=np.float64).reshape(-1, 2)
    targets = np.asarray(scene.targets, dtype=np.float64).reshape(-1, 2)
    obstacles = {"circles": scene.circles, "segments": scene.segments, "polygons": list(scene.polygons) or None}
    if not len(starts):  # no agent: no field to follow, the walls and the others still avoided
        pipeline = _pipeline(None, slots, 0.0, CROWD_EVERY, 0.0)
        return CrowdSteering(pipeline, (), np.zeros(0, dtype=np.int64), (), CROWD_GOALS, CROWD_CONTACT, radius, slots,
                             max_fields, scene)
    _check_places(starts, targets, scene.bounds, radius, obstacles)
    groups, areas = goal_groups(scene, starts, targets, radius, obstacles, max_fields)
    boxes = field_boxes(scene.bounds, areas, starts, groups)
    cell = cell_for(boxes)
    lanes = LANES if ways_oppose(starts, groups, areas) else 0.0
    fields = tuple(group_field(scene.bounds, box, goal_areas, starts[groups == g], g, np.flatnonzero(groups == g),
                               radius, lanes, obstacles, cell)
                   for g, (goal_areas, box) in enumerate(zip(areas, boxes)))
    crowd = 1.0 if len(areas) > 1 else 0.0
    cells = sum(field.shape[0] * field.shape[1] for field in fields)
    every = max(CROWD_EVERY * max(1.0, len(fields) / CROWD_FIELDS),
                cells / max(REMARCH_RATE * len(starts), REMARCH_FLOOR))
    room = [room_beside(field, scene.bounds, goal_areas, starts[groups == g], radius, obstacles)
            for g, (field, goal_areas) in enumerate(zip(fields, areas))]
    pipeline = _pipeline(list(fields) if len(fields) > 1 else fields[0], slots, crowd, every, MAKE_WAY * min(room))
    pipelines = tuple(_pipeline(field, slots, crowd, every, MAKE_WAY * r) for field, r in zip(fields, room))
    return CrowdSteering(pipeline, pipelines, groups, fields, CROWD_GOALS, CROWD_CONTACT, radius, slots, max_fields,
                         scene)


def ways_oppose(starts: np.ndarray, groups: np.ndarray, areas: list) -> bool:
    """Whether two groups' ways (from their starts' mean to their goal areas' mean
    centre) point more than a right angle apart: crowds that may meet head-on."""
    found = []
    for g, goal_areas in enumerate(areas):
        mine = starts[groups == g]
        if len(mine):
            way = 0.5 * (goal_areas[:, :2] + goal_areas[:, 2:]).mean(axis=0) - mine.mean(axis=0)
            length = float(np.hypot(*way))
            if length > 0:
                found.append(way / length)
    ways = np.asarray(found).reshape(-1, 2)
    return bool((ways @ ways.T < 0).any())


def _pipeline(field, slots: int, crowd: float, crowd_every: float, make_way: float) -> Pipeline:
    """The crowd's pipeline following ``field`` (one, or one per group; None: no field)."""
    follow = [] if field is None else [
        FollowField(field, sideways=0.5, to_target=True, slowing_radius=1.0, crowd_density=0.5 * crowd,
                    crowd_counterflow=crowd, crowd_every=crowd_every)]
    return Pipeline([
        *follow,
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
