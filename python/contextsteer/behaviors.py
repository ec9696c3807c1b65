"""Context behaviours: each fills interest or danger maps for every agent of a batch.

This module is long because it holds one short class per behaviour (their parameters
and checks come from the C++ definitions), plus the Python behaviour and its batch.

A behaviour knows nothing of the others; a :class:`~contextsteer.Pipeline` combines
them. Distances are in metres. Where a behaviour shapes by distance, ``falloff`` names
the curve over ``x = distance / max_distance`` (0 when ``max_distance`` is infinite):
``"step"`` 1; ``"linear"`` ``1 - x``; ``"smoothstep"`` ``1 - (3x^2 - 2x^3)``;
``"inverse_square"`` ``1 / (1 + 16 x^2)``; ``"exponential"`` ``exp(-4x)``.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _core
from . import _validation as check
from ._arguments import ShowsArguments
from ._docstrings import with_fields

if TYPE_CHECKING:
    from .navigation import NavigationField

# A Python behaviour's fill: (batch, interest, danger), the maps ``(n, slots)`` or None.
Fill = Callable[["Batch", "NDArray[np.float32] | None", "NDArray[np.float32] | None"], None]

# What the package exports from here: adding a behaviour adds its name to this list.
__all__ = [
    "Alignment",
    "Anticipate",
    "Arrive",
    "Avoid",
    "Batch",
    "Behavior",
    "Chase",
    "Cohesion",
    "Evade",
    "Flee",
    "FollowField",
    "FollowPath",
    "Forward",
    "Leave",
    "Neighbors",
    "Pursue",
    "PythonBehavior",
    "Rays",
    "Seek",
    "Separation",
    "TimeToCollision",
    "Wander",
]

class Behavior(ShowsArguments):
    """Base of every behaviour; wraps the C++ object that fills the maps. Its repr is the
    call that built it.

    A behaviour built into the library takes the parameters its C++ struct declares
    (defaults, units, checks: listed under "Parameters" in its docstring). Each can be set
    on a live behaviour (``avoid.max_distance = 5.0``): the value is checked as the
    constructor checks it and takes effect at the next step of every world using the
    behaviour. Setting one while a world steps with it (from another thread) raises
    RuntimeError (busy): set it again once the step returns. Setting an attribute the
    behaviour does not have raises AttributeError.

    Examples
    --------
    >>> import contextsteer as cs
    >>> avoid = cs.Avoid(max_distance=3.0)
    >>> isinstance(avoid, cs.Behavior), avoid.fills_danger
    (True, True)
    >>> avoid.max_distance = 5.0
    >>> avoid
    Avoid(max_distance=5)
    """

    _core: _core.Behavior
    # name -> its description from the C++ struct (name, kind, default, unit, doc, bounds, choices)
    _parameters: dict = {}
    _core_class: Any  # the C++ class, whose Params struct holds the defaults

    def __init_subclass__(cls, core=None, **kwargs):
        if core is not None:
            cls._core_class = core
            cls._parameters = {f["name"]: f for f in core._fields}
            for name, f in cls._parameters.items():
                setattr(cls, name, _parameter_property(f))
            _declare_parameters(cls)
        super().__init_subclass__(**kwargs)

    def _params(self, given: dict):
        """The C++ parameter struct of this class: its defaults, with ``given`` set by name
        (each checked)."""
        params = self._core_class.Params()
        for name, value in given.items():
            spec = self._parameters.get(name)
            if spec is None:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {name!r}; "
                                f"its parameters are {', '.join(self._parameters)}")
            setattr(params, name, _checked(spec, value))
        return params

    def __setattr__(self, name, value):
        library = type(self).__module__.startswith("contextsteer.")
        if (library and not name.startswith("_") and "_core" in self.__dict__
                and not isinstance(getattr(type(self), name, None), property)):
            raise AttributeError(f"{type(self).__name__} has no parameter {name!r}"
                                 + (f"; its parameters are {', '.join(self._parameters)}" if self._parameters else ""))
        super().__setattr__(name, value)

    @property
    def weight(self) -> float:
        """Factor applied to this behaviour's maps by the pipeline's combine rule."""
        return self._core.weight

    @property
    def fills_interest(self) -> bool:
        """Whether this behaviour writes interest maps."""
        return self._core.fills_interest

    @property
    def fills_danger(self) -> bool:
        """Whether this behaviour writes danger maps."""
        return self._core.fills_danger


def _checked(spec: dict, value):
    """``value`` checked as the C++ field ``spec`` takes it (the core checks again)."""
    name, kind = spec["name"], spec["kind"]
    if kind == "number":
        bounds = dict(spec["bounds"])
        if bounds.pop("absent", False) and value is None:
            return None  # left unset: the C++ struct says what that means
        return check.number(name, value, **bounds)
    if kind == "flag":
        return check.flag(name, value)
    if kind == "name":
        return check.name(name, value)  # the core names the choices when it is not one
    if kind == "seed":
        return check.count(name, value, maximum=2**64 - 1)
    bounds = spec["bounds"]
    return check.count(name, value, minimum=int(bounds.get("minimum", 0)),
                       maximum=int(bounds.get("maximum", check.INT_MAX)))


def _unit(spec: dict) -> str:
    return {"m": "metres", "s": "seconds", "rad": "radians", "Hz": "per second"}.get(spec["unit"], spec["unit"])


def _parameter_property(spec: dict) -> property:
    name = spec["name"]

    def get(self):
        return getattr(self._core, name)

    def set_(self, value):
        setattr(self._core, name, _checked(spec, value))
        record_change(self, name)

    unit = f" ({_unit(spec)})" if spec["unit"] else ""
    return property(get, set_, doc=f"{spec['doc']}{unit}; {spec['default']!r} by default.")


def record_change(obj, name: str) -> None:
    """After ``name`` was set on a live ``obj``: its repr and pickle show it as it is now."""
    given = obj.__dict__.get("_arguments_given")
    if given is not None and not any(entry[0] == name for entry in given):
        given.append((name, True, None, None))


RAISES = """TypeError
    A keyword that is not a parameter of the class, or a value of the wrong type.
