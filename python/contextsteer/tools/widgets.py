"""Notebook controls: sliders for every parameter of a world's behaviours and pipelines,
play, pause and step buttons, the scene drawn in place and the explain plot of an agent.

The controls are made from the parameters the behaviours declare (their C++ structs:
units, docs, accepted ranges) and the pipelines' settings; a value set takes effect at
the world's next step, as setting the attribute does. ipywidgets and matplotlib are
imported when :func:`tune` is called.
"""

from __future__ import annotations

import io
import math
from typing import Any

import numpy as np

from .._internal import validation as check
from .._internal.fields import unit_words
from ..model.behaviors import Behavior
from ..model.pipeline import Pipeline
from ..model.world import World

# The pipeline's live settings (Pipeline's docstring) as the behaviours declare theirs:
# kind, default range of the slider (the setting accepts more), unit, doc.
_PIPELINE_SETTINGS: dict[str, dict[str, Any]] = {
    "interest_rule": {"kind": "name", "choices": ["max", "sum", "mean", "min"], "doc": "how interest maps combine"},
    "danger_rule": {"kind": "name", "choices": ["max", "sum", "mean", "min"], "doc": "how danger maps combine"},
    "danger_mode": {"kind": "name", "choices": ["subtract", "threshold", "min_mask", "multiply"],
                    "doc": "how danger masks interest"},
    "select": {"kind": "name", "choices": ["argmax", "blend", "average", "parabolic", "gradient"],
               "doc": "how the direction is chosen from the final map"},
    "threshold": {"kind": "number", "range": (0.0, 2.0), "unit": "", "doc": "danger that masks a slot"},
    "margin": {"kind": "number", "range": (0.0, 1.0), "unit": "", "doc": "danger margin over the least"},
    "blur_interest": {"kind": "number", "range": (0.0, 4.0), "unit": "slots", "doc": "Gaussian blur of interest"},
    "blur_danger": {"kind": "number", "range": (0.0, 4.0), "unit": "slots", "doc": "Gaussian blur of danger"},
    "smooth": {"kind": "number", "range": (0.0, 1.0), "unit": "", "doc": "share of the previous step's maps kept"},
    "hysteresis": {"kind": "number", "range": (0.0, 1.0), "unit": "", "doc": "pull toward the current velocity"},
    "turn_back": {"kind": "number", "range": (0.0, 1.0), "unit": "", "doc": "least strength that turns an agent back"},
    "turn_back_wait": {"kind": "number", "range": (0.0, 30.0), "unit": "s",
                       "doc": "seconds without progress after which an agent turns back freely"},
    "offset": {"kind": "number", "range": (-math.pi, math.pi), "unit": "rad", "doc": "angle of slot 0"},
}


def _slider_range(spec: dict, default: float) -> tuple[float, float]:
    """A slider's (low, high) from a declared field's bounds, around its default where a
    side is unbounded (four times the default, at least 1; from 0 below a default >= 0)."""
    bounds = spec.get("bounds", {})
    span = max(4.0 * abs(default), 1.0) if math.isfinite(default) else 10.0
    low = bounds.get("minimum", bounds.get("above", 0.0 if default >= 0 else -span))
    high = bounds.get("maximum", bounds.get("below", span))
    step = (high - low) / 200.0
    return (low + step if "above" in bounds else low), (high - step if "below" in bounds else high)


def _control(spec: dict, value, on_change):
    """The widget for one parameter ``spec`` now at ``value``; ``on_change(value)`` when set."""
    import ipywidgets as w  # type: ignore[import-untyped]

    unit = spec.get("unit", "")
    description = spec["name"] + (f" ({unit})" if unit else "")
    common = {"description": description, "tooltip": spec.get("doc", ""),
              "style": {"description_width": "initial"}, "continuous_update": False}
    kind = spec["kind"]
    if kind == "flag":
        common.pop("continuous_update")
        widget = w.Checkbox(value=bool(value), **common)
    elif kind == "name" and spec.get("choices"):
        common.pop("continuous_update")
        widget = w.Dropdown(options=list(spec["choices"]), value=value, **common)
    elif kind == "name":
        widget = w.Text(value=str(value), **common)
    elif kind in ("count", "seed"):
        widget = w.IntText(value=int(value), **common)
    elif not math.isfinite(float(value)):   # an unbounded distance: typed, "inf" allowed
        widget = w.Text(value=str(value), **common)
    else:
        low, high = spec["range"] if "range" in spec else _slider_range(spec, float(value))
        low, high = min(low, float(value)), max(high, float(value))
        widget = w.FloatSlider(value=float(value), min=low, max=high, step=(high - low) / 200.0, readout_format=".3g",
                               **common)
    widget.observe(lambda change: on_change(change["new"]), names="value")
    return widget


