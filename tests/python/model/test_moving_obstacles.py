"""Moving obstacles: adding them, their motion (velocities, paths, turning), what the
behaviours sense of them, copy, pickle, reset, thread counts and bad arguments."""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
import pytest

import contextsteer as cs


def _pipeline(*behaviors, slots=16):
    return cs.Pipeline([cs.Arrive(sideways=0.5), *behaviors], slots=slots, select="blend", danger_mode="multiply")


def _world(pipeline=None, positions=((0.0, 0.0),), targets=((10.0, 0.0),), **kwargs):
    pipeline = pipeline or _pipeline(cs.Avoid(max_distance=1.0))
    return cs.World(pipeline, np.array(positions), targets=np.array(targets), radius=0.3, max_speed=1.3,
                    max_acceleration=3.0, **kwargs)


def test_bodies_move_at_their_velocities_and_turn():
    world = _world()
    circles = world.add_moving_circles([[5, -3, 0.5], [6, 6, 0.2]], [[0, 1], [1, 0]])
    segment = world.add_moving_segments([[3, 3, 4, 3]], (0.5, 0))
    polygon = world.add_moving_polygon([[7, 0], [8, 0], [8, 1], [7, 1]], angular_velocity=1.0)
    assert circles.tolist() == [0, 1] and segment.tolist() == [2] and polygon == 3
    assert world.moving_kinds == ("circle", "circle", "segment", "polygon")
    np.testing.assert_allclose(world.moving_positions, [[5, -3], [6, 6], [3.5, 3], [7.5, 0.5]])
    view = world.moving_positions
    for _ in range(10):
        world.step(0.1)
    np.testing.assert_allclose(view, [[5, -2], [7, 6], [4, 3], [7.5, 0.5]], atol=1e-5)
    assert world.moving_angles[3] == pytest.approx(1.0, abs=1e-5)
    shapes = world.moving_shapes()
    np.testing.assert_allclose(shapes[2], [[3.5, 3], [4.5, 3]], atol=1e-5)
    # the square turned by 1 rad about its centre: its corners stay 0.5 * sqrt(2) from it
    np.testing.assert_allclose(np.linalg.norm(shapes[3] - [7.5, 0.5], axis=1), np.sqrt(0.5), rtol=1e-5)


def test_velocities_written_between_steps_move_bodies():
    world = _world()
    world.add_moving_circles([[0, 5, 0.5]])
    world.moving_velocities[0] = [2.0, 0.0]
    world.step(0.5)
    np.testing.assert_allclose(world.moving_positions[0], [1.0, 5.0])
    world.moving_positions[0] = [-3.0, 5.0]
    world.step(0.5)
    np.testing.assert_allclose(world.moving_positions[0], [-2.0, 5.0])


@pytest.mark.parametrize("mode, expected", [("loop", [2 * np.sqrt(2), 4 - 2 * np.sqrt(2)]),
                                            ("back_and_forth", [4.0, 4.0])])
def test_paths_loop_or_go_back_and_forth(mode, expected):
    world = _world(positions=((0.0, 20.0),), targets=((0.0, 20.0),))
    world.add_moving_circles([[0, 0, 0.5]])
    world.set_obstacle_path(0, [[4, 0], [4, 4], [0, 4]], speed=2.0, mode=mode)
    # 4 + 4 + 4 m in 6 s reaches the last waypoint; 2 s more go on 4 m: to the first
    # again (looping, along the diagonal) or back to the second
    for _ in range(80):
        world.step(0.1)
    np.testing.assert_allclose(world.moving_positions[0], expected, atol=1e-4)
    assert np.linalg.norm(world.moving_velocities[0]) == pytest.approx(2.0, rel=1e-5)
    waypoints, speed, kind = world.obstacle_path(0)
    assert speed == 2.0 and kind == mode and waypoints.shape == (3, 2)
    world.reset()
    np.testing.assert_allclose(world.moving_positions[0], [0, 0])
    world.set_obstacle_path(0, None)
    assert world.obstacle_path(0) is None


def test_a_path_of_one_waypoint_ends_at_rest():
    world = _world()
    world.add_moving_circles([[0, 5, 0.5]])
    world.set_obstacle_path([0], [[1, 5]], speed=1.0)
    for _ in range(20):
        world.step(0.1)
    np.testing.assert_allclose(world.moving_positions[0], [1, 5], atol=1e-6)
    np.testing.assert_allclose(world.moving_velocities[0], [0, 0])


