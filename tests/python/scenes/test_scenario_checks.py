"""A Scenario checks its geometry when made, as a World does: one ValueError naming the
field and the row; ``obstacles``, the circles' name before, still works with a
DeprecationWarning; the overlap helpers refuse what they cannot measure."""

import pickle
import warnings

import numpy as np
import pytest

import contextsteer as cs
from contextsteer.model.obstacle_overlap import bodies_in_obstacles, distances_to_obstacles

STARTS = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0]])
TARGETS = STARTS + [0.0, 2.0]
BOUNDS = (-5.0, -5.0, 5.0, 5.0)
GOOD = dict(circles=np.array([[0.0, -3.0, 0.5]] * 4), segments=np.array([[-4.0, 4.0, 4.0, 4.0]] * 4),
            goal_areas=np.array([[-1.0, 1.0, 4.0, 3.0]] * 4), polygons=[np.array([[-4.0, -4.0], [-3.0, -4.0],
                                                                                   [-3.0, -3.0]])])


def scene(**changed):
    fields = dict(name="checked", starts=STARTS, targets=TARGETS, bounds=BOUNDS, **GOOD)
    fields.update(changed)
    return cs.Scenario(**fields)


def with_value(array, row, column, value):
    out = np.array(array, dtype=float)
    out[row, column] = value
    return out


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf, 1e30])
@pytest.mark.parametrize("field", ["starts", "targets", "circles", "segments", "goal_areas"])
def test_a_bad_number_is_named_with_its_field_and_row(field, value):
    base = {"starts": STARTS, "targets": TARGETS, **GOOD}[field]
    with pytest.raises(ValueError, match=rf"^{field}: expected finite values .* at index \(3, 1\)"):
        scene(**{field: with_value(base, 3, 1, value)})


@pytest.mark.parametrize("value", [np.nan, np.inf, 1e30])
def test_a_bad_polygon_vertex_or_bound_is_named(value):
    with pytest.raises(ValueError, match=r"^polygons\[0\]: expected finite values .* at index \(2, 0\)"):
        scene(polygons=[with_value(GOOD["polygons"][0], 2, 0, value)])
    with pytest.raises(ValueError, match=r"^bounds: expected finite values .* at index \(2,\)"):
        scene(bounds=(-5.0, -5.0, value, 5.0))


@pytest.mark.parametrize("changed, message", [
    (dict(starts=np.zeros((4, 3))), r"^starts: expected an array of shape \(m, 2\)"),
    (dict(targets=TARGETS[:3]), r"^targets: expected one target per start \(4\), got 3"),
    (dict(circles=with_value(GOOD["circles"], 1, 2, -0.5)), r"^circles: expected radii from 0 .* at row 1"),
    (dict(segments=np.zeros((2, 3))), r"^segments: expected an array of shape \(m, 4\)"),
    (dict(goal_areas=with_value(GOOD["goal_areas"], 2, 0, 9.0)), r"^goal_areas: expected xmin <= xmax .* row 2"),
    (dict(polygons=[np.zeros((2, 2))]), r"^polygons\[0\]: expected at least 3 vertices"),
    (dict(bounds=(5.0, -5.0, -5.0, 5.0)), r"^bounds: expected .* xmin < xmax"),
    (dict(bounds=(-5.0, -5.0, 5.0)), r"^bounds: expected an array of shape \(4,\)"),
    (dict(starts=with_value(STARTS, 2, 0, 6.0)), r"^starts: expected points inside the bounds .* at row 2"),
    (dict(targets=with_value(TARGETS, 1, 1, -5.5)), r"^targets: expected points inside the bounds .* at row 1"),
    (dict(groups=[0, 0, 1, -1]), r"^groups: expected groups from 0 .* got -1 at row 3"),
    (dict(groups=[0, 0, 1.5, 1]), r"^groups: expected whole numbers, got 1.5 at row 2"),
    (dict(groups=[0, 1]), r"^groups: expected an array of shape \(4,\)"),
    (dict(goal_area_groups=[0, 0, 0, np.nan]), r"^goal_area_groups: expected whole numbers, got nan at row 3"),
])
def test_a_bad_shape_or_range_is_named(changed, message):
    with pytest.raises(ValueError, match=message):
        scene(**changed)


def test_the_wrong_kind_of_object_is_a_type_error():
    for changed in (dict(name=3), dict(starts="abc"), dict(polygons=5), dict(moving=[object()]),
                    dict(groups=["a", "b", "c", "d"])):
        with pytest.raises(TypeError, match=f"^{next(iter(changed))}: expected"):
            scene(**changed)


def test_a_checked_scene_keeps_float64_arrays_and_plain_float_bounds():
    made = scene(starts=STARTS.astype(np.int64), bounds=np.array(BOUNDS, dtype=np.float32))
    assert made.starts.dtype == np.float64 and made.circles.dtype == np.float64
    assert made.bounds == BOUNDS and all(type(b) is float for b in made.bounds)
    assert made.groups.dtype == np.int64 and made.groups.tolist() == [0, 0, 0, 0]
    assert made == scene() and pickle.loads(pickle.dumps(made)) == made


