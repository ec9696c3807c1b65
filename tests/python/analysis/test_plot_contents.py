"""The figures explain themselves: what each plot draws (labels with units, legends,
colorbars, masked slots, the chosen direction), asserted on the artists."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_rgba
from matplotlib.patches import Rectangle

import contextsteer as cs
from contextsteer import demo
from contextsteer.plotting import (
    animate,
    plot_context_maps,
    plot_density,
    plot_field,
    plot_obstacles,
    plot_polygons,
    plot_segments,
    plot_trajectories,
)


def legend_texts(ax) -> list[str]:
    return [t.get_text() for t in ax.get_legend().get_texts()]


def masked_wedges(polar) -> list[Rectangle]:
    return [p for p in polar.patches if isinstance(p, Rectangle) and p.get_height() > 0]


def test_the_explain_plot_shades_the_masked_slots_and_draws_the_direction_to_the_circles_edge():
    world = cs.World(cs.Pipeline([cs.Chase([10.0, 0.0]), cs.Avoid([[3.0, 0.0, 1.0]], max_distance=4.0)], slots=8),
                     [[0.0, 0.0]], max_speed=1.0)
    world.step(0.01)
    e = world.explain(0)
    assert 0 < e.masked.sum() < 8
    artists = e.plot()
    polar = artists[0].axes
    wedges = [a for a in artists if isinstance(a, Rectangle)]
    assert len(wedges) == e.masked.sum()
    # Each wedge spans its slot's share of the circle, centred on the slot, out to the edge.
    centres = sorted(np.round(np.mod([w.get_x() + w.get_width() / 2 for w in wedges], 2 * np.pi), 6))
    assert centres == sorted(np.round(2 * np.pi * np.flatnonzero(e.masked) / 8, 6))
    assert all(w.get_width() == pytest.approx(2 * np.pi / 8) and w.get_height() == polar.get_rmax() for w in wedges)
    # The arrow's length is the strength's share of the circle's radius.
    arrow = next(a for a in artists if hasattr(a, "arrow_patch"))
    assert arrow.xy[1] == pytest.approx(polar.get_rmax() * e.strength)
    assert arrow.xy[0] == pytest.approx(np.arctan2(e.direction[1], e.direction[0]), abs=1e-6)
    assert arrow.arrow_patch.get_linewidth() >= 2.5
    assert legend_texts(polar) == ["interest", "danger", "final", f"chosen direction, strength {e.strength:.2g}",
                                   "masked slots"]
    plt.close(polar.figure)
    # Without masked slots, nothing is shaded, and the masks are checked.
    fig = plt.figure()
    polar = fig.add_subplot(projection="polar")
    plot_context_maps({"interest": np.ones(8)}, polar, masked=np.zeros(8, dtype=bool))
    assert masked_wedges(polar) == []
    with pytest.raises(ValueError, match=r"masked: expected \(8,\) bool"):
        plot_context_maps({"interest": np.ones(8)}, polar, masked=np.zeros(7, dtype=bool))
    plt.close(fig)


def test_trajectories_of_a_recording_have_units_a_legend_of_their_markers_and_obstacles():
    world = cs.World(cs.Pipeline([cs.Arrive(), cs.Avoid(agents=True)]), [[0.0, 0.0], [6.0, 0.0]],
                     targets=[[6.0, 0.5], [0.0, -0.5]], circles=[[3.0, 3.0, 1.0]], max_speed=1.0)
    recording = world.run(40, 0.1)
    fig, ax = plt.subplots()
    plot_obstacles(world.circles, ax)
    plot_segments([[-1.0, -2.0, 7.0, -2.0]], ax)
    plot_polygons([[[1.0, 1.0], [2.0, 1.0], [1.5, 2.0]]], ax)
    lines = plot_trajectories(recording, ax, targets=world.targets)
    assert ax.get_xlabel() == "x (m)" and ax.get_ylabel() == "y (m)"
    assert sorted(legend_texts(ax)) == ["end", "obstacles", "polygons", "start", "targets", "walls"]
    np.testing.assert_array_equal(lines[0].get_xydata(), recording.positions[:, 0])
    polygon = ax.patches[-1]
    np.testing.assert_allclose(polygon.get_xy()[:3], [[1.0, 1.0], [2.0, 1.0], [1.5, 2.0]])
    # Labels of the axis' own stay.
    ax.set_xlabel("east (m)")
    plot_trajectories(recording, ax)
    assert ax.get_xlabel() == "east (m)"
    with pytest.raises(ValueError, match="trajectories: expected a recording with positions"):
        plot_trajectories(world.run(2, 0.1, record=["overlap"]), ax)
    plt.close(fig)


def test_a_crowd_is_drawn_thin_coloured_by_group_or_as_a_subset():
    positions = np.cumsum(np.ones((10, 100, 2)), axis=0) + np.arange(100)[:, None]
    groups = np.repeat([0, 1], 50)
    fig, ax = plt.subplots()
    lines = plot_trajectories(positions, ax, groups=groups, group_names=["east", "west"], mark_ends=False)
    assert len(lines) == 100 and all(line.get_linewidth() <= 0.5 for line in lines)
    assert {to_rgba(line.get_color()) for line in lines[:50]} == {to_rgba("C0")}
    assert {to_rgba(line.get_color()) for line in lines[50:]} == {to_rgba("C1")}
    assert legend_texts(ax) == ["east", "west"]
    assert all(handle.get_linewidth() >= 1.5 for handle in ax.get_legend().legend_handles)  # colours read
    fig2, ax2 = plt.subplots()
    subset = plot_trajectories(positions, ax2, agents=[3, 60], mark_ends=False, legend=False)
    np.testing.assert_array_equal(subset[1].get_xydata(), positions[:, 60])
    assert len(subset) == 2 and subset[0].get_linewidth() == 1.0 and ax2.get_legend() is None
    with pytest.raises(IndexError, match="agents"):
        plot_trajectories(positions, ax2, agents=[100])
    with pytest.raises(ValueError, match="groups"):
        plot_trajectories(positions, ax2, groups=np.zeros(3))
    with pytest.raises(ValueError, match="group_names"):
        plot_trajectories(positions, ax2, groups=groups, group_names=["one"])
    plt.close("all")


def test_a_crowds_density_counts_agents_per_square_metre_while_they_are_on_their_way():
    # Agent 0 stands still; agent 1 waits 4 frames at 0, walks east 0.5 m a frame to 2 m,
    # then stands there, nudged 0.1 m to and fro, for 5 frames.
    walker = ([[0.0, 0.0]] * 4 + [[0.5, 0.0], [1.0, 0.0], [1.5, 0.0], [2.0, 0.0]]
              + [[2.1, 0.0], [2.0, 0.0]] * 2 + [[2.0, 0.0]])
    positions = np.stack([np.full((len(walker), 2), [0.0, 2.0]), walker], axis=1)
    fig, ax = plt.subplots()
    mesh = plot_density(positions, ax, cell=0.5)
    density = mesh.get_array().reshape(-1)
    frames = len(walker)
    # The frames on its way are those from its first move (4, at 0.5 m) until it first comes
    # within 0.5 m of its end (6, at 1.5 m): frames 4 and 5, one each in the cells from 0.5
    # and 1 m; the cells it waited in, stood in or never entered are blank.
    assert density.count() == 2
    np.testing.assert_allclose(np.sort(density.compressed()), [1 / (frames * 0.25)] * 2)
    assert ax.get_xlabel() == "x (m)" and mesh.colorbar.ax.get_xlabel() == "mean density (agents/m²)"
    everything = plot_density(positions, plt.subplots()[1], cell=0.5, underway=False)
    assert everything.get_array().sum() * 0.25 == pytest.approx(2.0)   # two agents, every frame counted
    for bad, expected in [({"cell": 0.0}, r"cell: expected a number > 0"),
                          ({"cell": 1e-4}, r"cell: 0.0001 m makes .* cells"),
                          ({"vmax": -1.0}, r"vmax: expected a number > 0"),
                          ({"cmap": "no such map"}, r"cmap: expected the name of a registered colormap")]:
        with pytest.raises(ValueError, match=expected):
            plot_density(positions * 1000, ax, **bad)
    with pytest.raises(TypeError, match="underway: expected a bool"):
        plot_density(positions, ax, underway=1)
    with pytest.raises(ValueError, match=r"trajectories: expected an array of shape \(T, n, 2\)"):
        plot_density(positions[:, :, :1], ax)
    plt.close("all")


def test_the_density_of_a_recording_is_drawn_under_its_scene_on_a_fixed_scale():
    scene = cs.scenarios.builtin("two_way_door")
    recording = scene.world().run(60, 0.05)
    fig, ax = plt.subplots()
    mesh = plot_density(recording, ax, vmax=4.0)
    walls = [artist for artist in [*ax.lines, *ax.collections] if artist.get_label() == "walls"]
    assert walls and all(line.get_zorder() > mesh.get_zorder() for line in walls)   # the walls over the cells
    assert mesh.get_clim() == (0.0, 4.0) and legend_texts(ax) == ["walls"]
    # Where the cells reach the walls, the walls stay inside the axis' margins, not on its edges.
    corridor = {"segments": [[0.0, 0.0, 4.0, 0.0], [0.0, 2.0, 4.0, 2.0]]}
    walking = np.stack([np.linspace([0.2, 0.1], [3.8, 1.4], 20)] * 2, axis=1)   # cells from y = 0 to 2
    fig2, ax2 = plt.subplots()
    plot_density(walking, ax2, scene=corridor, underway=False)
    assert ax2.get_ylim()[0] < 0.0 and ax2.get_ylim()[1] > 2.0
    plt.close(fig)


def test_a_crowd_of_many_groups_is_counted_in_one_legend_entry_and_fits_its_figure():
    # As crowd_steering groups the README's crowd: an agent's group per target area, 40 of them.
    positions = np.cumsum(np.ones((10, 80, 2)), axis=0) + np.arange(80)[:, None]
    groups = np.arange(80) // 2
    fig, ax = plt.subplots(figsize=(5, 5), layout="constrained")
    lines = plot_trajectories(positions, ax, groups=groups)
    assert legend_texts(ax) == ["paths of 40 groups", "start", "end"]
    assert to_rgba(lines[0].get_color()) == to_rgba(lines[20].get_color()) == to_rgba("C0")   # groups 0 and 10
    fig.canvas.draw()
    assert ax.get_legend().get_window_extent().y0 >= 0 and ax.get_window_extent().width > 100   # room for the paths
    fig2, ax2 = plt.subplots()
    plot_trajectories(positions[:, :24], ax2, groups=groups[:24], group_names=[f"door {g}" for g in range(12)])
    assert legend_texts(ax2)[:12] == [f"door {g}" for g in range(12)]   # named groups keep their entries
    plt.close("all")


def test_a_field_gets_a_colorbar_of_its_distances_in_metres():
    field = cs.NavigationField([[4.0, 4.0]], area=(0.0, 0.0, 5.0, 5.0), cell=0.5, circles=[[2.0, 2.0, 1.0]])
    fig, ax = plt.subplots()
    image, quiver = plot_field(field, ax)
    colorbar = image.colorbar
    assert colorbar.mappable is image and colorbar.ax.get_ylabel() == "distance to the goal (m)"
    assert ax.get_xlabel() == "x (m)"
    fig2, ax2 = plt.subplots()
    assert len(plot_field(field, ax2, arrows=0, colorbar=False)) == 1 and len(fig2.axes) == 1
    plt.close("all")


def test_an_animations_clock_stays_off_the_scene(tmp_path):
    world = cs.World(cs.Pipeline([cs.Arrive()]), [[0.0, 0.0], [2.0, 2.0]], targets=[[2.0, 2.0], [0.0, 0.0]])
    recording = world.run(10, 0.1)
    fig, ax = plt.subplots()
    anim = animate(recording, ax)
    anim.save(tmp_path / "run.gif", writer="pillow")
    clock = ax.texts[0]
    assert clock.get_text() == f"t = {recording.time[-1]:.1f} s"
    fig.canvas.draw()
    assert clock.get_window_extent().y0 >= ax.get_window_extent().y1   # above the axes, not over the agents
    plt.close(fig)


def test_the_demo_figure_explains_its_markers_and_shows_the_agent_avoiding():
    run = demo.run_scene("corridor", 6)
    snap = run.snapshot
    peak = int(np.argmax(snap.interest))
    assert snap.interest[peak] - snap.final[peak] > 0.1       # the danger took from its best way
    fig = demo.draw_run(run)
    scene, polar = fig.axes
    assert scene.get_xlabel() == "x (m)" and scene.get_ylabel() == "y (m)"
    assert sorted(legend_texts(scene)) == ["agent 0, shown right", "end", "goal", "obstacles", "start"]
    assert masked_wedges(polar) and "masked slots" in legend_texts(polar)
    plt.close(fig)
    # The swap of 100: thin lines, a colour for each way the crowd goes.
    fig = demo.draw_run(demo.run_scene("swap", steps=5))
    scene = fig.axes[0]
    crowd = [line for line in scene.get_lines() if line.get_linestyle() != "None"]
    assert len(crowd) == 100 and max(line.get_linewidth() for line in crowd) <= 0.5
    assert len({to_rgba(line.get_color()) for line in crowd}) == 2
    assert legend_texts(scene)[:2] == ["going east", "going west"]
    plt.close(fig)
