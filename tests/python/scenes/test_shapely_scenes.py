"""Geometry as shapely objects or WKT: a scene and a world built from them hold the same
arrays and run the same, bit for bit, as their array versions; bad shapes are named."""

import numpy as np
import pytest

import contextsteer as cs

shapely = pytest.importorskip("shapely")
from shapely.geometry import LineString, MultiPolygon, Polygon, box  # noqa: E402

ROOM = [[-6.0, -4.0, 6.0, -4.0], [6.0, -4.0, 6.0, 4.0], [6.0, 4.0, -6.0, 4.0], [-6.0, 4.0, -6.0, -4.0]]
BLOCKS = [np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 0.5], [-1.0, 0.5]]),
          np.array([[2.0, 1.0], [3.0, 1.0], [2.5, 2.5]])]


def _scene(**geometry):
    rng = np.random.default_rng(3)
    starts = np.column_stack([rng.uniform(-5.5, -3.5, 12), rng.uniform(-3.5, 3.5, 12)])
    targets = starts * [-1.0, 1.0]
    return cs.Scenario("room", starts, targets, (-6.0, -4.0, 6.0, 4.0), **geometry)


def _run(scene):
    world = scene.world(cs.Pipeline([cs.Seek(), cs.Avoid(agents=True, max_distance=2.0)]), radius=0.3, max_speed=1.4)
    return world.run(200, 0.05).positions


def test_a_shapely_scene_runs_as_its_array_version_bit_for_bit():
    arrays = _scene(segments=np.array(ROOM), polygons=tuple(BLOCKS), goal_areas=np.array([[4.0, -3.0, 5.5, 3.0]]))
    shapes = _scene(segments=Polygon([(-6, -4), (6, -4), (6, 4), (-6, 4)]),
                    polygons=MultiPolygon([Polygon(b) for b in BLOCKS]), goal_areas=box(4.0, -3.0, 5.5, 3.0))
    text = _scene(segments=LineString([(-6, -4), (6, -4), (6, 4), (-6, 4), (-6, -4)]).wkt,
                  polygons=[Polygon(b).wkt for b in BLOCKS], goal_areas=[box(4.0, -3.0, 5.5, 3.0).wkt])
    assert shapes == arrays and text == arrays
    expected = _run(arrays)
    assert _run(shapes).tobytes() == expected.tobytes() and _run(text).tobytes() == expected.tobytes()


def test_a_world_takes_shapely_walls_and_polygons():
    pipeline = cs.Pipeline([cs.Seek()])
    plain = cs.World(pipeline, [[-4.0, 0.0]], targets=[[4.0, 0.0]], segments=ROOM, polygons=BLOCKS)
    shaped = cs.World(pipeline, [[-4.0, 0.0]], targets=[[4.0, 0.0]],
                      segments=Polygon([(-6, -4), (6, -4), (6, 4), (-6, 4)]),
                      polygons=[Polygon(b) for b in BLOCKS])
    assert np.array_equal(plain.segments, shaped.segments)
    assert all(np.array_equal(a, b) for a, b in zip(plain.polygons, shaped.polygons))
    shaped.add_segments("LINESTRING (0 5, 3 5)")
    assert shaped.segments[-1].tolist() == [0.0, 5.0, 3.0, 5.0]
    shaped.add_polygon(Polygon(BLOCKS[1]))
    shaped.add_polygon("POLYGON ((5 5, 6 5, 6 6, 5 5))")
    np.testing.assert_array_equal(shaped.polygons[-2], BLOCKS[1])
    np.testing.assert_array_equal(shaped.polygons[-1], [[5.0, 5.0], [6.0, 5.0], [6.0, 6.0]])
    with pytest.raises(ValueError, match=r"vertices: expected one polygon, got 2"):
        shaped.add_polygon(MultiPolygon([Polygon(b) for b in BLOCKS]))


@pytest.mark.parametrize(("argument", "value", "message"), [
    ("polygons", Polygon([(0, 0), (4, 0), (4, 4), (0, 4)], [[(1, 1), (2, 1), (2, 2)]]), "without holes"),
    ("polygons", LineString([(0, 0), (1, 1)]), "expected Polygon geometries, got a LineString"),
    ("goal_areas", Polygon([(0, 0), (2, 0), (1, 2)]), "axis-aligned rectangles"),
    ("segments", "POLYGON ((0 0, 1 0", "expected WKT text"),
])
def test_bad_shapes_are_named(argument, value, message):
    with pytest.raises(ValueError, match=message) as error:
        _scene(**{argument: value})
    assert str(error.value).startswith(argument)
