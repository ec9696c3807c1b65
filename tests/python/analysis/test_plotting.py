"""The plotting helpers: artists on the given axes, the context maps' polar labels,
legends, styles, refusals and animations; matplotlib only where plotting is used."""

import subprocess
import sys

import matplotlib.pyplot as plt
import numpy as np
import pytest

import contextsteer as cs
from contextsteer.plotting import animate, plot_context_maps, plot_obstacles, plot_segments, plot_trajectories


def test_plotting_returns_artists_on_the_given_axes():
    fig, ax = plt.subplots()
    patches = plot_obstacles([[0, 0, 1], [3, 0, 0.5]], ax)
    lines = plot_trajectories(np.zeros((5, 3, 2)), ax, mark_ends=False)
    assert len(patches) == 2 and all(p.axes is ax for p in patches)
    assert len(lines) == 3
    walls = plot_segments([[0, 0, 4, 0], [4, 0, 4, 3]], ax)
    assert walls.axes is ax
    np.testing.assert_array_equal(np.asarray(walls.get_segments()), [[[0, 0], [4, 0]], [[4, 0], [4, 3]]])
    polar = fig.add_subplot(122, projection="polar")
    artists = plot_context_maps({"interest": np.ones(8), "danger": np.zeros(8)}, polar, direction=[1.0, 0.0])
    assert len(artists) == 3 and artists[0].axes is polar
    plt.close(fig)


def _labels_crossed_by_curves(polar, artists) -> list[str]:
    """The radial tick labels of `polar` that a drawn map curve passes through."""
    renderer = polar.figure.canvas.get_renderer()
    curves = [line.get_transform().transform_path(line.get_path()) for line in artists if hasattr(line, "get_path")]
    return [label.get_text() for label in polar.yaxis.get_ticklabels()
            if label.get_visible() and label.get_text()
            and any(curve.intersects_bbox(label.get_window_extent(renderer), filled=False) for curve in curves)]


@pytest.mark.parametrize("offset", [0.0, -4.0, 9.0])
def test_radial_tick_labels_go_where_the_maps_leave_room(offset):
    # Maps tall within 60 degrees of 45 degrees, over where matplotlib puts the labels
    # (22.5 degrees), and zero elsewhere, with the slots turned by `offset`: the labels
    # move to the empty side and no curve crosses them.
    slots = 16
    bearing = 2 * np.pi * np.arange(slots) / slots + offset
    tall = np.where(np.cos(bearing - np.pi / 4) > 0.5, 0.95, 0.0)
    danger = np.where(np.cos(bearing - np.pi / 2) > 0.9, 0.6, 0.0)
    maps = {"interest": tall, "danger": danger, "final": np.where(danger > 0, 0.0, tall)}
    fig = plt.figure(figsize=(4, 4))
    polar = fig.add_subplot(projection="polar")
    artists = plot_context_maps(maps, polar, offset=offset, direction=[np.cos(np.pi / 4), np.sin(np.pi / 4)])
    fig.canvas.draw()
    assert _labels_crossed_by_curves(polar, artists) == []
    placed = np.radians(polar.get_rlabel_position())
    assert np.cos(placed - np.pi / 4) < 0      # on the far side from the tall maps
    polar.set_rlabel_position(22.5)            # matplotlib's own place: there the check fails
    fig.canvas.draw()
    assert _labels_crossed_by_curves(polar, artists) != []
    plt.close(fig)


@pytest.mark.parametrize("degrees", [1.3, 91.7, 359.0])
def test_radial_tick_labels_keep_off_the_chosen_direction(degrees):
    # Flat, low maps leave room everywhere but along the arrow, at angles between the
    # ones the placement probes.
    fig = plt.figure()
    polar = fig.add_subplot(projection="polar")
    angle = np.radians(degrees)
    plot_context_maps({"interest": np.full(16, 0.1)}, polar, direction=[np.cos(angle), np.sin(angle)])
    turned = np.radians(polar.get_rlabel_position()) - angle
    assert abs(np.angle(np.exp(1j * turned))) > np.radians(30)
    plt.close(fig)


def _radial_over_angular_labels(polar) -> list[tuple[str, str]]:
    """The (radial, angular) tick label pairs of `polar` whose drawn boxes overlap."""
    renderer = polar.figure.canvas.get_renderer()

    def shown(axis):
        return [(t.get_text(), t.get_window_extent(renderer)) for t in axis.get_ticklabels()
                if t.get_visible() and t.get_text()]
    return [(r, a) for r, r_box in shown(polar.yaxis) for a, a_box in shown(polar.xaxis) if r_box.overlaps(a_box)]


