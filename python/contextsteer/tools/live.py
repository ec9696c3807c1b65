"""Live tuning: a scenario file run step by step, reloaded on every save.

:class:`LiveRun` is the whole of it, without a window: it steps the world and, once
``watchfiles`` reports a save of the file, reads it again before the next step. New
parameters of the agents, behaviours and pipelines are set on the running objects, so they
take effect at that step and the run goes on; a new behaviour list replaces the group's
pipeline (:meth:`World.set_steering <contextsteer.World.set_steering>`); new geometry or
agents restart the scene. A file that no longer reads keeps the run going, its error in
:attr:`LiveRun.error`. :class:`LiveView` draws a run into a matplotlib figure, and
:func:`show` animates it in a window: ``contextsteer live scene.toml``.

This module is long because the run, its view and the window's keys are one tool, and
each public method carries a numpydoc docstring with an example that runs.
"""

from __future__ import annotations

import dataclasses
import os
import textwrap
import threading
from pathlib import Path

import numpy as np

from ..model.agent_columns import SPAWNED
from ..model.goals import Goals
from ..model.pipeline import _SETTINGS
from ..recipes.crowd_steering import CrowdSteering
from ..scenes.file_format import read_text
from ..scenes.scenario_file import RunSettings, ScenarioFileError, loads
from ..scenes.steering_toml import describe_behavior

# The keys of the live window, listed in it.
KEYS_HELP = "space: pause / go on    right arrow or '.': one step while paused    r: restart    t: trails"
# matplotlib's backends that write files and open no window.
NON_INTERACTIVE = {"agg", "pdf", "ps", "svg", "pgf", "cairo", "template"}

# What the world's settings are when a file leaves them out.
_WORLD_DEFAULTS = {"goals": Goals(), "contact": None}


def _same_layout(a, b) -> bool:
    """Whether scenarios ``a`` and ``b`` have the same geometry, agents and moving bodies,
    whatever their names."""
    return a == dataclasses.replace(b, name=a.name)


def _new_crowd(old, new) -> bool:
    """Whether a crowd steering comes, goes or is built anew (another radius, slots or
    fields): it is made from the whole scene, so its world starts again."""
    if not isinstance(old, CrowdSteering) and not isinstance(new, CrowdSteering):
        return False
    return not (isinstance(old, CrowdSteering) and isinstance(new, CrowdSteering)
                and (old.radius, old.slots, old.max_fields) == (new.radius, new.slots, new.max_fields))


def _per_group(scenario) -> list:
    steering = scenario.steering
    return list(steering) if isinstance(steering, (list, tuple)) else [steering] * scenario.group_count


def _fixed(behavior, scenario, group: int) -> dict:
    """What of a behaviour cannot be set on it: its arguments that are not parameters."""
    table = describe_behavior(behavior, scenario, group)
    return {k: v for k, v in table.items() if k not in type(behavior)._parameters}


