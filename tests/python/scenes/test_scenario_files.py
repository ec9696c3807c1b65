"""Scenario files: the demo's scenes round-trip through their shipped TOML files to the
bit, and every kind of bad file gets an error naming the file and the key."""

import dataclasses

import numpy as np
import pytest

import contextsteer as cs
from contextsteer import demo, moving_scenes, scenario_file


@pytest.mark.parametrize("scene", scenario_file.builtin_names())
def test_the_shipped_file_is_what_the_builder_gives(scene):
    # python -m contextsteer.scenario_file python/contextsteer/scenes/builtin writes them again
    shipped = scenario_file.builtin_path(scene).read_text(encoding="utf-8")
    assert shipped == scenario_file.builtin_text(scene)


@pytest.mark.parametrize("scene", demo.SCENES)
def test_a_shipped_scene_runs_to_the_same_bits_as_its_builder(scene, tmp_path):
    geometry, steering, parameters = demo.scene_setup(scene)
    built = geometry.world(steering, **parameters)
    loaded = cs.scenarios.builtin(scene)
    assert loaded.run.dt == demo.DT and loaded.run.steps == demo.time_limit(scene) / demo.DT
    world = loaded.world()
    for _ in range(15):
        built.step(demo.DT)
        world.step(demo.DT)
    assert np.array_equal(built.positions, world.positions)
    assert np.array_equal(built.velocities, world.velocities)
    # save -> load -> save writes the same text
    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    loaded.save(first)
    cs.Scenario.load(first).save(second)
    assert first.read_text() == second.read_text()


@pytest.mark.parametrize("scene", moving_scenes.MOVING_SCENES)
def test_a_shipped_moving_scene_runs_to_the_same_bits_as_its_builder(scene):
    geometry, pipeline, parameters = moving_scenes.moving_scene_setup(scene)
    built = geometry.world(pipeline, **parameters)
    loaded = cs.scenarios.builtin(scene)
    assert loaded.run.dt == moving_scenes.DT and loaded.run.steps == moving_scenes.STEPS
    world = loaded.world()
    assert world.moving_count == built.moving_count >= 1
    for _ in range(30):
        built.step(moving_scenes.DT)
        world.step(moving_scenes.DT)
    assert np.array_equal(built.moving_positions, world.moving_positions)
    assert np.array_equal(built.positions, world.positions)


def test_a_scene_of_groups_with_their_own_agents_pipelines_and_polygons(tmp_path):
    geometry = cs.scenarios.two_way_door(20, seed=3)
    square = np.array([[-1.0, 5.0], [1.0, 5.0], [1.0, 6.0], [-1.0, 6.0]])
    geometry = dataclasses.replace(geometry, polygons=(square,))
    pipelines = (cs.Pipeline([cs.FollowField(geometry.navigation_field(group=0, cell=0.5)), cs.Avoid(agents=True)]),
                 cs.Pipeline([cs.Arrive(targets=[[-5.0, 0.0]]), cs.Avoid(agents=True, falloff="step")], slots=16,
                             threshold=0.25))
    radius = np.where(geometry.groups == 0, 0.25, 0.35)
    scenario = dataclasses.replace(geometry, steering=pipelines,
                                   agent_parameters={"radius": radius, "max_speed": 1.2},
                                   run=cs.RunSettings(dt=0.1, steps=7, record=("positions", "strength")))
    path = tmp_path / "groups.toml"
    scenario.save(path)
    text = path.read_text()
    assert "[[groups.pipeline.behaviors]]" in text and "polygons" in text
    loaded = cs.Scenario.load(path)
    assert loaded.run == scenario.run
    assert loaded.polygons[0].tolist() == square.tolist()
    a, b = scenario.world(), loaded.world()
    assert np.array_equal(a.radius, b.radius) and b.radius[-1] == np.float32(0.35)
    for _ in range(5):
        a.step(0.1)
        b.step(0.1)
    assert np.array_equal(a.positions, b.positions)


