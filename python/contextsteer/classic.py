"""Classic steering, to compare with context steering on one scene.

Each behaviour returns a linear acceleration (m/s^2) and an angular one (rad/s^2) for
an agent at ``p`` with velocity ``v``, maximum speed ``S`` and maximum acceleration ``A``,
toward a target ``t`` moving at ``w``. The target is ``target`` when given, else the
agent's own target: its target agent (``World(target_ids=...)``) or its target point
(``World(targets=...)``). An agent with no acceleration limit seeks and flees at 1 m/s^2.

Five behaviours see the scene: :func:`ObstacleAvoidance` (circles and polygons, by time
to collision), :func:`WallAvoidance` (feelers against walls, polygon edges and bounds),
:func:`Separation` (from the agents around), :func:`FollowPath` and :func:`FollowField`.
Blended with weights, or ranked by priority, they keep a classic agent off the walls.

``Steering`` combines behaviours by ``"blend"`` (``sum_k weight_k * output_k``) or by
``"priority"`` (the behaviours of each priority level, lowest first, are blended; the
first level whose output exceeds ``epsilon`` wins). The world then truncates the linear
part to ``A``, multiplies by the mass, truncates the force to the maximum force, divides
by the mass, integrates and truncates the velocity to ``S``.

Longer than 500 lines: one short class per classic behaviour, each with its documented
parameters and an example, as behaviors.py holds the context ones.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from . import _core
from . import _validation as check
from ._arguments import ShowsArguments
from .navigation import NavigationField


class ClassicBehavior(ShowsArguments):
    """A classic steering behaviour; build it with the functions of this module.

    Parameters
    ----------
    kind : str
        The behaviour: ``"seek"``, ``"flee"``, ``"arrive"``, ``"leave"``, ``"pursue"``,
        ``"evade"``, ``"face"``, ``"look_where_you_go"``, ``"obstacle_avoidance"``,
        ``"wall_avoidance"``, ``"separation"``, ``"follow_path"`` or ``"follow_field"``.
    target, weight, priority, target_radius, slowing_radius, time_to_target : optional
        As for the function of that kind.
    escape_radius, danger_radius, max_prediction, align_tolerance, horizon : optional
        As for the function of that kind.
    margin, feeler_angle, radius, lookahead, path, loop, field : optional
        As for the function of that kind (each kind reads its own).

    Raises
    ------
    ValueError, TypeError
        For a bad value, naming the argument.

    Examples
    --------
    >>> import contextsteer as cs
    >>> behavior = cs.classic.ClassicBehavior("seek", target=[1.0, 2.0])
    >>> behavior, behavior.kind, behavior.name
    (classic.Seek(target=(1.0, 2.0), weight=1, priority=0), 'seek', 'Seek')
    """

    def __init__(self, kind: str, *, target=None, weight: float = 1.0, priority: int = 0,
                 target_radius: float = 0.5, slowing_radius: float = 3.0, time_to_target: float = 0.1,
                 escape_radius: float = 1.0, danger_radius: float = 5.0, max_prediction: float = 1.0,
                 align_tolerance: float = 0.01, horizon: float = 1.0, margin: float = 0.2,
                 feeler_angle: float = 0.6, radius: float = 1.0, lookahead: float = 1.0, path=None,
                 loop: bool = False, field=None):
        if path is not None:
            path = check.points("path", path)
            if len(path) < 2:
                raise ValueError(f"path: expected at least 2 waypoints (k, 2) in metres, got {len(path)}")
        if field is not None and not isinstance(field, NavigationField):
            raise TypeError(f"field: expected a contextsteer.NavigationField, got {type(field).__name__}")
        self._core = _core.ClassicBehavior(
            check.name("kind", kind),
            check.number("weight", weight),
            check.count("priority", priority, minimum=-(2**31)),
            None if target is None else check.shaped("target", target, (2,)),
            check.number("target_radius", target_radius, minimum=0.0),
            check.number("slowing_radius", slowing_radius, above=0.0),
            check.number("time_to_target", time_to_target, above=0.0),
            check.number("escape_radius", escape_radius, minimum=0.0),
            check.number("danger_radius", danger_radius, above=0.0),
            check.number("max_prediction", max_prediction, above=0.0),
            check.number("align_tolerance", align_tolerance, minimum=0.0),
            check.number("horizon", horizon, above=0.0),
            check.number("margin", margin, minimum=0.0),
            check.number("feeler_angle", feeler_angle, minimum=0.0, below=math.pi / 2),
            check.number("radius", radius, above=0.0),
            check.number("lookahead", lookahead, above=0.0),
            path,
            check.flag("loop", loop),
            None if field is None else field._core,
        )

        self._target = None if target is None else tuple(float(x) for x in target)

    @property
    def kind(self) -> str:
        """The behaviour's name in snake case: ``"seek"``, ..., ``"follow_field"``."""
        return self._core.kind

    @property
    def name(self) -> str:
        """The name of the function that builds it: ``"Seek"``, ..., ``"FollowField"``."""
        return "".join(word.title() for word in self.kind.split("_"))

    def __repr__(self) -> str:
        target = "" if self._target is None else f"target={self._target}, "
        return f"classic.{self.name}({target}weight={self._core.weight:g}, priority={self._core.priority})"


