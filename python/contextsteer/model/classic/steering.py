"""A classic behaviour (:class:`ClassicBehavior`, what each behaviour function gives) and
a :class:`Steering` that combines several by blend or by priority."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ... import _core
from ..._internal import validation as check
from ..._internal.arguments import ShowsArguments
from ..navigation import NavigationField


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

