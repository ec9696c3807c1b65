"""Racing lanes: lateral maps across the track ahead, and overtaking in a world."""

import numpy as np
import pytest

import contextsteer as cs


def straight(length=200.0, half_width=5.0, line=2.0):
    return cs.Track([[0, 0], [length, 0]], half_width, racing_line=[line, line])


def test_lane_maps_by_hand():
    lanes = cs.RacingLanes(straight(), lanes=5, lookahead=10.0, line_width=5.0)
    m = lanes.lane_maps([[0, 0], [6, 2]], radius=1.0)
    # Lane centres -4, -2, 0, 2, 4; the racing line at 2, line width 5: 1 - |e - 2| / 5.
    np.testing.assert_allclose(m.interest[0], [0.0, 0.2, 0.6, 1.0, 0.6], atol=1e-6)
    # The car 6 m ahead spans lateral [0, 4] (two radii of 1 m): lanes 2, 3 and 4 (spans
    # [-1, 1], [1, 3], [3, 5]) get 1 - 6/10.
    np.testing.assert_allclose(m.danger[0], [0, 0, 0.4, 0.4, 0.4], atol=1e-6)
    np.testing.assert_allclose(m.final[0], np.maximum(0, m.interest[0] - m.danger[0]), atol=1e-6)
    assert m.lateral[0] == pytest.approx(2.0)  # the line still wins at that distance
    np.testing.assert_allclose(m.target[0], [10, 2], atol=1e-5)
    np.testing.assert_array_equal(m.danger[1], 0)  # nobody ahead of the leader


def test_a_car_ahead_on_the_far_side_of_a_wide_track_puts_danger_on_its_lanes():
    # 12 m wide, 7 lanes of 12/7 m: a car 5 m ahead at lateral +5 is 11.2 m away in a
    # straight line, farther than the lookahead, yet within it along the track. It spans
    # [4, 6] (two radii of 0.5 m): lanes 6 and 7 (from 18/7 and 30/7 m) get 1 - 5/10.
    track = cs.Track([[0, 0], [400, 0]], 6.0)
    lanes = cs.RacingLanes(track, lanes=7, lookahead=10.0)
    m = lanes.lane_maps([[50.0, -5.0], [55.0, 5.0]], radius=0.5)
    np.testing.assert_allclose(m.danger[0], [0, 0, 0, 0, 0, 0.5, 0.5], atol=1e-6)


def test_a_car_close_ahead_on_the_line_makes_the_follower_pull_out():
    lanes = cs.RacingLanes(straight(), lanes=5, lookahead=10.0, line_width=5.0)
    m = lanes.lane_maps([[0, 2], [1.5, 2]], radius=1.0)
    assert m.lateral[0] < 0.5  # away from the line at 2 m, toward the free side
    assert not m.blocked[0]


def test_track_geometry():
    square = cs.Track([[0, 0], [10, 0], [10, 10], [0, 10]], 2.0, closed=True)
    assert square.length == pytest.approx(40.0)
    np.testing.assert_allclose(square.locate([[5, 1], [11, 5]]), [[5, 1], [15, -1]], atol=1e-5)
    np.testing.assert_allclose(square.point_at(42.0, 0.5), [2, 0.5], atol=1e-5)  # wraps round
    with pytest.raises(ValueError, match="racing_line"):
        cs.Track([[0, 0], [1, 0]], 1.0, racing_line=[0, 3.0])
    with pytest.raises(ValueError, match="half_width"):
        cs.Track([[0, 0], [1, 0]], 0.0)
    with pytest.raises(ValueError, match="lanes"):
        cs.RacingLanes(square, lanes=0)
    with pytest.raises(TypeError, match="track"):
        cs.RacingLanes([[0, 0], [1, 0]])


