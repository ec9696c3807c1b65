"""Classic behaviours along a way: FollowPath along a polyline, FollowField down a navigation field."""

from __future__ import annotations

from ..navigation import NavigationField
from .steering import ClassicBehavior


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

