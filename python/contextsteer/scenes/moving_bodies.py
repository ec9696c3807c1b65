"""Moving obstacles of a scene: :class:`MovingBody`, checked when made, and
:func:`add_bodies`, which puts them into a world."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._internal import validation as check
from ..model.moving import ALL_LAYERS, KINDS, MODES


@dataclass(frozen=True, eq=False)
class MovingBody:
    """A moving obstacle of a :class:`~contextsteer.Scenario`, checked when made.

    Parameters
    ----------
    kind : {'circle', 'segment', 'polygon'}
        The body's kind.
    shape : array_like
        A circle's ``(3,)`` x, y, radius; a segment's ``(4,)`` x0, y0, x1, y1; a polygon's
        ``(k, 2)`` vertices (k >= 3); metres.
    velocity : array_like, shape (2,), default (0, 0)
        m/s at the start.
    angular_velocity : float, default 0
        rad/s counter-clockwise (polygons turn about their vertex mean).
    waypoints : array_like, shape (k, 2), optional
        Metres: a path for the body's reference point (a circle's centre, a segment's
        midpoint, a polygon's vertex mean), or None: no path.
    speed : float, default 1
        m/s along the waypoints.
    mode : {'loop', 'back_and_forth'}, default 'loop'
        How the path repeats.
    layer : int, default 1
        Bit mask of the layers it is on.

    Raises
    ------
    ValueError, TypeError
        For a value of the wrong kind, shape or range, naming the field.

    Examples
    --------
    >>> from contextsteer.moving_scenes import MovingBody
    >>> body = MovingBody("circle", [0.0, -5.0, 1.0], waypoints=[[0.0, 5.0]], speed=0.5)
    >>> body.shape.tolist()
    [0.0, -5.0, 1.0]
    """

    kind: str
    shape: np.ndarray
    velocity: tuple = (0.0, 0.0)
    angular_velocity: float = 0.0
    waypoints: np.ndarray | None = None
    speed: float = 1.0
    mode: str = "loop"
    layer: int = 1

    def __post_init__(self):
        kind = check.name("kind", self.kind)
        if kind not in KINDS:
            raise ValueError(f"kind: expected one of {', '.join(repr(k) for k in KINDS)}, got {kind!r}")
        if kind == "circle":
            check.shaped("shape", self.shape, (3,))
            if float(np.asarray(self.shape, dtype=np.float64)[2]) < 0:
                raise ValueError(f"shape: expected a radius >= 0, got {np.asarray(self.shape)[2]}")
        elif kind == "segment":
            check.shaped("shape", self.shape, (4,))
        else:
            check.polygon("shape", self.shape)
        check.shaped("velocity", self.velocity, (2,))
        waypoints = self.waypoints
        if waypoints is not None:
            check.shaped("waypoints", waypoints, (None, 2))
            if len(waypoints) == 0:
                raise ValueError("waypoints: expected at least one waypoint, got none")
            waypoints = np.asarray(waypoints, dtype=np.float64)
        mode = check.name("mode", self.mode)
        if mode not in MODES:
            raise ValueError(f"mode: expected one of {', '.join(repr(m) for m in MODES)}, got {mode!r}")
        values = {"kind": kind, "shape": np.asarray(self.shape, dtype=np.float64),
                  "velocity": tuple(float(v) for v in np.asarray(self.velocity, dtype=np.float64)),
                  "angular_velocity": float(check.number("angular_velocity", self.angular_velocity)),
                  "waypoints": waypoints, "speed": float(check.number("speed", self.speed, above=0.0)),
                  "mode": mode, "layer": check.count("layer", self.layer, maximum=ALL_LAYERS)}
        for name, value in values.items():
            object.__setattr__(self, name, value)


def add_bodies(world, bodies) -> np.ndarray:
    """Add ``bodies`` (:class:`MovingBody`) to ``world`` as moving obstacles, with their
    paths.

    Parameters
    ----------
    world : World
        The world.
    bodies : iterable of MovingBody
        The bodies.

    Returns
    -------
    ndarray of int
        Their indices among the world's moving obstacles.

    Raises
    ------
    ValueError
        An unknown kind, and what the world's adders raise for bad values.

    Examples
    --------
    >>> import contextsteer as cs
    >>> from contextsteer.moving_scenes import MovingBody, add_bodies
    >>> world = cs.World(cs.Pipeline([cs.Seek()]))
    >>> add_bodies(world, [MovingBody("circle", [0.0, 0.0, 0.5], velocity=(1.0, 0.0))])
    array([0])
    """
    ids = []
    for body in bodies:
        if body.kind == "circle":
            index = int(world.add_moving_circles([body.shape], [body.velocity], layer=body.layer)[0])
        elif body.kind == "segment":
            index = int(world.add_moving_segments([body.shape], [body.velocity], layer=body.layer)[0])
        elif body.kind == "polygon":
            index = world.add_moving_polygon(body.shape, body.velocity, body.angular_velocity, layer=body.layer)
        else:
            raise ValueError(f"kind: expected 'circle', 'segment' or 'polygon', got {body.kind!r}")
        if body.waypoints is not None:
            world.set_obstacle_path(index, body.waypoints, body.speed, body.mode)
        ids.append(index)
    return np.array(ids, dtype=np.int64)