class LiveRun:
    """The world of the scenario file ``path``, stepped ``every`` steps at a time by
    :meth:`step`, and read again at the step after each save.

    A run that reaches the file's ``[run] steps`` starts again. Use it as a context manager
    (or call :meth:`close`) to stop the watcher.

    Attributes: ``world`` (the :class:`~contextsteer.World` running), ``scenario`` (the
    scenario as last read, its steering the pipelines running), ``error`` (the message of
    the last save that did not read, None once one does), ``restarts`` (how many times
    the scene started again) and ``reloads`` (saves applied).

    Parameters
    ----------
    path : str or os.PathLike
        A scenario file whose scenario has a pipeline (later saves that do not read are
        kept in :attr:`error`).
    every : int, default 1
        Steps per call of :meth:`step`.
    watch : bool, default True
        Follow the file with watchfiles (False: only :meth:`reload` reads it again).

    Raises
    ------
    ScenarioFileError, ValueError
        A file that does not read, or has no pipeline, at once.
    OSError
        A file that cannot be read.

    Examples
    --------
    >>> import os, tempfile
    >>> import contextsteer as cs
    >>> from contextsteer.live import LiveRun
    >>> path = os.path.join(tempfile.mkdtemp(), "corridor.toml")
    >>> cs.scenarios.builtin("corridor").save(path)
    >>> with LiveRun(path, every=5, watch=False) as live:
    ...     live.step()
    ...     print(live.world.steps_taken, live.reload())
    5 unchanged
    """

    def __init__(self, path: str | os.PathLike, *, every: int = 1, watch: bool = True):
        from .._internal import validation as check

        self.path = Path(path).resolve()
        self.every = check.count("every", every, minimum=1)
        self.text = read_text(self.path)
        self.scenario = self._read(self.text)
        self.world = self.scenario.world()
        self.error: str | None = None
        self.restarts = 0
        self.reloads = 0
        self._saved = threading.Event()
        self._ready = threading.Event()
        self._stop = threading.Event()
        self._thread = None
        if check.flag("watch", watch):
            self._thread = threading.Thread(target=self._watch, name="contextsteer-live-watch", daemon=True)
            self._thread.start()
            self._ready.wait(10.0)

    def _read(self, text: str):
        scenario = loads(text, self.path)
        if scenario.steering is None:
            raise ScenarioFileError(self.path, "pipeline", "missing: a live run needs a pipeline to steer its agents")
        return scenario

    def _watch(self) -> None:
        import watchfiles

        # Timeouts yield empty sets: the first says the watch is in place.
        for changes in watchfiles.watch(self.path.parent, stop_event=self._stop, debounce=50, step=20,
                                        rust_timeout=200, yield_on_timeout=True):
            self._ready.set()
            if any(Path(changed).resolve() == self.path for _, changed in changes):
                self._saved.set()

    @property
    def settings(self) -> RunSettings:
        """The file's run settings (the defaults when it has none)."""
        return self.scenario.run or RunSettings()

    def wait_for_save(self, timeout: float) -> bool:
        """Waits for the watcher to report a save.

        Parameters
        ----------
        timeout : float
            Seconds.

        Returns
        -------
        bool
            Whether a save was reported.

        Examples
        --------
        >>> import os, tempfile
        >>> import contextsteer as cs
        >>> from contextsteer.live import LiveRun
        >>> path = os.path.join(tempfile.mkdtemp(), "corridor.toml")
        >>> cs.scenarios.builtin("corridor").save(path)
        >>> with LiveRun(path) as live:
        ...     print(live.wait_for_save(0.01))
        False
        """
        return self._saved.wait(timeout)

    def poll(self) -> str | None:
        """Reads the file again if a save was reported since the last poll.

        Returns
        -------
        str or None
            What :meth:`reload` did, or None when there was no save.

        Examples
        --------
        >>> import os, tempfile
        >>> import contextsteer as cs
        >>> from contextsteer.live import LiveRun
        >>> path = os.path.join(tempfile.mkdtemp(), "corridor.toml")
        >>> cs.scenarios.builtin("corridor").save(path)
        >>> with LiveRun(path, watch=False) as live:
        ...     print(live.poll())
        None
        """
        if not self._saved.is_set():
            return None
        self._saved.clear()
        return self.reload()

    def reload(self) -> str:
        """Reads the file: ``"unchanged"``, ``"error"`` (kept in :attr:`error`, the run goes
        on as it was), ``"updated"`` (parameters set on the running objects, or a group's
        pipeline replaced) or ``"restarted"`` (new geometry or agents: a new world).

        Returns
        -------
        str
            One of those four.

        Examples
        --------
        >>> import os, tempfile
        >>> import contextsteer as cs
        >>> from contextsteer.live import LiveRun
        >>> path = os.path.join(tempfile.mkdtemp(), "corridor.toml")
        >>> cs.scenarios.builtin("corridor").save(path)
        >>> with LiveRun(path, watch=False) as live:
        ...     print(live.reload())
        unchanged
        """
        try:
            text = read_text(self.path)
            if text == self.text and self.error is None:
                return "unchanged"
            self.text = text
            new = self._read(text)
        except (OSError, ValueError, TypeError) as error:  # ScenarioFileError is a ValueError
            self.error = str(error)
            return "error"
        self.error = None
        self.reloads += 1
        if not _same_layout(new, self.scenario) or _new_crowd(self.scenario.steering, new.steering):
            self._restart(new)
            return "restarted"
        self._update(new)
        return "updated"

    def restart(self) -> None:
        """Starts the scene again from its starts, as last read (the key ``r`` of :func:`show`).

        Examples
        --------
        >>> import os, tempfile
        >>> import contextsteer as cs
        >>> from contextsteer.live import LiveRun
        >>> path = os.path.join(tempfile.mkdtemp(), "corridor.toml")
        >>> cs.scenarios.builtin("corridor").save(path)
        >>> with LiveRun(path, watch=False) as live:
        ...     live.step()
        ...     live.restart()
        ...     print(live.world.steps_taken, live.restarts)
        0 1
        """
        self._restart(self.scenario)

    def _restart(self, scenario) -> None:
        self.scenario = scenario
        self.world = scenario.world()
        self.restarts += 1

    def _update(self, new) -> None:
        if isinstance(new.steering, CrowdSteering):  # the same crowd steering (else restarted): keep it
            self._set_agents(new, {"goals": new.steering.goals, "contact": new.steering.contact})
            self.scenario = dataclasses.replace(new, steering=self.scenario.steering)
            return
        running: list = []
        for group, (old, fresh) in enumerate(zip(_per_group(self.scenario), _per_group(new))):
            if any(p is old for p in running):
                running.append(old)
                continue
            if self._same_structure(old, fresh, new, group):
                for name in _SETTINGS:
                    if getattr(old, name) != getattr(fresh, name):
                        setattr(old, name, getattr(fresh, name))
                for behavior, given in zip(old.behaviors, fresh.behaviors):
                    for name in type(behavior)._parameters:
                        if getattr(behavior, name) != getattr(given, name):
                            setattr(behavior, name, getattr(given, name))
                running.append(old)
            else:
                index = next(i for i, s in enumerate(self.world.steerings) if s is old)
                self.world.set_steering(fresh, index)
                running.append(fresh)
        self._set_agents(new, _WORLD_DEFAULTS)
        steering = running[0] if not isinstance(new.steering, (list, tuple)) else tuple(running)
        self.scenario = dataclasses.replace(new, steering=steering)

    def _set_agents(self, new, defaults: dict) -> None:
        """The world's settings (``defaults`` where the file holds none) and the agents'
        parameters of ``new`` set on the running world."""
        columns = {c.name: c for c in SPAWNED}
        for name, default in defaults.items():  # the world's settings a file may hold
            if name in self.scenario.agent_parameters or name in new.agent_parameters:
                setattr(self.world, name, new.agent_parameters.get(name, default))
        for name in {*self.scenario.agent_parameters, *new.agent_parameters} - _WORLD_DEFAULTS.keys():
            value = new.agent_parameters.get(name, columns[name].default)
            view = getattr(self.world, name)
            view[:] = np.broadcast_to(np.asarray(value, dtype=view.dtype), view.shape)

    def _same_structure(self, old, fresh, scenario, group: int) -> bool:
        return (old.slots == fresh.slots and len(old.behaviors) == len(fresh.behaviors)
                and all(type(a) is type(b) and _fixed(a, self.scenario, group) == _fixed(b, scenario, group)
                        for a, b in zip(old.behaviors, fresh.behaviors)))

    def step(self) -> None:
        """Reads the file if it was saved, then steps the world ``every`` steps (starting
        the scene again once it ran the file's steps).

        Examples
        --------
        >>> import os, tempfile
        >>> import contextsteer as cs
        >>> from contextsteer.live import LiveRun
        >>> path = os.path.join(tempfile.mkdtemp(), "corridor.toml")
        >>> cs.scenarios.builtin("corridor").save(path)
        >>> with LiveRun(path, every=3, watch=False) as live:
        ...     live.step()
        ...     print(live.world.steps_taken)
        3
        """
        self.poll()
        settings = self.settings
        if self.world.steps_taken >= settings.steps:
            self._restart(self.scenario)
        for _ in range(self.every):
            self.world.step(settings.dt, substeps=settings.substeps)

    def close(self) -> None:
        """Stops the watcher.

        Examples
        --------
        >>> import os, tempfile
        >>> import contextsteer as cs
        >>> from contextsteer.live import LiveRun
        >>> path = os.path.join(tempfile.mkdtemp(), "corridor.toml")
        >>> cs.scenarios.builtin("corridor").save(path)
        >>> live = LiveRun(path)
        >>> live.close()
        """
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)

    def __enter__(self) -> LiveRun:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class LiveView:
    """A matplotlib figure of a :class:`LiveRun`: the scene with its agents, their trails,
    and the reload error when the file did not read, beside the watched agent's context
    maps and chosen direction (drawn as in a video, :mod:`contextsteer.video`; their radial
    scale grows with the largest value shown). :meth:`update` draws the run as it stands.

    Parameters
    ----------
    live : LiveRun
        The run.
    fig : matplotlib.figure.Figure, optional
        The figure to draw in (a new one when None).
    trail : int, default 60
        How many frames of path to draw behind each agent (0: none); the key ``t`` of
        :func:`show` turns them off and on.
    watch : int, default 0
        The row of the agent whose maps are shown, drawn in red (the last row when a
        restarted scene has fewer agents).

    Raises
    ------
    ValueError
        A ``watch`` that is not a row of the run's world.

    Examples
    --------
    >>> import os, tempfile
    >>> import contextsteer as cs
    >>> from contextsteer.live import LiveRun, LiveView
    >>> path = os.path.join(tempfile.mkdtemp(), "corridor.toml")
    >>> cs.scenarios.builtin("corridor").save(path)
    >>> import matplotlib.pyplot as plt
    >>> with LiveRun(path, watch=False) as live:
    ...     view = LiveView(live)
    ...     live.step()
    ...     print(len(view.update()))    # discs, trails, error, 3 maps, arrow, legend
    8
    >>> plt.close("all")
    """

    def __init__(self, live: LiveRun, fig=None, *, trail: int = 60, watch: int = 0):
        import matplotlib.pyplot as plt

        from .._internal import validation as check

        self.trail = check.count("trail", trail)
        self.watch = check.count("watch", watch, maximum=len(live.world) - 1)
        self.trails_shown = self.trail > 0
        self.live = live
        self.fig = plt.figure(figsize=(13, 6)) if fig is None else fig
        self._shown: tuple | None = None
        self.update()

    def _draw_scene(self) -> None:
        from matplotlib.collections import EllipseCollection, LineCollection

        from ..analysis.plotting import plot_scenario
        from ..analysis.video import MapsPanel, frame_of

        self.fig.clear()
        scenario, world = self.live.scenario, self.live.world
        self.watched = min(self.watch, len(world) - 1)
        grid = self.fig.add_gridspec(1, 2, width_ratios=(9.0, 3.5))
        ax = self.ax = self.fig.add_subplot(grid[0, 0])
        plot_scenario(scenario, ax)
        self.bodies: list = []  # the moving obstacles' artists, drawn again by update()
        radii = 2 * np.asarray(world.radius, dtype=np.float64)
        colours = np.tile([[0.12, 0.47, 0.71, 1.0]], (len(world), 1))  # tab:blue, the watched one red
        colours[self.watched] = [0.84, 0.15, 0.16, 1.0]
        self.discs = EllipseCollection(radii, radii, np.zeros(len(world)), units="xy", offsets=world.positions,
                                       offset_transform=ax.transData, facecolors=colours, edgecolors="0.2",
                                       linewidths=0.4)
        ax.add_collection(self.discs)
        self.maps = MapsPanel(self.fig.add_subplot(grid[0, 1], projection="polar"),
                              frame_of(world, float(world.time), self.watched), watch=self.watched)
        self.history: list = []  # the last ``trail`` frames' positions
        self.paths = LineCollection([], colors=colours, linewidths=0.6, alpha=0.4)
        ax.add_collection(self.paths)
        x0, y0, x1, y1 = scenario.bounds
        ax.set_xlim(x0, x1)
        ax.set_ylim(y0, y1)
        ax.set_aspect("equal")
        ax.set_xlabel("x (m)")
        ax.set_ylabel("y (m)")
        self.fig.text(0.01, 0.01, KEYS_HELP, fontsize="small", color="0.3", va="bottom")
        self.message = ax.text(0.01, 0.01, "", transform=ax.transAxes, va="bottom", color="tab:red",
                               fontsize="small", bbox={"facecolor": "white", "alpha": 0.8})
        self._shown = (self.live.world, self.live.restarts)

    def update(self) -> list:
        """Draws the run as it stands.

        Returns
        -------
        list
            The artists changed.

        Examples
        --------
        >>> import os, tempfile
        >>> import contextsteer as cs
        >>> from contextsteer.live import LiveRun, LiveView
        >>> path = os.path.join(tempfile.mkdtemp(), "corridor.toml")
        >>> cs.scenarios.builtin("corridor").save(path)
        >>> import matplotlib.pyplot as plt
        >>> with LiveRun(path, watch=False) as live:
        ...     artists = LiveView(live).update()
        >>> len(artists)
        8
        >>> plt.close("all")
        """
        if self._shown != (self.live.world, self.live.restarts):
            self._draw_scene()
        from ..analysis.plotting import plot_moving_obstacles
        from ..analysis.video import frame_of

        world = self.live.world
        for artist in self.bodies:
            artist.remove()
        self.bodies = plot_moving_obstacles(world.moving_shapes(), self.ax) if world.moving_count else []
        self.discs.set_offsets(world.positions)
        if self.trail:
            self.history = [*self.history[-self.trail + 1:], world.positions.copy()]
        shown = self.trails_shown and len(self.history) > 1 and all(len(p) == len(world) for p in self.history)
        self.paths.set_segments(list(np.swapaxes(np.stack(self.history), 0, 1)) if shown else [])
        self.discs.set_widths(2 * np.asarray(world.radius, dtype=np.float64))
        self.discs.set_heights(2 * np.asarray(world.radius, dtype=np.float64))
        self.ax.set_title(f"{self.live.scenario.name}: t = {float(world.time):.2f} s ({self.live.path.name})")
        self.message.set_text(self._wrapped(self.live.error or ""))
        self.message.set_visible(self.live.error is not None)
        maps = self.maps.show(frame_of(world, float(world.time), self.watched))
        return [self.discs, self.paths, self.message, *maps, *self.bodies]

    def _wrapped(self, text: str) -> str:
        """``text`` broken into lines that fit the axis' width (at the message's font size)."""
        width_points = self.ax.get_position().width * self.fig.get_figwidth() * 72.0
        columns = max(20, int(width_points / (0.6 * self.message.get_fontproperties().get_size_in_points())) - 2)
        return "\n".join(textwrap.fill(line, columns) for line in text.splitlines())


