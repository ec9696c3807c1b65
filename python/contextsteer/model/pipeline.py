"""The steering pipeline: behaviours -> combine -> shaping -> resolve, all in C++."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .. import _core
from .._internal import validation as check
from .._internal.arguments import ShowsArguments
from .behaviors import Behavior, record_change
from .context_map import Decision


@dataclass(frozen=True)
class Evaluation:
    """Maps and decisions of a pipeline for ``n`` agents (:meth:`Pipeline.evaluate`).

    Parameters
    ----------
    interest, danger : ndarray of float32, shape (n, slots)
        The combined (and shaped) maps of all behaviours.
    decision : Decision
        The decision, whose ``final`` is the map the choice was made on.

    Examples
    --------
    >>> import contextsteer as cs
    >>> evaluation = cs.Pipeline([cs.Seek([[0.0, 5.0]])], slots=4).evaluate([[0.0, 0.0]])
    >>> evaluation.interest.round(2) + 0.0
    array([[0., 1., 0., 0.]], dtype=float32)
    >>> evaluation.decision.slot
    array([1.], dtype=float32)
    """

    interest: np.ndarray
    danger: np.ndarray
    decision: Decision


class Pipeline(ShowsArguments):
    """Composes behaviours into one decision per agent.

    Each step: every behaviour fills its maps; interest maps combine by
    ``interest_rule`` and danger maps by ``danger_rule`` (``"max"``, ``"sum"``, ``"mean"``,
    ``"min"``, each map scaled by its behaviour's weight, as in :func:`combine`); the
    combined maps are blurred across slots (``blur_interest``, ``blur_danger``: Gaussian
    widths in slots, 0 = off) and blended with the previous step's (``smooth``: share of
    the previous map kept, in [0, 1]; inside a :class:`World` only); then
    :func:`resolve` decides with ``danger_mode``, ``threshold``, ``margin``, ``select`` and
    ``hysteresis`` toward each agent's current velocity (>= 0; 0 = off) when that velocity
    is within 90 degrees of its interest's peak: an agent backing off or drifting away from
    where its behaviours lead is not held to that way. Last, a decision weaker than
    ``turn_back`` that would turn an agent back (more than 90 degrees from the way it faces)
    brakes it instead, so that a jammed agent waits rather than flipping from side to side.

    Every setting but ``slots`` (and the behaviours) can be set on a live pipeline
    (``pipeline.select = "average"``): checked as the constructor checks it, it takes
    effect at the next step of every world using the pipeline. Setting one while a world
    steps with it (from another thread) raises RuntimeError (busy): set it again once the
    step returns. ``slots`` is fixed (worlds hold maps of that size): build another
    pipeline. An attribute the pipeline does not have raises AttributeError.

    Parameters
    ----------
    behaviors : sequence of Behavior
        The behaviours, in order (one behaviour alone is taken too).
    slots : int, default 16
        Resolution of the maps, 1 to 65536.
    offset : float, default 0
        Angle of slot 0, radians.
    interest_rule, danger_rule : {'max', 'sum', 'mean', 'min'}, default 'max'
        How the behaviours' interest and danger maps combine (:func:`combine`).
    danger_mode : {'subtract', 'threshold', 'multiply', ...}, default 'subtract'
        How danger masks interest (:func:`resolve`).
    threshold : float, default 0.5
        Danger at which a slot is masked, for the modes that use it.
    margin : float, default 0
        Share of the least danger a slot may exceed and stay open (at least 0).
    select : {'argmax', 'blend', 'average', ...}, default 'argmax'
        How the direction is chosen from the final map (:func:`resolve`).
    blur_interest, blur_danger : float, default 0
        Gaussian widths in slots the combined maps are blurred by (0: off).
    smooth : float, default 0
        Share of the previous step's map kept, 0 to 1 (inside a world only).
    hysteresis : float, default 0
        Pull toward each agent's current velocity, when within 90 degrees of its
        interest's peak (at least 0; 0: off).
    turn_back : float, default 0
        The least strength, 0 to 1, of a decision more than 90 degrees from the way the
        agent faces (its heading in a :class:`World`, else its velocity); a weaker one
        brakes the agent instead (strength 0, the direction kept). An agent that has
        arrived (:class:`Goals`) turns back for no strength: it stands or steps aside. An
        agent giving way, or one that has made no progress for ``turn_back_wait``, turns
        freely. 0: off.
    turn_back_wait : float, default 10
        Seconds without progress (the world's ``waiting_time``) after which an agent turns
        back freely, at least 0 (``inf``: never).

    Raises
    ------
    TypeError
        A behaviour that is not one, or a value of the wrong type.
    ValueError
        A value out of its bounds or an unknown rule, mode or selection.

    Examples
    --------
    >>> import contextsteer as cs
    >>> pipeline = cs.Pipeline([cs.Seek([[5.0, 0.0]]), cs.Avoid([[2.0, 0.0, 0.5]])], slots=8,
    ...                        danger_mode="threshold", select="argmax")
    >>> pipeline.slots, len(pipeline.behaviors)
    (8, 2)
    >>> pipeline.evaluate([[0.0, 0.0]]).decision.direction.round(3)
    array([[0.707, 0.707]], dtype=float32)
    """

    # The behaviours as held and as they are now: the argument may have been a generator.
    _shown_as_now = ("behaviors",)

    def __init__(self, behaviors: Sequence[Behavior], *, slots: int = 16, offset: float = 0.0,
                 interest_rule: str = "max", danger_rule: str = "max", danger_mode: str = "subtract",
                 threshold: float = 0.5, margin: float = 0.0, select: str = "argmax",
                 blur_interest: float = 0.0, blur_danger: float = 0.0, smooth: float = 0.0,
                 hysteresis: float = 0.0, turn_back: float = 0.0, turn_back_wait: float = 10.0):
        if isinstance(behaviors, Behavior):
            behaviors = [behaviors]
        behaviors = list(behaviors)
        for i, b in enumerate(behaviors):
            if not isinstance(b, Behavior):
                raise TypeError(f"behaviors[{i}]: expected a contextsteer behaviour, got {type(b).__name__}")
        self._behaviors = tuple(behaviors)
        self._core = _core.Pipeline(
            [b._core for b in behaviors],
            check.count("slots", slots, minimum=1),
            check.number("offset", offset),
            check.name("interest_rule", interest_rule),
            check.name("danger_rule", danger_rule),
            check.name("danger_mode", danger_mode),
            check.number("threshold", threshold),
            check.number("margin", margin, minimum=0.0),
            check.name("select", select),
            check.number("blur_interest", blur_interest, minimum=0.0),
            check.number("blur_danger", blur_danger, minimum=0.0),
            check.number("smooth", smooth, minimum=0.0, maximum=1.0),
            check.number("hysteresis", hysteresis, minimum=0.0),
            check.number("turn_back", turn_back, minimum=0.0, maximum=1.0),
            check.number("turn_back_wait", turn_back_wait, minimum=0.0, allow_inf=True),
        )

    def __setattr__(self, name, value):
        if not name.startswith("_") and not isinstance(getattr(type(self), name, None), property):
            raise AttributeError(f"Pipeline has no setting {name!r}; its settings are {', '.join(_SETTINGS)}")
        if name in ("slots", "behaviors"):
            raise AttributeError(f"{name}: fixed when a Pipeline is built (worlds hold maps of its size); "
                                 "build another Pipeline")
        super().__setattr__(name, value)

    @property
    def behaviors(self) -> tuple[Behavior, ...]:
        """The pipeline's behaviours, in order (fixed once built)."""
        return self._behaviors

    @property
    def slots(self) -> int:
        """The maps' resolution (fixed once built)."""
        return self._core.slots

    # The settings that can change on a live pipeline are set up below the class.

    def evaluate(self, positions, velocities=None, *, radius=0.0, circles=None) -> Evaluation:
        """Maps and decisions for agents outside a world (no smoothing: there is no
        previous step). The agents see each other (``Avoid(agents=True)``).

        Parameters
        ----------
        positions : array_like, shape (n, 2)
            Metres.
        velocities : array_like, shape (n, 2), optional
            m/s, zero if None.
        radius : float or array_like, shape (n,), default 0
            Agent radius, metres.
        circles : array_like, shape (m, 3), optional
            Circle obstacles (x, y, radius in metres) seen by behaviours with
            ``world_obstacles=True``.

        Returns
        -------
        Evaluation
            The combined maps and the decision.

        Raises
        ------
        ValueError, TypeError
            For arrays of the wrong shape or values out of range, naming the argument; and,
            when the behaviours look at the agents, for more than 16,384 of them in one cell
            of the neighbour grid (a pile: each would meet every other), as
            :meth:`World.step <contextsteer.World.step>` refuses it.

        Examples
        --------
        >>> import contextsteer as cs
        >>> pipeline = cs.Pipeline([cs.Seek([[5.0, 0.0]]), cs.Avoid()], slots=8)
        >>> evaluation = pipeline.evaluate([[0.0, 0.0]], circles=[[2.0, 0.0, 0.5]])
        >>> evaluation.decision.direction.round(3)
        array([[0.707, 0.707]], dtype=float32)
        """
        pos = check.shaped("positions", positions, (None, 2))
        n = len(pos)
        vel = np.zeros_like(pos) if velocities is None else check.shaped("velocities", velocities, (n, 2))
        rad = check.per_agent("radius", radius, n)
        obs = np.zeros((0, 3), np.float32) if circles is None else check.points("circles", circles, columns=3)
        r = self._core.evaluate(pos, vel, rad, obs)
        decision = Decision(r["direction"], r["strength"], r["slot"], r["blocked"], r["final"])
        return Evaluation(r["interest"], r["danger"], decision)


# Each live setting: its check (as the constructor's), read from and written to the core.
_SETTINGS = {
    "offset": lambda v: check.number("offset", v),
    "interest_rule": lambda v: check.name("interest_rule", v),
    "danger_rule": lambda v: check.name("danger_rule", v),
    "danger_mode": lambda v: check.name("danger_mode", v),
    "threshold": lambda v: check.number("threshold", v),
    "margin": lambda v: check.number("margin", v, minimum=0.0),
    "select": lambda v: check.name("select", v),
    "blur_interest": lambda v: check.number("blur_interest", v, minimum=0.0),
    "blur_danger": lambda v: check.number("blur_danger", v, minimum=0.0),
    "smooth": lambda v: check.number("smooth", v, minimum=0.0, maximum=1.0),
    "hysteresis": lambda v: check.number("hysteresis", v, minimum=0.0),
    "turn_back": lambda v: check.number("turn_back", v, minimum=0.0, maximum=1.0),
    "turn_back_wait": lambda v: check.number("turn_back_wait", v, minimum=0.0, allow_inf=True),
}


def _setting(name: str, checked) -> property:
    def get(self):
        return getattr(self._core, name)

    def set_(self, value):
        setattr(self._core, name, checked(value))
        record_change(self, name)

    return property(get, set_, doc=f"The pipeline's {name} (see the class); settable on a live pipeline.")


for _name, _check in _SETTINGS.items():
    setattr(Pipeline, _name, _setting(_name, _check))
