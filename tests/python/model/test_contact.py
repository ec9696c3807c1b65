"""The contact stage (contextsteer.contact): no body in an obstacle, no overlap beyond 1 cm,
no tunnelling, the same results at any thread count; its events and its report."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import contextsteer as cs
from contextsteer import classic, demo, moving_scenes

SCENE_STEPS = 300  # 15 s of each public scene: its crowds meet, press and pile up by then


def scene_world(scene: str, kind: str, contact=None):
    setup = moving_scenes.moving_scene_setup if scene in moving_scenes.MOVING_SCENES else demo.scene_setup
    geometry, pipelines, parameters = setup(scene)
    steering = pipelines if kind == "context" else classic.Steering([classic.Arrive()])
    world = geometry.world(steering, **parameters)
    world.contact = cs.Contact() if contact is None else contact
    return world


@pytest.mark.parametrize("kind", ["context", "classic"])
@pytest.mark.parametrize("scene", demo.SCENES + moving_scenes.MOVING_SCENES)
def test_with_contact_no_agent_enters_an_obstacle_or_overlaps_another_beyond_a_centimetre(scene, kind):
    # Classic agents steered by Arrive alone head straight for their goals through walls,
    # moving bodies and one another: contact alone keeps them apart.
    world = scene_world(scene, kind)
    dt = moving_scenes.DT if scene in moving_scenes.MOVING_SCENES else demo.DT
    recording = world.run(SCENE_STEPS, dt, record=("positions", "penetration", "overlap"))
    assert np.all(np.isfinite(recording.positions))
    assert np.nanmax(recording.penetration) == 0
    assert np.nanmax(recording.overlap) <= 0.01


def test_without_contact_classic_agents_do_enter_walls():
    # The check above is not idle: the same agents without contact go into the walls.
    geometry, _, parameters = demo.scene_setup("bottleneck")
    world = geometry.world(classic.Steering([classic.Arrive()]), **parameters)
    recording = world.run(SCENE_STEPS, demo.DT, record=("penetration", "overlap"))
    assert np.nanmax(recording.penetration) > 0.05
    assert np.nanmax(recording.overlap) > 0.05


@pytest.mark.parametrize("scene", ["two_way_door", "sliding_door"])
def test_contact_results_are_bit_identical_at_one_and_two_threads(scene):
    runs = []
    for threads in (1, 2):
        world = scene_world(scene, "classic")
        world.threads = threads
        recording = world.run(120, demo.DT, record=("positions", "velocities"))
        runs.append((recording, world.events, world.contact_correction))
    (first, events_1, report_1), (second, events_2, report_2) = runs
    assert first.positions.tobytes() == second.positions.tobytes()
    assert first.velocities.tobytes() == second.velocities.tobytes()
    assert first.events.equals(second.events)
    assert report_1 == report_2
    for name in events_1:
        assert np.array_equal(events_1[name], events_2[name])


@pytest.mark.parametrize("speed", [50.0, 1e4])
def test_a_fast_agent_aimed_at_a_thin_wall_does_not_cross_it(speed):
    # One step takes it metres (or kilometres) past the wall: the sweep stops it in front.
    steering = classic.Steering([classic.Seek()])
    world = cs.World(steering, [[0.0, 0.0]], [[speed, 0.0]], segments=[[1.0, -5.0, 1.0, 5.0]], radius=0.2,
                     max_speed=speed, max_acceleration=1e6, max_force=1e6, targets=[[1e3, 0.0]],
                     contact=cs.Contact())
    for _ in range(20):
        world.step(0.1)
        assert world.positions[0, 0] <= 1.0 - 0.2
        assert world.penetration[0] == 0
    events = world.events
    assert "obstacle_contact" in set(events["kind"])
    # Pressing into the wall, it keeps none of its speed toward it.
    assert world.velocities[0, 0] <= speed * 0.1 * 1e-6 + 1e-3 or world.velocities[0, 0] <= 1e-3


def test_a_fast_agent_does_not_pass_through_a_circle_or_out_of_the_bounds():
    steering = classic.Steering([classic.Seek()])
    world = cs.World(steering, [[0.0, 0.0], [0.0, 3.0]], [[500.0, 0.0], [0.0, 500.0]], circles=[[4.0, 0.0, 0.5]],
                     bounds=(-10, -10, 10, 10), radius=0.25, max_speed=500.0, max_acceleration=1e6, max_force=1e6,
                     targets=[[100.0, 0.0], [0.0, 100.0]], contact=cs.Contact())
    for _ in range(10):
        world.step(0.1)
        assert world.positions[0, 0] <= 4.0 - 0.5 - 0.25 + 1e-4
        assert world.positions[1, 1] <= 10 - 0.25
        assert np.all(world.penetration == 0)


def test_an_agent_inside_a_polygon_is_pushed_out():
    square = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    with pytest.warns(UserWarning, match=r"1 of 1 agents start with their body in an obstacle \(rows 0\); "
                                         r"1 of 1 agents have their target where"):
        world = cs.World(classic.Steering([classic.Seek()]), [[0.7, 0.1]], polygons=[square], radius=0.2,
                         targets=[[0.7, 0.1]], contact=cs.Contact())
    world.step(0.05)
    assert world.penetration[0] == 0
    assert world.positions[0, 0] >= 1.2
    assert world.contact_correction["max"] == pytest.approx(0.5, abs=1e-3)


def test_contact_events_name_the_pair_and_the_depth_and_the_report_tells_the_correction():
    # Two agents added 0.3 m into each other: the first step reports the pair, its depth,
    # and moves each by half of it (equal masses).
    steering = classic.Steering([classic.Seek()])
    world = cs.World(steering, [[0.0, 0.0], [0.7, 0.0]], radius=0.5, targets=[[0.0, 0.0], [0.7, 0.0]],
                     contact=cs.Contact(slop=0.0))
    world.step(1e-3)
    events = world.events
    contacts = events["kind"] == "agent_contact"
    assert contacts.sum() == 1
    assert events["agent"][contacts][0] == 0 and events["other"][contacts][0] == 1
    assert events["depth"][contacts][0] == pytest.approx(0.3, abs=1e-3)
    assert np.all(events["other"][~contacts] == -1)
    assert world.overlap.max() <= 1e-4
    report = world.contact_correction
    assert report["agents"] == 2
    assert report["total"] == pytest.approx(0.3, abs=2e-3)
    assert report["max"] == pytest.approx(0.15, abs=1e-3)
    # A recording keeps them, and saves and loads them.
    recording = world.run(1, 1e-3)
    assert {"other", "depth"} <= set(recording.events.columns)


def test_a_heavier_agent_is_moved_less():
    steering = classic.Steering([classic.Seek()])
    world = cs.World(steering, [[0.0, 0.0], [0.8, 0.0]], radius=0.5, mass=[3.0, 1.0],
                     targets=[[0.0, 0.0], [0.8, 0.0]], contact=cs.Contact(slop=0.0))
    world.step(1e-3)
    moved = np.abs(world.positions[:, 0] - [0.0, 0.8])
    assert moved[1] == pytest.approx(3 * moved[0], rel=1e-2)


def walker_and_stander(motion_share: float, **contact) -> tuple[cs.World, np.ndarray]:
    """Agent 0 walks east at 1 m/s into agent 1, which stands 0.5 m ahead (both of radius
    0.3: their discs overlap by 0.1 m); the world after one step of 0.1 s, and where the
    motion alone put them."""
    pipeline = cs.Pipeline([cs.Seek([[50.0, 0.0]])], slots=16)
    world = cs.World(pipeline, [[0.0, 0.0], [0.5, 0.0]], radius=0.3, max_speed=[1.0, 0.0],
                     targets=[[50.0, 0.0], [0.5, 0.0]],
                     contact=cs.Contact(slop=0.0, motion_share=motion_share, **contact))
    world.velocities[:] = [[1.0, 0.0], [0.0, 0.0]]
    moved = np.array([[0.1, 0.0], [0.5, 0.0]])
    world.step(0.1)
    return world, moved


@pytest.mark.parametrize("share", [0.0, 0.5, 1.0])
def test_a_walker_into_a_standing_agent_takes_motion_share_more_of_the_push(share):
    world, moved = walker_and_stander(share)
    depth = 0.6 - (moved[1, 0] - moved[0, 0])  # 0.2 m overlap after the move
    pushed = np.abs(world.positions[:, 0] - moved[:, 0])
    # By mass (equal): half each; motion_share of it all on the walker.
    assert pushed[0] == pytest.approx(depth * (0.5 + share / 2), abs=1e-4)
    assert pushed[1] == pytest.approx(depth * (0.5 - share / 2), abs=1e-4)
    assert np.linalg.norm(world.positions[1] - world.positions[0]) == pytest.approx(0.6, abs=1e-4)


def test_two_agents_walking_into_each_other_share_the_push_by_their_moves():
    pipeline = cs.Pipeline([cs.Seek([[0.0, 0.0]])], slots=16)
    world = cs.World(pipeline, [[-0.45, 0.0], [0.45, 0.0]], radius=0.5, max_speed=[1.0, 3.0],
                     targets=[[50.0, 0.0], [-50.0, 0.0]], contact=cs.Contact(slop=0.0, motion_share=1.0))
    world.velocities[:] = [[1.0, 0.0], [-3.0, 0.0]]
    world.step(0.1)  # moves of 0.1 and 0.3 m toward each other: 0.4 m into 1 m of reach from 0.9 m
    pushed = np.abs(world.positions[:, 0] - [-0.35, 0.15])
    assert pushed[1] == pytest.approx(3 * pushed[0], rel=1e-3)


def test_motion_share_keeps_results_bit_identical_across_threads():
    def run(threads):
        world = scene_world("two_way_door", "context", cs.Contact(motion_share=0.5))
        world.threads = threads
        return world.run(60, demo.DT).positions
    np.testing.assert_array_equal(run(1), run(2))


def test_contact_events_can_be_turned_off_and_recordings_keep_them(tmp_path):
    world = scene_world("circle", "classic", cs.Contact(events=False))
    recording = world.run(100, demo.DT)
    assert not recording.events["kind"].isin(["agent_contact", "obstacle_contact"]).any()
    world = scene_world("circle", "classic")
    recording = world.run(300, demo.DT)
    contacts = recording.events[recording.events["kind"] == "agent_contact"]
    assert len(contacts) > 0 and (contacts["depth"] > 0).all() and (contacts["other"] >= 0).all()
    recording.save(tmp_path / "run.npz")
    loaded = cs.Recording.load(tmp_path / "run.npz")
    assert loaded.events.equals(recording.events)


def test_a_recording_saved_without_the_new_event_fields_loads_with_their_defaults(tmp_path):
    np.savez_compressed(tmp_path / "old.npz", time=np.zeros(1), ids=np.zeros(1, np.int64), complete=np.bool_(True),
                        event_step=np.array([1]), event_time=np.array([0.1]), event_agent=np.array([0]),
                        event_kind=np.array(["arrived"]))
    events = cs.Recording.load(tmp_path / "old.npz").events
    assert list(events["other"]) == [-1] and list(events["depth"]) == [0.0]


def test_contact_is_off_by_default_and_kept_by_copy_and_pickle():
    world = scene_world("circle", "classic")
    assert cs.World(classic.Steering([classic.Seek()])).contact is None
    world.contact = cs.Contact(iterations=7, slop=0.002)
    for other in (world.copy(), pickle.loads(pickle.dumps(world))):
        assert other.contact == cs.Contact(iterations=7, slop=0.002)
        a, b = world.copy(), other
        a.run(20, demo.DT)
        b.run(20, demo.DT)
        assert a.positions.tobytes() == b.positions.tobytes()
    world.contact = None
    world.step(demo.DT)
    assert world.contact is None
    assert world.contact_correction == {"total": 0.0, "max": 0.0, "agents": 0, "passes": 0}


def test_removing_agents_is_an_event():
    world = cs.World(classic.Steering([classic.Seek()]), np.zeros((3, 2)) + [[0, 0], [2, 0], [4, 0]])
    world.step(0.05)
    arrived = len(world.events["kind"])  # each stands at its target
    world.remove_agents([2, 0])
    events = {name: values[arrived:] for name, values in world.events.items()}
    assert list(events["kind"]) == ["removed", "removed"]
    assert sorted(events["agent"]) == [0, 2]
    assert np.all(events["step"] == 1)
    world.step(0.05)
    assert len(world.events["kind"]) == 0


@pytest.mark.parametrize(("setting", "value", "expected"), [
    ("iterations", 0, "iterations"), ("iterations", 1001, "iterations"), ("iterations", 2.5, "iterations"),
    ("slop", -0.1, "slop"), ("slop", float("nan"), "slop"), ("slop", 2.0, "slop"), ("events", "yes", "events"),
    ("motion_share", -0.1, "motion_share"), ("motion_share", 1.5, "motion_share"),
    ("motion_share", float("nan"), "motion_share"), ("motion_share", "half", "motion_share"),
])
def test_bad_contact_settings_name_themselves(setting, value, expected):
    with pytest.raises((ValueError, TypeError), match=expected):
        cs.Contact(**{setting: value})


def test_contact_refuses_what_it_does_not_know():
    with pytest.raises(TypeError, match="iteratons"):
        cs.Contact(iteratons=3)
    world = cs.World(classic.Steering([classic.Seek()]))
    with pytest.raises(TypeError, match="contact"):
        world.contact = {"iterations": 3}
    with pytest.raises(TypeError, match="contact"):
        cs.World(classic.Steering([classic.Seek()]), contact=True)
