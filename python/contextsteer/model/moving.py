"""Moving obstacles of a :class:`~contextsteer.World`: kinematic circles, segments and
polygons whose velocities are set from Python between steps, or that follow a path of
waypoints in C++.

Each moving obstacle (a *body*) has an index, from 0 in the order they were added, a
reference point (a circle's centre, a segment's midpoint, a polygon's vertex mean) and
an angle (radians, 0 as added; only polygons turn). At the start of each step the
*obstacles* stage moves every body to where it will be at the end of the step: one on a
path along it at the path's speed, the others at their velocities. Agents then steer
among the bodies where they will be; every behaviour that senses obstacles sees them
(``Avoid`` with ``world_obstacles``, ``Rays``), and the behaviours that predict
(``TimeToCollision``, ``Anticipate``) also see where they are going: a circle as a disc,
a segment or polygon as its own shape, at its velocity (its turning is not carried
forward). Penetration counts them too;
:meth:`MovingObstacles.moving_overlap` gives each agent's overlap with them alone.

This module holds the methods that :class:`~contextsteer.World` takes from
:class:`MovingObstacles`.
"""

from __future__ import annotations

import numpy as np

from .._core import World as _CoreWorld
from .._internal import validation as check

ALL_LAYERS = 0xFFFFFFFF
KINDS = ("circle", "segment", "polygon")  # moving_kinds' codes 0, 1, 2
MODES = ("loop", "back_and_forth")


def _velocities(name: str, value, n: int) -> np.ndarray:
    """``(n, 2)`` velocities; None or a single ``(2,)`` velocity for all of them."""
    if value is None:
        return np.zeros((0, 2), np.float32)
    arr = check.real_array(name, value)
    if arr.shape == (2,):
        arr = np.tile(arr, (n, 1))
    if arr.shape != (n, 2):
        raise ValueError(f"{name}: expected an array of shape ({n}, 2) (or (2,), one for all), got shape {arr.shape}")
    return np.ascontiguousarray(arr)


