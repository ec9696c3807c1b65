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

    def __repr__(self) -> str:
        # The decision and where each map peaks; the maps themselves are the attributes.
        def peak(values: np.ndarray) -> str:
            slot = int(np.argmax(values))
            return f"peak {float(values[slot]):.3g} at slot {slot}"

        x, y = (float(v) for v in self.direction)
        decision = ("blocked" if self.blocked
                    else f"direction ({x:.3g}, {y:.3g}), strength {self.strength:.3g}, slot {self.slot:.3g}")
        lines = [f"Explanation(agent {self.agent}: {decision}; {int(self.masked.sum())} of {len(self.final)} "
                 f"slots masked"]
        lines += [f"  {behavior!r} {kind}: {peak(values)}" for behavior, kind, values in self.behaviors]
        lines += [f"  merged interest: {peak(self.interest)}", f"  merged danger: {peak(self.danger)})"]
        return "\n".join(lines)

    def plot(self, ax=None):
        """The merged maps, the final map and the chosen direction on a polar axis; returns the artists."""
        from .plotting import plot_context_maps

        return plot_context_maps({"interest": self.interest, "danger": self.danger, "final": self.final}, ax,
                                 direction=self.direction, strength=self.strength)
