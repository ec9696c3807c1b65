"""Batch operations on context maps.

A context map has one value per slot; slot ``i`` of a map with ``S`` slots points at
angle ``offset + 2*pi*i/S`` radians, counter-clockwise from +x. A batch of maps is an
array of shape ``(n, S)``, one row per agent. Every function here also takes a single
map of shape ``(S,)`` and then answers with the same rank. Values are float32.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .. import _core
from .._internal import validation as check


def slot_directions(slots: int, offset: float = 0.0) -> NDArray[np.float32]:
    """Unit vectors of the slots.

    Slot ``i`` points at angle ``offset + 2*pi*i/slots`` (radians, counter-clockwise
    from +x).

    Parameters
    ----------
    slots : int
        Number of slots, from 1 to 65536.
    offset : float, default 0.0
        Angle of slot 0, radians.

    Returns
    -------
    numpy.ndarray of float32, shape (slots, 2)
        Row ``i`` is the unit vector of slot ``i``.

    Raises
    ------
    ValueError
        If ``slots`` is below 1 or above 65536, or ``offset`` is not finite.
    TypeError
        If ``slots`` is not an integer.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.slot_directions(4).round(3) + 0.0
    array([[ 1.,  0.],
           [ 0.,  1.],
           [-1.,  0.],
           [ 0., -1.]], dtype=float32)
    """
    slots = check.count("slots", slots, minimum=1)
    return _core.slot_directions(slots, check.number("offset", offset))


def combine(maps: Sequence[ArrayLike] | NDArray[Any], rule: str | None = None,
            weights: ArrayLike | None = None) -> NDArray[np.float32]:
    """Combine several behaviours' maps slot by slot.

    Parameters
    ----------
    maps : sequence of array_like, or array_like of shape (k, n, S)
        ``k`` maps of the same shape, ``(n, S)`` or ``(S,)`` each, or one array of shape
        ``(k, n, S)``.
    rule : {"max", "sum", "mean", "min"}, optional
        How the slots are combined. Default: ``"max"``, or ``"sum"`` when ``weights``
        are given (the weighted sum).
    weights : array_like, shape (k,), optional
        Factors ``w``; each map ``m_k`` is scaled first. max: ``max_k w_k m_k``; min:
        ``min_k w_k m_k``; sum: ``sum_k w_k m_k``; mean: ``sum_k w_k m_k / sum_k w_k``.
        Without weights every ``w_k = 1``.

    Returns
    -------
    numpy.ndarray of float32, shape (n, S) or (S,)
        The combined map(s), of the rank of one input map.

    Raises
    ------
    ValueError
        If there are no maps, their shapes differ, ``rule`` is unknown, a value is not
        finite, or ``weights`` is not of shape ``(k,)``.
    TypeError
        If ``maps`` is not a sequence.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.combine([[0.0, 0.5, 1.0, 0.0], [0.25, 0.25, 0.25, 0.25]])
    array([0.25, 0.5 , 1.  , 0.25], dtype=float32)
    >>> cs.combine([[0.0, 0.5, 1.0, 0.0], [0.25, 0.25, 0.25, 0.25]], weights=[1.0, 2.0])
    array([0.5, 1. , 1.5, 0.5], dtype=float32)
    """
    fast = _core.try_combine(maps, rule, weights)  # None unless the checks below would pass it as it is
    if fast is not None:
        return fast
    if rule is None:
        rule = "max" if weights is None else "sum"
    rule = check.name("rule", rule)
    if isinstance(maps, np.ndarray) and maps.ndim == 3:
        stack = check.real_array("maps", maps)
        single = False
    else:
        if isinstance(maps, np.ndarray):
            raise ValueError(f"maps: expected a sequence of (n, slots) maps or an array of shape (k, n, slots), "
                             f"got an array of shape {maps.shape}")
        try:
            items = list(maps)
        except TypeError:
            raise TypeError(f"maps: expected a sequence of maps, got {type(maps).__name__}") from None
        if not items:
            raise ValueError("maps: expected at least one map to combine, got none")
        batches = [check.map_batch(f"maps[{i}]", m) for i, m in enumerate(items)]
        first = batches[0][0]
        for i, (b, _) in enumerate(batches):
            if b.shape != first.shape:
                raise ValueError(f"maps[{i}]: expected the shape of maps[0] {np.shape(items[0])}, "
                                 f"got {np.shape(items[i])}")
        single = batches[0][1]
        stack = np.stack([b for b, _ in batches])
    k, n, s = stack.shape
    if k < 1:
        raise ValueError("maps: expected at least one map to combine, got none")
    w = None if weights is None else check.shaped("weights", weights, (k,))
    out = _core.combine(stack.reshape(k, n * s), rule, w).reshape(n, s)
    return out[0] if single else out


@dataclass(frozen=True)
class Decision:
    """The outcome of :func:`resolve` for a batch of ``n`` agents (or one agent).

    For one agent (maps of shape ``(S,)``) each array loses its first axis.

    Attributes
    ----------
    direction : numpy.ndarray of float32, shape (n, 2)
        Unit vectors; ``(0, 0)`` where ``blocked`` (the agent brakes).
    strength : numpy.ndarray of float32, shape (n,)
        In [0, 1]: the final map's value at the chosen direction, linearly interpolated
        between slots. Multiply by a maximum speed for a desired speed.
    slot : numpy.ndarray of float32, shape (n,)
        The chosen direction as a fractional slot index in [0, S); -1 where blocked.
    blocked : numpy.ndarray of bool, shape (n,)
        True where no slot has a final value above 0.
    final : numpy.ndarray of float32, shape (n, S)
        The map the choice was made on (net desire, never negative).

    Examples
    --------
    >>> import contextsteer as cs
    >>> d = cs.resolve([0.0, 1.0, 0.0, 0.0])
    >>> d.slot, bool(d.blocked)
    (np.float32(1.0), False)
    """

    direction: NDArray[np.float32]
    strength: NDArray[np.float32]
    slot: NDArray[np.float32]
    blocked: NDArray[np.bool_]
    final: NDArray[np.float32]


def _decision(arrays, single: bool) -> Decision:
    direction, strength, slot, blocked, final = arrays
    if single:
        return Decision(direction[0], strength[0], slot[0], blocked[0], final[0])
    return Decision(direction, strength, slot, blocked, final)


def resolve(interest: ArrayLike, danger: ArrayLike | None = None, *, danger_mode: str = "subtract",
            threshold: float = 0.5, margin: float = 0.0, select: str = "argmax", offset: float = 0.0,
            hysteresis: float = 0.0, current: ArrayLike | None = None) -> Decision:
    """Make the whole decision: mask the interest with the danger, then pick a direction.

    Parameters
    ----------
    interest : array_like, shape (n, S) or (S,)
        How much each agent wants each direction.
    danger : array_like, shape of ``interest``, optional
        How dangerous each direction is; None for no danger.
    danger_mode : {"subtract", "threshold", "min_mask", "multiply"}, default "subtract"
        How danger turns interest into the ``final`` map.

        - ``"subtract"``: ``final = max(0, interest - danger)``.
        - ``"threshold"``: ``final = max(0, interest)`` where ``danger <= threshold``, else 0.
        - ``"min_mask"``: ``final = max(0, interest)`` where
          ``danger <= min(danger) + margin`` (the least danger of that agent's map), else 0.
        - ``"multiply"``: ``final = max(0, interest) * (1 - clip(danger, 0, 1))``.
    threshold : float, default 0.5
        Largest danger a slot may carry and stay open (``"threshold"`` mode).
    margin : float, default 0.0
        At least 0: how far above the least danger a slot stays open (``"min_mask"`` mode).
    select : {"argmax", "blend", "average", "parabolic", "gradient"}, default "argmax"
        How a direction is picked from ``final``; ``b`` is the best slot (first index of
        the maximum), ``l, c, r`` the values at ``b-1, b, b+1`` (wrapping) and ``d`` the
        slot directions.

        - ``"argmax"``: slot ``b``.
        - ``"blend"``: the direction of ``l*d[b-1] + c*d[b] + r*d[b+1]`` (4 slots still
          give diagonals).
        - ``"average"``: the direction of ``sum_i final[i] * d[i]``; slot ``b`` where that
          sum vanishes.
        - ``"parabolic"``: ``b + 0.5*(l - r)/(l - 2c + r)``, the vertex of the parabola
          through the three values.
        - ``"gradient"``: ``b + (r - l)/(2*(c - min(l, r)))``, where a line rising from the
          lower neighbor to ``b`` meets the line of opposite slope through the other.

        ``"blend"``, ``"parabolic"`` and ``"gradient"`` stay within half a slot of ``b``
        and reduce to ``"argmax"`` with fewer than 3 slots.
    offset : float, default 0.0
        Angle of slot 0, radians.
    hysteresis : float, default 0.0
        At least 0. With ``current``, the selection runs on
        ``final[i] * (1 + hysteresis * max(0, dot(unit(current), d_i)))``, so near-ties
        go the way the agent already goes; the returned ``final`` and ``strength`` are
        without that factor.
    current : array_like, shape (n, 2) or (2,), optional
        The directions the agents already move in (any length; used with ``hysteresis``).

    Returns
    -------
    Decision
        Its arrays have the rank of ``interest``: ``(n, ...)`` for a batch, no first axis
        for one map.

    Raises
    ------
    ValueError
        If a map is not of shape ``(n, S)`` or ``(S,)``, ``danger`` or ``current`` does not
        fit ``interest``, a value is not finite, a mode is unknown, or ``margin`` or
        ``hysteresis`` is negative.

    Examples
    --------
    >>> import contextsteer as cs
    >>> interest = [0.2, 1.0, 0.6, 0.0]      # north is best
    >>> danger = [0.0, 0.9, 0.0, 0.0]        # but something is there
    >>> d = cs.resolve(interest, danger)
    >>> d.final.round(2)
    array([0.2, 0.1, 0.6, 0. ], dtype=float32)
    >>> d.direction.round(3) + 0.0           # so the agent goes west
    array([-1.,  0.], dtype=float32)
    """
    fast = _core.try_resolve(Decision, interest, danger, danger_mode, threshold, margin, select, offset, hysteresis,
                             current)
    if fast is not None:  # None unless the checks below would pass the arguments as they are
        return fast
    interest_b, single = check.map_batch("interest", interest)
    danger_b = None
    if danger is not None:
        danger_b, danger_single = check.map_batch("danger", danger, slots=interest_b.shape[1])
        if danger_b.shape != interest_b.shape or danger_single != single:
            raise ValueError(f"danger: expected the shape of interest {np.shape(interest)}, got {np.shape(danger)}")
    current_b = None
    if current is not None:
        current_a = check.real_array("current", current)
        current_b = check.shaped("current", current_a.reshape(1, 2) if current_a.shape == (2,) else current_a,
                                 (interest_b.shape[0], 2))
    arrays = _core.resolve(
        interest_b, danger_b,
        check.name("danger_mode", danger_mode),
        check.number("threshold", threshold),
        check.number("margin", margin, minimum=0.0),
        check.name("select", select),
        check.number("offset", offset),
        check.number("hysteresis", hysteresis, minimum=0.0),
        current_b,
    )
    return _decision(arrays, single)


def blur(maps: ArrayLike, width: float) -> NDArray[np.float32]:
    """Circular Gaussian blur across slots.

    ``out[i] = sum_k g(k) * maps[(i + k) mod S] / sum_k g(k)`` for ``|k| <= ceil(3 width)``,
    ``g(k) = exp(-k^2 / (2 width^2))``. A kernel wider than the circle laps it (folded,
    so that it costs at most S taps a slot): a very wide blur gives each row's mean.

    Parameters
    ----------
    maps : array_like, shape (n, S) or (S,)
        The maps to blur.
    width : float
        At least 0: the standard deviation, in slots; 0 returns the maps unchanged.

    Returns
    -------
    numpy.ndarray of float32, shape of ``maps``
        The blurred maps.

    Raises
    ------
    ValueError
        If ``maps`` is not of shape ``(n, S)`` or ``(S,)``, a value is not finite, or
        ``width`` is negative.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.blur([0.0, 0.0, 1.0, 0.0, 0.0, 0.0], width=1.0).round(2)
    array([0.05, 0.24, 0.4 , 0.24, 0.05, 0.01], dtype=float32)
    """
    batch, single = check.map_batch("maps", maps)
    out = _core.blur(batch, check.number("width", width, minimum=0.0))
    return out[0] if single else out


def smooth(maps: ArrayLike, previous: ArrayLike, factor: float = 0.5) -> NDArray[np.float32]:
    """Temporal smoothing: ``(1 - factor) * maps + factor * previous``.

    Parameters
    ----------
    maps : array_like, shape (n, S) or (S,)
        This step's maps.
    previous : array_like, shape of ``maps``
        The previous step's (smoothed) maps.
    factor : float, default 0.5
        In [0, 1]: the share of the previous step's map that is kept.

    Returns
    -------
    numpy.ndarray of float32, shape of ``maps``
        The smoothed maps.

    Raises
    ------
    ValueError
        If the shapes differ, a value is not finite, or ``factor`` is outside [0, 1].

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.smooth([1.0, 0.0, 0.0, 0.0], previous=[0.0, 1.0, 0.0, 0.0], factor=0.25)
    array([0.75, 0.25, 0.  , 0.  ], dtype=float32)
    """
    batch, single = check.map_batch("maps", maps)
    prev, _ = check.map_batch("previous", previous)
    if prev.shape != batch.shape:
        raise ValueError(f"previous: expected the shape of maps {np.shape(maps)}, got {np.shape(previous)}")
    out = _core.smooth(batch, prev, check.number("factor", factor, minimum=0.0, maximum=1.0))
    return out[0] if single else out


def resample(maps: ArrayLike, slots: int, method: str = "linear") -> NDArray[np.float32]:
    """Carry maps to another slot count, so resolution can change at run time.

    Maps are periodic functions of angle; slot 0 keeps its angle.

    Parameters
    ----------
    maps : array_like, shape (n, S) or (S,)
        The maps to carry over.
    slots : int
        The new number of slots, from 1 to 65536.
    method : {"linear", "max"}, default "linear"
        ``"linear"``: ``out[j]`` interpolates linearly at angle ``2*pi*j/slots``.
        ``"max"``: also takes the largest input slot within half an output slot, so that
        coarsening never loses a narrow peak (use it for danger).

    Returns
    -------
    numpy.ndarray of float32, shape (n, slots) or (slots,)
        The maps at the new resolution.

    Raises
    ------
    ValueError
        If ``maps`` is not of shape ``(n, S)`` or ``(S,)``, a value is not finite,
        ``slots`` is out of range, or ``method`` is unknown.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.resample([0.0, 1.0, 0.0, 0.0], slots=8)
    array([0. , 0.5, 1. , 0.5, 0. , 0. , 0. , 0. ], dtype=float32)
    """
    batch, single = check.map_batch("maps", maps)
    slots = check.count("slots", slots, minimum=1)
    out = _core.resample(batch, slots, check.name("method", method))
    return out[0] if single else out
