"""Navigation fields: the distance to the goal as colours, the way down it as arrows."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import Colormap

from ..._internal import validation as check
from ...model.navigation import NavigationField
from .style import colormap_of, label_metres


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
    if not isinstance(field, NavigationField):
        raise TypeError(f"field: expected a contextsteer.NavigationField, got {type(field).__name__}")
    arrows = check.count("arrows", arrows)
    colormap = colormap_of("cmap", cmap)
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
    label_metres(ax)
    if colorbar:
        ax.figure.colorbar(artists[0], ax=ax, shrink=0.8, label="distance to the goal (m)")
    return artists

