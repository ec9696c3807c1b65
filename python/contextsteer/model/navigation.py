"""Navigation fields: the shortest way round the obstacles to a goal, from every place.

Reactive steering sees only what is around the agent: a room left by its door, or a
wall square to the goal, is beyond it. A :class:`NavigationField` plans once for a static
scene and every agent reads it; :class:`~contextsteer.FollowField` turns it into interest,
and the pipeline's other behaviours (Avoid above all) still keep agents off each other.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _core
from .._internal import validation as check
from .._internal.arguments import counted


class NavigationField:
    """Distances and directions to the nearest of ``goals`` round the obstacles, on a grid.

    A cell is blocked when an obstacle comes within ``clearance`` plus half a cell's
    diagonal of its centre, so that no wall slips between free cells. Distances solve
    the eikonal equation by fast marching (second order along the axes): they follow
    straight lines at any angle. On open ground they are within 0.7% of the Euclidean
    distance beyond a metre from a goal (0.35% beyond 8 m), and the cells' directions
    within 7 degrees of the straight way (1.5 beyond 8 m). Blocked cells and cells no
    goal can reach have an infinite distance; a blocked cell's direction leads out of the
    obstacle's margin, on its own side of the wall.

    The field is built once (in C++, without the GIL) and never changes; build another
    for other goals or obstacles (:class:`~contextsteer.FollowField` updates a copy per
    world for the crowd). It pickles as built (about 17 bytes a cell): loading it
    copies it, to the bit, without building it again. Its arrays are read-only views, rows along y.
    :meth:`World.navigation_field <contextsteer.World.navigation_field>` builds one round
    a world's own obstacles, on the layers asked for.

    Parameters
    ----------
    goals : array_like, shape (k, 2) or (2,), optional
        Goal points, metres, inside the area and clear of obstacles.
    goal_areas : array_like, shape (k, 4), optional
        Rectangles ``(xmin, ymin, xmax, ymax)``, metres: every free cell whose centre lies
        inside one is a goal, at distance 0 and with no direction (an exit, the field
        beyond a door). Give goals, goal_areas or both.
    area : array_like, shape (4,), optional
        ``(xmin, ymin, xmax, ymax)`` metres, the rectangle the grid covers; ``bounds`` when
        not given (one of them is needed).
    cell : float, default 0.25
        Side of a grid cell, metres (> 0); at most 16,777,216 cells. Cost and memory (17
        bytes a cell) grow with the cell count; a cell of a third to a half of the
        narrowest gap to pass through is a good start.
    clearance : float, default 0
        Metres (>= 0) to keep from obstacles, usually the agents' radius.
    keep_right : float, default 0
        Metres (>= 0): the ways run on the right where there is room. Within this distance
        of an obstacle on a way's left, a metre costs up to 20 more (the field is planned
        twice: the second time with that cost along the first field's ways), so that
        crowds passing a door or corridor in opposite directions use its two sides, as
        lanes. About the width of the doors to pass; 0 plans the shortest ways.
    circles : array_like, shape (m, 3), optional
        Circle obstacles, x, y, radius in metres.
    segments : array_like, shape (m, 4), optional
        Walls, x0, y0, x1, y1 in metres.
    polygons : list of array_like of shape (n, 2), optional
        Polygon obstacles, vertices in metres.
    bounds : array_like, shape (4,), optional
        ``(xmin, ymin, xmax, ymax)`` metres: walls round the area.

    Raises
    ------
    ValueError
        Neither ``area`` nor ``bounds``, no goal, too many cells, or a bad value (named).
    TypeError
        A value of the wrong type.

    Examples
    --------
    >>> import contextsteer as cs
    >>> field = cs.NavigationField([[9.0, 2.0]], bounds=(0, 0, 10, 4), circles=[[5.0, 2.0, 0.5]], cell=0.25)
    >>> field.shape
    (16, 40)
    >>> round(field.distance_at([1.0, 2.0]), 1)  # round the circle: more than 8 m
    8.2
    """

    def __init__(self, goals=None, *, goal_areas=None, area=None, cell: float = 0.25, clearance: float = 0.0,
                 keep_right: float = 0.0, circles=None, segments=None, polygons=None, bounds=None):
        if area is None and bounds is None:
            raise ValueError("area: expected (xmin, ymin, xmax, ymax), the rectangle the field covers, "
                             "or bounds; got neither")
        covered = bounds if area is None else area
        goal_points, rectangles, area, cell, clearance = self._checked(goals, goal_areas, covered, cell, clearance)
        self._keep_right = check.number("keep_right", keep_right, minimum=0.0)
        self._core = _core.NavigationField(
            goal_points, rectangles, area, cell, clearance, self._keep_right,
            check.points("circles", np.zeros((0, 3)) if circles is None else circles, columns=3),
            check.segments("segments", np.zeros((0, 4)) if segments is None else segments),
            check.polygons("polygons", polygons),
            None if bounds is None else check.shaped("bounds", bounds, (4,)),
        )

    @classmethod
    def _of_world(cls, world_core, layers: int, goals, goal_areas, area, cell, clearance,
                  keep_right: float = 0.0) -> NavigationField:
        """The field round a world's obstacles on ``layers`` (see :meth:`World.navigation_field`)."""
        goal_points, rectangles, area, cell, clearance = cls._checked(goals, goal_areas, area, cell, clearance)
        field = cls.__new__(cls)
        field._keep_right = check.number("keep_right", keep_right, minimum=0.0)
        field._core = _core.NavigationField.from_world(world_core, layers, goal_points, rectangles, area, cell,
                                                       clearance, field._keep_right)
        return field

    @classmethod
    def _of_core(cls, core) -> NavigationField:
        """The field around a core field."""
        field = cls.__new__(cls)
        field._core = core
        return field

    @staticmethod
    def _checked(goals, goal_areas, area, cell, clearance) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
        """The goals, goal areas, area, cell and clearance checked, in the core's order."""
        goal_points = check.points("goals", np.zeros((0, 2)) if goals is None else goals)
        rectangles = check.rectangles("goal_areas", np.zeros((0, 4)) if goal_areas is None else goal_areas)
        if len(goal_points) == 0 and len(rectangles) == 0:
            raise ValueError("goals: expected at least one goal point or goal area, got none")
        return (goal_points, rectangles, check.shaped("area", area, (4,)),
                check.number("cell", cell, above=0.0), check.number("clearance", clearance, minimum=0.0))

    @property
    def goals(self) -> np.ndarray:
        """``(k, 2)`` the goals, metres (a copy)."""
        return self._core.goals

    @property
    def goal_areas(self) -> np.ndarray:
        """``(k, 4)`` the goal areas, ``(xmin, ymin, xmax, ymax)`` metres (a copy)."""
        return self._core.goal_areas

    @property
    def cell(self) -> float:
        """Side of a cell, metres."""
        return self._core.cell

    @property
    def clearance(self) -> float:
        """Metres kept from obstacles."""
        return self._core.clearance

    @property
    def keep_right(self) -> float:
        """Metres within which the ways keep right of obstacles (0: the shortest ways)."""
        return self._keep_right

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, columns)`` of the grid; rows run along y."""
        return self._core.rows, self._core.columns

    @property
    def extent(self) -> tuple[float, float, float, float]:
        """``(xmin, xmax, ymin, ymax)`` of the grid's cells, metres, as matplotlib's
        ``imshow(..., origin="lower", extent=...)`` takes it. The last row and column may
        reach past the area."""
        x0, y0 = self._core.origin
        rows, columns = self.shape
        return x0, x0 + columns * self.cell, y0, y0 + rows * self.cell

    @property
    def centres(self) -> tuple[np.ndarray, np.ndarray]:
        """``(columns,)`` x and ``(rows,)`` y of the cell centres, metres."""
        x0, y0 = self._core.origin
        rows, columns = self.shape
        return x0 + (np.arange(columns) + 0.5) * self.cell, y0 + (np.arange(rows) + 0.5) * self.cell

    @property
    def distances(self) -> np.ndarray:
        """``(rows, columns)`` float32 metres from each cell centre to the nearest goal
        round the obstacles; inf where blocked or unreachable. Read-only view."""
        return self._core.distances

    @property
    def directions(self) -> np.ndarray:
        """``(rows, columns, 2)`` float32 unit vectors down the distance; (0, 0) at a
        goal's cell and where no goal can be reached. Read-only view."""
        return self._core.directions

    @property
    def blocked(self) -> np.ndarray:
        """``(rows, columns)`` bool, the cells too close to an obstacle. Read-only view."""
        return self._core.blocked

    @property
    def costs(self) -> np.ndarray:
        """``(rows, columns)`` float32, the cost of a metre through each cell the field was
        marched with: 1 in the open, up to 5 within the clearance of an obstacle, up to 20
        more along a lane's left (``keep_right``). :class:`~contextsteer.FollowField`'s
        crowd costs are added to these. Read-only view."""
        return self._core.costs

    def direction_at(self, points) -> np.ndarray:
        """Unit directions toward the nearest goal at points.

        The four nearest cells' directions blended bilinearly, but for those at 90 degrees
        or more from the nearest cell's (on a ridge between two ways round an obstacle, the
        nearest cell's side is taken); (0, 0) where none has one. Outside the grid, the
        nearest cells'.

        Parameters
        ----------
        points : array_like, shape (m, 2) or (2,)
            Metres.

        Returns
        -------
        ndarray of float32, shape (m, 2) or (2,)
            Unit vectors (or zeros).

        Examples
        --------
        >>> import contextsteer as cs
        >>> field = cs.NavigationField([[9.0, 2.0]], bounds=(0, 0, 10, 4), cell=0.25)
        >>> field.direction_at([[1.0, 2.0]]).round(2) + 0.0
        array([[1., 0.]], dtype=float32)
        """
        pts, single = self._points(points)
        out = self._core.direction_at(pts)
        return out[0] if single else out

    def distance_at(self, points) -> np.ndarray | float:
        """Metres to the nearest goal from points, round the obstacles: the four nearest
        cells' finite distances blended bilinearly; inf where none has one.

        Parameters
        ----------
        points : array_like, shape (m, 2) or (2,)
            Metres.

        Returns
        -------
        ndarray of float32, shape (m,), or float
            Metres (a float for a ``(2,)`` point).

        Examples
        --------
        >>> import contextsteer as cs
        >>> field = cs.NavigationField([[9.0, 2.0]], bounds=(0, 0, 10, 4), cell=0.25)
        >>> field.distance_at([[1.0, 2.0], [8.0, 2.0]]).round(1)
        array([8., 1.], dtype=float32)
        """
        pts, single = self._points(points)
        out = self._core.distance_at(pts)
        return float(out[0]) if single else out

    def path_from(self, start, *, step: float | None = None, max_length: float | None = None) -> np.ndarray:
        """The way the field leads from a start: the start, then points ``step`` metres
        apart along the field's direction, up to the first within a step of a goal. For
        plotting a plan, or as waypoints for :class:`~contextsteer.FollowPath`.

        Parameters
        ----------
        start : array_like, shape (2,)
            Metres.
        step : float, optional
            Metres between points (> 0; half a cell by default).
        max_length : float, optional
            Metres after which it stops (twice the grid's perimeter by default; at most
            1,048,576 points).

        Returns
        -------
        ndarray of float32, shape (k, 2)
            The points, metres; the start alone where no goal can be reached.

        Examples
        --------
        >>> import contextsteer as cs
        >>> field = cs.NavigationField([[9.0, 2.0]], bounds=(0, 0, 10, 4), cell=0.25)
        >>> path = field.path_from([1.0, 2.0], step=0.5)
        >>> path[0], len(path)
        (array([1., 2.], dtype=float32), 17)
        """
        x0, x1, y0, y1 = self.extent
        step = self.cell / 2 if step is None else check.number("step", step, above=0.0)
        if max_length is None:
            max_length = 4 * ((x1 - x0) + (y1 - y0))
        else:
            max_length = check.number("max_length", max_length, minimum=0.0)
        return self._core.path_from(check.shaped("start", start, (2,)), step, max_length)

    @staticmethod
    def _points(points) -> tuple[np.ndarray, bool]:
        pts = check.points("points", points)
        return pts, np.ndim(points) == 1 and len(pts) == 1

    def __repr__(self) -> str:
        rows, columns = self.shape
        reached = np.isfinite(self.distances).mean() if rows * columns else math.nan
        goals = f"{counted(len(self.goals), 'goal point')}, {counted(len(self.goal_areas), 'goal area')}"
        return (f"NavigationField({goals}, "
                f"{rows} x {columns} cells of {self.cell:g} m, clearance {self.clearance:g} m, "
                f"{reached:.0%} of cells reached)")


