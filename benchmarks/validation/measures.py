"""What the validation suite measures in a recorded run, as pedestrian experiments measure it.

Every function takes a :class:`contextsteer.Recording`'s arrays: ``times`` ``(T,)`` in
seconds, ``positions`` and ``velocities`` ``(T, n, 2)`` in metres and m/s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Flow:
    """The flow through an exit from its crossing times.

    ``flow`` (1/s) is the agents that crossed between the 10th and the 90th percentile of
    the crossings, over that time: ``(k90 - k10) / (t[k90] - t[k10])``, the crossing times
    sorted and ``k10``, ``k90`` the ranks of the 10th and 90th percentiles of all ``agents``.
    Where fewer than 90 % crossed within the run, the last crossing stands for the 90th
    percentile and ``complete`` is False.
    """

    flow: float
    crossed: int
    agents: int
    last: float  # seconds: the last crossing
    complete: bool


def exit_flow(crossings: np.ndarray) -> Flow:
    """The :class:`Flow` of the crossing times ``crossings`` (NaN: not crossed)."""
    agents = len(crossings)
    t = np.sort(crossings[np.isfinite(crossings)])
    k10, k90 = int(np.ceil(0.1 * agents)) - 1, int(np.ceil(0.9 * agents)) - 1
    complete = len(t) > k90
    k90 = min(k90, len(t) - 1)
    if k90 <= k10 or t[k90] <= t[k10]:
        return Flow(0.0, len(t), agents, float(t[-1]) if len(t) else float("nan"), False)
    return Flow(float((k90 - k10) / (t[k90] - t[k10])), len(t), agents, float(t[-1]), complete)


@dataclass(frozen=True)
class AreaMeasure:
    """Density and speed in a rectangular measurement area over a time window (the
    classic method: agents counted in the area at each recorded row, their speeds along
    their own walking direction averaged); each a mean over the rows, with the standard
    deviation of the rows' values."""

    density: float  # 1/m^2
    density_std: float
    speed: float  # m/s
    speed_std: float
    rows: int

    @property
    def specific_flow(self) -> float:
        """1/(m s): density times speed."""
        return self.density * self.speed


def in_area(positions: np.ndarray, area: tuple[float, float, float, float]) -> np.ndarray:
    """``(T, n)`` booleans: each agent's centre inside ``area`` ``(x0, y0, x1, y1)`` at each row."""
    x0, y0, x1, y1 = area
    x, y = positions[..., 0], positions[..., 1]
    return (x >= x0) & (x < x1) & (y >= y0) & (y < y1)


def area_measure(times, positions, velocities, area, window, direction=None) -> AreaMeasure:
    """The :class:`AreaMeasure` in ``area`` ``(x0, y0, x1, y1)`` over the rows whose time is
    within ``window`` ``(t0, t1)``. ``direction`` ``(n,)`` is +1 for an agent that walks
    east and -1 west (all east when not given): the speed counted is each agent's velocity
    along its own way (a step back counts against it)."""
    rows = (times >= window[0]) & (times <= window[1])
    inside = in_area(positions[rows], area)
    sign = np.ones(positions.shape[1]) if direction is None else np.asarray(direction, dtype=float)
    along = velocities[rows][..., 0] * sign
    count = inside.sum(axis=1)
    x0, y0, x1, y1 = area
    density = count / ((x1 - x0) * (y1 - y0))
    speed = np.where(count > 0, (along * inside).sum(axis=1) / np.maximum(count, 1), np.nan)
    return AreaMeasure(float(density.mean()), float(density.std()), float(np.nanmean(speed)),
                       float(np.nanstd(speed)), int(rows.sum()))


def lane_index(positions: np.ndarray, direction: np.ndarray, area, band: float = 0.5) -> np.ndarray:
    """``(T,)``: how far a two-way crowd in ``area`` is split into lanes, at each row.

    The area is cut along its length into bands ``band`` metres wide (about a body's
    width); in each band ``|east - west| / (east + west)`` of the agents in it, averaged
    over the bands weighted by their agents: 1 when each band holds one direction alone
    (lanes), near 0 when both directions mix in every band (a well-mixed crowd of ``k``
    agents in a band scores about ``0.8/sqrt(k)``). NaN for a row with nobody in the area."""
    inside = in_area(positions, area)
    y0, y1 = area[1], area[3]
    bands = np.clip(((positions[..., 1] - y0) / band).astype(int), 0, int(np.ceil((y1 - y0) / band)) - 1)
    east = np.asarray(direction) > 0
    out = np.full(len(positions), np.nan)
    for t in range(len(positions)):
        b, e = bands[t][inside[t]], east[inside[t]]
        if not len(b):
            continue
        n_east = np.bincount(b[e], minlength=bands.max() + 1)
        n_west = np.bincount(b[~e], minlength=bands.max() + 1)
        out[t] = np.abs(n_east - n_west).sum() / (n_east + n_west).sum()
    return out