def test_penetration_and_moving_overlap_count_the_bodies():
    world = _world(_pipeline(), positions=((0.0, 0.0),), targets=((0.0, 0.0),))
    world.add_moving_circles([[3, 0, 1.0]], [[-10, 0]])
    world.step(0.2)  # the disc now stands at x = 1, reaching 0.3 m into the agent
    assert world.moving_overlap()[0] == pytest.approx(0.3, abs=1e-3)
    assert world.penetration[0] == pytest.approx(0.3, abs=1e-3)


@pytest.mark.parametrize("behavior", [cs.Avoid(max_distance=2.0), cs.Rays(length=3.0), cs.TimeToCollision(),
                                      cs.Anticipate()])
def test_sensing_behaviours_see_a_body_coming(behavior):
    """A disc crossing the agent's way: danger ahead of the agent from every sensing
    behaviour (the predicting ones from its velocity while it is still to the side)."""
    world = _world(_pipeline(behavior))
    sees_where_it_is = isinstance(behavior, (cs.Avoid, cs.Rays))
    world.add_moving_circles([[2.0, -1.2, 0.5] if sees_where_it_is else [0.5, -3.0, 0.5]], [[0, 1.5]])
    world.step(0.1)
    assert world.danger[0].max() > 0.2
    static = _world(_pipeline(behavior))
    static.step(0.1)
    assert static.danger[0].max() == 0


def _slot_danger(world, direction):
    """The agent's danger in the slot of `direction` (16 slots, slot 0 along +x)."""
    return float(world.danger[0][int(round(np.arctan2(direction[1], direction[0]) / (2 * np.pi / 16))) % 16])


@pytest.mark.parametrize("behavior", [cs.TimeToCollision(horizon=3.0), cs.Anticipate(radius=8.0, horizon=3.0)])
@pytest.mark.parametrize("kind", ["segment", "polygon"])
def test_a_long_wall_sweeping_across_the_way_is_seen_along_its_whole_length(behavior, kind):
    """A wall (or bar) 12 m long, 2 m to the agent's left, sweeping across its way at
    1 m/s: the ways along it are dangerous to both ends, as the disc round it would not
    see; away from it the agent gets clear. A wall 1 m long is passed by its ends."""
    def world_with(half_length):
        world = _world(_pipeline(behavior), targets=((10.0, 0.0),), velocities=np.array([[1.0, 0.0]]))
        if kind == "segment":
            world.add_moving_segments([[-half_length, 2, half_length, 2]], [[0, -1]])
        else:
            world.add_moving_polygon([[-half_length, 2], [half_length, 2], [half_length, 2.5], [-half_length, 2.5]],
                                     (0, -1))
        world.step(0.001)
        return world

    long_wall, short_wall = world_with(6.0), world_with(0.5)
    for along in ((1, 0), (-1, 0)):
        assert _slot_danger(long_wall, along) > 0.4
        assert _slot_danger(short_wall, along) < _slot_danger(long_wall, along) - 0.3
    assert _slot_danger(long_wall, (0, -1)) < 0.1
    # the disc round the long wall, as a moving circle, would leave the agent's way open
    disc = _world(_pipeline(behavior), targets=((10.0, 0.0),), velocities=np.array([[1.0, 0.0]]))
    disc.add_moving_circles([[0, 2, 6.0]], [[0, -1]])
    disc.step(0.001)
    if isinstance(behavior, cs.TimeToCollision):
        assert _slot_danger(disc, (1, 0)) == 0


def test_a_long_wall_going_by_along_its_length_is_no_danger_but_to_walk_into():
    """Anticipate: the disc round a wall 12 m long going by 2 m away holds the agent; the
    wall itself comes no nearer, so only the ways into it have danger."""
    world = _world(_pipeline(cs.Anticipate(radius=8.0, horizon=3.0)), targets=((10.0, 0.0),))
    world.add_moving_segments([[-6, 2, 6, 2]], [[1, 0]])
    world.step(0.001)
    for way in ((1, 0), (-1, 0), (0, -1)):
        assert _slot_danger(world, way) == 0
    assert _slot_danger(world, (0, 1)) > 0.5