ValueError
    A value outside its bounds, not finite, or not one of its choices."""


def _declare_parameters(cls) -> None:
    """The class's ``__init__`` signature and docstring, completed from its C++ fields: its
    own arguments, then every parameter by keyword with the struct's default."""
    import inspect

    init = cls.__dict__["__init__"]
    own = [p for p in inspect.signature(init).parameters.values() if p.kind != inspect.Parameter.VAR_KEYWORD]
    keyword = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=f["default"])
               for name, f in cls._parameters.items()]
    init.__signature__ = inspect.Signature(own + keyword)
    cls.__doc__ = with_fields(cls.__doc__, list(cls._parameters.values()), RAISES)


def _targets(name: str, value):
    """Shared target points, or none with the agent's own target when value is None."""
    if value is None:
        return np.zeros((0, 2), np.float32), True
    return check.points(name, value), False


class Chase(Behavior, core=_core.Chase):
    """Interest toward targets.

    For an agent at ``p`` and a target ``t`` at distance ``d <= max_distance``, slot ``i``
    gets ``max(0, dot(u, d_i)) * falloff(d / max_distance)``, ``u = (t - p) / d``: closer
    targets are stronger. ``combine="max"`` goes for the best target; ``"sum"`` heads for
    the centre between targets.

    ``sideways`` is the share of the peak left at right angles to the target
    (``max(0, w + (1 - w) * dot(u, d_i))`` instead of ``max(0, dot(u, d_i))``). With 0 an
    agent whose way ahead is blocked has no interest anywhere else and stops; about 0.5
    lets it go round (crowds crossing at a point, see
    :func:`~contextsteer.scenarios.circle`). Above 0.5, even straight away gets some.

    Parameters
    ----------
    targets : array_like, shape (m, 2) or (2,), optional
        Target positions, metres, shared by every agent. None (the default): each agent
        chases its own target (its target agent, else its target point, see
        :meth:`World.add_agents`).

    Examples
    --------
    >>> import contextsteer as cs
    >>> pipeline = cs.Pipeline([cs.Chase([[5.0, 0.0]])], slots=8)
    >>> pipeline.evaluate([[0.0, 0.0]]).decision.direction
    array([[1., 0.]], dtype=float32)
    """

    _core: _core.Chase

    def __init__(self, targets: ArrayLike | None = None, **parameters: Any) -> None:
        points, own = _targets("targets", targets)
        self._core = _core.Chase(points, own, self._params(parameters))

    @property
    def targets(self) -> np.ndarray:
        """``(m, 2)`` target positions, metres (a copy; assign to change them)."""
        return self._core.targets

    @targets.setter
    def targets(self, value) -> None:
        self._core.targets = check.points("targets", value)


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


