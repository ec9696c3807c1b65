"""Matplotlib helpers: obstacles, walls, navigation fields, trajectories, context maps and
animations of a run.

Each function draws on ``ax`` (a new one when None) and returns the artists it made,
so callers can restyle or remove them. matplotlib is imported here only.

Longer than 500 lines: one function per kind of plot, each with its numpydoc docstring
and an example; they share the checks and colour helpers at the top.
"""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.colors import Colormap, to_rgba_array
from matplotlib.patches import Circle, Patch
from matplotlib.ticker import MaxNLocator

from . import _validation as check
from ._polar_labels import place_radial_labels

# Colours per map kind, so every figure of the project reads the same way.
MAP_COLOURS = {"interest": "tab:green", "danger": "tab:red", "final": "tab:blue"}


def _colours(name: str, value, count: int) -> np.ndarray:
    """``(1, 4)`` or ``(count, 4)`` RGBA from one matplotlib colour or ``count`` of them."""
    try:
        rgba = to_rgba_array(value)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{name}: expected a matplotlib colour or {count} of them, got {value!r} ({exc})") from None
    if len(rgba) not in (1, count):
        raise ValueError(f"{name}: expected one colour or {count}, got {len(rgba)}")
    return rgba


def _colormap(name: str, value) -> Colormap:
    """A matplotlib colormap, or the one registered under the name ``value``."""
    if isinstance(value, Colormap):
        return value
    if not isinstance(value, str):
        raise TypeError(f"{name}: expected a colormap name (str) or a matplotlib Colormap, got {type(value).__name__}")
    try:
        return matplotlib.colormaps[value]
    except KeyError:
        raise ValueError(f"{name}: expected the name of a registered colormap ('viridis', 'magma', ...), "
                         f"got {value!r}") from None


def plot_obstacles(obstacles, ax=None, **kwargs) -> list:
    """Draw circles as filled discs.

    Parameters
    ----------
    obstacles : array_like, shape (m, 3)
        x, y, radius in metres.
    ax : matplotlib.axes.Axes, optional
        The axis (the current one when None).
    **kwargs
        Passed on to matplotlib.

    Returns
    -------
    list of matplotlib.patches.Circle
        The patches.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from contextsteer import plotting
    >>> fig, ax = plt.subplots()
    >>> len(plotting.plot_obstacles([[0.0, 0.0, 1.0], [3.0, 0.0, 0.5]], ax))
    2
    >>> plt.close(fig)
    """
    circles = check.points("obstacles", obstacles, columns=3)
    if ax is None:
        _, ax = plt.subplots()
    style = {"facecolor": "0.6", "edgecolor": "0.3", "linewidth": 0.5, "label": "obstacles"} | kwargs
    label = style.pop("label")
    patches = [ax.add_patch(Circle((x, y), r, label=label if i == 0 else f"_{label}", **style))
               for i, (x, y, r) in enumerate(circles)]   # named once, for a legend
    ax.set_aspect("equal")
    ax.autoscale_view()
    return patches


def plot_polygons(polygons, ax=None, **kwargs) -> list:
    """Draw polygons as filled shapes, named "polygons" once in a legend.

    Parameters
    ----------
    polygons : list of array_like of shape (k, 2)
        Vertex arrays, metres, as :class:`~contextsteer.World` takes them.
    ax : matplotlib.axes.Axes, optional
        The axis (the current one when None).
    **kwargs
        Passed on to matplotlib.

    Returns
    -------
    list of matplotlib.patches.Polygon
        The patches.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from contextsteer import plotting
    >>> fig, ax = plt.subplots()
    >>> len(plotting.plot_polygons([[[0.0, 0.0], [2.0, 0.0], [1.0, 1.5]]], ax))
    1
    >>> plt.close(fig)
    """
    from matplotlib.patches import Polygon

    shapes = check.polygons("polygons", polygons)
    if ax is None:
        _, ax = plt.subplots()
    style = {"facecolor": "0.6", "edgecolor": "0.3", "linewidth": 0.5, "label": "polygons"} | kwargs
    label = style.pop("label")
    patches = [ax.add_patch(Polygon(np.asarray(shape), closed=True, label=label if i == 0 else f"_{label}", **style))
               for i, shape in enumerate(shapes)]
    ax.set_aspect("equal")
    ax.autoscale_view()
    return patches


