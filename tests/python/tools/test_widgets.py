"""cs.widgets.tune: controls made from the declared parameters, driven from code as a user
drives them, change the world and the figure."""

from __future__ import annotations

import math

import ipywidgets as w
import numpy as np
import pytest
from matplotlib.backend_bases import MouseEvent

import contextsteer as cs
from contextsteer.widgets import _PIPELINE_SETTINGS


def small_world():
    pipeline = cs.Pipeline([cs.Arrive(sideways=0.5), cs.Avoid(agents=True, max_distance=2.0), cs.Avoid([[3, 0, 1]])],
                           slots=16, select="blend")
    return cs.World(pipeline, [[0.0, 0.0], [6.0, 0.5], [3.0, 4.0]], targets=[[6.0, 0.0], [0.0, 0.0], [3.0, -4.0]],
                    max_speed=1.5, radius=0.3)


def test_every_declared_parameter_gets_a_control_with_its_unit_range_and_value():
    world = small_world()
    tuner = cs.widgets.tune(world)
    arrive, avoid_agents, avoid_circle = world.steerings[0].behaviors
    expected = ([f"Arrive.{name}" for name in cs.Arrive._parameters]
                + [f"Avoid #1.{name}" for name in cs.Avoid._parameters]
                + [f"Avoid #2.{name}" for name in cs.Avoid._parameters]
                + [f"pipeline.{name}" for name in _PIPELINE_SETTINGS])
    assert list(tuner.controls) == expected
    distance = tuner.controls["Avoid #1.max_distance"]
    assert isinstance(distance, w.FloatSlider) and distance.value == 2.0
    assert distance.description == "max_distance (metres)" and distance.min > 0     # max_distance > 0
    assert "clearance" in distance.tooltip
    keep_right = tuner.controls["Avoid #1.keep_right"]
    assert keep_right.min == pytest.approx(-math.pi / 4) and keep_right.max == pytest.approx(math.pi / 4)
    sideways = tuner.controls["Arrive.sideways"]
    assert sideways.value == 0.5 and sideways.min == 0.0 and sideways.max < 1.0       # sideways < 1
    assert isinstance(tuner.controls["Avoid #1.falloff"], w.Dropdown)
    assert tuner.controls["Avoid #1.falloff"].options == tuple(cs.Avoid._parameters["falloff"]["choices"])
    assert isinstance(tuner.controls["Avoid #1.agents"], w.Checkbox) and tuner.controls["Avoid #1.agents"].value
    assert tuner.controls["pipeline.select"].value == "blend"
    # Every choice the pipeline's controls offer is one the pipeline takes.
    pipeline = world.steerings[0]
    for name, spec in _PIPELINE_SETTINGS.items():
        for choice in spec.get("choices", []):
            setattr(pipeline, name, choice)
    assert tuner.parameters.titles == ("Arrive", "Avoid #1", "Avoid #2", "pipeline")