class Flee(Behavior, core=_core.Flee):
    """Interest away from threats within ``radius`` metres.

    For a threat at distance ``d <= radius``, slot ``i`` gets
    ``max(0, dot(u, d_i)) * falloff(d / radius)``, ``u`` pointing away from it; threats
    combine by max. ``sideways``: the share of the peak left at right angles, as for
    :class:`Chase`.

    Parameters
    ----------
    threats : array_like, shape (m, 2), optional
        Threat positions, metres; None (the default) for each agent's own target.

    Examples
    --------
    >>> import contextsteer as cs
    >>> pipeline = cs.Pipeline([cs.Flee([[1.0, 0.0]], radius=3.0)], slots=8)
    >>> pipeline.evaluate([[0.0, 0.0]]).decision.direction.round(3) + 0.0
    array([[-1.,  0.]], dtype=float32)
    """

    _core: _core.Flee

    def __init__(self, threats: ArrayLike | None = None, **parameters: Any) -> None:
        points, own = _targets("threats", threats)
        self._core = _core.Flee(points, own, self._params(parameters))


class Forward(Behavior, core=_core.Forward):
    """Interest toward the agent's heading: ``strength * max(0, dot(h, d_i))`` (a
    directional behaviour; with Avoid it drives round a track).

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.Forward(strength=0.5)
    Forward(strength=0.5)
    """

    def __init__(self, **parameters: Any) -> None:
        self._core = _core.Forward(self._params(parameters))


class Pursue(Behavior, core=_core.Pursue):
    """Interest toward where the agent's target agent will be.

    With ``d`` the distance to the target moving at ``w`` and ``s`` the agent's own speed,
    the prediction is ``max_prediction`` seconds when ``s <= d / max_prediction``, else
    ``d / s``; the aim is ``target + w * prediction``. Set each agent's target agent with
    ``World(target_ids=...)``; without one it aims at its target point. ``sideways``: the
    share of the peak left at right angles, as for :class:`Chase`.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.Pursue(max_prediction=2.0).max_prediction
    2.0
    """

    _core: _core.Pursue

    def __init__(self, **parameters: Any) -> None:
        self._core = _core.Pursue(self._params(parameters))


class Evade(Behavior, core=_core.Evade):
    """Interest away from where the agent's target agent will be (as :class:`Pursue`
    predicts it), times ``falloff(d / radius)`` within ``radius`` metres. ``sideways``: the
    share of the peak left at right angles, as for :class:`Chase`.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.Evade(radius=8.0).radius
    8.0
    """

    _core: _core.Evade

    def __init__(self, **parameters: Any) -> None:
        self._core = _core.Evade(self._params(parameters))


class Arrive(Behavior, core=_core.Arrive):
    """Interest toward targets whose strength ramps like the seeds' arrive speed: 0 within
    ``target_radius``, ``d / slowing_radius`` within ``slowing_radius``, else 1 (metres).
    ``sideways``: the share of the peak left at right angles, as for :class:`Chase`.

    Parameters
    ----------
    targets : array_like, shape (m, 2), optional
        Target positions, metres; None (the default) for each agent's own target.

    Examples
    --------
    >>> import contextsteer as cs
    >>> pipeline = cs.Pipeline([cs.Arrive([[1.0, 0.0]], slowing_radius=2.0)], slots=8)
    >>> pipeline.evaluate([[0.0, 0.0]]).decision.strength
    array([0.5], dtype=float32)
    """

    _core: _core.Arrive

    def __init__(self, targets: ArrayLike | None = None, **parameters: Any) -> None:
        points, own = _targets("targets", targets)
        self._core = _core.Arrive(points, own, self._params(parameters))