def plot_segments(segments, ax=None, **kwargs):
    """Draw walls as lines.

    Parameters
    ----------
    segments : array_like, shape (m, 4)
        x0, y0, x1, y1 in metres.
    ax : matplotlib.axes.Axes, optional
        The axis (the current one when None).
    **kwargs
        Passed on to matplotlib.

    Returns
    -------
    matplotlib.collections.LineCollection
        The walls.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from contextsteer import plotting
    >>> fig, ax = plt.subplots()
    >>> len(plotting.plot_segments([[0.0, 1.0, 5.0, 1.0], [0.0, -1.0, 5.0, -1.0]], ax).get_segments())
    2
    >>> plt.close(fig)
    """
    walls = check.segments("segments", segments)
    if ax is None:
        _, ax = plt.subplots()
    style = {"colors": "0.2", "linewidths": 2.0, "label": "walls" if len(walls) else "_walls"} | kwargs
    lines = ax.add_collection(LineCollection(walls.reshape(-1, 2, 2), **style))
    ax.set_aspect("equal")
    ax.autoscale_view()
    return lines


def plot_scenario(scenario, ax=None) -> list:
    """Draw a :class:`~contextsteer.Scenario`'s fixed scene: its circles, walls and
    polygons, and its agents' targets as grey crosses (the moving obstacles are drawn where
    they stand by :func:`plot_moving_obstacles`).

    Parameters
    ----------
    scenario : Scenario
        The scene.
    ax : matplotlib.axes.Axes, optional
        The axis (a new figure's when None).

    Returns
    -------
    list
        The artists drawn.

    Raises
    ------
    TypeError
        For a scenario that is not a :class:`~contextsteer.Scenario`.

    Examples
    --------
    >>> import contextsteer as cs
    >>> from contextsteer import plotting
    >>> artists = plotting.plot_scenario(cs.scenarios.corridor(4))
    >>> len(artists)      # 114 circles, the walls' collection, the targets
    116
    """
    from .scenarios import Scenario

    if not isinstance(scenario, Scenario):
        raise TypeError(f"scenario: expected a contextsteer.Scenario, got {type(scenario).__name__}")
    if ax is None:
        _, ax = plt.subplots()
    artists = plot_obstacles(scenario.obstacles, ax) + [plot_segments(scenario.segments, ax)]
    artists += plot_polygons(list(scenario.polygons), ax) if scenario.polygons else []
    artists += ax.plot(*scenario.targets.T, "x", color="grey", markersize=3, label="targets")
    return artists


def plot_moving_obstacles(shapes, ax=None, **kwargs) -> list:
    """Draw moving obstacles where they stand, as :meth:`World.moving_shapes
    <contextsteer.World.moving_shapes>` gives them (a circle ``(1, 3)``, a segment ``(2, 2)``,
    a polygon ``(k, 2)``, metres), in orange, named "moving obstacles" once in a legend.

    Parameters
    ----------
    shapes : list of ndarray
        The shapes, metres.
    ax : matplotlib.axes.Axes, optional
        The axis (the current one when None).
    **kwargs
        Passed on to matplotlib.

    Returns
    -------
    list
        The artists (patches and lines).

    Raises
    ------
    ValueError
        A shape of none of those forms.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from contextsteer import plotting
    >>> fig, ax = plt.subplots()
    >>> artists = plotting.plot_moving_obstacles([[[1.0, 0.0, 0.5]], [[0.0, 0.0], [2.0, 1.0]]], ax)
    >>> len(artists)
    2
    >>> plt.close(fig)
"""
    from matplotlib.patches import Polygon as MplPolygon

    if ax is None:
        _, ax = plt.subplots()
    style = {"facecolor": "tab:orange", "edgecolor": "0.2", "linewidth": 0.8, "alpha": 0.8} | kwargs
    artists = []
    for i, shape in enumerate(shapes):
        shape = check.real_array(f"shapes[{i}]", shape)
        label = "moving obstacles" if i == 0 else "_moving obstacles"
        patch: Patch
        if shape.shape == (1, 3):
            patch = Circle((float(shape[0, 0]), float(shape[0, 1])), float(shape[0, 2]), label=label, **style)
        elif shape.shape == (2, 2):
            artists += ax.plot(shape[:, 0], shape[:, 1], color=style["facecolor"], linewidth=3, label=label)
            continue
        elif shape.ndim == 2 and shape.shape[1] == 2 and len(shape) >= 3:
            patch = MplPolygon(shape, closed=True, label=label, **style)
        else:
            raise ValueError(f"shapes[{i}]: expected a circle (1, 3), a segment (2, 2) or a polygon (k, 2), "
                             f"got shape {shape.shape}")
        artists.append(ax.add_patch(patch))
    ax.set_aspect("equal")
    ax.autoscale_view()
    return artists


