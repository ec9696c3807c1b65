"""Why an agent decided as it did: for a context agent, every behaviour's maps, the merged
maps, the masked slots and the decision; for a classic agent, every behaviour's output and
their combination."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Line patterns of the behaviours' own maps in Explanation.plot (solid lines are the merged maps').
_BEHAVIOUR_DASHES = ["--", ":", "-.", (0, (5, 1, 1, 1, 1, 1))]


@dataclass(frozen=True)
class Explanation:
    """One agent's decision, taken apart (:meth:`World.explain <contextsteer.World.explain>`).

    Parameters
    ----------
    agent : int
        The agent's id.
    behaviors : list of tuple
        ``(behaviour, kind, map)`` for every map a behaviour filled, kind ``"interest"``
        or ``"danger"``, map ``(slots,)`` before weighting.
    interest, danger : ndarray of float32, shape (slots,)
        The merged (weighted, combined, shaped) maps.
    final : ndarray of float32, shape (slots,)
        The map the choice was made on.
    masked : ndarray of bool, shape (slots,)
        The slots whose interest the danger removed or reduced.
    direction : ndarray of float32, shape (2,)
        The chosen unit direction.
    strength : float
        The decision's strength, 0 to 1.
    slot : float
        The chosen slot (fractional, -1 when blocked).
    blocked : bool
        Whether every slot was masked.

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek(), cs.Avoid()], slots=8), [[0.0, 0.0]],
    ...                  targets=[[5.0, 0.0]], circles=[[2.0, 0.0, 0.5]])
    >>> world.explain(0)
    Explanation(agent 0: direction (1, 0), strength 0.2, slot 0; 3 of 8 slots masked
      Chase() interest: peak 1 at slot 0
      Avoid() danger: peak 0.8 at slot 0
      merged interest: peak 1 at slot 0
      merged danger: peak 0.8 at slot 0)
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

    def plot(self, ax=None, *, behaviors: bool = False):
        """The merged maps, the final map, the masked slots (shaded) and the chosen
        direction (an arrow to the circle's edge, its strength in the legend) on a polar
        axis; returns the artists. With ``behaviors=True``, each behaviour's own map (before weighting)
        too, beneath them: thin and broken, in the colour of its kind, named in the legend
        by the behaviour's class.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            A polar axis (a new figure's when None).
        behaviors : bool, default False
            Whether each behaviour's own map is drawn too.

        Returns
        -------
        list
            The matplotlib artists drawn.

        Examples
        --------
        >>> import matplotlib.pyplot as plt
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek(), cs.Avoid()], slots=8), [[0.0, 0.0]],
        ...                  targets=[[5.0, 0.0]], circles=[[2.0, 0.0, 0.5]])
        >>> artists = world.explain(0).plot(behaviors=True)
        >>> len(artists) > 0
        True
        >>> plt.close("all")
        """
        import matplotlib.pyplot as plt

        from .._internal import validation as check
        from .map_plots import MAP_COLOURS, plot_context_maps

        maps: dict[str, np.ndarray] = {}
        styles: dict[str, dict] = {}
        behaviors = check.flag("behaviors", behaviors)
        if ax is None:
            # Constrained: the legend beside the circle and the title fit in the figure.
            figure, ax = plt.subplots(figsize=(7.4, 4.8), subplot_kw={"projection": "polar"}, layout="constrained")
        if behaviors:
            of_kind = {"interest": 0, "danger": 0}   # each kind's behaviours take the patterns in turn
            named: dict[str, int] = {}               # the same class twice: the others numbered
            for behavior, kind, values in self.behaviors:
                base = f"{type(behavior).__name__} ({kind})"
                named[base] = named.get(base, 0) + 1
                name = base if named[base] == 1 else f"{base} #{named[base]}"
                maps[name] = values
                styles[name] = {"color": MAP_COLOURS[kind], "linewidth": 1, "marker": None,
                                "linestyle": _BEHAVIOUR_DASHES[of_kind[kind] % len(_BEHAVIOUR_DASHES)]}
                of_kind[kind] += 1
        maps.update(interest=self.interest, danger=self.danger, final=self.final)
        artists = plot_context_maps(maps, ax, direction=self.direction, strength=self.strength, styles=styles,
                                    masked=self.masked)
        # Beside the circle rather than over it: a line per map is too tall to fit its corner.
        ax.legend(loc="upper left", bbox_to_anchor=(1.12, 1.0), borderaxespad=0.0, fontsize="small")
        ax.set_title(f"agent {self.agent}: {int(self.masked.sum())} of {len(self.final)} slots masked"
                     + (", blocked" if self.blocked else ""), fontsize="medium", pad=14)
        return artists