def Seek(target=None, *, weight: float = 1.0, priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """``linear = A * unit(t - p)``.

    Parameters
    ----------
    target : array_like, shape (2,), optional
        Metres; None for the agent's own target (its target agent, else its target point).
    weight, priority : float, int
        As for every behaviour (see :class:`Steering`): its factor in a blend (default 1)
        and its level in a priority combiner (default 0).

    Returns
    -------
    ClassicBehavior
        The behaviour, for a :class:`Steering`.

    Raises
    ------
    ValueError, TypeError
        For a bad value, naming the argument.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.classic.Seek([5.0, 0.0])
    classic.Seek(target=(5.0, 0.0), weight=1, priority=0)
    """
    return ClassicBehavior("seek", target=target, weight=weight, priority=priority)


def Flee(target=None, *, weight: float = 1.0, priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """``linear = A * unit(p - t)``.

    Parameters
    ----------
    target : array_like, shape (2,), optional
        Metres; None for the agent's own target (its target agent, else its target point).
    weight, priority : float, int
        As for every behaviour (see :class:`Steering`): its factor in a blend (default 1)
        and its level in a priority combiner (default 0).

    Returns
    -------
    ClassicBehavior
        The behaviour, for a :class:`Steering`.

    Raises
    ------
    ValueError, TypeError
        For a bad value, naming the argument.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.classic.Flee(weight=0.5)
    classic.Flee(weight=0.5, priority=0)
    """
    return ClassicBehavior("flee", target=target, weight=weight, priority=priority)


def Arrive(target=None, *, target_radius: float = 0.5, slowing_radius: float = 3.0, time_to_target: float = 0.1,
           weight: float = 1.0, priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """Desired speed 0 inside ``target_radius``, ``S * d / slowing_radius`` inside
    ``slowing_radius``, else ``S``; ``linear = (desired velocity - v) / time_to_target``,
    truncated to ``A``.

    Parameters
    ----------
    target : array_like, shape (2,), optional
        Metres; None for the agent's own target (its target agent, else its target point).
    target_radius : float, default 0.5
        Metres within which the desired speed is 0.
    slowing_radius : float, default 3
        Metres within which the agent slows (> 0).
    time_to_target : float, default 0.1
        Seconds over which the desired velocity is reached (> 0).
    weight, priority : float, int
        As for every behaviour (see :class:`Steering`): its factor in a blend (default 1)
        and its level in a priority combiner (default 0).

    Returns
    -------
    ClassicBehavior
        The behaviour, for a :class:`Steering`.

    Raises
    ------
    ValueError, TypeError
        For a bad value, naming the argument.

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.classic.Steering([cs.classic.Arrive()]), [[0.0, 0.0]], targets=[[4.0, 0.0]],
    ...                  max_acceleration=2.0)
    >>> _ = world.run(600)
    >>> world.positions.round(2) + 0.0  # within target_radius of the target
    array([[3.52, 0.  ]], dtype=float32)
    """
    return ClassicBehavior("arrive", target=target, target_radius=target_radius, slowing_radius=slowing_radius,
                           time_to_target=time_to_target, weight=weight, priority=priority)


def Leave(target=None, *, escape_radius: float = 1.0, danger_radius: float = 5.0, time_to_target: float = 0.1,
          weight: float = 1.0, priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """Nothing beyond ``danger_radius``; desired speed ``S`` away from ``t`` inside
    ``escape_radius``, else ``S - S * d / danger_radius``; reached over ``time_to_target``.

    Parameters
    ----------
    target : array_like, shape (2,), optional
        Metres; None for the agent's own target (its target agent, else its target point).
    escape_radius : float, default 1
        Metres within which it flees at full speed.
    danger_radius : float, default 5
        Metres beyond which it does nothing (> 0).
    time_to_target : float, default 0.1
        Seconds over which the desired velocity is reached (> 0).
    weight, priority : float, int
        As for every behaviour (see :class:`Steering`): its factor in a blend (default 1)
        and its level in a priority combiner (default 0).

    Returns
    -------
    ClassicBehavior
        The behaviour, for a :class:`Steering`.

    Raises
    ------
    ValueError, TypeError
        For a bad value, naming the argument.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.classic.Leave(danger_radius=3.0)
    classic.Leave(weight=1, priority=0)
    """
    return ClassicBehavior("leave", target=target, escape_radius=escape_radius, danger_radius=danger_radius,
                           time_to_target=time_to_target, weight=weight, priority=priority)


def Pursue(target=None, *, max_prediction: float = 1.0, weight: float = 1.0,
           priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """Seek ``t + w * prediction``: ``prediction = max_prediction`` (seconds) when
    ``|v| <= d / max_prediction``, else ``d / |v|``.

    Parameters
    ----------
    target : array_like, shape (2,), optional
        Metres; None for the agent's own target (its target agent, else its target point).
    max_prediction : float, default 1
        Seconds ahead the target's position is predicted at most (> 0).
    weight, priority : float, int
        As for every behaviour (see :class:`Steering`): its factor in a blend (default 1)
        and its level in a priority combiner (default 0).

    Returns
    -------
    ClassicBehavior
        The behaviour, for a :class:`Steering`.

    Raises
    ------
    ValueError, TypeError
        For a bad value, naming the argument.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.classic.Pursue(max_prediction=0.5)
    classic.Pursue(weight=1, priority=0)
    """
    return ClassicBehavior("pursue", target=target, max_prediction=max_prediction, weight=weight, priority=priority)


def Evade(target=None, *, max_prediction: float = 1.0, weight: float = 1.0,
          priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """Flee the predicted position of the target, as :func:`Pursue` predicts it.

    Parameters
    ----------
    target : array_like, shape (2,), optional
        Metres; None for the agent's own target (its target agent, else its target point).
    max_prediction : float, default 1
        Seconds ahead the target's position is predicted at most (> 0).
    weight, priority : float, int
        As for every behaviour (see :class:`Steering`): its factor in a blend (default 1)
        and its level in a priority combiner (default 0).

    Returns
    -------
    ClassicBehavior
        The behaviour, for a :class:`Steering`.

    Raises
    ------
    ValueError, TypeError
        For a bad value, naming the argument.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.classic.Evade()
    classic.Evade(weight=1, priority=0)
    """
    return ClassicBehavior("evade", target=target, max_prediction=max_prediction, weight=weight, priority=priority)


def Face(target=None, *, time_to_target: float = 0.1, align_tolerance: float = 0.01, weight: float = 1.0,
         priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """Turn toward the target: aim for the angular velocity
    ``sign(r) * min(max_turn_rate, |r| / time_to_target)``, ``r`` the angle left to turn
    (radians), with ``angular = (that - omega) / time_to_target``; once
    ``|r| < align_tolerance``, brake the turn: ``angular = -omega / time_to_target``.

    Parameters
    ----------
    target : array_like, shape (2,), optional
        Metres; None for the agent's own target (its target agent, else its target point).
    time_to_target : float, default 0.1
        Seconds over which the desired velocity is reached (> 0).
    align_tolerance : float, default 0.01
        Radians within which the turn is braked.
    weight, priority : float, int
        As for every behaviour (see :class:`Steering`): its factor in a blend (default 1)
        and its level in a priority combiner (default 0).

    Returns
    -------
    ClassicBehavior
        The behaviour, for a :class:`Steering`.

    Raises
    ------
    ValueError, TypeError
        For a bad value, naming the argument.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.classic.Face([0.0, 1.0])
    classic.Face(target=(0.0, 1.0), weight=1, priority=0)
    """
    return ClassicBehavior("face", target=target, time_to_target=time_to_target, align_tolerance=align_tolerance,
                           weight=weight, priority=priority)


def LookWhereYouGo(*, time_to_target: float = 0.1, align_tolerance: float = 0.01, weight: float = 1.0,
                   priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """Turn toward the direction of motion, as :func:`Face` turns toward a target.

    Parameters
    ----------
    time_to_target : float, default 0.1
        Seconds over which the desired velocity is reached (> 0).
    align_tolerance : float, default 0.01
        Radians within which the turn is braked.
    weight, priority : float, int
        As for every behaviour (see :class:`Steering`): its factor in a blend (default 1)
        and its level in a priority combiner (default 0).

    Returns
    -------
    ClassicBehavior
        The behaviour, for a :class:`Steering`.

    Raises
    ------
    ValueError, TypeError
        For a bad value, naming the argument.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.classic.LookWhereYouGo(priority=1)
    classic.LookWhereYouGo(weight=1, priority=1)
    """
    return ClassicBehavior("look_where_you_go", time_to_target=time_to_target, align_tolerance=align_tolerance,
                           weight=weight, priority=priority)


def ObstacleAvoidance(*, horizon: float = 1.0, margin: float = 0.2, weight: float = 1.0,  # noqa: N802
                      priority: int = 0) -> ClassicBehavior:
    """Steer round the circles and polygons ahead, by time to collision.

    The agent's disc, grown by ``margin``, is cast along its velocity ``v`` (direction
    ``d``) over ``|v| * horizon`` metres. At the first obstacle it would touch, ``tau``
    seconds ahead, with outward normal ``n`` there, it steers along the part of ``n``
    across its way (to its left when ``n`` points straight back) and brakes by the share of
    the horizon already used: ``linear = A * (unit(n - (n.d) d) - (1 - tau / horizon) d)``.
    Nothing at rest or with nothing ahead within the horizon.

    Parameters
    ----------
    horizon : float
        Seconds ahead to look, > 0.
    margin : float
        Metres of clearance to keep, >= 0.
    weight, priority
        As for every behaviour (see :class:`Steering`).

    Returns
    -------
    ClassicBehavior
        The behaviour, for a :class:`Steering`.

    Raises
    ------
    ValueError, TypeError
        For a bad value, naming the argument.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.classic.ObstacleAvoidance(horizon=2.0, margin=0.3)
    classic.ObstacleAvoidance(weight=1, priority=0)
    """
    return ClassicBehavior("obstacle_avoidance", horizon=horizon, margin=margin, weight=weight, priority=priority)


def WallAvoidance(*, horizon: float = 1.0, margin: float = 0.2, feeler_angle: float = 0.6,  # noqa: N802
                  weight: float = 1.0, priority: int = 0) -> ClassicBehavior:
    """Turn away from walls (segments, polygon edges, the world's bounds) before reaching them.

    Three feelers leave the agent's centre: one along its velocity (its heading at rest),
    ``L = margin + |v| * horizon`` metres long, and two at ``+-feeler_angle`` half as long.
    A feeler whose disc (the agent's radius) would touch a wall ``t`` metres along pushes
    along the wall's normal there by ``A * (length - t) / length``; the nearest wall closer
    than ``radius + margin`` pushes along its normal by ``A * (radius + margin - distance) / margin``
    (``A`` when touching it with no margin). The pushes add up; the combiner truncates.

    Parameters
    ----------
    horizon : float
        Seconds of travel the middle feeler reaches, > 0.
    margin : float
        Metres of clearance to keep, >= 0.
    feeler_angle : float
        Radians between the middle feeler and each side one, from 0 to below pi / 2.
    weight, priority
        As for every behaviour (see :class:`Steering`).

    Returns
    -------
    ClassicBehavior
        The behaviour, for a :class:`Steering`.

    Raises
    ------
    ValueError, TypeError
        For a bad value, naming the argument.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.classic.WallAvoidance(feeler_angle=0.4)
    classic.WallAvoidance(weight=1, priority=0)
    """
    return ClassicBehavior("wall_avoidance", horizon=horizon, margin=margin, feeler_angle=feeler_angle,
                           weight=weight, priority=priority)


def Separation(*, radius: float = 1.0, weight: float = 1.0, priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """Keep apart from the agents around (through the world's neighbour grid).

    Each agent sensed whose disc is within ``radius`` metres of this one's (gap ``g``
    between the discs, below 0 when they overlap) pushes it straight away by
    ``A * min(1, (radius - g) / radius)``, the pushes' sum truncated to ``A`` (a crowd
    pushes no harder than one neighbour); two agents at one point part along x.

    Parameters
    ----------
    radius : float
        Metres between the discs within which neighbours push, > 0.
    weight, priority
        As for every behaviour (see :class:`Steering`).

    Returns
    -------
    ClassicBehavior
        The behaviour, for a :class:`Steering`.

    Raises
    ------
    ValueError, TypeError
        For a bad value, naming the argument.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.classic.Separation(radius=0.5)
    classic.Separation(weight=1, priority=0)
    """
    return ClassicBehavior("separation", radius=radius, weight=weight, priority=priority)


def FollowPath(path, *, lookahead: float = 1.0, loop: bool = False, target_radius: float = 0.5,  # noqa: N802
               slowing_radius: float = 3.0, time_to_target: float = 0.1, weight: float = 1.0,
               priority: int = 0) -> ClassicBehavior:
    """Follow a polyline: reach for ``S`` toward the point ``lookahead`` metres on from the
    path's point closest to the agent, over ``time_to_target``; at the end of an open path,
    arrive there as :func:`Arrive` does. The closest point is that of the whole path (a
    world keeps nothing between steps for classic steering): where the path passes close to
    another part of itself, the agent may take that part.

    Parameters
    ----------
    path : array_like
        ``(k, 2)`` waypoints in metres, k >= 2, in order.
    lookahead : float
        Metres along the path, > 0.
    loop : bool
        Whether the path goes back from its last waypoint to its first, for ever.
    target_radius, slowing_radius, time_to_target
        As for :func:`Arrive`, at the end of an open path.
    weight, priority
        As for every behaviour (see :class:`Steering`).

    Returns
    -------
    ClassicBehavior
        The behaviour, for a :class:`Steering`.

    Raises
    ------
    ValueError, TypeError
        For a bad value, naming the argument.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.classic.FollowPath([[0.0, 0.0], [4.0, 0.0]], lookahead=0.5)
    classic.FollowPath(weight=1, priority=0)
    """
    return ClassicBehavior("follow_path", path=path, lookahead=lookahead, loop=loop, target_radius=target_radius,
                           slowing_radius=slowing_radius, time_to_target=time_to_target, weight=weight,
                           priority=priority)


def FollowField(field, *, time_to_target: float = 0.1, weight: float = 1.0,  # noqa: N802
                priority: int = 0) -> ClassicBehavior:
    """Flow-field following: reach for ``S`` times the field's direction at the agent over
    ``time_to_target`` (braking where the field has none: at a goal, or with no way to one).

    Parameters
    ----------
    field : NavigationField
        The field to follow (``Scenario.navigation_field`` builds one round a scene's walls).
    time_to_target : float
        Seconds, > 0.
    weight, priority
        As for every behaviour (see :class:`Steering`).

    Returns
    -------
    ClassicBehavior
        The behaviour, for a :class:`Steering`.

    Raises
    ------
    ValueError, TypeError
        For a bad value, naming the argument.

    Examples
    --------
    >>> import contextsteer as cs
    >>> field = cs.NavigationField([[9.0, 2.0]], bounds=(0, 0, 10, 4), cell=0.5)
    >>> cs.classic.FollowField(field)
    classic.FollowField(weight=1, priority=0)
    """
    if not isinstance(field, NavigationField):
        raise TypeError(f"field: expected a contextsteer.NavigationField, got {type(field).__name__}")
    return ClassicBehavior("follow_field", field=field, time_to_target=time_to_target, weight=weight,
                           priority=priority)


class Steering(ShowsArguments):
    """Classic behaviours and their combiner, for agents of a :class:`~contextsteer.World`.

    Without Face or LookWhereYouGo, an agent's heading follows its velocity.

    In a world's step, every ``time_to_target`` counts as at least the step's ``dt``: a goal
    velocity is reached within the step at the fastest, never overshot (a step ten times
    longer than ``time_to_target`` would otherwise overshoot tenfold, and with an unlimited
    turn rate each turn would overshoot the last). An agent turns by at most half a turn
    per substep, whatever its ``max_turn_rate``.

    Parameters
    ----------
    behaviors : sequence of ClassicBehavior
        The behaviours (one alone is taken too).
    combiner : {'blend', 'priority'}, default 'blend'
        How their outputs combine (see :mod:`contextsteer.classic`).
    epsilon : float, default 0.001
        The output magnitude above which a priority level wins (>= 0).

    Raises
    ------
    TypeError
        A behaviour that is not a classic one.
    ValueError
        An unknown combiner or a bad epsilon.

    Examples
    --------
    >>> import contextsteer as cs
    >>> steering = cs.classic.Steering([cs.classic.Arrive(), cs.classic.ObstacleAvoidance(priority=1)],
    ...                                combiner="priority")
    >>> world = cs.World(steering, [[0.0, 0.0]], targets=[[6.0, 0.0]], circles=[[3.0, 0.2, 0.5]])
    >>> _ = world.run(900)
    >>> bool(abs(world.positions[0, 0] - 6.0) < 0.6), float(world.penetration.max()) == 0.0
    (True, True)
    """

    # The behaviours as held: the argument may have been a generator.
    _shown_as_now = ("behaviors",)

    def __init__(self, behaviors: Sequence[ClassicBehavior], *, combiner: str = "blend",
                 epsilon: float = 1e-3):
        if isinstance(behaviors, ClassicBehavior):
            behaviors = [behaviors]
        behaviors = list(behaviors)
        for i, b in enumerate(behaviors):
            if not isinstance(b, ClassicBehavior):
                raise TypeError(f"behaviors[{i}]: expected a classic behaviour (classic.Seek, ...), "
                                f"got {type(b).__name__}")
        self._behaviors = tuple(behaviors)
        self._combiner = check.name("combiner", combiner)
        self._core = _core.ClassicSteering([b._core for b in behaviors], self._combiner,
                                           check.number("epsilon", epsilon, minimum=0.0))

    @property
    def behaviors(self) -> tuple[ClassicBehavior, ...]:
        """The behaviours, in order."""
        return self._behaviors

    @property
    def combiner(self) -> str:
        """``"blend"`` or ``"priority"``."""
        return self._combiner

    def __repr__(self) -> str:
        return f"classic.Steering([{', '.join(map(repr, self._behaviors))}], combiner={self._combiner!r})"


__all__ = ["Arrive", "ClassicBehavior", "Evade", "Face", "Flee", "FollowField", "FollowPath", "Leave",
           "LookWhereYouGo", "ObstacleAvoidance", "Pursue", "Seek", "Separation", "Steering", "WallAvoidance"]
