"""Classic steering, to compare with context steering on one scene.

Each behaviour returns a linear acceleration (m/s^2) and an angular one (rad/s^2) for
an agent at ``p`` with velocity ``v``, maximum speed ``S`` and maximum acceleration ``A``,
toward a target ``t`` moving at ``w``. The target is ``target`` when given, else the
agent's own target: its target agent (``World(target_ids=...)``) or its target point
(``World(targets=...)``). An agent with no acceleration limit seeks and flees at 1 m/s^2.

``Steering`` combines behaviours by ``"blend"`` (``sum_k weight_k * output_k``) or by
``"priority"`` (the behaviours of each priority level, lowest first, are blended; the
first level whose output exceeds ``epsilon`` wins). The world then truncates the linear
part to ``A``, multiplies by the mass, truncates the force to the maximum force, divides
by the mass, integrates and truncates the velocity to ``S``.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import _core
from . import _validation as check
from ._arguments import ShowsArguments


class ClassicBehavior(ShowsArguments):
    """A classic steering behaviour; build it with the functions of this module."""

    def __init__(self, kind: str, *, target=None, weight: float = 1.0, priority: int = 0,
                 target_radius: float = 0.5, slowing_radius: float = 3.0, time_to_target: float = 0.1,
                 escape_radius: float = 1.0, danger_radius: float = 5.0, max_prediction: float = 1.0,
                 align_tolerance: float = 0.01):
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
        )

        self._target = None if target is None else tuple(float(x) for x in target)

    @property
    def kind(self) -> str:
        """The behaviour's name in snake case: ``"seek"``, ..., ``"look_where_you_go"``."""
        return self._core.kind

    @property
    def name(self) -> str:
        """The name of the function that builds it: ``"Seek"``, ..., ``"LookWhereYouGo"``."""
        return "".join(word.title() for word in self.kind.split("_"))

    def __repr__(self) -> str:
        target = "" if self._target is None else f"target={self._target}, "
        return f"classic.{self.name}({target}weight={self._core.weight:g}, priority={self._core.priority})"


def Seek(target=None, *, weight: float = 1.0, priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """``linear = A * unit(t - p)``. target: ``(2,)`` metres, or None for the agent's own."""
    return ClassicBehavior("seek", target=target, weight=weight, priority=priority)


def Flee(target=None, *, weight: float = 1.0, priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """``linear = A * unit(p - t)``."""
    return ClassicBehavior("flee", target=target, weight=weight, priority=priority)


def Arrive(target=None, *, target_radius: float = 0.5, slowing_radius: float = 3.0, time_to_target: float = 0.1,
           weight: float = 1.0, priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """Desired speed 0 inside ``target_radius``, ``S * d / slowing_radius`` inside
    ``slowing_radius``, else ``S``; ``linear = (desired velocity - v) / time_to_target``,
    truncated to ``A``. Radii in metres, time in seconds."""
    return ClassicBehavior("arrive", target=target, target_radius=target_radius, slowing_radius=slowing_radius,
                           time_to_target=time_to_target, weight=weight, priority=priority)


def Leave(target=None, *, escape_radius: float = 1.0, danger_radius: float = 5.0, time_to_target: float = 0.1,
          weight: float = 1.0, priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """Nothing beyond ``danger_radius``; desired speed ``S`` away from ``t`` inside
    ``escape_radius``, else ``S - S * d / danger_radius``; reached over ``time_to_target``."""
    return ClassicBehavior("leave", target=target, escape_radius=escape_radius, danger_radius=danger_radius,
                           time_to_target=time_to_target, weight=weight, priority=priority)


def Pursue(target=None, *, max_prediction: float = 1.0, weight: float = 1.0,
           priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """Seek ``t + w * prediction``: ``prediction = max_prediction`` (seconds) when
    ``|v| <= d / max_prediction``, else ``d / |v|``."""
    return ClassicBehavior("pursue", target=target, max_prediction=max_prediction, weight=weight, priority=priority)


def Evade(target=None, *, max_prediction: float = 1.0, weight: float = 1.0,
          priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """Flee the predicted position of the target, as :func:`Pursue` predicts it."""
    return ClassicBehavior("evade", target=target, max_prediction=max_prediction, weight=weight, priority=priority)


def Face(target=None, *, time_to_target: float = 0.1, align_tolerance: float = 0.01, weight: float = 1.0,
         priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """Turn toward the target: aim for the angular velocity
    ``sign(r) * min(max_turn_rate, |r| / time_to_target)``, ``r`` the angle left to turn
    (radians), with ``angular = (that - omega) / time_to_target``; once
    ``|r| < align_tolerance``, brake the turn: ``angular = -omega / time_to_target``."""
    return ClassicBehavior("face", target=target, time_to_target=time_to_target, align_tolerance=align_tolerance,
                           weight=weight, priority=priority)


def LookWhereYouGo(*, time_to_target: float = 0.1, align_tolerance: float = 0.01, weight: float = 1.0,
                   priority: int = 0) -> ClassicBehavior:  # noqa: N802
    """Turn toward the direction of motion, as :func:`Face` turns toward a target."""
    return ClassicBehavior("look_where_you_go", time_to_target=time_to_target, align_tolerance=align_tolerance,
                           weight=weight, priority=priority)


class Steering(ShowsArguments):
    """Classic behaviours and their combiner, for agents of a :class:`~contextsteer.World`.

    behaviors: the behaviours; combiner: ``"blend"`` or ``"priority"``; epsilon: the
    output magnitude above which a priority level wins.
    Without Face or LookWhereYouGo, an agent's heading follows its velocity.

    In a world's step, every ``time_to_target`` counts as at least the step's ``dt``: a goal
    velocity is reached within the step at the fastest, never overshot (a step ten times
    longer than ``time_to_target`` would otherwise overshoot tenfold, and with an unlimited
    turn rate each turn would overshoot the last). An agent turns by at most half a turn
    per substep, whatever its ``max_turn_rate``.
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
        return self._behaviors

    @property
    def combiner(self) -> str:
        """``"blend"`` or ``"priority"``."""
        return self._combiner

    def __repr__(self) -> str:
        return f"classic.Steering([{', '.join(map(repr, self._behaviors))}], combiner={self._combiner!r})"


__all__ = ["Arrive", "ClassicBehavior", "Evade", "Face", "Flee", "Leave", "LookWhereYouGo", "Pursue", "Seek",
           "Steering"]
