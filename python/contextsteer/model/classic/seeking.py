"""Classic behaviours toward and away from a target: Seek, Flee, Arrive, Leave, Pursue, Evade."""

from __future__ import annotations

from .steering import ClassicBehavior


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

