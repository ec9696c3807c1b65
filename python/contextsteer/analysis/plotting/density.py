"""Where a crowd was: the mean density of agents per square metre, cell by cell, under the scene."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..._internal import validation as check
from ...model.recording import Recording
from .scene import ax_is_empty, plot_scene, scene_legend
from .style import agent_indices, colormap_of, label_metres

# The most cells a density is drawn over (a cell too small for the area makes that many).
MAX_CELLS = 4_000_000
# An agent is on its way from the first frame it stands MOVED metres from its start (agents
# wait at their starts exactly still) until it first comes within ARRIVED metres of where it
# ended (there it stands, or is nudged about by the agents still arriving), in metres.
MOVED = 0.05
ARRIVED = 0.5


def underway_frames(trajectories: np.ndarray) -> np.ndarray:
    """``(T, n)`` bool: whether each agent is on its way at each frame, from when it began
    to move (:data:`MOVED` from its start) until it first came within :data:`ARRIVED` of
    where it ended; all False for an agent that never moved."""
    frames = np.arange(len(trajectories))[:, None]
    left = np.hypot(*(trajectories - trajectories[0]).transpose(2, 0, 1)) > MOVED
    near = np.hypot(*(trajectories - trajectories[-1]).transpose(2, 0, 1)) <= ARRIVED
    moved = left.any(axis=0)
    first = np.argmax(left, axis=0)
    last = np.argmax(near & (frames >= first), axis=0)  # the last frame holds: it ends within ARRIVED
    return moved & (frames >= first) & (frames < last)


def plot_density(trajectories, ax=None, *, cell: float = 0.5, underway: bool = True, agents=None, scene=None,
                 cmap="magma_r", vmax=None, colorbar: bool = True, legend: bool = True):
    """Draw where a crowd was as its mean density, in agents per square metre, over square
    cells, under the scene: for a crowd of hundreds, whose paths draw one another over.

    A cell's density is the time its agents spent in it (over the recorded frames, equally
    spaced) divided by the run's duration and by the cell's area; cells no agent entered
    are left blank. By default an agent counts only while on its way, from when it began
    to move (5 cm from its start) until it first came within 0.5 m of where it ended, so
    that the queues and lanes show rather than the agents standing at their starts and
    targets.

    Parameters
    ----------
    trajectories : array_like of shape (T, n, 2), or Recording
        Positions in metres, or a :class:`~contextsteer.Recording` with positions.
    ax : matplotlib.axes.Axes, optional
        The axis (a new figure's, its layout constrained, when None).
    cell : float, default 0.5
        The side of the square cells, metres (> 0).
    underway : bool, default True
        Count each agent only while on its way (see above); False counts every frame.
    agents : array_like of int, optional
        The indices of the agents counted (all when None).
    scene : Scenario, World, Recording or dict, optional
        The fixed scene drawn over the density (:func:`plot_scene`, without the targets):
        by default the recording's own when ``trajectories`` is a
        :class:`~contextsteer.Recording` of a world and ``ax`` shows no scene yet;
        ``False`` for none.
    cmap : str or matplotlib.colors.Colormap, default "magma_r"
        The colours, from no agent (light) to the densest cell (dark).
    vmax : float, optional
        The density (agents/m², > 0) at the end of the colour scale (the densest cell's
        when None), to compare runs on one scale.
    colorbar : bool, default True
        Draw a colour bar, labelled in agents/m², below the axis.
    legend : bool, default True
        Draw the legend of the scene's artists beside the axis.

    Returns
    -------
    matplotlib.collections.QuadMesh
        The cells; its array holds each cell's density (masked where no agent was).

    Raises
    ------
    ValueError, TypeError
        Arrays of the wrong shape, a recording without positions, a cell or vmax that is
        not a positive number, a colormap matplotlib does not know.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import contextsteer as cs
    >>> from contextsteer import plotting
    >>> fig, ax = plt.subplots()
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [0.0, 1.0]], targets=[[3.0, 0.0], [3.0, 1.0]])
    >>> mesh = plotting.plot_density(world.run(120), ax, cell=0.5)
    >>> round(float(mesh.get_array().sum()) * 0.5 * 0.5, 2)   # agents on their way, on average over the run
    1.44
    >>> plt.close(fig)
    """
    if scene is None and isinstance(trajectories, Recording) and trajectories.scene and ax_is_empty(ax):
        scene = trajectories
    if isinstance(trajectories, Recording):
        if trajectories.positions is None:
            raise ValueError("trajectories: expected a recording with positions (record='state' or 'all'), got none")
        trajectories = trajectories.positions
    traj = check.real_array("trajectories", trajectories)
    if traj.ndim != 3 or traj.shape[2] != 2 or len(traj) == 0:
        raise ValueError(f"trajectories: expected an array of shape (T, n, 2) with T >= 1, got shape {traj.shape}")
    cell = check.number("cell", cell, above=0.0)
    underway = check.flag("underway", underway)
    colorbar = check.flag("colorbar", colorbar)
    legend = check.flag("legend", legend)
    colours = colormap_of("cmap", cmap)
    top = None if vmax is None else check.number("vmax", vmax, above=0.0)
    if agents is not None:
        traj = traj[:, agent_indices(agents, traj.shape[1])]
    counted = underway_frames(traj) if underway else np.ones(traj.shape[:2], dtype=bool)
    points = traj[counted]
    flat = traj.reshape(-1, 2)
    low = np.floor(flat.min(axis=0) / cell) * cell if len(flat) else np.zeros(2)
    high = np.ceil(flat.max(axis=0) / cell) * cell if len(flat) else np.zeros(2)
    shape = np.round((high - low) / cell).astype(np.int64) + 1
    if shape.prod() > MAX_CELLS:
        raise ValueError(f"cell: {cell:g} m makes {shape[0]} x {shape[1]} cells over the {high[0] - low[0]:g} x "
                         f"{high[1] - low[1]:g} m the agents cover; expected a cell that makes at most "
                         f"{MAX_CELLS:.0e} cells")
    x_edges, y_edges = (low[k] + cell * np.arange(shape[k] + 1) for k in range(2))
    counts, _, _ = np.histogram2d(points[:, 0], points[:, 1], bins=[x_edges, y_edges])
    density = np.ma.masked_equal(counts.T / (len(traj) * cell * cell), 0.0)
    if ax is None:
        _, ax = plt.subplots(layout="constrained")
    mesh = ax.pcolormesh(x_edges, y_edges, density, cmap=colours, vmin=0.0, vmax=top, zorder=0.5)
    mesh.sticky_edges.x[:], mesh.sticky_edges.y[:] = [], []  # the axis keeps its margins round the walls
    if scene is not None and scene is not False:
        plot_scene(scene, ax, targets=False)
    ax.set_aspect("equal")
    label_metres(ax)
    if colorbar:
        ax.figure.colorbar(mesh, ax=ax, location="bottom", shrink=0.8, label="mean density (agents/m²)")
    if legend and any(artist.get_label() and not artist.get_label().startswith("_")
                      for artist in [*ax.lines, *ax.patches, *ax.collections]):
        scene_legend(ax, fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    return mesh
