"""Why an agent decided as it did: every behaviour's maps, the merged maps, the masked
slots and the decision, for one agent."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Explanation:
    """One agent's decision, taken apart.

    behaviors: ``(behaviour, kind, map)`` for every map a behaviour filled, kind
        ``"interest"`` or ``"danger"``, map ``(slots,)`` before weighting.
    interest, danger: ``(slots,)`` the merged (weighted, combined, shaped) maps.
    final: ``(slots,)`` the map the choice was made on.
    masked: ``(slots,)`` bool, slots whose interest the danger removed or reduced.
    direction: ``(2,)``; strength; slot (fractional, -1 when blocked); blocked.
    """

    agent: int
    behaviors: list
    interest: np.ndarray
    danger: np.ndarray
    final: np.ndarray
    masked: np.ndarray
    direction: np.ndarray
    strength: float
    slot: float
    blocked: bool

    def plot(self, ax=None):
        """The merged maps, the final map and the chosen direction on a polar axis; returns the artists."""
        from .plotting import plot_context_maps

        return plot_context_maps({"interest": self.interest, "danger": self.danger, "final": self.final}, ax,
                                 direction=self.direction, strength=self.strength)