class Leave(Behavior, core=_core.Leave):
    """Interest away from threats (the classic Leave): nothing beyond ``danger_radius``,
    strength 1 within ``escape_radius``, else ``1 - d / danger_radius`` (metres).
    ``sideways``: the share of the peak left at right angles, as for :class:`Chase`.

    Parameters
    ----------
    threats : array_like, shape (m, 2), optional
        Threat positions, metres; None (the default) for each agent's own target.

    Examples
    --------
    >>> import contextsteer as cs
    >>> pipeline = cs.Pipeline([cs.Leave([[0.0, 1.0]], danger_radius=4.0)], slots=8)
    >>> pipeline.evaluate([[0.0, 0.0]]).decision.direction.round(3) + 0.0
    array([[ 0., -1.]], dtype=float32)
    """

    _core: _core.Leave

    def __init__(self, threats: ArrayLike | None = None, **parameters: Any) -> None:
        points, own = _targets("threats", threats)
        self._core = _core.Leave(points, own, self._params(parameters))


class Separation(Behavior, core=_core.Separation):
    """Interest away from each sensed neighbor within ``radius`` metres,
    ``max(0, dot(u, d_i)) * falloff(d / radius)``, combined by max.

    Examples
    --------
    >>> import contextsteer as cs
    >>> pipeline = cs.Pipeline([cs.Separation(radius=2.0)], slots=8)
    >>> pipeline.evaluate([[0.0, 0.0], [1.0, 0.0]]).decision.direction.round(3) + 0.0
    array([[-1.,  0.],
           [ 1.,  0.]], dtype=float32)
    """

    def __init__(self, **parameters: Any) -> None:
        self._core = _core.Separation(self._params(parameters))


class Alignment(Behavior, core=_core.Alignment):
    """Interest toward ``m``, the mean of the sensed neighbors' unit velocities within
    ``radius`` metres: ``max(0, dot(m, d_i))`` (``|m|`` is how much they agree).

    Examples
    --------
    >>> import contextsteer as cs
    >>> pipeline = cs.Pipeline([cs.Alignment(radius=2.0)], slots=8)
    >>> pipeline.evaluate([[0.0, 0.0], [1.0, 0.0]], [[0.0, 1.0], [0.0, 1.0]]).decision.direction.round(3) + 0.0
    array([[0., 1.],
           [0., 1.]], dtype=float32)
    """

    def __init__(self, **parameters: Any) -> None:
        self._core = _core.Alignment(self._params(parameters))


class Cohesion(Behavior, core=_core.Cohesion):
    """Interest toward the centroid ``c`` of the sensed neighbors within ``radius`` metres:
    ``max(0, dot(u, d_i)) * min(1, |c - p| / radius)``.

    Examples
    --------
    >>> import contextsteer as cs
    >>> pipeline = cs.Pipeline([cs.Cohesion(radius=2.0)], slots=8)
    >>> pipeline.evaluate([[0.0, 0.0], [1.0, 0.0]]).decision.direction.round(3) + 0.0
    array([[ 1.,  0.],
           [-1.,  0.]], dtype=float32)
    """

    def __init__(self, **parameters: Any) -> None:
        self._core = _core.Cohesion(self._params(parameters))


class Wander(Behavior, core=_core.Wander):
    """Interest toward the heading turned by a drifting angle ``spread * noise(t * rate)``:
    smooth value noise in [-1, 1] drawn from ``(seed, agent id)``, so the same seed gives
    the same maps (``rate`` in cycles per second, ``spread`` in radians).

    Examples
    --------
    >>> import contextsteer as cs
    >>> wander = cs.Wander(seed=7, spread=0.5)
    >>> abs(wander.offset(0, 1.0)) <= 0.5
    True
    """

    _core: _core.Wander

    def __init__(self, **parameters: Any) -> None:
        self._core = _core.Wander(self._params(parameters))

    def offset(self, agent_id: int, time: float) -> float:
        """The wander angle of an agent at a time.

        Parameters
        ----------
        agent_id : int
            The agent's id.
        time : float
            Seconds.

        Returns
        -------
        float
            Radians, within ``spread``.

        Examples
        --------
        >>> import contextsteer as cs
        >>> wander = cs.Wander(seed=3, spread=0.5)
        >>> wander.offset(0, 2.0) == cs.Wander(seed=3, spread=0.5).offset(0, 2.0)
        True
        """
        return self._core.offset(check.count("agent_id", agent_id, maximum=2**63 - 1), check.number("time", time))


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
    time, a metre through a cell costing, on top of the field's own costs,
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
        from .navigation import NavigationField

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
        from .navigation import NavigationField
        from .world import World

        if not isinstance(world, World):
            raise TypeError(f"world: expected a contextsteer.World, got {type(world).__name__}")
        cores = self._core.crowd_fields(world._core)
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
    ``falloff(t* / horizon)``.

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
    turn less each and do not over-react to each other. Moving obstacles are avoided wholly.
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