def test_setting_controls_from_code_changes_the_world_and_the_figure():
    world = small_world()
    tuner = cs.widgets.tune(world, steps_per_frame=3, dt=0.1)
    avoid = world.steerings[0].behaviors[1]
    before = bytes(tuner.image.value)
    assert before.startswith(b"\x89PNG")
    tuner.controls["Avoid #1.max_distance"].value = 0.75
    assert avoid.max_distance == pytest.approx(0.75)
    tuner.controls["pipeline.danger_mode"].value = "multiply"
    assert world.steerings[0].danger_mode == "multiply"
    tuner.controls["Avoid #1.agents"].value = False
    assert not avoid.agents
    # Play: each tick of the Play widget (its frontend counts them) advances a frame.
    positions = world.positions.copy()
    tuner.play.value += 1
    assert world.steps_taken == 3 and not np.allclose(world.positions, positions)
    tuner.step_button.click()
    assert world.steps_taken == 6 and world.time == pytest.approx(0.6)
    assert bytes(tuner.image.value) != before
    np.testing.assert_allclose(tuner._discs.get_offsets(), world.positions)
    assert tuner._scene.get_title() == "t = 0.6 s, step 6"
    # The agent explained: chosen, or clicked on the scene (the agent nearest the click).
    assert tuner._explained.get_title().startswith("agent 0:")
    tuner.agent.value = 2
    assert tuner._explained.get_title().startswith("agent 2:")
    x, y = tuner._scene.transData.transform(world.positions[1])
    tuner.figure.canvas.callbacks.process("button_press_event",
                                          MouseEvent("button_press_event", tuner.figure.canvas, x, y, button=1))
    assert tuner.agent.value == 1 and tuner._explained.get_title().startswith("agent 1:")
    np.testing.assert_allclose(tuner._shown.get_xydata()[0], world.positions[1])
    # A click in the browser on the image: ipyevents sends its pixels, from the top left.
    x, y = tuner._scene.transData.transform(world.positions[2])
    tuner.clicks._handle_mouse_msg(None, {"type": "click", "dataX": x, "dataY": tuner.figure.bbox.height - y}, [])
    assert tuner.agent.value == 2
    tuner.clicks._handle_mouse_msg(None, {"type": "click", "dataX": 1.0, "dataY": 1.0}, [])   # off the scene
    assert tuner.agent.value == 2
    tuner.agent.value = 1
    # The explain plot follows the parameters: with no danger from agents, nothing is masked.
    legend = [t.get_text() for t in tuner._explained.get_legend().get_texts()]
    assert legend[:3] == ["interest", "danger", "final"]
    tuner.reset_button.click()
    assert world.steps_taken == 0
    np.testing.assert_allclose(tuner._discs.get_offsets(), world.positions)


def test_an_unbounded_distance_is_typed_and_a_refused_value_is_reported():
    world = cs.World(cs.Pipeline([cs.Chase([[5.0, 0.0]])]), [[0.0, 0.0]])
    chase = world.steerings[0].behaviors[0]
    tuner = cs.widgets.tune(world)
    box = tuner.controls["Chase.max_distance"]
    assert isinstance(box, w.Text) and box.value == "inf"
    box.value = "4"
    assert chase.max_distance == 4.0 and tuner.status.value.startswith("1 of 1")
    for refused in ("-1", "far"):
        box.value = refused
        assert "Chase.max_distance" in tuner.status.value and chase.max_distance == 4.0


def test_a_demo_scene_or_a_scenario_gets_the_demos_pipeline():
    tuner = cs.widgets.tune(cs.scenarios.crossing(6, seed=1))
    assert tuner.world.agent_count == 6
    assert tuner.world.steerings[0].behaviors[1].keep_right == pytest.approx(0.3)
    assert tuner.world.max_speed[0] == pytest.approx(1.5)
    crowd = cs.widgets.tune("zigzag", within=0.5)
    assert "FollowField.sideways" in crowd.controls
    several = cs.widgets.tune(cs.scenarios.four_way(8))
    assert "pipeline 3: FollowField.sideways" in several.controls and "pipeline 0: pipeline.select" in several.controls
    with pytest.raises(TypeError, match="steering"):
        cs.widgets.tune(cs.scenarios.Scenario("mine", np.zeros((1, 2)), np.ones((1, 2)), (0, 0, 1, 1)))
    with pytest.raises(TypeError, match="world_or_scenario"):
        cs.widgets.tune(3)
    with pytest.raises(ValueError, match="steps_per_frame"):
        cs.widgets.tune(small_world(), steps_per_frame=0)
    with pytest.raises(ValueError, match="agent"):
        cs.widgets.tune(small_world(), agent=3)
    with pytest.raises(ValueError, match="scene"):
        cs.widgets.tune("moon")


def test_a_classic_agent_is_explained_on_a_cartesian_axis():
    classic = cs.classic.Steering([cs.classic.Seek([5.0, 0.0])])
    world = cs.World(cs.Pipeline([cs.Arrive()]), [[0.0, 0.0]], targets=[[5.0, 0.0]])
    world.add_agents([[0.0, 2.0]], steering=classic)
    tuner = cs.widgets.tune(world)
    assert tuner._explained.name == "polar"
    tuner.agent.value = 1
    assert tuner._explained.name == "rectilinear" and "classic steering" in tuner._explained.get_title()
    tuner.agent.value = 0
    assert tuner._explained.name == "polar"
