"""The scene: circles, polygons and walls, a whole scenario, moving obstacles and the
legend of a scene figure."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.patches import Circle, Patch

from ..._internal import validation as check


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
    check.having("scenario", scenario, ("obstacles", "segments", "polygons", "targets"), "a contextsteer.Scenario")
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

