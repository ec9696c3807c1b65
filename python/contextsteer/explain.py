"""Why an agent decided as it did: for a context agent, every behaviour's maps, the merged
maps, the masked slots and the decision; for a classic agent, every behaviour's output and
their combination."""

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


@dataclass(frozen=True)
class ClassicExplanation:
    """One classically steered agent's steering, taken apart (see :mod:`contextsteer.classic`).

    behaviors: ``(behaviour, linear, angular)`` for each behaviour of its steering, in order:
        its output before weighting, linear ``(2,)`` in m/s^2, angular in rad/s^2.
    linear, angular: the combined steering, as the world's step takes it (the weighted
        sum of the behaviours of the level taken, linear part truncated to the agent's
        ``max_acceleration``); the step then limits the force and the speed.
    level: the priority level taken by the ``"priority"`` combiner (the last one when no
        level exceeds its epsilon); None for ``"blend"``.
    dt: the step (s) it was computed for: every ``time_to_target`` counts as at least dt.
    """

    agent: int
    behaviors: list
    linear: np.ndarray
    angular: float
    level: int | None
    dt: float

    def __repr__(self) -> str:
        def output(linear, angular) -> str:
            x, y = (float(v) for v in linear)
            return f"linear ({x:.3g}, {y:.3g}) m/s^2, angular {float(angular):.3g} rad/s^2"

        level = "" if self.level is None else f" from priority level {self.level}"
        combined = output(self.linear, self.angular)
        lines = [f"ClassicExplanation(agent {self.agent}, dt {self.dt:.3g} s: {combined}{level}"]
        lines += [f"  {behavior!r}: {output(linear, angular)}" for behavior, linear, angular in self.behaviors]
        return "\n".join(lines) + ")"
