"""Interest from the agent's own motion: Forward and Wander."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ... import _core
from ..._internal import validation as check

if TYPE_CHECKING:
    pass

from .base import Behavior


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