def test_agents_step_out_of_a_body_s_way():
    world = _world(_pipeline(cs.Avoid(max_distance=1.0), cs.Anticipate(radius=4.0, horizon=1.5, make_way=1.0)),
                   targets=((0.0, 0.0),))
    world.add_moving_circles([[0, -8, 1.0]])
    world.set_obstacle_path(0, [[0, 8]], speed=1.0)
    deepest = 0.0
    for _ in range(160):
        world.step(0.1)
        deepest = max(deepest, float(world.moving_overlap()[0]))
    assert deepest == 0.0
    assert np.linalg.norm(world.positions[0]) > 0.5  # it moved aside


def _many_bodies_world(threads):
    rng = np.random.default_rng(3)
    starts = rng.uniform(-20, 20, (300, 2))
    pipeline = _pipeline(cs.Avoid(agents=True, max_distance=1.5), cs.Rays(length=2.0), cs.TimeToCollision(),
                         cs.Anticipate(make_way=0.5))
    world = cs.World(pipeline, starts, targets=-starts, radius=0.3, max_speed=1.3, threads=threads)
    world.add_moving_circles(np.column_stack([rng.uniform(-20, 20, (80, 2)), rng.uniform(0.2, 1.0, 80)]),
                             rng.uniform(-1, 1, (80, 2)))
    world.add_moving_segments(rng.uniform(-20, 20, (20, 4)), rng.uniform(-1, 1, (20, 2)))
    world.add_moving_polygon([[0, 0], [2, 0], [1, 2]], (0.3, 0.2), 0.5)
    world.set_obstacle_path(np.arange(10), rng.uniform(-20, 20, (10, 3, 2)), speed=1.5, mode="back_and_forth")
    return world


def test_bit_identical_at_1_and_2_threads_and_after_copy_and_pickle():
    one, two = _many_bodies_world(1), _many_bodies_world(2)
    for _ in range(20):
        one.step(0.1), two.step(0.1)
    copied, pickled = one.copy(), pickle.loads(pickle.dumps(one))
    assert pickled.obstacle_path(3)[2] == "back_and_forth"
    for _ in range(30):
        for world in (one, two, copied, pickled):
            world.step(0.1)
    for world in (two, copied, pickled):
        assert np.array_equal(world.positions, one.positions)
        assert np.array_equal(world.moving_positions, one.moving_positions)
        assert np.array_equal(world.moving_angles, one.moving_angles)
        assert np.array_equal(world.danger, one.danger)


# The static twin stands its circles where the drifting bodies are, some over agents: it names them.
@pytest.mark.filterwarnings("ignore:World.*in an obstacle:UserWarning")
def test_index_is_kept_while_bodies_drift_and_gives_what_checking_all_gives():
    """Among more than 64 bodies the index is kept between rebuilds; the agents' dangers
    are those of the same bodies as static obstacles, checked afresh each step."""
    rng = np.random.default_rng(0)
    circles = np.column_stack([rng.uniform(-10, 10, (100, 2)), np.full(100, 0.3)])
    velocities = rng.uniform(-0.5, 0.5, (100, 2))
    starts = rng.uniform(-10, 10, (50, 2))
    moving = cs.World(_pipeline(cs.Avoid(max_distance=2.0)), starts, targets=-starts, radius=0.3)
    moving.add_moving_circles(circles, velocities)
    for _ in range(12):
        moving.step(0.1)
        static = cs.World(_pipeline(cs.Avoid(max_distance=2.0)), moving.positions.copy(), targets=-starts,
                          radius=0.3, circles=np.concatenate(moving.moving_shapes()))
        static.velocities[:] = moving.velocities
        static.heading[:] = moving.heading
        twin = moving.copy()
        twin.moving_velocities[:] = 0  # where they stand: a step of the twin moves them no farther
        twin.step(0.1)
        static.step(0.1)
        assert np.array_equal(twin.danger, static.danger)


def test_moving_views_survive_adding_more_bodies():
    world = _world()
    world.add_moving_circles([[0, 5, 0.5]])
    old = world.moving_positions
    world.add_moving_circles(np.column_stack([np.arange(200.0), np.zeros(200), np.full(200, 0.1)]))
    assert old.shape == (1, 2) and world.moving_positions.shape == (201, 2)
    world.step(0.1)