def test_a_scene_of_geometry_alone_saves_and_loads_without_steering(tmp_path):
    path = tmp_path / "circle.toml"
    cs.scenarios.circle(8).save(path)
    loaded = cs.Scenario.load(path)
    assert loaded.steering is None and loaded.run is None
    with pytest.raises(ValueError, match="steering: scenario 'circle' has no steering of its own"):
        loaded.world()
    world = loaded.world(cs.Pipeline([cs.Arrive()]), radius=0.2)
    assert len(world) == 8


def test_steering_a_file_cannot_hold_is_refused_on_save(tmp_path):
    scene = cs.scenarios.circle(4)
    python = cs.PythonBehavior(lambda batch, interest, danger: None)
    with pytest.raises(ValueError, match="built-in behaviours"):
        dataclasses.replace(scene, steering=cs.Pipeline([python])).save(tmp_path / "x.toml")


GOOD = """\
format = 1
name = "small"

[geometry]
bounds = [-5.0, -5.0, 5.0, 5.0]
circles = [[0.0, 2.0, 0.5]]
walls = [[-4.0, -4.0, 4.0, -4.0]]

[run]
dt = 0.05
steps = 10

[agents]
radius = 0.3
max_speed = 1.4

[pipeline]
slots = 16
select = "blend"

[[pipeline.behaviors]]
type = "Arrive"
sideways = 0.5

[[pipeline.behaviors]]
type = "Avoid"
agents = true
max_distance = 1.0

[[groups]]
starts = [[-3.0, 0.0], [-3.0, 1.0]]
targets = [[3.0, 0.0], [3.0, 1.0]]
"""