class MovingObstacles:
    """The moving-obstacle methods and views of :class:`~contextsteer.World` (a mixin)."""

    _core: _CoreWorld

    def _bodies(self, name: str, value) -> np.ndarray:
        ids = check.ids(name, value)
        count = self._core.moving_count
        bad = (ids < 0) | (ids >= count)
        if bad.any():
            raise IndexError(f"{name}: expected moving obstacle indices from 0 to {count - 1}, got {ids[bad][0]}")
        return ids

    def add_moving_circles(self, circles, velocities=None, *, layer: int = 1) -> np.ndarray:
        """Add moving circles.

        Parameters
        ----------
        circles : array_like, shape (m, 3)
            x, y, radius of each, metres.
        velocities : array_like, shape (m, 2) or (2,), optional
            m/s of each (or one for all); at rest when not given.
        layer : int
            Bit mask of the layers they are on.

        Returns
        -------
        numpy.ndarray
            The indices of the new bodies, ``(m,)``.

        Raises
        ------
        ValueError, TypeError
            For arrays of the wrong shape or values out of range, naming the argument.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]])
        >>> world.add_moving_circles([[2.0, 0.0, 0.5]], velocities=[-1.0, 0.0])
        array([0])
        """
        circles = check.points("circles", circles, columns=3)
        velocities = _velocities("velocities", velocities, len(circles))
        first = self._core.add_moving_circles(circles, velocities, check.count("layer", layer, maximum=ALL_LAYERS))
        return np.arange(first, first + len(circles))

    def add_moving_segments(self, segments, velocities=None, *, layer: int = 1) -> np.ndarray:
        """Add moving walls.

        Parameters
        ----------
        segments : array_like, shape (m, 4)
            x0, y0, x1, y1 in metres.
        velocities : array_like, shape (m, 2) or (2,), optional
            m/s of each (or one for all); at rest when not given.
        layer : int
            Bit mask of the layers they are on.

        Returns
        -------
        numpy.ndarray
            The indices of the new bodies, ``(m,)``.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]])
        >>> world.add_moving_segments([[0.0, 2.0, 4.0, 2.0]], velocities=[0.0, -0.5])
        array([0])
        """
        segments = check.segments("segments", segments)
        velocities = _velocities("velocities", velocities, len(segments))
        first = self._core.add_moving_segments(segments, velocities, check.count("layer", layer, maximum=ALL_LAYERS))
        return np.arange(first, first + len(segments))

    def add_moving_polygon(self, vertices, velocity=(0.0, 0.0), angular_velocity: float = 0.0, *,
                           layer: int = 1) -> int:
        """Add a moving polygon.

        Parameters
        ----------
        vertices : array_like, shape (k, 2)
            Its vertices in order, metres (k >= 3, convex or concave); it turns about their mean.
        velocity : array_like, shape (2,)
            m/s.
        angular_velocity : float
            rad/s, counter-clockwise.
        layer : int
            Bit mask of the layers it is on.

        Returns
        -------
        int
            Its index.

        Raises
        ------
        ValueError, TypeError
            For values of the wrong shape or out of range, naming the argument.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]])
        >>> world.add_moving_polygon([[5.0, 0.0], [6.0, 0.0], [5.5, 1.0]], angular_velocity=0.5)
        0
        """
        vertices = check.polygon("vertices", vertices)
        vx, vy = check.shaped("velocity", velocity, (2,)).tolist()
        omega = check.number("angular_velocity", angular_velocity)
        return self._core.add_moving_polygon(vertices, vx, vy, omega, check.count("layer", layer, maximum=ALL_LAYERS))

    def set_obstacle_path(self, ids, waypoints, speed: float = 1.0, mode: str = "loop") -> None:
        """Make moving obstacles follow waypoints, or stop following them.

        From where it stands, each body's reference point heads for ``waypoints[0]``, then
        the next, at ``speed``; after the last, ``mode`` "loop" heads for the first again and
        "back_and_forth" goes back along them. A path of one waypoint ends there, at rest.
        The path sets the body's velocity each step (what is written to
        :attr:`moving_velocities` is overwritten); :meth:`~contextsteer.World.reset` starts
        it again.

        Parameters
        ----------
        ids : int or array_like of int
            Moving obstacle indices.
        waypoints : array_like, shape (k, 2) or (len(ids), k, 2), or None
            Metres: one path for all, or one each; None ends their paths (they keep
            their last velocity).
        speed : float
            m/s, above 0.
        mode : str
            "loop" or "back_and_forth".

        Raises
        ------
        ValueError, TypeError, IndexError
            Naming the argument: unknown indices, waypoints of the wrong shape or out of
            range, a speed not above 0, an unknown mode.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]])
        >>> _ = world.add_moving_circles([[2.0, 0.0, 0.5]])
        >>> world.set_obstacle_path(0, [[2.0, 0.0], [2.0, 3.0]], speed=1.0, mode="back_and_forth")
        >>> world.step()
        >>> world.moving_positions.round(3) + 0.0
        array([[2.   , 0.017]], dtype=float32)
        """
        ids = self._bodies("ids", ids)
        if waypoints is None:
            self._core.clear_obstacle_path(ids)
            return
        points = check.real_array("waypoints", waypoints)
        if not ((points.ndim == 2 or (points.ndim == 3 and len(points) == len(ids))) and points.shape[-1] == 2
                and points.shape[-2] >= 1):
            raise ValueError(f"waypoints: expected an array of shape (k, 2) or ({len(ids)}, k, 2) with k >= 1, "
                             f"got shape {points.shape}")
        speed = check.number("speed", speed, above=0)
        mode = check.name("mode", mode)
        if mode not in MODES:
            raise ValueError(f"mode: expected one of {', '.join(MODES)}, got {mode!r}")
        self._core.set_obstacle_path(ids, np.ascontiguousarray(points), speed, mode == "back_and_forth")

    def obstacle_path(self, index: int):
        """The path a moving obstacle follows.

        Parameters
        ----------
        index : int
            The moving obstacle's index.

        Returns
        -------
        tuple or None
            ``(waypoints (k, 2) metres, speed m/s, mode)``, or None without a path.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]])
        >>> _ = world.add_moving_circles([[2.0, 0.0, 0.5]])
        >>> world.set_obstacle_path(0, [[2.0, 3.0]], speed=0.5)
        >>> world.obstacle_path(0)
        (array([[2., 3.]], dtype=float32), 0.5, 'loop')
        """
        path = self._core.moving_path(int(self._bodies("index", index)[0]))
        return None if path is None else (path[0], float(path[1]), MODES[int(path[2])])

    def clear_moving_obstacles(self) -> None:
        """Remove every moving obstacle (their indices start from 0 again).

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]])
        >>> _ = world.add_moving_circles([[2.0, 0.0, 0.5]])
        >>> world.clear_moving_obstacles()
        >>> world.moving_count
        0
        """
        self._core.clear_moving_obstacles()

    @property
    def moving_count(self) -> int:
        """Number of moving obstacles."""
        return self._core.moving_count

    @property
    def moving_positions(self) -> np.ndarray:
        """``(m, 2)`` reference points of the moving obstacles, metres: a writable view.
        Written between steps, the next step moves them on from there."""
        return self._core.moving_positions

    @property
    def moving_velocities(self) -> np.ndarray:
        """``(m, 2)`` velocities of the moving obstacles, m/s: a writable view (a path
        overwrites its body's each step)."""
        return self._core.moving_velocities

    @property
    def moving_angles(self) -> np.ndarray:
        """``(m,)`` angles of the moving obstacles, radians from how they were added: a writable view."""
        return self._core.moving_angles

    @property
    def moving_angular_velocities(self) -> np.ndarray:
        """``(m,)`` angular velocities, rad/s counter-clockwise (polygons turn): a writable view."""
        return self._core.moving_angular_velocities

    @property
    def moving_kinds(self) -> tuple:
        """The kind of each moving obstacle: "circle", "segment" or "polygon"."""
        return tuple(KINDS[k] for k in self._core.moving_kinds)

    def moving_shapes(self, positions=None, angles=None) -> list[np.ndarray]:
        """Each moving obstacle's shape where it stands (or at ``positions`` ``(m, 2)`` and
        ``angles`` ``(m,)``, say a recording's): a circle as ``(1, 3)`` x, y, radius, a
        segment as ``(2, 2)`` end points, a polygon as ``(k, 2)`` vertices, metres.

        Parameters
        ----------
        positions : array_like, shape (m, 2), optional
            Reference points, metres (where they stand when None).
        angles : array_like, shape (m,), optional
            Angles, radians (as they stand when None).

        Returns
        -------
        list of ndarray
            One shape per moving obstacle.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]])
        >>> _ = world.add_moving_circles([[2.0, 0.0, 0.5]])
        >>> world.moving_shapes()
        [array([[2. , 0. , 0.5]], dtype=float32)]
        """
        positions = self._core.moving_positions if positions is None else np.asarray(positions)
        angles = self._core.moving_angles if angles is None else np.asarray(angles)
        return outlines(self.moving_kinds, self.moving_local_shapes(), positions, angles)

    def moving_local_shapes(self) -> tuple[np.ndarray, ...]:
        """Each moving obstacle's shape about its reference point at angle 0.

        Returns
        -------
        tuple of ndarray
            Metres: a circle's ``(1, 2)`` radius and 0, a segment's ``(2, 2)`` ends, a
            polygon's ``(k, 2)`` vertices.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]])
        >>> world.add_moving_segments([[1.0, 1.0, 3.0, 1.0]]).tolist()
        [0]
        >>> world.moving_local_shapes()[0].tolist()
        [[-1.0, 0.0], [1.0, 0.0]]
        """
        return tuple(np.asarray(self._core.moving_shape(b)) for b in range(self._core.moving_count))

    def moving_overlap(self) -> np.ndarray:
        """``(n,)`` how deep each agent reaches into the moving obstacles it senses, metres,
        where they all stand now (0 when clear).

        Returns
        -------
        ndarray of float32, shape (n,)
            Metres.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]])
        >>> _ = world.add_moving_circles([[0.5, 0.0, 0.5]])
        >>> world.moving_overlap()
        array([0.5], dtype=float32)
        """
        self._core.place_moving_obstacles()  # where moving_positions and moving_angles put them
        return self._core.moving_overlap()


def outlines(kinds, local_shapes, positions, angles) -> list[np.ndarray]:
    """The shapes of moving obstacles of ``kinds`` (names of :data:`KINDS`) and
    ``local_shapes`` (as :meth:`MovingObstacles.moving_local_shapes` gives them) at
    ``positions`` ``(m, 2)`` and ``angles`` ``(m,)``: as :meth:`MovingObstacles.moving_shapes`."""
    shapes = []
    for b, (kind, local) in enumerate(zip(kinds, local_shapes)):
        if kind == "circle":
            shapes.append(np.array([[positions[b, 0], positions[b, 1], local[0, 0]]]))
            continue
        c, s = np.cos(angles[b]), np.sin(angles[b])
        shapes.append(local @ np.array([[c, s], [-s, c]]) + positions[b])
    return shapes


__all__ = ["MovingObstacles", "outlines"]