def plot_field(field, ax=None, *, arrows: int = 24, cmap: str | Colormap = "viridis", colorbar: bool = True) -> list:
    """Draw a :class:`~contextsteer.NavigationField`: its distances as an image (blocked
    and unreachable cells left blank) and, when ``arrows`` > 0, its directions as about
    ``arrows`` arrows across the longer side; with ``colorbar``, a colorbar of the distance
    to the goal (m) beside the axis (``image.colorbar``).

    Parameters
    ----------
    field : NavigationField
        The field.
    ax : matplotlib.axes.Axes, optional
        The axis (the current one when None).
    arrows : int, default 24
        About how many arrows across the longer side (0: none).
    cmap : str, default 'viridis'
        The colour map of the distances.
    colorbar : bool, default True
        Whether a colorbar is drawn.

    Returns
    -------
    list
        ``[image]`` or ``[image, quiver]``.

    Raises
    ------
    TypeError
        ``field`` is not a :class:`~contextsteer.NavigationField`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import contextsteer as cs
    >>> from contextsteer import plotting
    >>> fig, ax = plt.subplots()
    >>> field = cs.NavigationField([[9.0, 2.0]], bounds=(0, 0, 10, 4), cell=0.5)
    >>> len(plotting.plot_field(field, ax, arrows=10))
    2
    >>> plt.close(fig)
"""
    from .navigation import NavigationField

    if not isinstance(field, NavigationField):
        raise TypeError(f"field: expected a contextsteer.NavigationField, got {type(field).__name__}")
    arrows = check.count("arrows", arrows)
    colormap = _colormap("cmap", cmap)
    colorbar = check.flag("colorbar", colorbar)
    if ax is None:
        _, ax = plt.subplots()
    distances = np.where(np.isfinite(field.distances), field.distances, np.nan)
    artists = [ax.imshow(distances, origin="lower", extent=field.extent, cmap=colormap, interpolation="nearest")]
    if arrows:
        every = max(1, max(field.shape) // arrows)
        x, y = field.centres
        d = field.directions[every // 2::every, every // 2::every]
        gx, gy = np.meshgrid(x[every // 2::every], y[every // 2::every])
        artists.append(ax.quiver(gx, gy, d[..., 0], d[..., 1], color="white", pivot="middle",
                                 angles="xy", scale_units="xy", scale=1.5 / (every * field.cell)))
    ax.set_aspect("equal")
    _label_metres(ax)
    if colorbar:
        ax.figure.colorbar(artists[0], ax=ax, shrink=0.8, label="distance to the goal (m)")
    return artists


def _label_metres(ax) -> None:
    """Axis labels in metres, unless the axis has its own."""
    if not ax.get_xlabel():
        ax.set_xlabel("x (m)")
    if not ax.get_ylabel():
        ax.set_ylabel("y (m)")


def plot_trajectories(trajectories, ax=None, *, mark_ends: bool = True, targets=None, groups=None,
                      group_names=None, agents=None, legend: bool = True, **kwargs) -> list:
    """Draw positions over time as one line per agent.

    Lines are thinner the more agents there are (1 point for 20 and fewer). Other
    keywords go to ``ax.plot``; a ``label`` names the group once in a legend (on its
    first line), and the markers are named "start", "end" and "goal" once per axes, so
    that the legend after several calls lists each group and each marker once. The axes
    are labelled in metres unless they have labels.

    Parameters
    ----------
    trajectories : array_like of shape (T, n, 2), or Recording
        Positions in metres, or a :class:`~contextsteer.Recording` with positions.
    ax : matplotlib.axes.Axes, optional
        The axis (the current one when None).
    mark_ends : bool, default True
        Whether the starts and ends are marked.
    targets : array_like, shape (n, 2), optional
        Each agent's goal, drawn as a cross named "goal".
    groups : array_like of int, shape (n,), optional
        The agents of each group share a colour (of matplotlib's cycle) and a legend
        entry; for crowds, where a colour per agent says nothing.
    group_names : sequence of str, optional
        One per group ("group g" by default).
    agents : array_like of int, optional
        The indices of the agents to draw (all when None), for a subset of a crowd.
    legend : bool, default True
        Draw the axis' legend (of every named artist on it) afterwards.
    **kwargs
        Passed on to ``ax.plot``.

    Returns
    -------
    list
        The lines (followed by the start and end markers when ``mark_ends``, and the
        goals when ``targets`` is given).

    Raises
    ------
    ValueError, TypeError
        Arrays of the wrong shape, or a recording without positions.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import contextsteer as cs
    >>> from contextsteer import plotting
    >>> fig, ax = plt.subplots()
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [0.0, 1.0]], targets=[[3.0, 0.0], [3.0, 1.0]])
    >>> lines = plotting.plot_trajectories(world.run(120), ax, mark_ends=False, legend=False)
    >>> len(lines)
    2
    >>> plt.close(fig)

    """
    from .recording import Recording

    if isinstance(trajectories, Recording):
        if trajectories.positions is None:
            raise ValueError("trajectories: expected a recording with positions (record='state' or 'all'), got none")
        trajectories = trajectories.positions
    traj = check.real_array("trajectories", trajectories)
    if traj.ndim != 3 or traj.shape[2] != 2:
        raise ValueError(f"trajectories: expected an array of shape (T, n, 2), got shape {traj.shape}")
    n = traj.shape[1]
    mark_ends = check.flag("mark_ends", mark_ends)
    legend = check.flag("legend", legend)
    goals = None if targets is None else check.shaped("targets", targets, (n, 2))
    chosen = np.arange(n) if agents is None else _agent_indices(agents, n)
    group_of = None
    if groups is not None:
        group_of = check.real_array("groups", groups)
        if group_of.shape != (n,) or (group_of != np.round(group_of)).any() or (group_of < 0).any():
            raise ValueError(f"groups: expected ({n},) group numbers from 0, got {groups!r}")
        group_of = group_of.astype(int)
        count = int(group_of.max(initial=-1)) + 1
        if group_names is not None and (isinstance(group_names, str) or len(group_names) != count):
            raise ValueError(f"group_names: expected {count} names, one per group, got {group_names!r}")
    if ax is None:
        _, ax = plt.subplots()
    traj, shown = traj[:, chosen], len(chosen)
    style = {"linewidth": 1.0 if shown <= 20 else max(0.3, 20.0 / shown), "alpha": 0.8} | kwargs
    label = style.pop("label", None)
    named = {artist.get_label() for artist in [*ax.get_lines(), *ax.patches, *ax.collections]}
    if group_of is None:
        artists = list(ax.plot(traj[:, :, 0], traj[:, :, 1], **style))
        if label is not None and artists:
            artists[0].set_label(label)  # the others keep labels starting with "_": out of legends
    else:
        artists = []
        for g in np.unique(group_of[chosen]):
            members = group_of[chosen] == g
            name = f"group {g}" if group_names is None else str(group_names[g])
            lines = ax.plot(traj[:, members, 0], traj[:, members, 1], **({"color": f"C{g % 10}"} | style))
            lines[0].set_label(name if name not in named else f"_{name}")
            artists += lines
    size = 3 if shown <= 20 else 2
    if mark_ends and len(traj):
        for row, marker, name in ((0, "o", "start"), (-1, "s", "end")):
            artists += ax.plot(traj[row, :, 0], traj[row, :, 1], marker, color="0.2", markersize=size,
                               label=name if name not in named else "_" + name)
    if goals is not None:
        artists += ax.plot(goals[chosen, 0], goals[chosen, 1], "x", color="0.35", markersize=size + 1,
                           label="goal" if "goal" not in named else "_goal")
    ax.set_aspect("equal")
    _label_metres(ax)
    if legend:
        scene_legend(ax, fontsize="small")
    return artists


def scene_legend(ax, **kwargs):
    """``ax.legend(**kwargs)`` with its lines at least 1.5 points wide, so that the
    colours of thin trajectories read in it.

    Parameters
    ----------
    ax : matplotlib.axes.Axes, optional
        The axis (the current one when None).
    **kwargs
        Passed on to matplotlib.

    Returns
    -------
    matplotlib.legend.Legend
        The legend.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from contextsteer import plotting
    >>> fig, ax = plt.subplots()
    >>> _ = ax.plot([0, 1], [0, 1], linewidth=0.5, label="agent")
    >>> [line.get_linewidth() for line in plotting.scene_legend(ax).get_lines()]
    [1.5]
    >>> plt.close(fig)
    """
    from matplotlib.lines import Line2D

    legend = ax.legend(**kwargs)
    for handle in getattr(legend, "legend_handles", None) or getattr(legend, "legendHandles", []):  # matplotlib < 3.7
        if isinstance(handle, Line2D) and handle.get_linestyle() not in ("None", ""):
            handle.set_linewidth(max(handle.get_linewidth(), 1.5))
            handle.set_alpha(1.0)
    return legend


def _agent_indices(agents, n: int) -> np.ndarray:
    indices = check.real_array("agents", agents).reshape(-1)
    if (indices != np.round(indices)).any() or (indices < 0).any() or (indices >= n).any():
        raise IndexError(f"agents: expected indices of agents below {n}, got {agents!r}")
    return indices.astype(int)


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
        The chosen direction, drawn as a thick black arrow out to the circle's edge,
        whatever the strength, so that it reads at any size.
    strength : float, optional
        The share of max speed, given in the legend.
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
        _, ax = plt.subplots(subplot_kw={"projection": "polar"})
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
        arrow = (float(np.arctan2(d[1], d[0])), top)
        artists.append(ax.annotate("", xy=arrow, xytext=(0, 0), zorder=3, arrowprops={
            "arrowstyle": "-|>", "color": "black", "linewidth": 2.5, "mutation_scale": 18, "shrinkA": 0, "shrinkB": 0}))
        name = "chosen direction" + ("" if strength is None else f", strength {strength:.2g}")
        ax.plot([], [], color="black", linewidth=2.5, label=name)  # the arrow's legend entry
    if shade is not None and shade.any():
        width = 2 * np.pi / shade.size
        centres = offset + width * np.flatnonzero(shade)
        bars = ax.bar(centres, top, width=width, bottom=0.0, color="0.55", alpha=0.3, linewidth=0, zorder=0,
                      label="masked slots")
        artists += list(bars)
    place_radial_labels(ax, lines, arrow)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, fontsize="small")   # below the circle
    return artists


def animate(recording, ax=None, *, radius=0.3, every: int = 1, interval: float = 40.0, color="tab:blue",
            trail: int = 0, moving=None):
    """A matplotlib ``FuncAnimation`` of agents moving, one frame per ``every``-th step.

    Draw the scene first (``plot_obstacles``, ``plot_segments``, ``plot_field``) on
    ``ax`` to animate over it. In a notebook, ``IPython.display.HTML(anim.to_jshtml())``
    shows it; ``anim.save("run.gif", writer="pillow")`` writes a file. Keep a reference to
    the animation while it plays (matplotlib's rule).

    Parameters
    ----------
    recording : Recording or array_like of shape (T, n, 2)
        A :class:`~contextsteer.Recording` with positions (its time is shown, and its
        headings, when recorded, as a radius-long tick on each disc), or positions in
        metres.
    ax : matplotlib.axes.Axes, optional
        The axis (the current one when None).
    radius : float or array_like, shape (n,), default 0.3
        Metres: each agent is drawn as a disc of that radius.
    every : int, default 1
        Steps per frame.
    interval : float, default 40
        Milliseconds between frames.
    color : colour or sequence of colours, default 'tab:blue'
        One colour or ``(n,)`` colours.
    trail : int, default 0
        How many frames of path to draw behind each agent (0: none).
    moving : sequence of list of ndarray, optional
        The moving obstacles at each recorded step, as :func:`plot_moving_obstacles`
        takes them (one list of shapes per step, ``MovingSceneRun.moving_outlines``); by
        default those of ``recording`` (:meth:`Recording.moving_shapes
        <contextsteer.Recording.moving_shapes>`) when it holds them.

    Returns
    -------
    matplotlib.animation.FuncAnimation
        The animation.

    Raises
    ------
    ValueError, TypeError
        Arrays of the wrong shape, or a recording without positions.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import contextsteer as cs
    >>> from contextsteer import plotting
    >>> fig, ax = plt.subplots()
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]], targets=[[3.0, 0.0]])
    >>> animation = plotting.animate(world.run(60), ax, every=10)
    >>> type(animation).__name__
    'FuncAnimation'
    >>> "<img" in animation.to_jshtml()  # six frames, as a notebook shows them
    True
    >>> plt.close(fig)

    """
    from matplotlib.animation import FuncAnimation
    from matplotlib.collections import EllipseCollection

    from .recording import Recording

    time = recording.time if isinstance(recording, Recording) else None
    headings = recording.headings if isinstance(recording, Recording) else None
    positions = recording.positions if isinstance(recording, Recording) else recording
    if positions is None:
        raise ValueError("recording: expected a recording with positions (record='state' or 'all'), got none")
    positions = check.real_array("recording", positions)
    if positions.ndim != 3 or positions.shape[2] != 2 or len(positions) == 0:
        raise ValueError(f"recording: expected positions of shape (T, n, 2) with T >= 1, got shape {positions.shape}")
    count = positions.shape[1]
    radii = check.real_array("radius", radius)
    if radii.ndim > 1 or radii.size not in (1, count) or (radii <= 0).any():
        raise ValueError(f"radius: expected one radius > 0 or ({count},) of them, metres, got {radii!r}")
    radii = np.broadcast_to(radii, (count,))
    every = check.count("every", every, minimum=1)
    trail = check.count("trail", trail)
    interval = check.number("interval", interval, above=0.0)
    color = _colours("color", color, count)
    if ax is None:
        _, ax = plt.subplots()
    frames = range(0, len(positions), every)
    discs = EllipseCollection(2 * radii, 2 * radii, np.zeros(count), units="xy", offsets=positions[0],
                              offset_transform=ax.transData, facecolors=color, edgecolors="0.2", linewidths=0.5)
    ax.add_collection(discs)
    paths = ax.add_collection(LineCollection([], colors=color, linewidths=0.8, alpha=0.6))
    ticks = ax.add_collection(LineCollection([], colors="0.1", linewidths=1.0))
    clock = ax.text(1.0, 1.01, "", transform=ax.transAxes, ha="right", va="bottom")  # above the scene
    if moving is None and isinstance(recording, Recording) and recording.moving_positions is not None:
        moving = [recording.moving_shapes(step) for step in range(recording.steps)]
    if moving is not None and len(moving) != len(positions):
        raise ValueError(f"moving: expected the moving obstacles of each of the {len(positions)} steps, "
                         f"got {len(moving)}")
    bodies: list = []
    reach = positions.reshape(-1, 2)
    ax.update_datalim(np.concatenate([reach - radii.max(), reach + radii.max()]))  # whole discs in view
    ax.set_aspect("equal")
    ax.autoscale_view()
    _label_metres(ax)

    def show(step: int):
        discs.set_offsets(positions[step])
        if trail:
            behind = positions[max(0, step - trail * every):step + 1:every]
            paths.set_segments(np.swapaxes(behind, 0, 1) if len(behind) > 1 else [])
        if headings is not None:
            ahead = np.column_stack([np.cos(headings[step]), np.sin(headings[step])]) * radii[:, None]
            ticks.set_segments(np.stack([positions[step], positions[step] + ahead], axis=1))
        if time is not None:
            clock.set_text(f"t = {time[step]:.1f} s")
        if moving is not None:
            for artist in bodies:
                artist.remove()
            bodies[:] = plot_moving_obstacles(moving[step], ax)
        return discs, paths, ticks, clock

    return FuncAnimation(ax.figure, show, frames=frames, interval=interval, blit=False)


__all__ = ["animate", "plot_context_maps", "plot_field", "plot_moving_obstacles", "plot_obstacles", "plot_polygons",
           "plot_scenario", "plot_segments", "plot_trajectories", "scene_legend"]
