"""An animation of a recorded run over its scene: the agents as discs, their trails, the
obstacles, targets and moving obstacles, and a legend."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import LineCollection

from ..._internal import validation as check
from ...model.recording import Recording
from .scene import ax_is_empty, plot_moving_obstacles, plot_scene, scene_legend
from .style import colours_of, label_metres


def animate(recording, ax=None, *, scene=None, radius=None, every: int = 1, interval: float = 40.0,
            color="tab:blue", trail: int = 0, moving=None, legend: bool = True):
    """A matplotlib ``FuncAnimation`` of agents moving over their scene, one frame per
    ``every``-th step.

    A :class:`~contextsteer.Recording` of :meth:`World.run` carries its world's obstacles,
    targets and agents' radii (:attr:`Recording.scene <contextsteer.Recording.scene>`), so
    ``animate(recording)`` draws them; ``scene`` draws another (a
    :class:`~contextsteer.Scenario` or a :class:`~contextsteer.World`). Draw more on ``ax``
    first (``plot_field``) to animate over it. In a notebook, ``IPython.display.HTML(anim.to_jshtml())``
    shows it; ``anim.save("run.gif", writer="pillow")`` writes a file. Keep a reference to
    the animation while it plays (matplotlib's rule).

    Parameters
    ----------
    recording : Recording or array_like of shape (T, n, 2)
        A :class:`~contextsteer.Recording` with positions (its time is shown, and its
        headings, when recorded, as a radius-long tick on each disc), or positions in
        metres.
    ax : matplotlib.axes.Axes, optional
        The axis (a new figure's, its layout constrained, when None).
    scene : Scenario, World, Recording or dict, optional
        The fixed scene to draw under the agents (:func:`plot_scene`); by default the
        recording's own, when it has one and ``ax`` shows no scene yet; ``False`` for none.
    radius : float or array_like, shape (n,), optional
        Metres: each agent is drawn as a disc of that radius (by default the recording's
        agents' radii, else 0.3).
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
    legend : bool, default True
        A legend of the scene (obstacles, walls, targets, moving obstacles) beside the axis.

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
    >>> animation = plotting.animate(world.run(60), ax, every=10)  # the target too, in the legend
    >>> type(animation).__name__
    'FuncAnimation'
    >>> "<img" in animation.to_jshtml()  # six frames, as a notebook shows them
    True
    >>> plt.close(fig)

    """
    from matplotlib.animation import FuncAnimation
    from matplotlib.collections import EllipseCollection

    recorded_scene = recording.scene if isinstance(recording, Recording) else None
    if radius is None:
        radius = 0.3 if recorded_scene is None else recorded_scene.agent_parameters.get("radius", 0.3)
    if scene is None:
        scene = recording if recorded_scene and ax_is_empty(ax) else False
    legend = check.flag("legend", legend)
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
    color = colours_of("color", color, count)
    if ax is None:
        _, ax = plt.subplots(layout="constrained")
    if scene is not False:
        plot_scene(scene, ax)
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
    label_metres(ax)
    if moving is not None and len(moving):
        bodies[:] = plot_moving_obstacles(moving[0], ax)
    if legend and ax.get_legend_handles_labels()[0]:
        scene_legend(ax, fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)

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