def _random_map_plots(size: tuple[float, float], count: int = 12):
    """Plots of random maps (some past 1) of 8 to 32 slots with their arrow, on a figure
    of `size` (width, height) inches: yields (polar axis, artists), drawn."""
    rng = np.random.default_rng(7)
    for _ in range(count):
        slots = int(rng.choice([8, 16, 24, 32]))
        interest = np.clip(rng.normal(0.4, 0.3, slots), 0, 1)
        danger = np.clip(rng.normal(0.3, 0.3, slots), 0, 1.2)
        final = np.maximum(interest - danger, 0)
        best = 2 * np.pi * np.argmax(final) / slots
        fig = plt.figure(figsize=size)
        polar = fig.add_subplot(projection="polar")
        artists = plot_context_maps({"interest": interest, "danger": danger, "final": final}, polar,
                                    direction=[np.cos(best), np.sin(best)], strength=float(final.max()))
        fig.canvas.draw()
        yield polar, artists
        plt.close(fig)


# Square figures small and large, and matplotlib's default one (wider than tall: until
# drawn, the axis stretches its circle into an ellipse across it).
FIGURE_SIZES = [(2.5, 2.5), (4.0, 4.0), (6.0, 6.0), (6.4, 4.8)]


@pytest.mark.parametrize("size", FIGURE_SIZES)
def test_radial_tick_labels_never_print_over_the_angular_labels(size):
    # On small and large axes; matplotlib's own placement, or a ray chosen for the
    # curves alone, puts "1.0" over "90 deg" or "180 deg" for some of these maps.
    for polar, _ in _random_map_plots(size):
        assert _radial_over_angular_labels(polar) == []


@pytest.mark.parametrize("size", FIGURE_SIZES)
def test_a_radial_label_a_curve_crosses_is_left_blank_but_the_outermost(size):
    # Near the centre every curve passes close to every ray, so on the best ray an inner
    # label may still be crossed (it was, in about a third of these plots): it is blanked.
    # The outermost label, the circle's value, is always printed; the rest stay in order.
    blanked = 0
    for polar, artists in _random_map_plots(size, count=20):
        texts = [label.get_text() for label in polar.yaxis.get_ticklabels()]
        assert texts[-1] != ""
        assert set(_labels_crossed_by_curves(polar, artists)) <= {texts[-1]}
        shown = [float(text) for text in texts if text]
        assert shown == sorted(shown) and shown[-1] == pytest.approx(polar.get_rmax())
        blanked += texts.count("")
    assert blanked > 0  # the maps do cross labels: the check above was not idle


@pytest.mark.parametrize("size", [(4.0, 4.0), (6.4, 4.8)])
def test_the_outermost_radial_label_keeps_off_danger_hugging_the_circle(size):
    # Danger near 1 nearly all round, as among a crowd, dipping in one slot: the outermost
    # label, which is never blanked, finds a ray where no curve crosses it (ranked by
    # the labels' clearance alone, it printed over the danger in some of these plots).
    rng = np.random.default_rng(1)
    for _ in range(30):
        slots = int(rng.choice([8, 16, 24, 32]))
        danger = np.clip(rng.normal(0.9, 0.15, slots), 0, 1)
        danger[rng.integers(slots)] = rng.uniform(0.2, 0.6)
        interest = np.clip(rng.normal(0.4, 0.3, slots), 0, 1)
        fig = plt.figure(figsize=size)
        polar = fig.add_subplot(projection="polar")
        artists = plot_context_maps({"interest": interest, "danger": danger}, polar)
        fig.canvas.draw()
        outermost = polar.yaxis.get_ticklabels()[-1].get_text()
        assert outermost != "" and outermost not in _labels_crossed_by_curves(polar, artists)
        plt.close(fig)


def test_a_second_plot_on_the_same_axis_labels_its_own_ticks():
    # The first plot blanks a label; the second, of maps past 1 on the same axis, has
    # other ticks: each label it prints is its own tick's value, the outermost included
    # (labels fixed by the first plot would print under the wrong ticks).
    polar, _ = next(plot for plot in _random_map_plots((4.0, 4.0), count=20)
                    if "" in [label.get_text() for label in plot[0].yaxis.get_ticklabels()])
    plot_context_maps({"danger": np.array([1.5, 0.2, 0.3, 0.9])}, polar)
    polar.figure.canvas.draw()
    printed = [(label.get_text(), tick) for label, tick in zip(polar.yaxis.get_ticklabels(), polar.get_yticks())]
    assert printed[-1][0] != "" and polar.get_rmax() == pytest.approx(1.5)
    for text, tick in printed:
        assert text == "" or float(text) == pytest.approx(tick)
    plt.close(polar.figure)


def test_the_maps_circle_ends_on_its_last_labelled_tick():
    # Maps a little past 1: the circle grows to the next tick, and no radial label is
    # printed past the circle (matplotlib would label 1.2 outside a circle of 1.05).
    fig = plt.figure(figsize=(4, 4))
    polar = fig.add_subplot(projection="polar")
    plot_context_maps({"danger": np.array([1.05, 0.2, 0.3, 0.9])}, polar)
    ticks = polar.yaxis.get_majorticklocs()
    assert polar.get_rmax() == pytest.approx(max(ticks)) and polar.get_rmax() >= 1.05
    fig.canvas.draw()
    shown = [float(t.get_text()) for t in polar.yaxis.get_ticklabels() if t.get_visible() and t.get_text()]
    assert shown and max(shown) == pytest.approx(polar.get_rmax())
    # Maps of at most 1 (as most are) fill a circle of 1, without matplotlib's margin.
    polar.clear()
    plot_context_maps({"interest": np.array([1.0, 0.5, 0.0, 0.25])}, polar, direction=[1.0, 0.0])
    assert polar.get_rmax() == 1.0 and max(polar.yaxis.get_majorticklocs()) == 1.0
    plt.close(fig)


