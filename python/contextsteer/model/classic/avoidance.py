"""Classic avoidance of what the scene holds: ObstacleAvoidance, WallAvoidance, Separation."""

from __future__ import annotations

from .steering import ClassicBehavior


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

