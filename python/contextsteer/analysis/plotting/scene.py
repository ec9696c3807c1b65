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
    check.having("scenario", scenario, ("circles", "segments", "polygons", "targets"), "a contextsteer.Scenario")
    return plot_scene(scenario, ax)


# How targets look in every plot of a scene: one marker style, one legend entry.
TARGET_STYLE = {"marker": "x", "linestyle": "none", "color": "0.35", "markersize": 4, "markeredgewidth": 1.0}


def scene_geometry(scene) -> dict:
    """``circles``, ``segments``, ``polygons`` and ``targets`` (metres) of a
    :class:`~contextsteer.Scenario`, a :class:`~contextsteer.World`, a
    :class:`~contextsteer.Recording` (its :attr:`~contextsteer.Recording.scene`) or a dict
    of those keys; TypeError for anything else."""
    if hasattr(scene, "recorded") and hasattr(scene, "scene"):  # a Recording: its Scenario (None: no scene)
        scene = {} if scene.scene is None else scene.scene
    if isinstance(scene, dict):
        found = scene
    elif hasattr(scene, "circles") and hasattr(scene, "targets"):  # a Scenario or a World
        found = {"circles": scene.circles, "segments": scene.segments, "polygons": scene.polygons,
                 "targets": scene.targets}
    else:
        raise TypeError(f"scene: expected a Scenario, a World, a Recording or a dict of circles, segments, polygons "
                        f"and targets, got {type(scene).__name__}")
    return {"circles": np.asarray(found.get("circles", np.zeros((0, 3))), dtype=np.float64).reshape(-1, 3),
            "segments": np.asarray(found.get("segments", np.zeros((0, 4))), dtype=np.float64).reshape(-1, 4),
            "polygons": [np.asarray(p, dtype=np.float64) for p in found.get("polygons", [])],
            "targets": np.asarray(found.get("targets", np.zeros((0, 2))), dtype=np.float64).reshape(-1, 2)}


def ax_is_empty(ax) -> bool:
    """Whether ``ax`` (None: a new one) has nothing drawn on it yet: a recording's scene is
    then drawn by default, and not over the scene a caller drew."""
    return ax is None or not (ax.lines or ax.patches or ax.collections or ax.images)


def plot_scene(scene, ax=None, *, targets: bool = True) -> list:
    """Draw a scene's fixed obstacles (circles, walls, polygons) and its agents' targets
    (grey crosses named "targets" once in a legend), from a :class:`~contextsteer.Scenario`,
    a :class:`~contextsteer.World` or a :class:`~contextsteer.Recording` (the scene its
    run recorded, :attr:`Recording.scene <contextsteer.Recording.scene>`).

    Parameters
    ----------
    scene : Scenario, World, Recording or dict
        The scene (a dict of ``circles``, ``segments``, ``polygons``, ``targets``).
    ax : matplotlib.axes.Axes, optional
        The axis (a new figure's when None).
    targets : bool, default True
        Whether the targets are drawn.

    Returns
    -------
    list
        The artists drawn.

    Raises
    ------
    TypeError
        For a scene of none of those kinds.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import contextsteer as cs
    >>> from contextsteer import plotting
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]], targets=[[3.0, 0.0]], circles=[[1.5, 1.0, 0.5]])
    >>> fig, ax = plt.subplots()
    >>> [a.get_label() for a in plotting.plot_scene(world.run(10), ax)]   # no walls: unnamed
    ['obstacles', '_walls', 'targets']
    >>> plt.close(fig)
    """
    geometry = scene_geometry(scene)
    targets = check.flag("targets", targets)
    if ax is None:
        _, ax = plt.subplots(layout="constrained")
    named = {artist.get_label() for artist in [*ax.get_lines(), *ax.patches, *ax.collections]}
    artists = plot_obstacles(geometry["circles"], ax) + [plot_segments(geometry["segments"], ax)]
    artists += plot_polygons(geometry["polygons"], ax) if geometry["polygons"] else []
    if targets and len(geometry["targets"]):
        artists += ax.plot(*geometry["targets"].T, **TARGET_STYLE,
                           label="targets" if "targets" not in named else "_targets")
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