# (what is wrong, the text replaced, its replacement, the key named, words of the message)
BAD = [
    ("not TOML", "slots = 16", "slots = = 16", None, "not valid TOML"),
    ("unknown behaviour", '"Avoid"', '"Avod"', "pipeline.behaviors[1].type", "unknown behaviour 'Avod' (did you mean"),
    ("misspelt parameter", "max_distance", "max_distanse", "pipeline.behaviors[1].max_distanse",
     "Avoid has no parameter 'max_distanse' (did you mean 'max_distance'?)"),
    ("parameter of the wrong type", "max_distance = 1.0", 'max_distance = "far"',
     "pipeline.behaviors[1].max_distance", "expected a real number"),
    ("parameter out of range", "max_distance = 1.0", "max_distance = -1.0", "pipeline.behaviors[1].max_distance",
     "expected a number > 0"),
    ("unknown choice", "agents = true", 'agents = true\nfalloff = "wobbly"', "pipeline.behaviors[1].falloff",
     "expected one of 'step'"),
    ("flag of the wrong type", "agents = true", "agents = 1", "pipeline.behaviors[1].agents", "expected a bool"),
    ("behaviour without a type", 'type = "Arrive"\n', "", "pipeline.behaviors[0].type", "missing"),
    ("unknown pipeline setting", 'select = "blend"', 'selekt = "blend"', "pipeline.selekt", "unknown key"),
    ("unknown select", '"blend"', '"blender"', "pipeline.select", "expected one of 'argmax'"),
    ("no slots", "slots = 16", "slots = 0", "pipeline.slots", "expected an integer >= 1"),
    ("slots as text", "slots = 16", 'slots = "16"', "pipeline.slots", "expected an integer"),
    ("no geometry", "[geometry]\nbounds = [-5.0, -5.0, 5.0, 5.0]\ncircles = [[0.0, 2.0, 0.5]]\n"
     "walls = [[-4.0, -4.0, 4.0, -4.0]]\n", "", "geometry", "missing: expected a table"),
    ("bounds of three numbers", "bounds = [-5.0, -5.0, 5.0, 5.0]", "bounds = [-5.0, -5.0, 5.0]",
     "geometry.bounds", "expected [xmin, ymin, xmax, ymax]"),
    ("bounds upside down", "bounds = [-5.0, -5.0, 5.0, 5.0]", "bounds = [5.0, -5.0, -5.0, 5.0]",
     "geometry.bounds", "xmin < xmax"),
    ("circle of two numbers", "[[0.0, 2.0, 0.5]]", "[[0.0, 2.0]]", "geometry.circles", "[x, y, radius]"),
    ("negative radius", "[[0.0, 2.0, 0.5]]", "[[0.0, 2.0, -0.5]]", "geometry.circles", "expected radii >= 0"),
    ("wall of three numbers", "[[-4.0, -4.0, 4.0, -4.0]]", "[[-4.0, -4.0, 4.0]]", "geometry.walls",
     "[x0, y0, x1, y1]"),
    ("polygon of two vertices", "walls = [", "polygons = [[[0.0, 0.0], [1.0, 1.0]]]\nwalls = [",
     "geometry.polygons[0]", "vertices"),
    ("unknown top-level key", 'name = "small"', 'nmae = "small"', "nmae", "unknown key (did you mean 'name'?)"),
    ("name not a string", 'name = "small"', "name = 3", "name", "expected a string, got an integer"),
    ("newer format", "format = 1", "format = 2", "format", "expected 1"),
    ("group without starts", "starts = [[-3.0, 0.0], [-3.0, 1.0]]\n", "", "groups[0].starts", "missing"),
    ("starts as text", "starts = [[-3.0, 0.0], [-3.0, 1.0]]", 'starts = "west"', "groups[0].starts",
     "expected an array of numbers, got a string"),
    ("a target short", "targets = [[3.0, 0.0], [3.0, 1.0]]", "targets = [[3.0, 0.0]]", "groups[0].targets",
     "expected one target per start (2), got 1"),
    ("a start not finite", "[-3.0, 1.0]]\ntargets", "[-3.0, nan]]\ntargets", "groups[0].starts",
     "expected finite numbers"),
    ("no groups", "[[groups]]\nstarts = [[-3.0, 0.0], [-3.0, 1.0]]\ntargets = [[3.0, 0.0], [3.0, 1.0]]\n", "",
     "groups", "missing"),
    ("unknown agent parameter", "max_speed = 1.4", "max_sped = 1.4", "agents.max_sped", "did you mean 'max_speed'"),
    ("agent parameter out of range", "radius = 0.3", "radius = -0.3", "agents.radius", "expected values from 0"),
    ("agent parameter of the wrong type", "radius = 0.3", 'radius = "big"', "agents.radius", "expected a number"),
    ("step of zero", "dt = 0.05", "dt = 0.0", "run.dt", "expected a number >="),
    ("steps not whole", "steps = 10", "steps = 10.5", "run.steps", "expected an integer"),
    ("unknown record", "steps = 10", 'steps = 10\nrecord = "everything"', "run.record", "expected 'state'"),
    ("unknown run key", "steps = 10", "step = 10", "run.step", "did you mean 'steps'"),
    ("FollowField without a field", 'type = "Arrive"\nsideways = 0.5', 'type = "FollowField"',
     "pipeline.behaviors[0]", "missing 1 required positional argument: 'field'"),
    ("field key misspelt", 'type = "Arrive"\nsideways = 0.5', 'type = "FollowField"\nfield = { cel = 0.2 }',
     "pipeline.behaviors[0].field.cel", "did you mean 'cell'"),
    ("field cell of zero", 'type = "Arrive"\nsideways = 0.5', 'type = "FollowField"\nfield = { cell = 0.0 }',
     "pipeline.behaviors[0].field.cell", "expected a number > 0"),
    ("agents not a table", "[[groups]]\n", "[[groups]]\nagents = 3\n", "groups[0].agents",
     "expected a table, got an integer"),
    ("unknown contact setting", "[agents]", "[contact]\niteratons = 8\n\n[agents]", "contact.iteratons",
     "Contact has no setting 'iteratons'"),
    ("contact setting out of range", "[agents]", "[contact]\nslop = -1.0\n\n[agents]", "contact.slop", "expected"),
    ("contact not a table", 'name = "small"', 'name = "small"\ncontact = 3', "contact", "expected a table"),
    ("starts of unequal lengths", "starts = [[-3.0, 0.0], [-3.0, 1.0]]", "starts = [[-3.0, 0.0], [-3.0]]",
     "groups[0].starts", "unequal lengths"),
    ("starts nested unequally", "starts = [[-3.0, 0.0], [-3.0, 1.0]]", "starts = [[-3.0, 0.0], [[-3.0], 1.0]]",
     "groups[0].starts", "unequal depths"),
    ("bounds of text", "bounds = [-5.0, -5.0, 5.0, 5.0]", 'bounds = ["a", -5.0, 5.0, 5.0]', "geometry.bounds",
     "expected an array of numbers, got an array"),
    ("steps beyond an int", "steps = 10", "steps = 99999999999999999999", "run.steps", "from 1 to 2147483647"),
    ("nested past any scenario", 'name = "small"', 'name = "small"\nx = ' + "[" * 20 + "]" * 20,
     "x" + "[0]" * 16, "nested at most 16 deep"),
    ("slots that disagree across groups", "targets = [[3.0, 0.0], [3.0, 1.0]]\n",
     "targets = [[3.0, 0.0], [3.0, 1.0]]\n\n[[groups]]\nstarts = [[0.0, 3.0]]\ntargets = [[0.0, -3.0]]\n"
     "pipeline = { slots = 8, behaviors = [{ type = \"Arrive\" }] }\n", "groups[1].pipeline.slots",
     "expected the slot count of group 0's pipeline (16)"),
]


