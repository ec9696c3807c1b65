"""Danger from what is in the way: Avoid (obstacles and agents), Rays, TimeToCollision
and Anticipate."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from ... import _core
from ..._internal import validation as check

if TYPE_CHECKING:
    pass

from .base import Behavior


class Avoid(Behavior, core=_core.Avoid):
    """Danger toward circles, points, walls, polygons, bounds and other agents.

    Circles and agents: an obstacle of radius ``r`` at centre distance ``d`` from an agent
    of radius ``a`` has clearance ``max(0, d - r - a)`` and covers the directions within
    ``asin(min(1, (r + a) / d))`` of its bearing. Every slot whose arc (its direction
    +- half the slot spacing) overlaps that cone gets ``falloff(clearance / max_distance)``,
    so a coarse map never misses an obstacle, except the slots at 90 degrees or more from
    the bearing: they lead away from the obstacle or along it, so that an agent squeezed
    between two neighbors can still slip out sideways.
    Walls (segments, polygon edges, bounds): slot ``i`` gets ``falloff(t_i / max_distance)``,
    ``t_i`` the least distance to the wall (inflated by ``a``) within the slot's arc, so the
    slots running along a wall stay nearly free. ``wall_arc`` (from just above 0 to 1, the
    default) measures walls over that share of each arc, round the slot's direction: with
    a coarse map in a narrow corridor, where every slot's whole arc reaches the walls, the
    slots nearest the corridor's way stay open (with a contact stage to keep bodies out
    of the walls the narrower arcs no longer see; the crowd scenes' recipes take arcs of
    +-11.25 degrees, ``min(1, slots / 16)``). Everything combines by max.

    Two agents that meet head-on see the same picture mirrored, and a sidestep to one
    side of the map is a sidestep to opposite sides of the corridor for them: they block
    each other. ``keep_right`` (radians, from -pi/4 to pi/4) turns the bearing of every
    other agent counter-clockwise by that angle before its slots are found, so that the
    slots on an agent's right are freed first and both step to their right, as people
    keep to one side; negative values keep left. 0.2 to 0.4 works in the scenes of
    :mod:`contextsteer.scenarios`. Obstacles are not turned.

    With ``world_obstacles`` the obstacles of the scene (world or ``evaluate``) are avoided
    on the layers the agent senses; each thread that does keeps 4 bytes per circle, wall
    and polygon edge of the scene, to take each obstacle once per agent. With ``agents``
    the other agents are sensed through the world's neighbor grid.

    Parameters
    ----------
    circles : array_like, shape (m, 3), optional
        Circles of this behaviour, x, y, radius in metres.
    points : array_like, shape (m, 2), optional
        Points of this behaviour (circles of radius 0), metres.

    Examples
    --------
    >>> import contextsteer as cs
    >>> avoid = cs.Avoid([[2.0, 0.0, 0.5]], max_distance=4.0)
    >>> evaluation = cs.Pipeline([cs.Chase([[5.0, 0.0]]), avoid], slots=8).evaluate([[0.0, 0.0]])
    >>> evaluation.danger.round(2)
    array([[0.62, 0.  , 0.  , 0.  , 0.  , 0.  , 0.  , 0.  ]], dtype=float32)
    >>> evaluation.decision.direction.round(3)
    array([[0.707, 0.707]], dtype=float32)
    """

    _core: _core.Avoid

    def __init__(self, circles: ArrayLike | None = None, *, points: ArrayLike | None = None,
                 **parameters: Any) -> None:
        parts = [np.zeros((0, 3), dtype=np.float32)]
        if circles is not None:
            parts.append(check.points("circles", circles, columns=3))
        if points is not None:
            pts = check.points("points", points)
            parts.append(np.column_stack([pts, np.zeros(len(pts), dtype=np.float32)]))
        self._core = _core.Avoid(np.concatenate(parts), self._params(parameters))

    @property
    def circles(self) -> np.ndarray:
        """``(m, 3)`` circles of this behaviour (points have radius 0)."""
        return self._core.circles



class Rays(Behavior, core=_core.Rays):
    """Danger from one ray per slot, ``length`` metres, against the scene's
    circles, walls, polygons and bounds (inflated by the agent's radius): ``"binary"``
    puts 1 on a slot whose ray hits, ``"distance"`` puts ``1 - t / length``. Each thread
    that casts rays keeps 4 bytes per circle, wall and polygon edge of the scene, to cast
    each obstacle once per agent.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.Rays(length=3.0, mode="distance")
    Rays(length=3, mode='distance')
    """

    def __init__(self, **parameters: Any) -> None:
        self._core = _core.Rays(self._params(parameters))


class TimeToCollision(Behavior, core=_core.TimeToCollision):
    """Danger from where a moving neighbor will be: for each sensed neighbor within
    ``radius`` metres, the time of closest approach ``t*`` (capped at ``horizon``
    seconds); if they would then overlap, the slots covering its position at ``t*`` get
    ``falloff(t* / horizon)``. Moving circles count as neighbors. A moving wall or polygon
    counts as its own shape: each slot gets ``falloff(t / horizon)``, ``t`` the time the
    agent, walking along the slot at its current speed, first touches the shape moving at
    its velocity (when ``t <= horizon``); one touching it already gets ``falloff(0)`` on the
    slots leading into it.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.TimeToCollision(horizon=2.0).horizon
    2.0
    """

    def __init__(self, **parameters: Any) -> None:
        self._core = _core.TimeToCollision(self._params(parameters))


class Anticipate(Behavior, core=_core.Anticipate):
    """Danger from the other agents by how fast the agent could walk each way without
    touching one of them within ``horizon`` seconds, given where they are going.

    For slot direction ``d``, ``safe(d)`` is the lowest speed along ``d`` that comes within
    the two radii of a sensed neighbor (within ``radius`` metres) in the horizon, the
    neighbor moving on at its velocity. The slot's danger is ``1 - min(1, safe(d) /
    max_speed)``; where standing still already leads into a touch, ``0.1 * s / max_speed``
    with ``s`` the speed along ``d`` that gets clear (1 when that is above ``max_speed``),
    so that the ways out are the least dangerous. A neighbor already touched counts by how
    the distance changes alone: ``safe(d)`` is the speed along ``d`` that keeps it, and a
    way more than 45 degrees off the line to the neighbor slides past it (its danger times
    ``min(1, sqrt(2) cos(angle))``), so an agent pressed against one that walks off
    follows it at its pace, and two pressed together slide past each other. With
    ``danger_mode="multiply"`` the decision's strength is then the share of ``max_speed``
    that stays clear: an agent follows a neighbor walking its way at that
    neighbor's pace (at the same speed it sees no danger), slows for one that stands, and
    sees an oncoming one before a standing one at the same distance.

    ``keep_right`` turns every neighbor's position and velocity counter-clockwise by that
    many radians first, so that in a face-off both agents find their own right clearer.
    ``responsibility``: the share ``a`` of avoiding another agent that this agent takes on
    (1, the default: all of it, the other keeping its velocity). Below 1 it expects the
    other to take the rest, as reciprocal velocity obstacles do (``a = 1/2``): a candidate
    velocity ``u`` is tested as ``u / a - (1 - a) / a * v_self``, so two agents that share
    turn less each and do not over-react to each other. Moving obstacles are avoided wholly:
    a circle as a neighbor, a wall or polygon as its own shape (``safe(d)`` the lowest speed
    along ``d`` that comes within the agent's radius of it in the horizon).
    ``make_way``: an agent that a neighbor would touch if it stood still (one touching it
    already that does not walk off, or one coming to it) gets this
    interest in every slot, so that it steps out of the way (the least dangerous way) even
    when it has arrived; it fills interest too (zero rows when it does not make way), which
    counts in an ``interest_rule="mean"``.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.Anticipate(horizon=0.5, keep_right=0.2).horizon
    0.5
    """

    def __init__(self, **parameters: Any) -> None:
        self._core = _core.Anticipate(self._params(parameters))

