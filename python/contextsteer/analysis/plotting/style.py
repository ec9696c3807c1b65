"""What the plots share: their colour arguments checked, the agents chosen, the axes labelled in metres."""

from __future__ import annotations

import matplotlib
import numpy as np
from matplotlib.colors import Colormap, to_rgba_array

from ..._internal import validation as check


def colours_of(name: str, value, count: int) -> np.ndarray:
    """``(1, 4)`` or ``(count, 4)`` RGBA from one matplotlib colour or ``count`` of them."""
    try:
        rgba = to_rgba_array(value)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{name}: expected a matplotlib colour or {count} of them, got {value!r} ({exc})") from None
    if len(rgba) not in (1, count):
        raise ValueError(f"{name}: expected one colour or {count}, got {len(rgba)}")
    return rgba


def colormap_of(name: str, value) -> Colormap:
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



def label_metres(ax) -> None:
    """Axis labels in metres, unless the axis has its own."""
    if not ax.get_xlabel():
        ax.set_xlabel("x (m)")
    if not ax.get_ylabel():
        ax.set_ylabel("y (m)")



def agent_indices(agents, n: int) -> np.ndarray:
    indices = check.real_array("agents", agents).reshape(-1)
    if (indices != np.round(indices)).any() or (indices < 0).any() or (indices >= n).any():
        raise IndexError(f"agents: expected indices of agents below {n}, got {agents!r}")
    return indices.astype(int)