# GOOD with a moving disc, and what can be wrong with it
MOVING = """
[[geometry.moving]]
kind = "circle"
shape = [0.0, -2.0, 0.4]
waypoints = [[2.0, -2.0], [-2.0, -2.0]]
speed = 0.5
"""
GOOD_MOVING = GOOD.replace("\n[run]", MOVING + "\n[run]")
BAD += [
    ("unknown body kind", 'kind = "circle"', 'kind = "cube"', "geometry.moving[0].kind", "expected one of 'circle'"),
    ("body without a kind", 'kind = "circle"\n', "", "geometry.moving[0].kind", "missing"),
    ("body without a shape", "shape = [0.0, -2.0, 0.4]\n", "", "geometry.moving[0].shape", "missing"),
    ("disc of two numbers", "shape = [0.0, -2.0, 0.4]", "shape = [0.0, -2.0]", "geometry.moving[0].shape",
     "expected an array of shape (3,)"),
    ("disc of negative radius", "shape = [0.0, -2.0, 0.4]", "shape = [0.0, -2.0, -0.4]", "geometry.moving[0].shape",
     "radius >= 0"),
    ("body speed of zero", "speed = 0.5", "speed = 0.0", "geometry.moving[0].speed", "expected a number > 0"),
    ("body speed misspelt", "speed = 0.5", "sped = 0.5", "geometry.moving[0].sped", "did you mean 'speed'"),
    ("unknown path mode", "speed = 0.5", 'speed = 0.5\nmode = "pingpong"', "geometry.moving[0].mode",
     "expected one of 'loop'"),
    ("waypoints of three numbers", "[[2.0, -2.0], [-2.0, -2.0]]", "[[2.0, -2.0, 1.0], [-2.0, -2.0, 1.0]]",
     "geometry.moving[0].waypoints", "expected an array of shape"),
    ("velocity as text", "speed = 0.5", 'speed = 0.5\nvelocity = "fast"', "geometry.moving[0].velocity",
     "expected an array of numbers"),
]


