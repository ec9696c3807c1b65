"""Batch operations on context maps.

A context map has one value per slot; slot ``i`` of a map with ``S`` slots points at
angle ``offset + 2*pi*i/S`` radians, counter-clockwise from +x. A batch of maps is an
array of shape ``(n, S)``, one row per agent. Every function here also takes a single
map of shape ``(S,)`` and then answers with the same rank. Values are float32.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _core
from . import _validation as check


def slot_directions(slots: int, offset: float = 0.0) -> np.ndarray:
    """Unit vectors of the slots: shape ``(slots, 2)``, float32.

    Slot ``i`` points at angle ``offset + 2*pi*i/slots`` (radians, counter-clockwise
    from +x). ``slots`` is from 1 to 65536.
    """
    slots = check.count("slots", slots, minimum=1)
    return _core.slot_directions(slots, check.number("offset", offset))


def combine(maps, rule: str | None = None, weights=None) -> np.ndarray:
    """Combine several behaviours' maps slot by slot.

    maps: a sequence of ``k`` arrays of shape ``(n, S)`` (or ``(S,)``), or one array of
        shape ``(k, n, S)``.
    rule: ``"max"``, ``"sum"``, ``"mean"`` or ``"min"``. Default: ``"max"``, or
        ``"sum"`` when ``weights`` are given (the weighted sum).
    weights: ``(k,)`` factors ``w``. Each map ``m_k`` is scaled first:
        max: ``max_k w_k m_k``; min: ``min_k w_k m_k``; sum: ``sum_k w_k m_k``;
        mean: ``sum_k w_k m_k / sum_k w_k``. Without weights every ``w_k = 1``.

    Returns the combined map(s), shape ``(n, S)`` (or ``(S,)``).
    """
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

    direction: ``(n, 2)`` unit vectors; ``(0, 0)`` where ``blocked`` (the agent brakes).
    strength: ``(n,)`` in [0, 1]: the final map's value at the chosen direction, linearly
        interpolated between slots. Multiply by a maximum speed for a desired speed.
    slot: ``(n,)`` the chosen direction as a fractional slot index in [0, S); -1 where blocked.
    blocked: ``(n,)`` bool, True where no slot has a final value above 0.
    final: ``(n, S)`` the map the choice was made on (net desire, never negative).
    """

    direction: np.ndarray
    strength: np.ndarray
    slot: np.ndarray
    blocked: np.ndarray
    final: np.ndarray


def _decision(arrays, single: bool) -> Decision:
    direction, strength, slot, blocked, final = arrays
    if single:
        return Decision(direction[0], strength[0], slot[0], blocked[0], final[0])
    return Decision(direction, strength, slot, blocked, final)


def resolve(interest, danger=None, *, danger_mode: str = "subtract", threshold: float = 0.5,
            margin: float = 0.0, select: str = "argmax", offset: float = 0.0, hysteresis: float = 0.0,
            current=None) -> Decision:
    """Make the whole decision: mask the interest with the danger, then pick a direction.

    interest, danger: ``(n, S)`` or ``(S,)`` maps; ``danger`` may be None (no danger).
    danger_mode: how danger turns interest into the ``final`` map:
        ``"subtract"``:  ``final = max(0, interest - danger)``
        ``"threshold"``: ``final = max(0, interest)`` where ``danger <= threshold``, else 0
        ``"min_mask"``:  ``final = max(0, interest)`` where ``danger <= min(danger) + margin``
                         (the least danger of that agent's map), else 0
        ``"multiply"``:  ``final = max(0, interest) * (1 - clip(danger, 0, 1))``
    select: how a direction is picked from ``final``; ``b`` is the best slot (first index of
        the maximum) and ``l, c, r`` the values at ``b-1, b, b+1`` (wrapping):
        ``"argmax"``:    slot ``b``.
        ``"blend"``:     the direction of ``l*d[b-1] + c*d[b] + r*d[b+1]``, ``d`` the slot
                         directions (4 slots still give diagonals).
        ``"average"``:   the direction of ``sum_i final[i] * d[i]``; slot ``b`` where that sum
                         vanishes.
        ``"parabolic"``: ``b + 0.5*(l - r)/(l - 2c + r)``, the vertex of the parabola
                         through the three values.
        ``"gradient"``:  ``b + (r - l)/(2*(c - min(l, r)))``, where a line rising from the lower
                         neighbor to ``b`` meets the line of opposite slope through the other.
        ``"blend"``, ``"parabolic"`` and ``"gradient"`` stay within half a slot of ``b`` and
        reduce to ``"argmax"`` with fewer than 3 slots.
    threshold: largest danger a slot may carry and stay open (``"threshold"`` mode).
    margin: >= 0, how far above the least danger a slot stays open (``"min_mask"`` mode).
    offset: angle of slot 0, radians.
    hysteresis: >= 0, with ``current`` ``(n, 2)`` (or ``(2,)``) the directions the agents
        already move in: the selection runs on ``final[i] * (1 + hysteresis * max(0,
        dot(unit(current), d_i)))``, so near-ties go the way the agent already goes; the
        returned ``final`` and ``strength`` are without that factor.

    Returns a :class:`Decision` whose arrays have the rank of ``interest``.
    """
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


def blur(maps, width: float) -> np.ndarray:
    """Circular Gaussian blur across slots.

    ``out[i] = sum_k g(k) * maps[(i + k) mod S] / sum_k g(k)`` for ``|k| <= ceil(3 width)``,
    ``g(k) = exp(-k^2 / (2 width^2))``. ``width`` >= 0 is the standard deviation in slots;
    0 returns the maps unchanged. A kernel wider than the circle laps it (folded, so that
    it costs at most S taps a slot): a very wide blur gives each row's mean. Shape
    ``(n, S)`` or ``(S,)`` in and out.
    """
    batch, single = check.map_batch("maps", maps)
    out = _core.blur(batch, check.number("width", width, minimum=0.0))
    return out[0] if single else out


def smooth(maps, previous, factor: float = 0.5) -> np.ndarray:
    """Temporal smoothing: ``(1 - factor) * maps + factor * previous``.

    ``factor`` in [0, 1] is the share of the previous step's map that is kept; ``maps``
    and ``previous`` have the same shape, ``(n, S)`` or ``(S,)``.
    """
    batch, single = check.map_batch("maps", maps)
    prev, _ = check.map_batch("previous", previous)
    if prev.shape != batch.shape:
        raise ValueError(f"previous: expected the shape of maps {np.shape(maps)}, got {np.shape(previous)}")
    out = _core.smooth(batch, prev, check.number("factor", factor, minimum=0.0, maximum=1.0))
    return out[0] if single else out


def resample(maps, slots: int, method: str = "linear") -> np.ndarray:
    """Carry maps to another slot count, so resolution can change at run time.

    Maps are periodic functions of angle; slot 0 keeps its angle.
    ``"linear"``: ``out[j]`` interpolates linearly at angle ``2*pi*j/slots``.
    ``"max"``: also takes the largest input slot within half an output slot, so that
    coarsening never loses a narrow peak (use it for danger).
    Shape ``(n, S)`` -> ``(n, slots)``, or ``(S,)`` -> ``(slots,)``.
    """
    batch, single = check.map_batch("maps", maps)
    slots = check.count("slots", slots, minimum=1)
    out = _core.resample(batch, slots, check.name("method", method))
    return out[0] if single else out