def test_trajectories_name_each_group_and_marker_once_in_a_legend():
    fig, ax = plt.subplots()
    plot_trajectories(np.zeros((5, 3, 2)), ax, color="tab:blue", label="context")
    plot_trajectories(np.ones((5, 4, 2)), ax, color="tab:orange", label="classic")
    plot_trajectories(np.ones((5, 2, 2)), ax)
    assert [t.get_text() for t in ax.legend().get_texts()] == ["context", "start", "end", "classic"]
    assert len(ax.get_lines()) == 3 + 2 + 4 + 2 + 2 + 2
    plt.close(fig)


def test_context_map_curves_take_styles_by_name():
    fig = plt.figure()
    polar = fig.add_subplot(projection="polar")
    maps = {"interest": np.full(8, 0.5), "danger": np.zeros(8)}
    interest, danger = plot_context_maps(maps, polar, styles={"danger": {"linestyle": "--", "color": "black"}})
    assert danger.get_linestyle() == "--" and danger.get_color() == "black" and danger.get_marker() == "."
    assert interest.get_linestyle() == "-"
    expected = r"^styles: expected names among the maps' \['interest', 'danger'\], got 'final'$"
    with pytest.raises(ValueError, match=expected):
        plot_context_maps(maps, polar, styles={"final": {}})
    with pytest.raises(TypeError, match="styles"):
        plot_context_maps(maps, polar, styles={"danger": "--"})
    plt.close(fig)


def test_plotting_refuses_wrong_inputs():
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="polar"):
        plot_context_maps({"interest": np.ones(8)}, ax)
    with pytest.raises(ValueError, match="trajectories"):
        plot_trajectories(np.zeros((5, 2)), ax)
    with pytest.raises(ValueError, match=r"segments: expected an array of shape \(m, 4\)"):
        plot_segments(np.zeros((3, 3)), ax)
    plt.close(fig)


def test_animate_moves_the_discs_frame_by_frame_and_saves_a_gif(tmp_path):
    from PIL import Image

    world = cs.World(cs.Pipeline([cs.Arrive(), cs.Avoid(agents=True)]), [[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]],
                     targets=[[4.0, 4.0]] * 3, max_speed=1.0, radius=0.3)
    rec = world.run(23, 0.1)
    fig, ax = plt.subplots()
    walls = plot_segments([[-1, -1, 5, -1]], ax)
    anim = animate(rec, ax, radius=[0.3, 0.4, 0.5], every=5, trail=2)
    discs = ax.collections[1]
    assert ax.collections[0] is walls and len(ax.collections) == 4   # walls, discs, trails, heading ticks
    np.testing.assert_allclose(discs.get_offsets(), rec.positions[0])
    anim.save(tmp_path / "run.gif", writer="pillow")
    with Image.open(tmp_path / "run.gif") as gif:
        assert gif.n_frames == 5                                        # steps 0, 5, 10, 15, 20
    np.testing.assert_allclose(discs.get_offsets(), rec.positions[20])
    assert ax.texts[0].get_text() == f"t = {rec.time[20]:.1f} s"
    trails = ax.collections[2].get_segments()
    assert len(trails) == 3
    np.testing.assert_allclose(trails[0], rec.positions[[10, 15, 20], 0])   # two frames behind, and now
    tick = ax.collections[3].get_segments()[2]                              # agent 2, radius 0.5
    np.testing.assert_allclose(tick[1] - tick[0], 0.5 * np.array([np.cos(rec.headings[20, 2]),
                                                                  np.sin(rec.headings[20, 2])]), atol=1e-6)
    x0, x1 = ax.get_xlim()
    assert x0 <= rec.positions[..., 0].min() and x1 >= rec.positions[..., 0].max()
    plt.close(fig)
    # Plain (T, n, 2) positions work too (no clock); bad inputs name themselves.
    plain = animate(np.zeros((3, 2, 2)))
    plain.save(tmp_path / "plain.gif", writer="pillow")
    assert plain._fig.axes[0].texts[0].get_text() == ""
    with pytest.raises(ValueError, match="recording: expected positions of shape"):
        animate(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="recording: expected a recording with positions"):
        animate(cs.World(cs.Pipeline([cs.Arrive()]), [[0.0, 0.0]]).run(2, 0.1, record=["overlap"]))
    with pytest.raises(ValueError, match="radius"):
        animate(rec, radius=[0.3, 0.4])
    with pytest.raises(ValueError, match="radius"):
        animate(rec, radius=0)
    with pytest.raises(ValueError, match="every"):
        animate(rec, every=0)
    plt.close("all")


def test_import_does_not_load_matplotlib():
    code = "import sys, contextsteer; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
    assert cs.__version__