Seek = Chase  # the classic name of the same behaviour


@dataclass(frozen=True)
class Neighbors:
    """Neighbors of every agent of a batch, in compressed rows: those of agent ``k`` are
    rows ``offsets[k]:offsets[k + 1]`` of the other arrays.

    Parameters
    ----------
    offsets : ndarray, shape (n + 1,)
        Where each agent's rows begin (and the last ends).
    ids : ndarray, shape (m,)
        The neighbors' ids.
    positions : ndarray, shape (m, 2)
        Their positions, metres.
    velocities : ndarray, shape (m, 2)
        Their velocities, m/s.

    Examples
    --------
    >>> import numpy as np
    >>> import contextsteer as cs
    >>> near = cs.Neighbors(np.array([0, 1, 2]), np.array([1, 0]), np.zeros((2, 2)), np.zeros((2, 2)))
    >>> near.ids[near.offsets[0]:near.offsets[1]]  # agent 0's neighbors
    array([1])
    """

    offsets: np.ndarray
    ids: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray


class Batch:
    """What a :class:`PythonBehavior` sees of the ``n`` agents it fills maps for.

    positions, velocities, targets: ``(n, 2)``; headings (radians), radius (metres),
    ids: ``(n,)``; slot_directions: ``(slots, 2)``; time: seconds. ``neighbors(radius)``
    returns a :class:`Neighbors` of the agents each one senses within ``radius`` metres
    (up to the behaviour's ``neighbor_radius``), while ``fill`` runs.

    memory: ``(n, memory)`` float32, what the behaviour keeps for each agent from one step
    of a world to the next (None when its ``memory`` is 0). NaN where nothing was kept
    yet: a new agent, after ``World.reset``, and outside a world. Write it in place; the
    world keeps it after ``fill`` returns (not in ``World.explain``, which changes
    nothing). Kept values must be NaN or within -1e9 to 1e9.

    Parameters
    ----------
    data : dict
        What the core passes to a :class:`PythonBehavior` (a batch is made for ``fill``,
        not by the user).

    Examples
    --------
    >>> import contextsteer as cs
    >>> seen = []
    >>> def look(batch, interest, danger):
    ...     seen.append((len(batch), batch.slot_directions.shape, batch.neighbors(2.0).ids))
    >>> pipeline = cs.Pipeline([cs.PythonBehavior(look, neighbor_radius=2.0)], slots=8)
    >>> _ = pipeline.evaluate([[0.0, 0.0], [1.0, 0.0]])
    >>> seen
    [(2, (8, 2), array([1, 0]))]
    """

    def __init__(self, data: dict):
        self.positions = data["positions"]
        self.velocities = data["velocities"]
        self.headings = data["headings"]
        self.radius = data["radius"]
        self.targets = data["targets"]
        self.ids = data["ids"]
        self.slot_directions = data["slot_directions"]
        self.time = data["time"]
        self.memory = data["memory"]
        self._neighbors = data["neighbors"]

    def __len__(self) -> int:
        return len(self.positions)

    def neighbors(self, radius: float) -> Neighbors:
        """The agents each agent of the batch senses within ``radius`` (while ``fill`` runs).

        Parameters
        ----------
        radius : float
            Metres, up to the behaviour's ``neighbor_radius``.

        Returns
        -------
        Neighbors
            In compressed rows, one run per agent.

        Examples
        --------
        >>> import numpy as np
        >>> import contextsteer as cs
        >>> counts = []
        >>> def count(batch, interest, danger):
        ...     counts.append(np.diff(batch.neighbors(1.5).offsets).tolist())
        >>> _ = cs.Pipeline([cs.PythonBehavior(count, neighbor_radius=2.0)]).evaluate([[0, 0], [1, 0], [5, 0]])
        >>> counts
        [[1, 1, 0]]
        """
        offsets, ids, positions, velocities = self._neighbors(check.number("radius", radius, minimum=0.0))
        return Neighbors(offsets, ids, positions, velocities)