def show(live: LiveRun, *, interval: float = 30.0):
    """Animates ``live`` in a matplotlib window until it is closed: a step of the run and
    a frame every ``interval`` milliseconds (at most).

    Parameters
    ----------
    live : LiveRun
        The run.
    interval : float, default 30
        Milliseconds between frames, at least.

    Returns
    -------
    matplotlib.animation.FuncAnimation
        The animation (closed with its window).

    Examples
    --------
    >>> import os, tempfile
    >>> import contextsteer as cs
    >>> from contextsteer.live import LiveRun, show
    >>> path = os.path.join(tempfile.mkdtemp(), "corridor.toml")
    >>> cs.scenarios.builtin("corridor").save(path)
    >>> with LiveRun(path) as live:  # doctest: +SKIP
    ...     show(live)  # a window, until it is closed
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    view = LiveView(live)
    state = {"paused": False, "steps": 0}  # steps: to take while paused

    def key(event):
        if event.key == " ":
            state["paused"] = not state["paused"]
        elif event.key in ("right", "."):
            state["steps"] += 1
        elif event.key == "r":
            live.restart()
        elif event.key == "t":
            view.trails_shown = not view.trails_shown

    def frame(_):
        if not state["paused"]:
            live.step()
        elif state["steps"]:
            state["steps"] -= 1
            live.step()
        else:
            live.poll()  # the file's saves are still taken while paused
        return view.update()

    view.fig.canvas.mpl_connect("key_press_event", key)

    animation = FuncAnimation(view.fig, frame, interval=interval, cache_frame_data=False, blit=False)
    plt.show()
    return animation


def has_display() -> bool:
    """Whether matplotlib can open a window here (an interactive backend; without a
    display it falls back to one that only writes files).

    Returns
    -------
    bool
        False for a backend that writes files alone (Agg, PDF, SVG, ...).

    Examples
    --------
    >>> import matplotlib
    >>> from contextsteer.live import has_display
    >>> matplotlib.use("Agg")
    >>> has_display()
    False
    """
    import matplotlib.pyplot as plt

    return plt.get_backend().lower() not in NON_INTERACTIVE


__all__ = ["LiveRun", "LiveView", "has_display", "show"]