def widest_way(goal_areas, starts, *, area, cell: float, cap: float, circles=None, segments=None,
               polygons=None) -> float:
    """Metres, from 0 to ``cap``: how far from every obstacle a way can keep all along,
    from each of ``starts`` ``(m, 2)`` to the nearest of ``goal_areas`` ``(k, 4)``, on
    cells of ``cell`` metres over ``area`` ``(x0, y0, x1, y1)`` (C++, without the GIL).

    A way runs from cell to cell along the axes, from a cell whose centre lies in a goal
    area, and keeps the least distance of its cells' centres to the obstacles; a start
    is reached by the ways to the cells within its clear disc. ``cap`` where every start
    is reached by a way keeping ``cap`` (or there is no start), 0 where one is reached by
    none. The crowd steering measures the narrowest passage on a group's way by it.

    Raises
    ------
    ValueError
        Arrays of the wrong shape or not finite, an empty area, a ``cell`` or ``cap`` not
        above 0, no goal area, or a cell that makes more than 2^25 cells.
    """
    empty = np.zeros((0, 4))
    return float(_core.widest_way(
        np.asarray(goal_areas, dtype=np.float32).reshape(-1, 4), np.asarray(area, dtype=np.float32),
        float(cell), np.asarray(starts, dtype=np.float32).reshape(-1, 2), float(cap),
        np.asarray(np.zeros((0, 3)) if circles is None else circles, dtype=np.float32).reshape(-1, 3),
        np.asarray(empty if segments is None else segments, dtype=np.float32).reshape(-1, 4),
        [np.asarray(v, dtype=np.float32).reshape(-1, 2) for v in polygons or ()]))