def test_a_faster_car_overtakes_without_contact():
    track = straight(length=400.0)
    racing = cs.RacingLanes(track, lanes=9, lookahead=12.0)
    pipeline = cs.Pipeline([racing, cs.Avoid(agents=True, max_distance=1.0, world_obstacles=False)], slots=32,
                           select="parabolic")
    world = cs.World(pipeline, [[0.0, 2.0], [15.0, 2.0]], velocities=[[8.0, 0.0], [4.0, 0.0]],
                     max_speed=[8.0, 4.0], max_acceleration=6.0, radius=1.0)
    worst_overlap = 0.0
    lateral = []
    for _ in range(300):
        world.step(0.05)
        worst_overlap = max(worst_overlap, float(world.overlap.max()))
        lateral.append(track.locate(world.positions)[:, 1])
    s = track.locate(world.positions)[:, 0]
    assert s[0] > s[1] + 5  # the fast car got past
    assert worst_overlap == 0
    lateral = np.array(lateral)
    assert np.abs(lateral[:, 0] - 2.0).max() > 1.5  # it left the line to pass...
    assert abs(lateral[-1, 0] - 2.0) < 0.5          # ...and came back to it
    assert (np.abs(lateral) <= 5.0).all()           # never off the track


def test_a_figure_of_eight_is_driven_lobe_after_lobe():
    # The racing line is 2.5 m off the centreline through the crossing at the origin,
    # where a car is then closer to the other branch. Located on the whole track each
    # step, the car takes that branch and circles one lobe for ever; with its place on
    # the track kept from step to step, it drives right lobe, left lobe, right lobe...
    t = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    centre = np.column_stack([40 * np.sin(t), 20 * np.sin(2 * t)])
    track = cs.Track(centre, 4.0, racing_line=2.5 * np.cos(t), closed=True)
    lanes = cs.RacingLanes(track, lookahead=8.0)
    world = cs.World(cs.Pipeline([lanes], slots=32, select="blend"), [[0.0, 0.0]], max_speed=12.0,
                     max_acceleration=20.0, heading=np.pi / 4)
    rec = world.run(1500, 1 / 30, record=["positions"])
    x = rec.positions[:, 0, 0]
    lobe = np.sign(x[np.abs(x) > 20])  # +1 deep in the right lobe, -1 in the left
    changes = np.count_nonzero(np.diff(lobe))
    assert changes >= 4, lobe  # 50 s at up to 12 m/s: over two laps of ~250 m
    assert np.abs(track.locate(rec.positions[:, 0])[:, 1]).max() < track.half_width
    with pytest.raises(ValueError, match="window"):
        cs.RacingLanes(track, window=0.0)


def oval(points=400, a=60.0, b=30.0):
    t = np.linspace(0.0, 2 * np.pi, points, endpoint=False)
    return np.column_stack([a * np.cos(t), b * np.sin(t)])


def by_grid(lanes, positions, radius):
    """The reference: decide() for each car among the others found in a grid."""
    pos = np.ascontiguousarray(positions, np.float32)
    out = lanes._core.lane_maps(pos, np.broadcast_to(np.float32(radius), (len(pos),)).copy(), by_grid=True)
    return cs.racing.LaneMaps(**out)


@pytest.mark.parametrize("closed", [True, False])
@pytest.mark.parametrize("falloff", ["linear", "step", "inverse_square", "smoothstep", "exponential"])
def test_lane_maps_are_those_of_each_car_among_its_neighbours(closed, falloff):
    rng = np.random.default_rng(len(falloff) + closed)
    track = cs.Track(oval() if closed else oval()[:300], 4.0, closed=closed)
    for _ in range(6):
        n = int(rng.integers(1, 400))
        lanes = cs.RacingLanes(track, lanes=int(rng.integers(1, 12)), lookahead=float(rng.uniform(0.5, 80.0)),
                               falloff=falloff)
        # Cars about the track, crowded or sparse, some off it; equal radii or not.
        s = rng.uniform(0, track.length, n)
        if rng.random() < 0.3:
            s = np.round(s / 5) * 5  # cars side by side at the same arc length
        e = rng.uniform(-6, 6, n)
        positions = np.array([track.point_at(si, ei) for si, ei in zip(s, e)])
        radius = rng.uniform(0.1, 1.5, n) if rng.random() < 0.5 else 0.8
        got = lanes.lane_maps(positions, radius=radius)
        want = by_grid(lanes, positions, radius)
        for name in ("interest", "danger", "final", "lateral", "target", "strength", "blocked"):
            np.testing.assert_array_equal(getattr(got, name), getattr(want, name), err_msg=name)
