"""Flocking: Separation, Alignment and Cohesion among neighbours."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ... import _core

if TYPE_CHECKING:
    pass

from .base import Behavior


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

