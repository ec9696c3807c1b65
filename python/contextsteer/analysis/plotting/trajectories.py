"""Trajectories of a run or of position arrays, coloured by agent or group."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..._internal import validation as check
from ...model.recording import Recording
from .scene import TARGET_STYLE, ax_is_empty, plot_scene, scene_legend
from .style import agent_indices, label_metres

# The colours of matplotlib's cycle ("C0" to "C9"), one per group.
COLOURS = 10


def plot_trajectories(trajectories, ax=None, *, mark_ends: bool = True, targets=None, groups=None,
                      group_names=None, agents=None, legend: bool = True, scene=None, **kwargs) -> list:
    """Draw positions over time as one line per agent, over the scene.

    Lines are thinner and fainter the more agents there are (1 point for 20 and fewer),
    so that a crowd reads as where it went. Other keywords go to ``ax.plot``; a ``label``
    names the group once in a legend (on its first line), and the markers are named
    "start", "end" and "targets" once per axes, so that the legend after several calls
    lists each group and each marker once; the legend stands beside the axis, off the
    room. The axes are labelled in metres unless they have labels.

    Parameters
    ----------
    trajectories : array_like of shape (T, n, 2), or Recording
        Positions in metres, or a :class:`~contextsteer.Recording` with positions.
    ax : matplotlib.axes.Axes, optional
        The axis (a new figure's, its layout constrained, when None).
    mark_ends : bool, default True
        Whether the starts and ends are marked.
    targets : array_like, shape (n, 2), optional
        Each agent's target, drawn as a cross named "targets" (by default those of
        ``scene``).
    groups : array_like of int, shape (n,), optional
        The agents of each group share a colour (of matplotlib's cycle) and a legend
        entry; for crowds, where a colour per agent says nothing. Of more than 10 groups
        without ``group_names``, the colours repeat and one entry counts the groups.
    group_names : sequence of str, optional
        One per group ("group g" by default).
    agents : array_like of int, optional
        The indices of the agents to draw (all when None), for a subset of a crowd.
    legend : bool, default True
        Draw the axis' legend (of every named artist on it) afterwards, beside the axis.
    scene : Scenario, World, Recording or dict, optional
        The fixed scene drawn under the paths (:func:`plot_scene`): its obstacles, walls and
        targets; by default the recording's own when ``trajectories`` is a
        :class:`~contextsteer.Recording` of a world and ``ax`` shows no scene yet;
        ``False`` for none.
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
    if scene is None and isinstance(trajectories, Recording) and trajectories.scene and ax_is_empty(ax):
        scene = trajectories
        if groups is None and len(trajectories.scene.groups) and trajectories.scene.groups.max() > 0:
            groups = trajectories.scene.groups
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
    chosen = np.arange(n) if agents is None else agent_indices(agents, n)
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
        _, ax = plt.subplots(layout="constrained")
    if scene is not None and scene is not False:
        plot_scene(scene, ax, targets=goals is None)
    traj, shown = traj[:, chosen], len(chosen)
    crowd = shown > 20
    style = {"linewidth": max(0.5, 20.0 / shown) if crowd else 1.0, "alpha": max(0.35, 20.0 / shown) if crowd else 0.8
             } | kwargs
    label = style.pop("label", None)
    named = {artist.get_label() for artist in [*ax.get_lines(), *ax.patches, *ax.collections]}
    if group_of is None:
        artists = list(ax.plot(traj[:, :, 0], traj[:, :, 1], **style))
        if label is not None and artists:
            artists[0].set_label(label)  # the others keep labels starting with "_": out of legends
    else:
        artists = []
        shown_groups = np.unique(group_of[chosen])
        # More groups than the colour cycle has colours: their colours repeat, and a legend
        # entry each would not fit; one entry counts them, unless they are named.
        many = group_names is None and len(shown_groups) > COLOURS
        for g in shown_groups:
            members = group_of[chosen] == g
            name = f"group {g}" if group_names is None else str(group_names[g])
            lines = ax.plot(traj[:, members, 0], traj[:, members, 1], **({"color": f"C{g % COLOURS}"} | style))
            if many:
                name = f"paths of {len(shown_groups)} groups" if g == shown_groups[0] else "_paths"
            lines[0].set_label(name if name not in named else f"_{name}")
            artists += lines
    # One style per meaning: hollow circles at the starts, filled squares at the ends,
    # smaller and fainter for a crowd so that its paths stay visible.
    size, fade = (2.0, 0.5) if crowd else (3.5, 1.0)
    if mark_ends and len(traj):
        for row, marker, fill, name in ((0, "o", "none", "start"), (-1, "s", "0.2", "end")):
            artists += ax.plot(traj[row, :, 0], traj[row, :, 1], marker, color="0.2", markerfacecolor=fill,
                               markersize=size, markeredgewidth=0.6, alpha=fade, linestyle="none",
                               label=name if name not in named else "_" + name)
    named = {artist.get_label() for artist in [*ax.get_lines(), *ax.patches, *ax.collections]}
    if goals is not None:
        artists += ax.plot(goals[chosen, 0], goals[chosen, 1], **TARGET_STYLE,
                           label="targets" if "targets" not in named else "_targets")
    ax.set_aspect("equal")
    label_metres(ax)
    if legend:
        scene_legend(ax, fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    return artists