@dataclass(frozen=True)
class ClassicExplanation:
    """One classically steered agent's steering, taken apart (see :mod:`contextsteer.classic`).

    Parameters
    ----------
    agent : int
        The agent's id.
    behaviors : list of tuple
        ``(behaviour, linear, angular)`` for each behaviour of its steering, in order: its
        output before weighting, linear ``(2,)`` in m/s^2, angular in rad/s^2.
    linear : ndarray of float32, shape (2,)
        The combined steering's linear part, m/s^2, as the world's step takes it (the
        weighted sum of the behaviours of the level taken, truncated to the agent's
        ``max_acceleration``); the step then limits the force and the speed.
    angular : float
        The combined angular part, rad/s^2.
    level : int or None
        The priority level taken by the ``"priority"`` combiner (the last one when no
        level exceeds its epsilon); None for ``"blend"``.
    dt : float
        The step (s) it was computed for: every ``time_to_target`` counts as at least dt.

    Examples
    --------
    >>> import contextsteer as cs
    >>> steering = cs.classic.Steering([cs.classic.Seek(), cs.classic.Separation()])
    >>> world = cs.World(steering, [[0.0, 0.0], [0.5, 0.0]], targets=[[5.0, 0.0], [5.0, 0.0]])
    >>> world.explain(0)
    ClassicExplanation(agent 0, dt 0.0167 s: linear (0, 0) m/s^2, angular 0 rad/s^2
      classic.Seek(weight=1, priority=0): linear (1, 0) m/s^2, angular 0 rad/s^2
      classic.Separation(weight=1, priority=0): linear (-1, 0) m/s^2, angular 0 rad/s^2)
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

    def plot(self, ax=None):
        """Each behaviour's linear output (before weighting) as a thin arrow from the origin,
        and the combined steering as a thick black one, on a Cartesian axis in m/s^2 (equal
        scales); the legend gives each one's length and angular part (rad/s^2).

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            A Cartesian axis (a new figure's when None).

        Returns
        -------
        list
            The matplotlib artists drawn.

        Raises
        ------
        ValueError
            A polar axis.

        Examples
        --------
        >>> import matplotlib.pyplot as plt
        >>> import contextsteer as cs
        >>> world = cs.World(cs.classic.Steering([cs.classic.Seek()]), [[0.0, 0.0]], targets=[[5.0, 0.0]])
        >>> artists = world.explain(0).plot()
        >>> len(artists)  # the behaviour's arrow and the steering's, each a line and a head
        4
        >>> plt.close("all")
        """
        import matplotlib.pyplot as plt

        if ax is None:
            # Constrained: the legend beside the square axis fits in the figure.
            figure, ax = plt.subplots(figsize=(8.4, 4.8), layout="constrained")
        elif getattr(ax, "name", "") == "polar":
            raise ValueError("ax: expected a Cartesian axis, got a 'polar' axis")
        level = "" if self.level is None else f", priority level {self.level}"
        arrows = [(behavior.name, linear, angular, f"C{i % 10}", 1.5)
                  for i, (behavior, linear, angular) in enumerate(self.behaviors)]
        arrows.append((f"steering{level}", self.linear, self.angular, "black", 3.0))
        artists: list = []
        for name, linear, angular, colour, width in arrows:
            x, y = (float(v) for v in linear)
            label = f"{name}: {np.hypot(x, y):.3g} m/s^2, {float(angular):.3g} rad/s^2"
            artists += ax.plot([0.0, x], [0.0, y], color=colour, linewidth=width, label=label)
            if x or y:   # an arrowhead on the line's far end
                artists.append(ax.annotate("", xy=(x, y), xytext=(0.0, 0.0),
                                           arrowprops={"arrowstyle": "-|>", "color": colour, "linewidth": width}))
        # Square limits round the origin holding every arrow, with a margin for the heads.
        reach = 1.15 * max([float(np.hypot(*linear)) for _, linear, *_ in arrows] + [1e-6])
        ax.set_xlim(-reach, reach)
        ax.set_ylim(-reach, reach)
        ax.set_aspect("equal")
        ax.axhline(0.0, color="0.85", linewidth=0.8, zorder=0)
        ax.axvline(0.0, color="0.85", linewidth=0.8, zorder=0)
        ax.set_xlabel("x (m/s^2)")
        ax.set_ylabel("y (m/s^2)")
        ax.set_title(f"agent {self.agent}: classic steering, dt {self.dt:.3g} s", fontsize="medium")
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small")
        return artists
