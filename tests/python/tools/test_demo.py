"""The demo: its command, the scenes it runs with their recipes, its figure."""

import subprocess
import sys

import matplotlib.pyplot as plt
import numpy as np
import pytest

import contextsteer as cs
from contextsteer import scenarios
from contextsteer.demo import DT, SCENES, classic_setup, run_scene, scene_setup, summary, time_limit


def test_demo_command_writes_a_png_and_reports_arrivals(tmp_path):
    out = tmp_path / "corridor.png"
    result = subprocess.run([sys.executable, "-m", "contextsteer", "demo", "--out", str(out)],
                            capture_output=True, text=True, check=True)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "12 of 12 agents reached the target" in result.stdout
    assert "steps" in result.stdout


@pytest.mark.parametrize(("arguments", "named"), [
    (["--agents", "0"], "--agents"),
    (["--agents", "2000000"], "agents"),   # refused by the scene, not by argparse
    (["--slots", "100000"], "slots"),
    (["--seed", "-3"], "seed"),
    (["--out", "corridor.txt"], "--out"),
    (["--scene", "moon"], "--scene"),
    (["--out", "/nonexistent/d/x.png"], "--out: cannot write /nonexistent/d/x.png: No such file or directory"),
    (["--steps", "3000000000"], "--steps: expected an integer from 1 to 2147483647"),
    (["--agents", "1000000000"], "--agents: a run of 1200 steps of 1000000000 agents would need 9.61e+03 GB"),
])
def test_demo_command_reports_bad_arguments(arguments, named, tmp_path):
    result = subprocess.run([sys.executable, "-m", "contextsteer", "demo", *arguments],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("contextsteer demo: error:") and named in result.stderr
    assert result.stderr.count("\n") == 1  # one line, no usage, no traceback
    assert list(tmp_path.iterdir()) == []  # refused before the run: nothing written


def test_demo_command_runs_any_standard_scene(tmp_path):
    result = subprocess.run([sys.executable, "-m", "contextsteer", "demo", "--scene", "circle", "--agents", "8"],
                            capture_output=True, text=True, check=True, cwd=tmp_path)
    assert (tmp_path / "circle.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"  # named after the scene
    assert result.stdout.startswith("circle: 8 of 8 agents reached their targets; first after ")
    assert result.stderr == ""  # no warning from matplotlib either


def test_corridor_run_arrivals_are_consistent_with_trajectories():
    run = run_scene("corridor", 6, steps=800, seed=2)
    assert run.trajectories.shape[1:] == (6, 2)
    arrived = run.arrival_step >= 0
    assert arrived.all()
    for agent, step in enumerate(run.arrival_step):
        distances = np.linalg.norm(run.trajectories[:, agent] - run.scenario.target, axis=1)
        assert distances[step] <= 1.0 and (distances[:step] > 1.0).all()
    assert "6 of 6 agents reached the target" in summary(run)
    assert run.snapshot.danger.shape == (16,)



@pytest.mark.parametrize("scene", ["corridor", "circle"])   # the widest scene and a square one
def test_the_demo_figure_keeps_its_titles_and_legend_inside_and_clear_of_the_maps(scene):
    from contextsteer.demo import draw_run

    fig = draw_run(run_scene(scene, 4, steps=20, seed=0))
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        page = fig.bbox
        scene_ax, polar = fig.axes
        title, legend = polar.title.get_window_extent(renderer), polar.get_legend().get_window_extent(renderer)
        for box in (title, legend, scene_ax.title.get_window_extent(renderer)):
            assert page.x0 <= box.x0 and box.x1 <= page.x1 and page.y0 <= box.y0 and box.y1 <= page.y1
        angle_labels = [label.get_window_extent(renderer) for label in polar.xaxis.get_ticklabels()]
        assert not any(title.overlaps(label) or legend.overlaps(label) for label in angle_labels)
        assert not legend.overlaps(polar.get_window_extent(renderer))   # the circle itself
    finally:
        plt.close(fig)

@pytest.mark.parametrize(("scene", "at_least"), [("swap", 100), ("circle", 16), ("crossing", 40), ("bottleneck", 50)])
def test_the_demo_steers_each_crowd_scene_home(scene, at_least):
    # Each crowd with the demo's pipeline for it: sideways interest and keeping right get
    # the swap, the (jittered) circle and the crossing home; the bottleneck's field leads
    # its room out by the door and, with its 24 slots, each agent on to its place (with 16,
    # one of this seed's stays boxed in among those that parked first).
    run = run_scene(scene)
    assert run.scenario.name == scene and len(run.arrival_step) == len(run.scenario.starts)
    assert (run.arrival_step >= 0).sum() >= at_least
    for agent, step in enumerate(run.arrival_step):
        distances = np.linalg.norm(run.trajectories[:, agent] - run.scenario.targets[agent], axis=1)
        if step >= 0:
            assert distances[step] <= 1.0 and (distances[:step] > 1.0).all()
        else:
            assert (distances > 1.0).all()
    assert summary(run).startswith(f"{(run.arrival_step >= 0).sum()} of {len(run.arrival_step)} agents reached "
                                   "their targets; first after ")
    if scene == "bottleneck":  # out of the room, all of them
        assert (run.trajectories[-1, :, 0] > run.scenario.segments[-1, 0]).all()


@pytest.mark.parametrize("scene", ["two_way_door", "four_way", "zigzag", "u_trap"])
def test_crowd_scenes_run_with_one_pipeline_per_group(scene):
    geometry, steering, parameters = scene_setup(scene, 8, seed=1)
    assert isinstance(steering, tuple) and len(steering) == geometry.group_count
    for group, pipeline in enumerate(steering):   # each follows its own group's field
        field, = [b.field for b in pipeline.behaviors if isinstance(b, cs.FollowField)]
        np.testing.assert_allclose(field.goal_areas, geometry.goal_areas[geometry.goal_area_groups == group], rtol=1e-6)
    run = run_scene(scene, 8, steps=20, seed=1)
    assert run.trajectories.shape == (21, 8, 2) and run.slots == steering[0].slots
    np.testing.assert_allclose(run.trajectories[0], geometry.starts, atol=1e-5)
    assert time_limit(scene) == {"two_way_door": 150.0, "four_way": 90.0, "zigzag": 60.0, "u_trap": 60.0}[scene]


def test_scene_setup_gives_the_demos_world():
    scene, pipeline, parameters = scene_setup("crossing", 10, seed=3)
    world = scene.world(pipeline, **parameters)
    world.run(50, DT)
    run = run_scene("crossing", 10, steps=50, seed=3)
    assert len(run.trajectories) == 51
    np.testing.assert_array_equal(world.positions, run.trajectories[-1])


def test_scene_setup_builds_its_recipe_on_a_scene_of_the_sizes_given():
    scene, pipelines, parameters = scene_setup("two_way_door", 40, seed=2, door=2.4, room=8.0)
    assert scene == scenarios.two_way_door(40, door=2.4, room=8.0, seed=2)
    assert len(pipelines) == 2 and parameters["contact"] is not None
    assert scene_setup("zigzag", 6, seed=1, bends=4)[0] == scenarios.zigzag(6, bends=4, seed=1)
    # a size not given is the demo's: the circle's radius of 12 m and jitter of 0.5 m
    assert scene_setup("circle", 8, radius=6.0)[0] == scenarios.circle(8, radius=6.0, jitter=0.5, seed=0)
    assert scene_setup("circle", 8)[0] == scenarios.circle(8, radius=12.0, jitter=0.5, seed=0)
    assert classic_setup("four_way", 20, square=8.0)[0] == scenarios.four_way(20, square=8.0, seed=0)


def test_scene_setup_names_a_size_its_scene_does_not_take_and_a_bad_one():
    with pytest.raises(TypeError, match="doors: the scene 'two_way_door' takes the sizes door, room, height, clear"):
        scene_setup("two_way_door", doors=2.0)
    with pytest.raises(TypeError, match="width: the scene 'corridor' takes no sizes"):
        scene_setup("corridor", width=3.0)
    with pytest.raises(ValueError, match="door"):
        scene_setup("two_way_door", door=-1.0)


def test_each_scene_has_its_own_slot_count_unless_one_is_given():
    for scene in SCENES:
        for slots, expected in ((None, 24 if scene == "bottleneck" else 16), (12, 12)):
            steering = scene_setup(scene, 4, slots=slots)[1]
            pipelines = steering if isinstance(steering, tuple) else (steering,)
            assert {p.slots for p in pipelines} == {expected}
    run = run_scene("bottleneck", 6, steps=3)
    assert run.slots == 24 and run.snapshot.final.shape == (24,)
    run = run_scene("bottleneck", 6, steps=3, slots=8)
    assert run.slots == 8 and run.snapshot.interest.shape == (8,)


def test_scene_run_checks_its_arguments():
    with pytest.raises(ValueError, match="steps"):
        run_scene("corridor", 3, steps=0)
    with pytest.raises(IndexError, match="watch"):
        run_scene("corridor", 3, steps=5, watch=3)
    with pytest.raises(ValueError, match="^scene: expected one of 'corridor', 'swap', .*, got 'moon'$"):
        run_scene("moon")
    with pytest.raises(TypeError, match="scene"):
        run_scene(3)
    assert SCENES == ("corridor", "swap", "circle", "crossing", "bottleneck", "two_way_door", "four_way", "zigzag",
                      "u_trap")
    # One step is enough for a snapshot of the watched agent's maps.
    run = run_scene("corridor", 3, steps=1, watch=2)
    assert run.snapshot.agent == 2 and run.snapshot.step == 1