@pytest.mark.parametrize("call, name", [
    (lambda w: w.add_moving_circles([[0, 0, -1]]), "circles"),
    (lambda w: w.add_moving_circles([[0, 0, 1]], [[np.nan, 0]]), "velocities"),
    (lambda w: w.add_moving_circles([[0, 0, 1]], [[1, 0], [0, 1]]), "velocities"),
    (lambda w: w.add_moving_circles([[0, 0, 1]], layer=-1), "layer"),
    (lambda w: w.add_moving_segments([[0, 0, 1]]), "segments"),
    (lambda w: w.add_moving_polygon([[0, 0], [1, 0]]), "vertices"),
    (lambda w: w.add_moving_polygon([[0, 0], [1, 0], [0, 1]], velocity=(1, 2, 3)), "velocity"),
    (lambda w: w.add_moving_polygon([[0, 0], [1, 0], [0, 1]], angular_velocity=np.inf), "angular_velocity"),
    (lambda w: w.set_obstacle_path(5, [[0, 0]]), "ids"),
    (lambda w: w.set_obstacle_path(0, [[0, 0, 1]]), "waypoints"),
    (lambda w: w.set_obstacle_path(0, [[0, 1e12]]), "waypoints"),
    (lambda w: w.set_obstacle_path(0, [[0, 0]], speed=0), "speed"),
    (lambda w: w.set_obstacle_path(0, [[0, 0]], mode="bounce"), "mode"),
    (lambda w: w.obstacle_path(7), "index"),
])
def test_bad_arguments_name_themselves(call, name):
    world = _world()
    world.add_moving_circles([[0, 5, 0.5]])
    with pytest.raises((ValueError, TypeError, IndexError), match=name):
        call(world)
    assert world.moving_count == 1 and world.obstacle_path(0) is None


def test_bad_values_written_to_the_views_stop_the_step():
    world = _world()
    world.add_moving_circles([[0, 5, 0.5]])
    world.moving_velocities[0] = [np.inf, 0]
    with pytest.raises(ValueError, match="moving_velocities"):
        world.step(0.1)
    assert world.steps_taken == 0


def test_scenes_with_moving_bodies_save_and_load_to_the_same_bits(tmp_path):
    from contextsteer import moving_scenes

    scene = moving_scenes.moving_crossing(10)
    assert "1 moving obstacle" in repr(scene)
    polygon = moving_scenes.MovingBody("polygon", [[3.0, 3.0], [4.0, 3.0], [4.0, 4.0]], velocity=(0.1, 0.0),
                                       angular_velocity=0.5, layer=3)
    wall = moving_scenes.MovingBody("segment", [1.0, -5.0, 2.0, -5.0], waypoints=[[1.5, 5.0], [1.5, -5.0]],
                                    speed=0.3, mode="back_and_forth")
    scene = dataclasses.replace(scene, moving=(*scene.moving, polygon, wall))
    path = tmp_path / "scene.toml"
    scene.save(path)
    assert path.read_text().count("[[geometry.moving]]") == 3
    loaded = cs.Scenario.load(path)
    pipeline = _pipeline(cs.Avoid(max_distance=1.0))
    a, b = scene.world(pipeline), loaded.world(pipeline)
    assert b.moving_kinds == ("circle", "polygon", "segment") and b.obstacle_path(2)[2] == "back_and_forth"
    for _ in range(20):
        a.step(0.1)
        b.step(0.1)
    assert np.array_equal(a.moving_positions, b.moving_positions)
    assert np.array_equal(a.moving_angles, b.moving_angles)
    assert np.array_equal(a.positions, b.positions)


@pytest.mark.parametrize(("fields", "name"), [
    ({"kind": "cube", "shape": [0, 0, 1]}, "kind"),
    ({"kind": "circle", "shape": [0, 0]}, "shape"),
    ({"kind": "circle", "shape": [0, 0, -1]}, "shape"),
    ({"kind": "segment", "shape": [0, 0, 1]}, "shape"),
    ({"kind": "polygon", "shape": [[0, 0], [1, 1]]}, "shape"),
    ({"kind": "circle", "shape": [0, 0, 1], "velocity": [np.nan, 0]}, "velocity"),
    ({"kind": "circle", "shape": [0, 0, 1], "angular_velocity": "fast"}, "angular_velocity"),
    ({"kind": "circle", "shape": [0, 0, 1], "waypoints": np.zeros((0, 2))}, "waypoints"),
    ({"kind": "circle", "shape": [0, 0, 1], "waypoints": [[0, 1, 2]]}, "waypoints"),
    ({"kind": "circle", "shape": [0, 0, 1], "speed": 0}, "speed"),
    ({"kind": "circle", "shape": [0, 0, 1], "mode": "pingpong"}, "mode"),
    ({"kind": "circle", "shape": [0, 0, 1], "layer": -1}, "layer"),
])
def test_a_bad_moving_body_names_its_field(fields, name):
    from contextsteer import moving_scenes

    with pytest.raises((ValueError, TypeError), match=f"^{name}: "):
        moving_scenes.MovingBody(**fields)