def _labels(items, name) -> list[str]:
    """A label per item (its ``name(item)``), numbered when two share one."""
    names = [name(item) for item in items]
    return [n if names.count(n) == 1 else f"{n} #{names[:k + 1].count(n)}" for k, n in enumerate(names)]


class Tuner:
    """The controls :func:`tune` shows, and the world they steer.

    Its attributes: ``world`` (the :class:`~contextsteer.World`); ``controls``
    (``{key: widget}``, one per parameter: ``"Behaviour.parameter"`` for a behaviour,
    ``"Avoid #2.max_distance"`` when a class appears twice, ``"pipeline.setting"`` for the
    pipeline's settings; with several pipelines, each key starts with ``"pipeline k: "``);
    ``play`` (an ``ipywidgets.Play``: each of its ticks advances a frame), ``step_button``,
    ``reset_button``, ``agent`` (the row of the agent explained; a click on the scene picks
    the agent nearest: ``clicks``, an ``ipyevents.Event``, brings the image's clicks back
    from the browser), ``figure`` (the scene and the explanation), ``image`` (the figure
    as PNG, redrawn in place), ``status`` (time, arrivals, the last value refused) and
    ``widget`` (all of it, shown in a notebook).

    Parameters
    ----------
    world : World
        The world steered.
    dt : float
        Seconds a step.
    steps_per_frame : int
        Steps each frame takes.
    agent : int
        The row of the agent explained first.
    interval : float
        Milliseconds between the ticks of play.
    within : float
        Metres from its target that count as arrived, in the status line.

    Examples
    --------
    >>> import contextsteer as cs
    >>> tuner = cs.widgets.tune("corridor", steps_per_frame=2)
    >>> type(tuner).__name__, sorted(tuner.controls)[:2]
    ('Tuner', ['Avoid.agents', 'Avoid.falloff'])
    """

    def __init__(self, world: World, *, dt: float, steps_per_frame: int, agent: int, interval: float,
                 within: float):
        import ipyevents  # type: ignore[import-untyped]
        import ipywidgets as w  # type: ignore[import-untyped]
        from matplotlib.figure import Figure

        self.world, self.dt, self.steps_per_frame, self.within = world, dt, steps_per_frame, within
        self.controls: dict[str, Any] = {}
        sections, titles = [], []
        pipelines = [s for s in world.steerings if isinstance(s, Pipeline)]
        for k, pipeline in enumerate(pipelines):
            prefix = f"pipeline {k}: " if len(pipelines) > 1 else ""
            for label, behavior in zip(_labels(pipeline.behaviors, lambda b: type(b).__name__), pipeline.behaviors):
                sections.append(w.VBox(self._behavior_controls(prefix + label, behavior)))
                titles.append(prefix + label)
            sections.append(w.VBox([self._add(f"{prefix}pipeline.{name}", {"name": name, **spec}, pipeline, name)
                                    for name, spec in _PIPELINE_SETTINGS.items()]))
            titles.append(prefix + "pipeline")
        self.parameters = w.Accordion(children=sections, titles=tuple(titles))
        self.play = w.Play(value=0, min=0, max=2**31 - 1, step=1, interval=interval, description="play")
        self.play.observe(lambda change: self.advance(), names="value")
        self.step_button = w.Button(description="step", tooltip=f"{steps_per_frame} step(s) of {dt:g} s")
        self.step_button.on_click(lambda _: self.advance())
        self.reset_button = w.Button(description="reset", tooltip="agents back to where they were added")
        self.reset_button.on_click(lambda _: self.reset())
        self.agent = w.BoundedIntText(value=agent, min=0, max=max(world.agent_count - 1, 0), description="agent",
                                      style={"description_width": "initial"})
        self.agent.observe(lambda change: self.redraw(), names="value")
        self.status = w.HTML()
        # 72 dpi, as the PNG is rendered: its pixels are the figure's display units.
        self.figure = Figure(figsize=(11.0, 4.8), dpi=72, layout="constrained")
        grid = self.figure.add_gridspec(1, 2, width_ratios=(1.0, 1.15))
        self._scene = self.figure.add_subplot(grid[0, 0])
        self._explain_slot = grid[0, 1]
        self._explained = self.figure.add_subplot(self._explain_slot, projection="polar")
        self.figure.canvas.mpl_connect("button_press_event", self._on_click)
        self.image = w.Image(format="png")
        # Clicks on the image in the browser come back through ipyevents, in its pixels.
        self.clicks = ipyevents.Event(source=self.image, watched_events=["click"])
        self.clicks.on_dom_event(self._on_image_click)
        self._draw_scene()
        self.redraw()
        buttons = w.HBox([self.play, self.step_button, self.reset_button, self.agent])
        self.widget = w.VBox([w.HBox([w.VBox([buttons, self.image, self.status]), self.parameters])])

    def _behavior_controls(self, label: str, behavior: Behavior) -> list:
        return [self._add(f"{label}.{name}", {**spec, "unit": unit_words(spec) if spec["unit"] else ""}, behavior, name)
                for name, spec in behavior._parameters.items()]

    def _add(self, key: str, spec: dict, owner, name: str):
        def set_value(value):
            try:
                setattr(owner, name, float(value) if spec["kind"] == "number" and isinstance(value, str) else value)
            except (ValueError, TypeError) as exc:
                self.status.value = f"<span style='color:#b00'>{key}: {exc}</span>"
                return
            self.redraw()

        widget = _control(spec, getattr(owner, name), set_value)
        self.controls[key] = widget
        return widget

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    # --- running ------------------------------------------------------------------
    def advance(self) -> None:
        """One frame: ``steps_per_frame`` steps of the world, then the figure redrawn.

        Examples
        --------
        >>> import contextsteer as cs
        >>> tuner = cs.widgets.tune("corridor", steps_per_frame=2)
        >>> tuner.advance()
        >>> tuner.world.steps_taken
        2
        """
        for _ in range(self.steps_per_frame):
            self.world.step(self.dt)
        self.redraw()

    def reset(self) -> None:
        """The world back to its start (:meth:`World.reset <contextsteer.World.reset>`), redrawn.

        Examples
        --------
        >>> import contextsteer as cs
        >>> tuner = cs.widgets.tune("corridor")
        >>> tuner.advance()
        >>> tuner.reset()
        >>> tuner.world.steps_taken
        0
        """
        self.world.reset()
        self.redraw()

    def _on_click(self, event) -> None:
        """A click on the scene (a matplotlib event) explains the agent nearest to it."""
        if event.inaxes is self._scene and event.xdata is not None:
            self._pick(event.xdata, event.ydata)

    def _on_image_click(self, event: dict) -> None:
        """A click on the image (an ipyevents event: ``dataX``, ``dataY`` in the image's
        pixels from its top left) explains the agent nearest to it."""
        if "dataX" not in event or "dataY" not in event:
            return
        point = (float(event["dataX"]), self.figure.bbox.height - float(event["dataY"]))
        if self._scene.bbox.contains(*point):
            self._pick(*self._scene.transData.inverted().transform(point))

    def _pick(self, x: float, y: float) -> None:
        if self.world.agent_count:
            self.agent.value = int(np.argmin(np.hypot(*(self.world.positions - [x, y]).T)))

    # --- drawing ------------------------------------------------------------------
    def _draw_scene(self) -> None:
        from matplotlib.collections import EllipseCollection

        from ..analysis.plotting import plot_obstacles, plot_polygons, plot_segments

        world, ax = self.world, self._scene
        plot_obstacles(world.circles, ax)
        plot_segments(world.segments, ax)
        if world.polygons:
            plot_polygons(world.polygons, ax)
        ax.plot(*world.targets.T, "x", color="0.4", markersize=4, label="goal")
        diameters = 2 * world.radius
        self._discs = EllipseCollection(diameters, diameters, np.zeros(len(diameters)), units="xy",
                                        offsets=world.positions, offset_transform=ax.transData,
                                        facecolors="tab:blue", edgecolors="0.2", linewidths=0.5)
        ax.add_collection(self._discs)
        ax.plot([], [], "o", color="tab:blue", markeredgecolor="0.2", label="agents")   # the discs' legend entry
        (self._shown,) = ax.plot([], [], "o", markerfacecolor="none", markeredgecolor="tab:red", markersize=14,
                                 markeredgewidth=2, label="agent explained")
        reach = np.concatenate([world.positions, world.targets, world.circles[:, :2], world.segments.reshape(-1, 2)])
        ax.update_datalim(np.concatenate([reach - 1.0, reach + 1.0]))
        ax.set_aspect("equal")
        ax.autoscale_view()
        ax.set_xlabel("x (m)")
        ax.set_ylabel("y (m)")
        ax.legend(loc="upper left", bbox_to_anchor=(0.0, -0.12), ncol=4, fontsize="small")

    def redraw(self) -> None:
        """The scene and the explanation as the world stands, rendered into :attr:`image`.

        Examples
        --------
        >>> import contextsteer as cs
        >>> tuner = cs.widgets.tune("corridor")
        >>> tuner.agent.value = 3  # redraws with agent 3 explained
        >>> tuner.redraw()
        >>> bytes(tuner.image.value[:4])  # a PNG
        b'\\x89PNG'
        """
        from ..model.explain import ClassicExplanation

        world, row = self.world, min(self.agent.value, self.world.agent_count - 1)
        self._discs.set_offsets(world.positions)
        self._scene.set_title(f"t = {world.time:.1f} s, step {world.steps_taken}", fontsize="medium")
        arrived = np.linalg.norm(world.positions - world.targets, axis=1) <= self.within
        if row >= 0:
            self._shown.set_data([world.positions[row, 0]], [world.positions[row, 1]])
            explanation = world.explain(int(world.ids[row]), dt=self.dt)
            polar = not isinstance(explanation, ClassicExplanation)
            if (getattr(self._explained, "name", "") == "polar") != polar:
                self._explained.remove()
                self._explained = self.figure.add_subplot(self._explain_slot, projection="polar" if polar else None)
            self._explained.clear()
            explanation.plot(ax=self._explained)
        self.status.value = (f"{int(arrived.sum())} of {world.agent_count} agents within {self.within:g} m "
                             f"of their targets")
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="png", dpi="figure")
        self.image.value = buffer.getvalue()
        # Laid out once: the layout of the first drawing holds, and each frame draws faster.
        self.figure.set_layout_engine("none")


