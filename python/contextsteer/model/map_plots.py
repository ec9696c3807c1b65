"""Context maps drawn as a polar plot: the picture of one agent's maps that explanations
(:meth:`Explanation.plot`) and :func:`contextsteer.plotting.plot_context_maps` give.
Matplotlib is imported when a map is drawn, not with the model."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._internal import validation as check

# Colours per map kind, so every figure of the project reads the same way.
MAP_COLOURS = {"interest": "tab:green", "danger": "tab:red", "final": "tab:blue"}


def plot_context_maps(maps: Mapping[str, np.ndarray], ax=None, *, offset: float = 0.0, direction=None,
                      strength: float | None = None, styles: Mapping[str, Mapping] | None = None,
                      masked=None) -> list:
    """Draw context maps on a polar axis, one closed curve per map.

    The radial tick labels are moved to the ray where the curves and the arrow leave them
    most room, clear of the angular labels; an inner one a curve still crosses there is
    left blank (the outermost, the circle's value, always prints). The circle ends on a
    radial tick.

    Parameters
    ----------
    maps : dict of str to array_like of shape (S,)
        E.g. ``{"interest": ..., "danger": ..., "final": ...}``; slot ``i`` is drawn at
        angle ``offset + 2*pi*i/S`` with radius ``max(0, value)``. Drawn in order, with a
        dot per slot, in green, red and blue for those three names.
    ax : matplotlib.axes.Axes, optional
        A polar axis; a new one when None.
    offset : float, default 0
        The angle of slot 0, radians.
    direction : array_like, shape (2,), optional
        The chosen direction, drawn as a thick black arrow from the centre; its length is
        the strength's share of the circle's radius (the whole radius without a
        strength), and a strength under 5 % of it is drawn as a black dot at the centre.
    strength : float, optional
        The share of max speed (0 to 1, more is drawn as 1), given in the legend.
    styles : dict of str to dict, optional
        Keyword arguments of ``ax.plot`` for a map's curve, over the defaults (e.g.
        ``{"danger": {"linestyle": "--"}}``).
    masked : array_like of bool, shape (S,), optional
        The slots whose interest the danger removed or reduced: each is shaded grey over
        its share of the circle, named "masked slots".

    Returns
    -------
    list
        The artists (the curves, then the arrow and the masked slots' wedges when drawn).

    Raises
    ------
    ValueError
        Maps of different lengths, a Cartesian axis, or a bad value.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import contextsteer as cs
    >>> from contextsteer import plotting
    >>> interest = cs.slot_directions(8) @ [1.0, 0.0]
    >>> artists = plotting.plot_context_maps({"interest": interest.clip(0.0)}, direction=[1.0, 0.0], strength=1.0)
    >>> len(artists)  # the curve and the arrow
    2
    >>> plt.close("all")
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    from .polar_labels import place_radial_labels

    if not isinstance(maps, Mapping) or not maps:
        raise TypeError("maps: expected a non-empty mapping of name -> (slots,) map")
    offset = check.number("offset", offset)
    strength = None if strength is None else check.number("strength", strength, minimum=0.0)
    styles = {} if styles is None else styles
    if not isinstance(styles, Mapping) or not all(isinstance(style, Mapping) for style in styles.values()):
        raise TypeError("styles: expected a mapping of map name -> mapping of ax.plot keyword arguments")
    unknown = [name for name in styles if name not in maps]
    if unknown:
        raise ValueError(f"styles: expected names among the maps' {list(maps)}, got {unknown[0]!r}")
    if ax is None:
        _, ax = plt.subplots(subplot_kw={"projection": "polar"}, layout="constrained")
    elif getattr(ax, "name", "") != "polar":
        kind = getattr(ax, "name", type(ax).__name__)
        raise ValueError(f"ax: expected a polar axis (projection='polar'), got a {kind!r} axis")
    artists, arrow, slots = [], None, None
    for name, values in maps.items():
        m = check.real_array(f"maps[{name!r}]", values)
        if m.ndim != 1 or m.size < 1:
            raise ValueError(f"maps[{name!r}]: expected a map of shape (slots,), got shape {m.shape}")
        angles = offset + 2 * np.pi * np.arange(m.size + 1) / m.size
        radii = np.maximum(0, np.append(m, m[0]))
        style = {"marker": ".", "label": name, "color": MAP_COLOURS.get(name), **styles.get(name, {})}
        artists += ax.plot(angles, radii, **style)
        slots = m.size
    lines = list(artists)
    d = None if direction is None else check.shaped("direction", direction, (2,))
    shade = None
    if masked is not None:
        shade = np.asarray(masked)
        if shade.dtype != bool or shade.shape != (slots,):
            raise ValueError(f"masked: expected ({slots},) bool, one per slot of the maps, got {masked!r}")
    # The circle holds every line on the axis, at least 1, and ends on a tick
    # (matplotlib's own limit has a margin, and it labels a tick past the circle's end
    # outside it); the ticks are fixed, so that the labels placed below are the ones drawn.
    drawn = [np.max(line.get_ydata(), initial=0.0) for line in ax.lines]
    top = max(1.0, *drawn)
    ticks = MaxNLocator(nbins=5).tick_values(0.0, top)
    top = min((tick for tick in ticks if tick >= top), default=top)
    ax.set_rlim(0, top)
    ax.set_rticks([tick for tick in ticks if 0 < tick <= top])
    if d is not None and np.any(d):
        share = 1.0 if strength is None else min(strength, 1.0)
        name = "chosen direction" + ("" if strength is None else f", strength {strength:.2g}")
        if share >= 0.05:
            arrow = (float(np.arctan2(d[1], d[0])), top * share)
            artists.append(ax.annotate("", xy=arrow, xytext=(0, 0), zorder=3, arrowprops={
                "arrowstyle": "-|>", "color": "black", "linewidth": 2.5, "mutation_scale": 18, "shrinkA": 0,
                "shrinkB": 0}))
            ax.plot([], [], color="black", linewidth=2.5, label=name)  # the arrow's legend entry
        else:  # too weak for an arrow to show its way
            artists += ax.plot([0.0], [0.0], "o", color="black", markersize=5, zorder=3, label=name)
    if shade is not None and shade.any():
        width = 2 * np.pi / shade.size
        centres = offset + width * np.flatnonzero(shade)
        bars = ax.bar(centres, top, width=width, bottom=0.0, color="0.55", alpha=0.3, linewidth=0, zorder=0,
                      label="masked slots")
        artists += list(bars)
    place_radial_labels(ax, lines, arrow)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, fontsize="small")   # below the circle
    return artists

