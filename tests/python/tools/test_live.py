"""Live tuning, headless: a run follows the saves of its scenario file."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import contextsteer as cs  # noqa: E402
from contextsteer import demo, scenario_file  # noqa: E402
from contextsteer.live import LiveRun, LiveView  # noqa: E402


@pytest.fixture
def scene(tmp_path):
    path = tmp_path / "corridor.toml"
    path.write_text(scenario_file.builtin_path("corridor").read_text())
    return path


def _save(path, text):
    path.write_text(text)


def _frames(live, view, count, tmp_path, name):
    for _ in range(count):
        live.step()
        view.update()
    view.fig.savefig(tmp_path / f"{name}.png")


def test_a_live_run_follows_the_saves_of_its_file(scene, tmp_path):
    text = scene.read_text()
    with LiveRun(scene) as live:
        view = LiveView(live)
        world = live.world
        avoid = live.scenario.steering.behaviors[1]
        assert avoid.max_distance == 2.5
        _frames(live, view, 5, tmp_path, "before")
        # a parameter of a behaviour, one of the pipeline and one of the agents
        changed = (text.replace("max_distance = 2.5", "max_distance = 1.5")
                   .replace('select = "blend"', 'select = "argmax"').replace("max_speed = 3.0", "max_speed = 2.0"))
        _save(scene, changed)
        assert live.wait_for_save(10.0)
        steps_before = world.steps_taken
        live.step()
        assert live.world is world and world.steps_taken == steps_before + 1  # the run went on
        assert avoid.max_distance == 1.5 and live.scenario.steering.select == "argmax"
        assert world.steerings[0] is live.scenario.steering
        assert (world.max_speed == 2.0).all()
        assert live.error is None and live.reloads == 1

        # a save that does not read: reported, and the run goes on as it was
        _save(scene, changed.replace("[run]", "[run"))
        assert live.wait_for_save(10.0)
        _frames(live, view, 2, tmp_path, "broken")
        assert live.world is world and world.steps_taken == steps_before + 3
        assert live.error.startswith(f"{scene}: not valid TOML")
        # the message is wrapped to the figure, where the file's path runs long
        assert view.message.get_visible() and "not valid TOML" in " ".join(view.message.get_text().split())
        _save(scene, changed.replace("max_distance = 1.5", "max_distanse = 1.5"))
        assert live.wait_for_save(10.0)
        live.step()
        assert "pipeline.behaviors[1].max_distanse" in live.error and avoid.max_distance == 1.5

        # fixed again: the error goes
        _save(scene, changed.replace("max_distance = 1.5", "max_distance = 1.0"))
        assert live.wait_for_save(10.0)
        live.step()
        view.update()
        assert live.error is None and not view.message.get_visible() and avoid.max_distance == 1.0

        # new agents: the scene starts again
        _save(scene, changed.replace("[[groups]]\nstarts = [\n    [", "[[groups]]\nstarts = [\n    [0.5, 0.0],\n    ["
                                     ).replace("targets = [\n", "targets = [\n    [39.0, 0.0],\n"))
        assert live.wait_for_save(10.0)
        _frames(live, view, 1, tmp_path, "restarted")
        assert live.restarts == 1 and live.world is not world
        assert len(live.world) == 13 and live.world.steps_taken == 1


def test_a_new_behaviour_list_replaces_the_pipeline_in_the_running_world(scene):
    text = scene.read_text()
    with LiveRun(scene, watch=False, every=2) as live:
        world = live.world
        live.step()
        scene.write_text(text.replace("world_obstacles = true", "world_obstacles = true\n\n"
                                      "[[pipeline.behaviors]]\ntype = \"Separation\""))
        assert live.reload() == "updated"
        live.step()
        assert live.world is world and world.steps_taken == 4
        assert [type(b) for b in world.steerings[0].behaviors] == [cs.Chase, cs.Avoid, cs.Separation]
        assert live.reload() == "unchanged"


def test_a_live_run_needs_a_file_that_reads(tmp_path):
    path = tmp_path / "bare.toml"
    cs.scenarios.circle(4).save(path)
    with pytest.raises(cs.ScenarioFileError, match="a live run needs a pipeline"):
        LiveRun(path, watch=False)
    assert np.isfinite(cs.scenarios.circle(4).starts).all()


def test_the_view_draws_the_moving_bodies_where_they_stand(tmp_path):
    from matplotlib.patches import Circle

    path = tmp_path / "moving.toml"
    path.write_text(scenario_file.builtin_path("moving_crossing").read_text())
    with LiveRun(path, watch=False) as live:
        view = LiveView(live)
        for _ in range(10):
            live.step()
            artists = view.update()
        (disc,) = [a for a in artists if isinstance(a, Circle)]
        assert disc.center == pytest.approx(tuple(live.world.moving_positions[0]))
        assert len([p for p in view.ax.patches if p.get_label() == "moving obstacles"]) == 1  # the old ones gone
        # moving the body in the file is a change of geometry: the scene starts again
        path.write_text(path.read_text().replace("shape = [0.0, -12.0, 1.0]", "shape = [2.0, -12.0, 1.0]"))
        assert live.reload() == "restarted"
        view.update()
        assert live.world.moving_positions[0].tolist() == [2.0, -12.0]


def test_a_save_that_changes_the_goals_sets_them_on_the_running_world(tmp_path):
    # The door's file names the crowd steering, whose goals its world has unless the file says otherwise.
    path = tmp_path / "door.toml"
    text = scenario_file.builtin_path("two_way_door").read_text()
    assert '[steering]\nkind = "crowd"' in text and "[goals]" not in text
    path.write_text(text)
    with LiveRun(path, watch=False) as live:
        world = live.world
        assert world.goals == demo.CROWD_GOALS
        live.step()
        path.write_text(text.replace("[agents]", '[goals]\narrival = "give_way"\npatience = 3.5\n\n[agents]'))
        assert live.reload() == "updated" and live.world is world
        assert world.goals.patience == 3.5 and world.goals.arrival == "give_way"
        path.write_text(text.replace("max_speed = 1.4", "max_speed = 1.2"))
        assert live.reload() == "updated" and live.world is world
        assert world.goals == demo.CROWD_GOALS and world.max_speed[0] == np.float32(1.2)
        live.step()
        # another crowd steering (its slots) is built from the whole scene: the scene starts again
        path.write_text(text.replace("slots = 16", "slots = 8"))
        assert live.reload() == "restarted" and live.world.slots == 8


def test_live_without_a_display_fails_with_one_line(tmp_path, capsys):
    import subprocess
    import sys

    scene = tmp_path / "corridor.toml"
    cs.scenarios.builtin("corridor").save(scene)
    env = {k: v for k, v in __import__("os").environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "MPLBACKEND")}
    done = subprocess.run([sys.executable, "-m", "contextsteer", "live", str(scene)], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "no display" in done.stderr


def test_the_live_window_has_units_its_keys_and_wrapped_errors(tmp_path):
    import matplotlib.pyplot  # noqa: F401 -- closed below
    scene = tmp_path / "corridor.toml"
    cs.scenarios.builtin("corridor").save(scene)
    with LiveRun(scene, watch=False) as live:
        view = LiveView(live)
        assert view.ax.get_xlabel() == "x (m)" and view.ax.get_ylabel() == "y (m)"
        assert any("pause" in text.get_text() and "restart" in text.get_text() for text in view.fig.texts)
        live.error = "scene.toml: " + "a very long message about a typo in a key " * 6
        view.update()
        view.fig.canvas.draw()
        extent = view.message.get_window_extent()
        assert len(view.message.get_text().splitlines()) > 1 and extent.x1 <= view.fig.bbox.x1
        for _ in range(3):
            live.step()
            view.update()
        assert len(view.paths.get_segments()) == len(live.world) and len(view.paths.get_segments()[0]) == 5  # 5 updates
        moved = live.world.steps_taken
        live.restart()
        assert live.world.steps_taken == 0 and moved == 3
    matplotlib.pyplot.close("all")


def test_the_live_view_shows_the_watched_agents_maps_each_frame(tmp_path):
    import matplotlib.pyplot as plt

    scene = tmp_path / "corridor.toml"
    cs.scenarios.builtin("corridor").save(scene)
    with LiveRun(scene, watch=False) as live:
        with pytest.raises(ValueError, match="watch: expected an integer from 0 to 11, got 12"):
            LiveView(live, watch=12)
        view = LiveView(live, watch=3)
        polar = view.maps.polar
        assert polar.name == "polar" and polar.get_title() == "agent 3"
        assert view.discs.get_facecolors()[3].tolist() != view.discs.get_facecolors()[0].tolist()  # the watched in red
        curves = view.maps.curves
        for _ in range(4):
            live.step()
            artists = view.update()
            world = live.world
            for curve, values in zip(curves, (world.interest[3], world.danger[3], world.final[3])):
                drawn = curve.get_ydata()
                assert drawn[:-1] == pytest.approx(np.maximum(0.0, values)) and drawn[-1] == drawn[0]
            assert all(a in artists for a in (*curves, view.maps.arrow))
            angle, length = view.maps.arrow.xy
            direction = world.direction[3]
            assert angle == pytest.approx(np.arctan2(direction[1], direction[0]))
            assert length == pytest.approx(view.maps.top * min(float(world.strength[3]), 1.0))
        assert np.any(world.interest[3] > 0) and view.maps.arrow.get_visible()
        assert "strength" in view.maps.strength_text.get_text()
        view.fig.savefig(tmp_path / "maps.png")
        # a restart draws the maps again, of the new world
        live.restart()
        view.update()
        assert view.maps.polar is not polar and len(view.fig.axes) == 2
        assert view.maps.curves[0].get_ydata()[:-1] == pytest.approx(np.maximum(0.0, live.world.interest[3]))
    plt.close("all")