class PythonBehavior(Behavior, core=_core.PythonBehavior):
    """A behaviour written in Python, composed with built-in ones in the same pipeline.

    Either subclass it and define ``fill(self, batch, interest, danger)``, or pass that
    function as ``fill``. Once per step it receives a :class:`Batch` of all the agents of
    the pipeline and writes ``(n, slots)`` float32 arrays in place: ``interest`` and/or
    ``danger``, zeros on entry (None for a kind it does not fill). The rest of the step
    stays in C++. Values that are not finite raise ``ValueError``.

    ``fills`` and ``memory`` are fixed once it is built: the pipeline and the worlds'
    memory are laid out by them.

    Parameters
    ----------
    fill : callable, optional
        ``fill(batch, interest, danger)``: writes the maps of ``batch`` in place and
        returns None. Required unless a subclass defines ``fill``.
    fills : {'interest', 'danger', 'both'}, default 'interest'
        The maps it fills.
    memory : int, default 0
        Values it keeps per agent between steps, in ``batch.memory`` (0 to 256). Agents
        added, removed and reset keep theirs right, as for built-in behaviours.

    Examples
    --------
    >>> import numpy as np
    >>> import contextsteer as cs
    >>> def east(batch, interest, danger):
    ...     interest[:] = np.maximum(0.0, batch.slot_directions[:, 0])
    >>> pipeline = cs.Pipeline([cs.PythonBehavior(east)], slots=8)
    >>> pipeline.evaluate([[0.0, 0.0]]).decision.direction
    array([[1., 0.]], dtype=float32)
    """

    def __init__(self, fill: Fill | None = None, *, fills: str = "interest", memory: int = 0,
                 **parameters: Any) -> None:
        if fill is not None:
            if not callable(fill):
                raise TypeError(f"fill: expected a function (batch, interest, danger), got {type(fill).__name__}")
            self._fill = fill
        elif type(self).fill is PythonBehavior.fill:
            raise TypeError("fill: pass a function, or subclass PythonBehavior and define "
                            "fill(batch, interest, danger)")
        else:
            self._fill = self.fill
        if check.name("fills", fills) not in ("interest", "danger", "both"):
            raise ValueError(f"fills: expected one of 'interest', 'danger', 'both', got {fills!r}")
        self._core = _core.PythonBehavior(_WeakFill(self), fills in ("interest", "both"), fills in ("danger", "both"),
                                          check.count("memory", memory, maximum=256), self._params(parameters))

    def fill(self, batch: Batch, interest, danger) -> None:
        """Write this behaviour's maps for ``batch`` into ``interest`` and/or ``danger``.

        Parameters
        ----------
        batch : Batch
            The agents.
        interest, danger : ndarray of float32, shape (n, slots), or None
            The maps to write in place (zeros on entry; None for a kind it does not fill).

        Examples
        --------
        >>> import contextsteer as cs
        >>> class East(cs.PythonBehavior):
        ...     def fill(self, batch, interest, danger):
        ...         interest[:] = batch.slot_directions[:, 0].clip(0.0)
        >>> cs.Pipeline([East()], slots=4).evaluate([[0.0, 0.0]]).decision.slot
        array([0.], dtype=float32)
        """
        self._fill(batch, interest, danger)

    def _call(self, data, interest, danger) -> None:
        self._fill(Batch(data), interest, danger)


class _WeakFill:
    """What the C++ core of a :class:`PythonBehavior` calls: the behaviour's ``_call``,
    reached through a weak reference.

    The core holds its callable with a reference the garbage collector cannot see. A
    strong one back to the behaviour would close a cycle through C++ (behaviour -> core ->
    callable -> behaviour, or through a world the function refers to) that is never
    freed. The Python objects that use the behaviour keep it alive instead: a
    :class:`~contextsteer.Pipeline` holds its behaviours and a
    :class:`~contextsteer.World` its pipelines, all in references the collector sees.
    """

    __slots__ = ("_behavior",)

    def __init__(self, behavior: PythonBehavior):
        self._behavior = weakref.ref(behavior)

    def __call__(self, data, interest, danger) -> None:
        behavior = self._behavior()
        if behavior is None:
            raise RuntimeError("PythonBehavior: the behaviour was freed while its core was still in use; "
                               "keep the PythonBehavior (or the Pipeline holding it) alive as long as it runs")
        behavior._call(data, interest, danger)