def test_a_run_records_the_bodies_poses_from_the_start():
    world = _world()
    world.add_moving_circles([[0, 5, 0.5]], [[1, 0]])
    world.add_moving_polygon([[7, 0], [8, 0], [8, 1]], angular_velocity=1.0)
    twin = world.copy()
    recording = world.run(6, 0.5, record="positions", include_start=True)
    assert recording.moving_positions.shape == (7, 2, 2) and recording.moving_angles.shape == (7, 2)
    assert recording.moving_kinds == ("circle", "polygon")
    np.testing.assert_array_equal(recording.moving_positions[0], twin.moving_positions)
    for step in range(1, 7):
        twin.step(0.5)
        np.testing.assert_array_equal(recording.moving_positions[step], twin.moving_positions)
        np.testing.assert_array_equal(recording.moving_angles[step], twin.moving_angles)
    for got, want in zip(recording.moving_shapes(-1), twin.moving_shapes()):
        np.testing.assert_allclose(got, want, atol=1e-6)
    assert recording.moving_shapes(3)[0][0].tolist() == pytest.approx([1.5, 5.0, 0.5])
    with pytest.raises(IndexError, match="step"):
        recording.moving_shapes(7)
    assert recording.truncated(3).moving_positions.shape == (3, 2, 2)
    assert _world().run(2, 0.1).moving_positions is None  # no bodies, no poses


def test_recordings_with_bodies_save_load_and_join(tmp_path):
    world = _world()
    world.add_moving_segments([[3, 3, 4, 3]], [[0, 0.5]])
    world.add_moving_circles([[0, 5, 0.5]], [[1, 0]])
    first, second = world.run(3, 0.1), world.run(4, 0.1, include_start=False)
    joined = cs.Recording.joined([first, second])
    assert joined.steps == 8 and joined.moving_positions.shape == (8, 2, 2)
    np.testing.assert_array_equal(joined.moving_positions[4:], second.moving_positions)
    joined.save(tmp_path / "run.npz")
    loaded = cs.Recording.load(tmp_path / "run.npz")
    assert loaded.moving_kinds == ("segment", "circle")
    np.testing.assert_array_equal(loaded.moving_angles, joined.moving_angles)
    for got, want in zip(loaded.moving_shapes(5), joined.moving_shapes(5)):
        np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match=r"parts\[1\]"):
        cs.Recording.joined([first, _world().run(2, 0.1)])
    with pytest.raises(ValueError, match="parts"):
        cs.Recording.joined([])


@pytest.mark.parametrize("seed", [0, 1])
def test_the_public_moving_crossing_meets_its_bar(seed):
    """The public crowd steering: within the scene's 45 s at least 99% of the flow is home
    (as without the disc), and the disc overlaps no agent."""
    from contextsteer import moving_scenes

    run = moving_scenes.run_moving_scene("moving_crossing", seed=seed, steps=450)
    metrics = run.metrics
    assert metrics["agents_hit"] == 0 and metrics["deepest_overlap"] <= 0.001
    assert metrics["arrived"] >= 0.99
    assert run.moving_positions.shape == (len(run.trajectories), 1, 2)
    assert np.ptp(run.moving_positions[:, 0, 1]) > 20  # the disc crossed the flow


def test_the_sliding_door_opens_and_shuts_and_is_measured():
    from contextsteer import moving_scenes

    run = moving_scenes.run_moving_scene("sliding_door", agents=12, steps=600)
    assert run.metrics["agents_hit"] == 0
    panel = run.moving_positions[:, 0, 1]
    assert panel.min() == pytest.approx(0.0, abs=0.06) and panel.max() == pytest.approx(4.0, abs=0.06)
    assert set(run.metrics) == {"arrived", "agents_hit", "deepest_overlap", "steps"}
    assert run.metrics["arrived"] == 1.0


