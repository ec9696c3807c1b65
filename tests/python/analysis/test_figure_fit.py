"""Every public plot, drawn on figures of 5 x 5 and 12 x 8 inches with their layout
constrained (as the plots make their own), keeps its texts, legends and axes inside the
figure: nothing clipped when it is saved."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import contextsteer as cs  # noqa: E402
from contextsteer import plotting  # noqa: E402

SIZES = [(5.0, 5.0), (12.0, 8.0)]


def _world():
    return cs.World(cs.Pipeline([cs.Seek(), cs.Avoid(agents=True)]), [[0.0, 0.0], [0.0, 1.0], [0.0, -1.0]],
                    targets=[[6.0, 0.0], [6.0, 1.0], [6.0, -1.0]], circles=[[3.0, 0.1, 0.7]],
                    segments=[[-1.0, -2.5, 7.0, -2.5]], groups=[0, 1, 1])


def _crowd(ax):
    scene = cs.scenarios.builtin("two_way_door")
    run = scene.world().run(40, 0.05)
    plotting.plot_trajectories(run, ax)


def _explanation(fig):
    world = _world()
    world.run(10, 0.05)
    world.explain(1).plot(fig.add_subplot(projection="polar"), behaviors=True)


def _classic(fig):
    world = cs.World(cs.classic.Steering([cs.classic.Seek(), cs.classic.Separation()]), [[0.0, 0.0], [0.5, 0.0]],
                     targets=[[5.0, 0.0], [5.0, 1.0]])
    world.explain(0).plot(fig.add_subplot())


def _maps(fig):
    interest = (cs.slot_directions(16) @ [1.0, 0.0]).clip(0.0)
    plotting.plot_context_maps({"interest": interest, "danger": interest[::-1] * 0.5, "final": interest * 0.8},
                               fig.add_subplot(projection="polar"), direction=[1.0, 0.0], strength=4.7e-5,
                               masked=np.arange(16) % 5 == 0)


def _on_axes(draw):
    return lambda fig: draw(fig.add_subplot())


PLOTS = {
    "obstacles": _on_axes(lambda ax: plotting.plot_obstacles([[0.0, 0.0, 1.0], [3.0, 1.0, 0.5]], ax)),
    "polygons": _on_axes(lambda ax: plotting.plot_polygons([[[0, 0], [2, 0], [1, 1.5]]], ax)),
    "segments": _on_axes(lambda ax: plotting.plot_segments([[0, 0, 4, 0], [0, 2, 4, 2]], ax)),
    "moving_obstacles": _on_axes(lambda ax: plotting.plot_moving_obstacles([[[1.0, 0.0, 0.5]]], ax)),
    "scenario": _on_axes(lambda ax: plotting.plot_scenario(cs.scenarios.builtin("bottleneck"), ax)),
    "scene": _on_axes(lambda ax: plotting.plot_scene(_world(), ax)),
    "field": _on_axes(lambda ax: plotting.plot_field(cs.NavigationField([[9.0, 2.0]], bounds=(0, 0, 10, 4),
                                                                        cell=0.5), ax, arrows=10)),
    "trajectories": _on_axes(lambda ax: plotting.plot_trajectories(_world().run(60, 0.05), ax)),
    "crowd_trajectories": _on_axes(_crowd),
    "crowd_density": _on_axes(lambda ax: plotting.plot_density(cs.scenarios.builtin("two_way_door").world()
                                                               .run(40, 0.05), ax)),
    "animation": _on_axes(lambda ax: plotting.animate(_world().run(20, 0.05), ax, trail=3)._init_draw()),
    "context_maps": _maps,
    "explanation": _explanation,
    "classic_explanation": _classic,
}


def artists_outside(fig) -> list:
    """The axes (each with what it draws: tick labels, axis labels, title, legend) and the
    figure's own legends and texts that reach outside ``fig``, by more than a pixel."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    outside = []
    for artist in [*fig.axes, *fig.legends, *fig.texts]:
        if not artist.get_visible():
            continue
        extent = artist.get_tightbbox(renderer)
        for legend in ([artist.get_legend()] if hasattr(artist, "get_legend") else []):
            if legend is not None:   # counted whether or not the layout takes it in
                extent = type(extent).union([extent, legend.get_window_extent(renderer)])
        if (extent.x0 < box.x0 - 1 or extent.y0 < box.y0 - 1 or extent.x1 > box.x1 + 1
                or extent.y1 > box.y1 + 1):
            outside.append((artist, extent))
    return outside


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]:g}x{s[1]:g}")
@pytest.mark.parametrize("name", PLOTS)
def test_every_public_plot_fits_its_figure(name, size):
    fig = plt.figure(figsize=size, layout="constrained")
    try:
        PLOTS[name](fig)
        assert fig.axes, name
        assert not artists_outside(fig), artists_outside(fig)
    finally:
        plt.close(fig)


def test_the_check_finds_a_legend_outside_the_figure():
    fig, ax = plt.subplots(figsize=(4, 4))   # no constrained layout: nothing makes room
    ax.plot([0, 1], [0, 1], label="a line")
    ax.legend(loc="upper left", bbox_to_anchor=(1.3, 1.0))
    try:
        assert [artist for artist, _ in artists_outside(fig)] == [ax]
    finally:
        plt.close(fig)
