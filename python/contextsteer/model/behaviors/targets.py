"""Behaviours toward and away from points and agents: Chase (Seek), Flee, Pursue, Evade,
Arrive and Leave."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from ... import _core
from ..._internal import validation as check

if TYPE_CHECKING:
    pass

from .base import Behavior, _targets


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



Seek = Chase  # the classic name of the same behaviour