@pytest.mark.parametrize(("what", "old", "new", "key", "words"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_file_names_the_file_and_the_key(tmp_path, what, old, new, key, words):
    good = GOOD_MOVING if key and key.startswith("geometry.moving") else GOOD
    assert old in good
    path = tmp_path / "scene.toml"
    path.write_text(good.replace(old, new, 1))
    with pytest.raises(cs.ScenarioFileError) as caught:
        cs.Scenario.load(path)
    error = caught.value
    assert error.path == str(path) and error.key == key
    assert str(error).startswith(f"{path}: {key}: " if key else f"{path}: ")
    assert words in str(error)


def test_the_good_file_loads():
    path_free = scenario_file.loads(GOOD, "good.toml")
    assert path_free.name == "small" and path_free.agent_parameters == {"radius": 0.3, "max_speed": 1.4}
    assert isinstance(path_free.steering, cs.Pipeline) and path_free.run.steps == 10
    moving = scenario_file.loads(GOOD_MOVING, "moving.toml")
    (disc,) = moving.moving
    assert disc.kind == "circle" and disc.shape.tolist() == [0.0, -2.0, 0.4] and disc.speed == 0.5
    world = moving.world()
    assert world.obstacle_path(0)[0].tolist() == [[2.0, -2.0], [-2.0, -2.0]]


def test_a_contact_table_turns_the_contact_stage_on(tmp_path):
    plain = scenario_file.loads(GOOD, "good.toml")
    assert "contact" not in plain.agent_parameters and plain.world().contact is None
    loaded = scenario_file.loads(GOOD.replace("[agents]", "[contact]\n\n[agents]"), "good.toml")
    assert loaded.agent_parameters["contact"] == cs.Contact() and loaded.world().contact == cs.Contact()
    tuned = dataclasses.replace(loaded, agent_parameters={**loaded.agent_parameters,
                                                          "contact": cs.Contact(iterations=8, slop=1e-5)})
    tuned.save(tmp_path / "tuned.toml")
    assert "[contact]\niterations = 8\nslop = 1e-05\n" in (tmp_path / "tuned.toml").read_text()
    assert cs.Scenario.load(tmp_path / "tuned.toml").world().contact == cs.Contact(iterations=8, slop=1e-5)


@pytest.mark.parametrize("depth", [500, 5000])
def test_arrays_nested_past_the_parser_are_a_file_error_not_a_recursion_error(tmp_path, depth):
    path = tmp_path / "deep.toml"
    path.write_text("format = 1\nx = " + "[" * depth + "]" * depth)
    # The parser's own recursion, or the check of the depth when the stack allows it more.
    with pytest.raises(cs.ScenarioFileError, match="nested (too deeply for the TOML parser|at most 16 deep)") as caught:
        cs.Scenario.load(path)
    assert caught.value.path == str(path)


def test_a_file_that_is_not_utf8_names_the_byte_and_its_line(tmp_path):
    path = tmp_path / "binary.toml"
    path.write_bytes(b"format = 1\n\n# caf\xe9\n")
    with pytest.raises(cs.ScenarioFileError, match=r"binary.toml: not UTF-8 text \(as TOML is\): byte 0xe9 at line 3"):
        cs.Scenario.load(path)


def test_a_syntax_error_names_its_line(tmp_path):
    path = tmp_path / "scene.toml"
    path.write_text(GOOD.replace("slots = 16", "slots = = 16"))
    with pytest.raises(cs.ScenarioFileError, match="line 18, column 9"):
        cs.Scenario.load(path)


CROWD_FILE = """\
format = 1
name = "pillar crowd"

[geometry]
bounds = [-8.0, -5.0, 8.0, 5.0]
circles = [[0.0, 0.0, 1.0]]

[agents]
radius = 0.3
max_speed = 1.4

[steering]
kind = "crowd"
slots = 12

[[groups]]
starts = [[-6.0, 0.5], [-6.0, -1.0]]
targets = [[6.0, 0.5], [6.0, -1.0]]

[[groups]]
starts = [[6.0, 0.0]]
targets = [[-6.0, 0.3]]
"""


def test_a_file_names_the_crowd_steering_and_its_world_gets_home(tmp_path):
    loaded = scenario_file.loads(CROWD_FILE, "crowd.toml")
    crowd = loaded.steering
    assert isinstance(crowd, cs.CrowdSteering)
    assert (crowd.radius, crowd.slots, crowd.max_fields) == (0.3, 12, 32)
    built = cs.crowd_steering(dataclasses.replace(loaded, steering=None, agent_parameters={}), radius=0.3, slots=12)
    world, by_hand = loaded.world(), built.world(max_speed=1.4)
    assert world.contact == built.contact and world.goals == built.goals and world.slots == 12
    for _ in range(400):
        world.step(0.05)
        by_hand.step(0.05)
    np.testing.assert_array_equal(world.positions, by_hand.positions)
    assert (np.linalg.norm(world.positions - loaded.targets, axis=1) < 1.0).all()
    # saved, it says so again, and loads to the same steering
    path = tmp_path / "crowd.toml"
    loaded.save(path)
    text = path.read_text()
    assert '[steering]\nkind = "crowd"\nslots = 12\nmax_fields = 32\n' in text and "behaviors" not in text
    again = cs.Scenario.load(path)
    assert again == loaded and again.steering.slots == 12 and again.agent_parameters == loaded.agent_parameters


def test_the_crowd_files_goals_and_contact_tables_replace_the_crowds():
    loaded = scenario_file.loads(CROWD_FILE.replace("[steering]", "[contact]\niterations = 2\n\n[steering]"), "c.toml")
    assert loaded.world().contact == cs.Contact(iterations=2)


BAD_CROWD = [
    ("unknown kind", 'kind = "crowd"', 'kind = "crowds"', "steering.kind", "expected one of 'crowd'"),
    ("kind missing", 'kind = "crowd"', "", "steering.kind", "missing"),
    ("too few slots", "slots = 12", "slots = 3", "steering.slots", "slots"),
    ("slots as text", "slots = 12", 'slots = "many"', "steering.slots", "expected an integer"),
    ("no fields", "slots = 12", "max_fields = 0", "steering.max_fields", "max_fields"),
    ("unknown key", "slots = 12", "slot = 12", "steering.slot", "did you mean 'slots'"),
    ("a pipeline too", "[steering]", "[pipeline]\nbehaviors = [{type = \"Seek\"}]\n\n[steering]", "steering",
     "expected [steering] or [pipeline], got both"),
    ("a group's pipeline", "targets = [[-6.0, 0.3]]", "targets = [[-6.0, 0.3]]\npipeline = {behaviors = []}",
     "groups[1].pipeline", "no pipeline of the group's own"),
    ("radii per group", "targets = [[-6.0, 0.3]]", "targets = [[-6.0, 0.3]]\nagents = {radius = [0.25]}",
     "agents.radius", "one radius for every agent"),
    ("a start in the pillar", "[6.0, 0.0]", "[0.5, 0.0]", "steering", "starts in or touching an obstacle"),
]


@pytest.mark.parametrize(("what", "old", "new", "key", "words"), BAD_CROWD, ids=[b[0] for b in BAD_CROWD])
def test_a_bad_crowd_steering_table_names_the_key(what, old, new, key, words):
    assert old in CROWD_FILE
    with pytest.raises(cs.ScenarioFileError) as caught:
        scenario_file.loads(CROWD_FILE.replace(old, new, 1), "crowd.toml")
    assert caught.value.key == key and words in str(caught.value)


def test_the_built_in_crowd_scenes_name_the_crowd_steering():
    for scene in ("two_way_door", "four_way", "zigzag", "u_trap"):
        text = scenario_file.builtin_path(scene).read_text(encoding="utf-8")
        assert '[steering]\nkind = "crowd"' in text and "[pipeline]" not in text
        assert isinstance(cs.scenarios.builtin(scene).steering, cs.CrowdSteering)


def test_a_scenario_steered_by_a_crowd_steering_saves_its_radius(tmp_path):
    scene = cs.scenarios.two_way_door(12, seed=2)
    crowd = cs.crowd_steering(scene, radius=0.25, slots=12)
    path = tmp_path / "door.toml"
    dataclasses.replace(scene, steering=crowd, agent_parameters={"max_speed": 1.3}).save(path)
    loaded = cs.Scenario.load(path)
    assert loaded.agent_parameters == {"max_speed": 1.3, "radius": 0.25}
    assert (loaded.steering.radius, loaded.steering.slots) == (0.25, 12)
    np.testing.assert_array_equal(loaded.world().radius, np.float32(0.25))
    with pytest.raises(ValueError, match=r"agent_parameters: .* gives its agents radius 0.3 and its crowd steering "
                                         r"radius 0.25"):
        dataclasses.replace(scene, steering=crowd, agent_parameters={"radius": 0.3}).save(path)
