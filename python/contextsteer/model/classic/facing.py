"""Classic behaviours that turn the agent: Face a target, LookWhereYouGo."""

from __future__ import annotations

from .steering import ClassicBehavior


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