def test_obstacles_is_the_deprecated_name_of_circles():
    with pytest.warns(DeprecationWarning, match="obstacles is now circles"):
        old = cs.Scenario("old", STARTS, TARGETS, BOUNDS, obstacles=GOOD["circles"])
    assert old == scene(name="old", segments=np.zeros((0, 4)), goal_areas=np.zeros((0, 4)), polygons=())
    with pytest.warns(DeprecationWarning, match="obstacles is now circles"):
        assert old.obstacles is old.circles
    with pytest.raises(TypeError, match="circles or obstacles"):
        cs.Scenario("both", STARTS, TARGETS, BOUNDS, obstacles=GOOD["circles"], circles=GOOD["circles"])
    with warnings.catch_warnings():  # what reads a scene's geometry by name does not warn
        warnings.simplefilter("error")
        cs.crowd_steering(cs.Scenario("one", [[0.0, 0.0]], [[3.0, 0.0]], (-1, -1, 4, 1)), radius=0.3)


def test_a_scenario_file_with_the_key_obstacles_reads_with_a_warning(tmp_path):
    text = cs.scenario_file.dumps(cs.scenarios.corridor(3))
    assert "circles = [" in text
    path = tmp_path / "old.toml"
    path.write_text(text.replace("circles = [", "obstacles = ["))
    with pytest.warns(DeprecationWarning, match=r"geometry.obstacles is now circles"):
        assert cs.Scenario.load(path) == cs.scenario_file.loads(text, path)
    path.write_text(text.replace("[geometry]\n", "[geometry]\nobstacles = [[0.0, 0.0, 1.0]]\n"))
    with pytest.raises(cs.ScenarioFileError, match="geometry.obstacles: expected circles or obstacles"):
        cs.Scenario.load(path)


@pytest.mark.parametrize("key, value, message", [
    ("bounds", "[-5.0, -5.0, nan, 5.0]", "geometry.bounds: expected finite"),
    ("bounds", "[-5.0, -5.0, inf, 5.0]", "geometry.bounds: expected finite"),
    ("starts", "[[0.0, 0.0], [90.0, 0.0]]", r"groups\[0\].starts: expected points inside the bounds .* at row 1"),
    ("targets", "[[0.0, 0.0], [0.0, -90.0]]", r"groups\[0\].targets: expected points inside the bounds .* row 1"),
])
def test_a_scenario_file_names_the_key_of_bad_geometry(tmp_path, key, value, message):
    text = ("format = 1\n[geometry]\nbounds = [-5.0, -5.0, 5.0, 5.0]\n[[groups]]\nstarts = [[0.0, 0.0], [1.0, 0.0]]\n"
            "targets = [[2.0, 0.0], [3.0, 0.0]]\n")
    lines = [f"{key} = {value}" if line.startswith(f"{key} = ") else line for line in text.splitlines()]
    path = tmp_path / "bad.toml"
    path.write_text("\n".join(lines))
    with pytest.raises(cs.ScenarioFileError, match=message):
        cs.Scenario.load(path)


def test_the_overlap_helpers_refuse_what_they_cannot_measure_and_measure_long_walls():
    for points in ([[np.nan, 0.0]], [[np.inf, 0.0]], [[0.0, 1e30]]):
        with pytest.raises(ValueError, match=r"^points: expected finite values .* at index \(0, \d\)"):
            bodies_in_obstacles(points, 0.3, segments=[[0.0, 0.0, 1.0, 1.0]])
        with pytest.raises(ValueError, match=r"^points: expected finite"):
            distances_to_obstacles(points, circles=[[0.0, 0.0, 1.0]])
    with pytest.raises(ValueError, match=r"^radius: expected finite"):
        bodies_in_obstacles([[0.0, 0.0]], np.nan, circles=[[0.0, 0.0, 1.0]])
    with pytest.raises(ValueError, match=r"^polygons\[0\]: expected finite .* at index \(1, 1\)"):
        distances_to_obstacles([[0.0, 0.0]], polygons=[[[0.0, 0.0], [1.0, np.nan], [1.0, 1.0]]])
    # Walls and circles of 1e9 m against bodies far apart: measured without a grid of their
    # size (1e9 cells, or pieces of a wall, would take all the memory).
    inside = bodies_in_obstacles([[0.0, 0.1], [5e8, 2.0], [-9e8, -9e8]], 0.3, segments=[[-1e9, 0.0, 1e9, 0.0]],
                                 circles=[[1e9, 1e9, 1e9]])
    assert inside.tolist() == [True, False, False]


def test_the_overlap_helpers_agree_with_the_distances():
    rng = np.random.default_rng(0)
    points = rng.uniform(-50, 50, (2000, 2))
    circles = np.column_stack([rng.uniform(-50, 50, (100, 2)), rng.uniform(0, 2, 100)])
    walls = rng.uniform(-50, 50, (50, 4))
    walls[0] = [-1e6, 3.0, 1e6, 3.0]  # a wall far longer than the grid
    inside = bodies_in_obstacles(points, 0.3, circles=circles, segments=walls)
    np.testing.assert_array_equal(inside, distances_to_obstacles(points, circles=circles, segments=walls) < 0.3)