def test_plots_and_animations_draw_the_bodies_where_they_were(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle, Polygon

    from contextsteer import plotting

    world = _world()
    world.add_moving_circles([[0, 5, 0.5]], [[1, 0]])
    world.add_moving_segments([[3, 3, 4, 3]])
    world.add_moving_polygon([[7, 0], [8, 0], [8, 1]], angular_velocity=1.0)
    frames, positions = [], []
    for _ in range(3):
        world.step(0.5)
        frames.append(world.moving_shapes())
        positions.append(world.positions.copy())
    fig, ax = plt.subplots()
    artists = plotting.plot_moving_obstacles(frames[0], ax)
    assert [type(a).__name__ for a in artists] == ["Circle", "Line2D", "Polygon"]
    anim = plotting.animate(np.stack(positions), ax, moving=frames)
    anim._func(2)
    circles = [p for p in ax.patches if isinstance(p, Circle) and p.get_label() == "moving obstacles"]
    assert circles[-1].center == pytest.approx((1.5, 5.0))
    assert any(isinstance(p, Polygon) for p in ax.patches)
    anim.save(tmp_path / "run.gif", writer="pillow")
    with pytest.raises(ValueError, match="moving"):
        plotting.animate(np.stack(positions), ax, moving=frames[:2])
    plt.close(fig)
    # a recording carries its bodies: animate draws them without being given them
    fig, ax = plt.subplots()
    recording = world.run(4, 0.5)
    anim = plotting.animate(recording, ax)
    anim._func(3)
    circles = [p for p in ax.patches if isinstance(p, Circle) and p.get_label() == "moving obstacles"]
    assert circles[-1].center == pytest.approx(tuple(recording.moving_positions[3, 0]))
    anim.save(tmp_path / "recording.gif", writer="pillow")
    plt.close(fig)


@pytest.mark.parametrize("call, name", [
    (lambda ms: ms.moving_crossing(0), "agents"),
    (lambda ms: ms.moving_crossing(10, speed=-1), "speed"),
    (lambda ms: ms.moving_crossing(10, radius=0), "radius"),
    (lambda ms: ms.moving_crossing(10, seed=-1), "seed"),
    (lambda ms: ms.sliding_door(10, door=np.nan), "door"),
    (lambda ms: ms.sliding_door(10, speed=0), "speed"),
    (lambda ms: ms.moving_scene_setup("revolving_door"), "scene"),
    (lambda ms: ms.run_moving_scene("moving_crossing", 5, steps=0), "steps"),
    (lambda ms: ms.run_moving_scene("moving_crossing", 5, arrive_radius=-1), "arrive_radius"),
    (lambda ms: ms.add_bodies(_world(), [ms.MovingBody("cube", np.zeros(3))]), "kind"),
    (lambda ms: cs.metrics.moving_contact(np.zeros(3)), "overlap"),
    (lambda ms: cs.metrics.moving_contact(np.zeros((2, 3)), tolerance=-1), "tolerance"),
])
def test_bad_scene_and_metric_arguments_name_themselves(call, name):
    from contextsteer import moving_scenes

    with pytest.raises((ValueError, TypeError), match=name):
        call(moving_scenes)


def test_plot_moving_obstacles_names_a_bad_shape():
    import matplotlib

    matplotlib.use("Agg")
    from contextsteer import plotting

    with pytest.raises(ValueError, match=r"shapes\[0\]"):
        plotting.plot_moving_obstacles([np.zeros((2, 3))])


def test_a_pile_of_coincident_moving_bodies_is_added_whole_and_sensed():
    # 20,000 circles at one point and as many segments across it, each added in one call
    # (in time near-linear in them: bench_quadratic_corners.py): every body is there, and
    # an agent beside the pile is stopped by it.
    world = cs.World(cs.Pipeline([cs.Seek([[10.0, 0.0]]), cs.Avoid()], slots=16), [[-1.5, 0.0]])
    circles = world.add_moving_circles(np.tile([0.0, 0.0, 0.5], (20_000, 1)))
    segments = world.add_moving_segments(np.tile([0.0, -1.0, 0.0, 1.0], (20_000, 1)), velocities=[0.0, 0.1])
    assert circles.tolist() == list(range(20_000)) and segments[-1] == 39_999 and world.moving_count == 40_000
    world.step(0.1)
    np.testing.assert_allclose(world.moving_positions[20_000:], np.tile([0.0, 0.01], (20_000, 1)), atol=1e-6)
    assert world.danger[0].max() > 0 and world.direction[0][0] < 0.9  # the pile ahead is danger

