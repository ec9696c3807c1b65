"""What a world shows of one agent's step (:meth:`~contextsteer.World.explain`) and of
the agents round a point (:meth:`~contextsteer.World.neighbors`).

These functions are methods of :class:`~contextsteer.World` (bound in its class body);
``self`` is the world."""

from __future__ import annotations

import numbers

import numpy as np

from ..._internal import validation as check
from ..explain import ClassicExplanation, Explanation
from ..pipeline import Pipeline
from .obstacles import ALL_LAYERS, layer_mask


def explain(self, agent: int, *, dt: float = 1 / 60):
    """Why agent ``agent`` (an id) steers as it does, evaluated from the current state.

    A context agent gives an :class:`~contextsteer.Explanation` (its pipeline's maps and
    decision); a classic agent a :class:`~contextsteer.ClassicExplanation` (each
    behaviour's output and their combination), computed as a step of ``dt`` seconds
    would compute it (``step``'s default; the maps do not depend on dt).

    Parameters
    ----------
    agent : int
        The agent's id.
    dt : float, default 1/60
        Seconds of the step a classic agent's output is computed for.

    Returns
    -------
    Explanation or ClassicExplanation
        For a context or a classic agent.

    Raises
    ------
    IndexError
        An unknown or removed id.
    ValueError
        A state a step would refuse, as :meth:`~contextsteer.World.step` checks it: before
        the behaviours run and, for a Python behaviour that wrote into the world during the
        explanation, after it ("written during explain").

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek(), cs.Avoid()], slots=8), [[0.0, 0.0]],
    ...                  targets=[[5.0, 0.0]], circles=[[2.0, 0.0, 0.5]])
    >>> explanation = world.explain(0)
    >>> [type(behavior).__name__ for behavior, kind, _ in explanation.behaviors]
    ['Chase', 'Avoid']
    >>> explanation.blocked
    False
    """
    index = self._row_of("agent", agent)
    dt, _ = check.time_step(dt, 1)
    steering = self._steerings[int(self.steering_index[index])]
    if not isinstance(steering, Pipeline):
        e = self._core.explain_classic(index, dt)
        behaviors = [(b, np.array(linear, np.float32), angular)
                     for b, (linear, angular) in zip(steering.behaviors, e["behaviors"])]
        level = e["level"] if steering.combiner == "priority" else None
        return ClassicExplanation(agent, behaviors, np.array(e["linear"], np.float32), e["angular"], level, dt)
    e = self._core.explain(index)
    behaviors = [(steering.behaviors[b], kind, m) for b, kind, m in e["behaviors"]]
    masked = e["final"] < np.maximum(e["interest"], 0) - 1e-12
    return Explanation(agent, behaviors, e["interest"], e["danger"], e["final"], masked,
                       np.array(e["direction"], np.float32), e["strength"], e["slot"], e["blocked"])


def neighbors(self, point=None, radius: float = 1.0, *, agent=None, layers=None) -> np.ndarray:
    """Ids of the agents within ``radius`` metres of a point or of an agent, in a fixed order.

    Parameters
    ----------
    point : array_like, shape (2,), optional
        The point, metres (give it or ``agent``).
    radius : float, default 1
        Metres.
    agent : int, optional
        The id of the agent whose neighbors are wanted (itself excluded, and by default
        only the layers it senses).
    layers : int, optional
        Bit mask of the layers to include (all, or the agent's sense mask, by default).

    Returns
    -------
    ndarray of int64
        The neighbors' ids.

    Raises
    ------
    ValueError
        Both or neither of ``point`` and ``agent``, or a bad value.
    IndexError
        An unknown ``agent``.

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [0.5, 0.0], [3.0, 0.0]])
    >>> world.neighbors([0.0, 0.0], 1.0)
    array([0, 1])
    >>> world.neighbors(agent=0, radius=1.0)
    array([1])
    """
    radius = check.number("radius", radius, minimum=0.0)
    exclude = -1
    if (point is None) == (agent is None):
        raise ValueError("point, agent: expected exactly one of them")
    if agent is not None:
        exclude = self._row_of("agent", agent)
        point = self.positions[exclude]
        mask = int(self.sense_masks[exclude]) if layers is None else layers
    else:
        if isinstance(point, numbers.Number):  # neighbors(3, 2.0) for the agent with id 3, most likely
            raise ValueError(f"point: expected an array of shape (2,), got the number {point!r} (for the "
                             f"agents near an agent, pass its id as agent=)")
        mask = ALL_LAYERS if layers is None else layers
    mask = layer_mask("layers", mask)
    rows = self._core.neighbors(check.shaped("point", point, (2,)), radius, mask, exclude)
    return self.ids[rows]