def tune(world_or_scenario, steering=None, *, dt: float = 0.05, steps_per_frame: int = 2, agent: int = 0,
         interval: float = 250.0, within: float = 1.0, **agent_parameters) -> Tuner:
    """Notebook controls for a world: a slider (or a box) for every parameter of every
    behaviour and of each pipeline, play, pause and step buttons, the scene drawn in
    place and the explain plot of an agent, clicked or chosen, all updated as it runs.

    Parameters
    ----------
    world_or_scenario : World, Scenario or str
        A :class:`~contextsteer.World`; or a :class:`~contextsteer.scenarios.Scenario`
        (a world of it is built with ``steering`` and ``agent_parameters``); or the name
        of a demo scene (:func:`contextsteer.demo.scene_setup`: its scene, pipeline and
        agent parameters).
    steering : Pipeline or sequence of Pipeline, optional
        For a Scenario: its steering (one per group); by default the demo's pipeline for
        a scene of the scenario's name, and the demo's agent parameters under the ones given.
    dt : float, default 0.05
        Seconds a step.
    steps_per_frame : int, default 2
        Steps each tick of play (or each press of step) takes.
    agent : int, default 0
        The row of the agent explained first.
    interval : float, default 250
        Milliseconds between the ticks of play.
    within : float, default 1
        Metres from its target that count as arrived, in the status line.
    **agent_parameters
        For a Scenario or a scene's name: the agents' parameters (``radius``,
        ``max_speed``...), over the demo's.

    Returns
    -------
    Tuner
        Shown by a notebook as its widget; its controls can be set from code, as a user does.

    Raises
    ------
    TypeError
        If ``world_or_scenario`` is none of those, or ``steering`` is missing for a
        scenario the demo does not know.
    ValueError
        Bad ``dt``, ``steps_per_frame``, ``agent``, ``interval`` or ``within``.

    Examples
    --------
    >>> import contextsteer as cs
    >>> tuner = cs.widgets.tune("corridor", dt=0.05, steps_per_frame=4)
    >>> tuner.controls["Avoid.max_distance"].value = 2.0  # as a user moves the slider
    >>> tuner.world.steerings[0].behaviors[1].max_distance
    2.0
    >>> tuner.advance()
    >>> round(tuner.world.time, 2)
    0.2
    """
    from ..scenes.scenarios import Scenario

    world = world_or_scenario
    if isinstance(world, (str, Scenario)):
        from . import demo

        name = world if isinstance(world, str) else world.name
        if steering is None and (isinstance(world, str) or name in demo.SCENES):
            geometry, steering, recommended = demo.scene_setup(name, None if isinstance(world, str) else
                                                               len(world.starts))
            agent_parameters = recommended | agent_parameters
            world = geometry if isinstance(world, str) else world
        if steering is None:
            raise TypeError(f"steering: expected the steering of scenario {name!r} (the demo has none for it), "
                            "got None")
        world = world.world(steering, **agent_parameters)
    elif not isinstance(world, World):
        raise TypeError(f"world_or_scenario: expected a World, a Scenario or a demo scene's name, "
                        f"got {type(world).__name__}")
    elif steering is not None or agent_parameters:
        raise TypeError("steering, agent parameters: a World has its own; expected none with a World")
    dt, _ = check.time_step(dt, 1)
    steps_per_frame = check.count("steps_per_frame", steps_per_frame, minimum=1)
    agent = check.count("agent", agent, maximum=max(world.agent_count - 1, 0))
    interval = check.number("interval", interval, above=0.0)
    within = check.number("within", within, above=0.0)
    return Tuner(world, dt=dt, steps_per_frame=steps_per_frame, agent=agent, interval=interval, within=within)


__all__ = ["Tuner", "tune"]
