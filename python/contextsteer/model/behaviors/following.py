"""Interest along a way: FollowField down a navigation field, FollowPath along a polyline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ... import _core
from ..._internal import validation as check
from ..navigation import NavigationField
from .base import Behavior


class FollowField(Behavior, core=_core.FollowField):
    """Interest along a :class:`~contextsteer.NavigationField`: a cosine lobe toward the
    field's direction at the agent, the shortest way round the obstacles to the nearest
    goal. As :class:`Arrive`, its peak is 0 within ``arrive_radius`` metres of a goal (by
    the field's distance) and ``distance / slowing_radius`` within ``slowing_radius``,
    1 beyond. Where the field has no direction (at a goal, or where no goal can be
    reached) the agent gets no interest from it.

    The field is planned for the obstacles only: keep :class:`Avoid` in the pipeline for
    other agents. Many agents sharing one goal all follow the same ways, so a crowd
    queues at the narrowest place, as real crowds do. ``sideways``: the share of the peak
    left at right angles to the field, as for :class:`Chase`.

    ``to_target=True`` leads each agent on from the field's goal to its own target
    (:attr:`World.targets`, or its target agent), which should lie in one of the goals:
    where the field has no direction but a goal is reached (in a goal area, at a goal
    point) the lobe points straight at the target, and the ramp goes by the larger of the
    field's distance and the straight distance to the target, so agents keep their pace
    across a goal area's edge and arrive at their own places without :class:`Arrive`.

    With a sequence of fields, one per group, an agent of group ``g`` (``World.groups``)
    follows ``field[g]``, and a step with an agent whose group has no field raises
    ValueError naming ``groups``. Several groups with goals of their own then share one
    pipeline.

    Crowd-updated fields: with ``crowd_density`` or ``crowd_counterflow`` above 0, each
    world marches its own copy of the fields again every ``crowd_every`` seconds of its
    time (the fields' marches staggered over the period, each spread over the steps of a
    tenth of it, so that no step marches much more than another), a metre through a cell
    costing, on top of the field's own costs,
    ``crowd_density * rho + crowd_counterflow * phi``: rho the agents per m^2 there
    (each spread over ``crowd_radius`` metres), phi the same weighted by the speed (m/s)
    at which they walk against the group's way. Groups then take the way that is free
    and counter-flows split into lanes. A group's own agents within ``slowing_radius`` of
    its goal count for nothing. The arrival (``arrive_radius``, ``slowing_radius``)
    still goes by the field's own distance. See :doc:`/docs/navigation` for the formula.

    Parameters
    ----------
    field : NavigationField or sequence of NavigationField
        The field every agent follows, or one per group.

    Examples
    --------
    >>> import numpy as np
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[1.0, 1.0]], bounds=(0, 0, 10, 4))
    >>> field = world.navigation_field([[9.0, 2.0]], cell=0.5)
    >>> follow = cs.FollowField(field, slowing_radius=2.0)
    >>> world.set_steering(cs.Pipeline([follow, cs.Avoid()]))
    >>> recording = world.run(600)  # 10 s
    >>> bool(np.hypot(*(world.positions[0] - (9.0, 2.0))) < 2.0)
    True
    """

    _core: _core.FollowField

    def __init__(self, field: NavigationField | Sequence[NavigationField], **parameters: Any) -> None:
        per_group = not isinstance(field, NavigationField)
        fields: list[Any] = list(field) if per_group and isinstance(field, (list, tuple)) else [field]
        if not fields:
            raise ValueError("field: expected a NavigationField or a sequence of them, one per group, got none")
        for f in fields:
            if not isinstance(f, NavigationField):
                raise TypeError(f"field: expected a contextsteer.NavigationField or a sequence of them, "
                                f"got {type(f).__name__}")
        self._field = tuple(fields) if per_group else field
        self._core = _core.FollowField([f._core for f in fields], per_group, self._params(parameters))

    @property
    def field(self):
        """The :class:`~contextsteer.NavigationField` followed, or the tuple of them, one per group."""
        return self._field

    @property
    def fields(self) -> tuple:
        """The fields, one per group (a single field given: that one)."""
        return self._field if isinstance(self._field, tuple) else (self._field,)

    def crowd_fields(self, world) -> tuple | None:
        """The fields as a world last updated them for its crowd.

        Parameters
        ----------
        world : World
            A world whose pipeline holds this behaviour.

        Returns
        -------
        tuple of NavigationField or None
            Copies, one per field, or None when it has not updated them yet (before its
            first step, or without crowd costs).

        Raises
        ------
        TypeError
            ``world`` is not a :class:`~contextsteer.World`.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[1.0, 1.0]], bounds=(0, 0, 10, 4))
        >>> follow = cs.FollowField(world.navigation_field([[9.0, 2.0]], cell=0.5), crowd_density=1.0)
        >>> world.set_steering(cs.Pipeline([follow]))
        >>> follow.crowd_fields(world) is None  # before the first step
        True
        >>> world.step()
        >>> len(follow.crowd_fields(world))
        1
        """
        core = getattr(world, "_core", None)
        if not isinstance(core, _core.World):  # a World's core, whatever subclass of World holds it
            raise TypeError(f"world: expected a contextsteer.World, got {type(world).__name__}")
        cores = self._core.crowd_fields(core)
        if cores is None:
            return None
        return tuple(NavigationField._of_core(core) for core in cores)


class FollowPath(Behavior, core=_core.FollowPath):
    """Interest along a polyline: each step the agent aims ``lookahead`` metres
    beyond its progress on the path (its closest point, as an arc length); at the last
    waypoint it arrives (strength 0 within ``arrive_radius``, ramping within
    ``slowing_radius``). ``sideways``: the share of the peak left at right angles, as for
    :class:`Chase`.

    In a world each agent's progress is kept from step to step and only moves forward:
    the closest point is sought along the next ``window`` metres of path, so a path that
    crosses itself or doubles back is followed in order, not cut short. ``window`` must
    exceed what an agent travels in one step: a world's step raises ValueError (naming
    dt) when ``max_speed * dt`` of an agent reaches it. The first step, and a
    pipeline evaluated outside a world, take the closest point of the whole path.

    ``loop=True`` makes a patrol: after the last waypoint the path goes back to the first
    and on, for ever; arc lengths wrap around the loop's length and nobody arrives.

    ``to_target=True`` ends each agent's path at its own target (:attr:`World.targets`, or
    its target agent) instead of the last waypoint: once its aim point is the last
    waypoint, it aims at its target and arrives there (``arrive_radius``,
    ``slowing_radius``), so agents sharing a path part at its end. A loop has no end: there
    it changes nothing.

    Parameters
    ----------
    waypoints : array_like, shape (k, 2)
        The path's points in order, metres (at least one).

    Examples
    --------
    >>> import contextsteer as cs
    >>> path = cs.FollowPath([[0.0, 0.0], [4.0, 0.0], [4.0, 3.0]], lookahead=1.0)
    >>> path.length
    7.0
    >>> path.progress([2.0, 0.5])
    2.0
    """

    _core: _core.FollowPath

    def __init__(self, waypoints: ArrayLike, **parameters: Any) -> None:
        self._core = _core.FollowPath(check.points("waypoints", waypoints), self._params(parameters))

    @property
    def waypoints(self) -> np.ndarray:
        """``(k, 2)`` the path's points in order, metres."""
        return self._core.waypoints

    @property
    def length(self) -> float:
        """The path's length, metres (a loop's closing leg included)."""
        return self._core.length

    def progress(self, point, last: float = float("nan")) -> float:
        """The progress of an agent along the path: its closest point, as an arc length.

        Parameters
        ----------
        point : array_like, shape (2,)
            The agent's position, metres.
        last : float, default nan
            Its last progress, metres: the closest point is sought within
            ``[last, last + window]``, or on the whole path when NaN.

        Returns
        -------
        float
            Metres along the path.

        Examples
        --------
        >>> import contextsteer as cs
        >>> path = cs.FollowPath([[0.0, 0.0], [4.0, 0.0], [4.0, 3.0]])
        >>> path.progress([3.5, 1.0])
        5.0
        """
        point = check.shaped("point", point, (2,))
        anywhere = isinstance(last, (float, np.floating)) and np.isnan(last)
        return self._core.progress(point, float("nan") if anywhere else check.number("last", last))

