"""Classic steering that sees the scene: ObstacleAvoidance, WallAvoidance, Separation,
FollowPath and FollowField, each by its law, composed by blend and priority, and the
classic recipe of the walled public scenes crossing no wall."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

import contextsteer as cs
from contextsteer import classic, metrics
from contextsteer.demo import DT, classic_setup, time_limit

AGENT = {"radius": 0.3, "max_speed": 1.5, "max_acceleration": 3.0}


def run(world: cs.World, steps: int, dt: float = DT) -> tuple[np.ndarray, float]:
    """``(steps + 1, n, 2)`` positions and the deepest penetration of any obstacle (metres)."""
    trajectory, deepest = [world.positions.copy()], 0.0
    for _ in range(steps):
        world.step(dt)
        trajectory.append(world.positions.copy())
        deepest = max(deepest, float(world.penetration.max(initial=0.0)))
    return np.stack(trajectory), deepest


def test_an_agent_heading_at_a_circle_is_steered_past_it():
    circle = [5.0, 0.0, 1.0]
    steering = classic.Steering([classic.Seek(), classic.ObstacleAvoidance(margin=0.1, weight=2.0)])
    world = cs.World(steering, [[0.0, 0.01]], targets=[[10.0, 0.0]], circles=[circle], velocities=[[1.5, 0.0]],
                     **AGENT)
    path, deepest = run(world, 200)
    clearance = np.linalg.norm(path[:, 0] - circle[:2], axis=1).min() - circle[2] - AGENT["radius"]
    assert deepest == 0.0 and clearance > 0.0
    assert path[-1, 0, 0] > 9.0   # past it, at the target
    # Without the avoidance, it runs into the circle.
    _, deepest = run(cs.World(classic.Steering([classic.Seek()]), [[0.0, 0.01]], targets=[[10.0, 0.0]],
                              circles=[circle], velocities=[[1.5, 0.0]], **AGENT), 200)
    assert deepest > 0.5


def test_obstacle_avoidance_steers_across_the_way_and_brakes_head_on():
    # Head on at a circle 2 m ahead, 1 s of horizon at 1.5 m/s: a push to the left
    # (across) and back (braking), at full acceleration across.
    world = cs.World(classic.Steering([classic.ObstacleAvoidance(margin=0.0)]), [[0.0, 0.0]],
                     circles=[[2.0, 0.0, 0.5]], velocities=[[1.5, 0.0]], **AGENT)
    out = world.explain(0, dt=DT).behaviors[0][1]
    linear = np.asarray(out)
    tau = (2.0 - 0.5 - AGENT["radius"]) / 1.5
    np.testing.assert_allclose(linear, [-(1.0 - tau) * 3.0, 3.0], atol=1e-5)


def test_obstacle_avoidance_passes_a_polygon():
    square = np.array([[4.0, -1.0], [6.0, -1.0], [6.0, 1.0], [4.0, 1.0]])
    steering = classic.Steering([classic.Seek(), classic.ObstacleAvoidance(margin=0.1, weight=2.0)])
    world = cs.World(steering, [[0.0, 0.05]], targets=[[10.0, 0.0]], polygons=[square], velocities=[[1.5, 0.0]],
                     **AGENT)
    path, deepest = run(world, 200)
    assert deepest == 0.0
    assert not metrics.wall_penetration(path, AGENT["radius"], polygons=[square]).max() > 0.0
    assert np.linalg.norm(path[-1, 0] - [10.0, 0.0]) < 0.5


def test_an_agent_heading_into_a_wall_turns_before_reaching_it():
    wall = [5.0, -20.0, 5.0, 20.0]
    steering = classic.Steering([classic.Seek(), classic.WallAvoidance(margin=0.2, weight=3.0)])
    world = cs.World(steering, [[0.0, 0.0]], targets=[[10.0, 1.0]], segments=[wall], velocities=[[1.5, 0.0]],
                     **AGENT)
    path, deepest = run(world, 300)
    assert deepest == 0.0
    assert path[:, 0, 0].max() + AGENT["radius"] < 5.0   # never reaches the wall
    assert not metrics.wall_penetration(path, AGENT["radius"], segments=[wall]).max() > 0.0
    # It slowed down before the wall: the feeler reaches margin + speed * horizon ahead.
    speed_near_wall = np.linalg.norm(np.diff(path[:, 0], axis=0), axis=1)[path[1:, 0, 0] > 4.0] / DT
    assert speed_near_wall.size and speed_near_wall.max() < 1.25


def test_wall_avoidance_keeps_an_agent_inside_the_bounds():
    steering = classic.Steering([classic.Seek(), classic.WallAvoidance(weight=3.0)])
    world = cs.World(steering, [[0.0, 0.0]], targets=[[20.0, 3.0]], bounds=(-5.0, -5.0, 5.0, 5.0), **AGENT)
    path, deepest = run(world, 300)
    assert deepest == 0.0
    assert np.abs(path).max() + AGENT["radius"] < 5.0


def test_wall_avoidance_pushes_along_the_wall_normal():
    # Beside a wall, within the margin, at rest: a push away from it alone.
    world = cs.World(classic.Steering([classic.WallAvoidance(margin=0.2)]), [[0.0, 0.4]],
                     segments=[[-5.0, 0.0, 5.0, 0.0]], heading=[0.0], **AGENT)
    linear = np.asarray(world.explain(0, dt=DT).behaviors[0][1])
    assert linear[0] == pytest.approx(0.0, abs=1e-6) and linear[1] == pytest.approx(3.0 * 0.1 / 0.2, rel=1e-5)


def test_separation_pushes_agents_apart():
    steering = classic.Steering([classic.Separation(radius=0.5)])
    world = cs.World(steering, [[0.0, 0.0], [0.5, 0.0], [0.0, 5.0], [0.0, 5.0]], **AGENT)
    path, _ = run(world, 60)
    gap = np.linalg.norm(path[:, 0] - path[:, 1], axis=1) - 2 * AGENT["radius"]
    assert gap[0] < 0 and gap[-1] >= 0.5 - 1e-6 and (np.diff(gap) >= -1e-6).all()
    # Two agents at one point part along x.
    assert path[-1, 2, 0] < 0 < path[-1, 3, 0] and path[-1, 2, 1] == path[-1, 3, 1] == 5.0
    # Beyond the radius, nothing.
    far = cs.World(steering, [[0.0, 0.0], [2.0, 0.0]], **AGENT)
    assert np.abs(np.asarray(far.explain(0, dt=DT).behaviors[0][1])).max() == 0.0


def test_path_following_stays_near_the_path_and_reaches_its_end():
    path = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
    steering = classic.Steering([classic.FollowPath(path, lookahead=1.0)])
    world = cs.World(steering, [[0.5, -1.0]], **AGENT)
    trajectory, _ = run(world, 800)
    after = trajectory[40:, 0]   # once on the path
    distance = np.min([np.abs(after[:, 1]) * (after[:, 0] <= 10) + 100 * (after[:, 0] > 10.5),
                       np.abs(after[:, 0] - 10.0) + 100 * ((after[:, 1] < -0.5) | (after[:, 1] > 10.5)),
                       np.abs(after[:, 1] - 10.0) + 100 * (after[:, 0] > 10.5)], axis=0)
    assert distance.max() < 0.6
    assert np.linalg.norm(trajectory[-1, 0] - path[-1]) < 0.5


def test_a_looped_path_goes_round_for_ever():
    square = np.array([[0.0, 0.0], [6.0, 0.0], [6.0, 6.0], [0.0, 6.0]])
    world = cs.World(classic.Steering([classic.FollowPath(square, loop=True)]), [[0.0, 0.0]], **AGENT)
    trajectory, _ = run(world, 1200)
    # Round the loop, never stopping: it passes each corner's quadrant many times.
    angle = np.unwrap(np.arctan2(trajectory[:, 0, 1] - 3.0, trajectory[:, 0, 0] - 3.0))
    assert abs(angle[-1] - angle[0]) > 4 * math.pi


def test_follow_field_leads_round_walls_to_the_goal():
    walls = np.array([[4.0, -3.0, 4.0, 3.0]])
    field = cs.NavigationField([[8.0, 0.0]], area=(-2, -6, 10, 6), cell=0.25, clearance=0.3, segments=walls)
    steering = classic.Steering([classic.FollowField(field), classic.WallAvoidance(weight=3.0)])
    world = cs.World(steering, [[0.0, 0.0]], segments=walls, **AGENT)
    trajectory, deepest = run(world, 600)
    assert deepest == 0.0 and metrics.wall_penetration(trajectory, AGENT["radius"], segments=walls).max() <= 0.0
    assert np.linalg.norm(trajectory[-1, 0] - [8.0, 0.0]) < 0.5


@pytest.mark.parametrize("combiner", ["blend", "priority"])
def test_the_avoidances_compose_with_both_combiners(combiner):
    circle = [5.0, 0.0, 1.0]
    # Twice Arrive's weight: with equal weights, Arrive's pull and the push out of the
    # margin can balance in front of the circle (classic steering's local minimum).
    steering = classic.Steering([classic.ObstacleAvoidance(margin=0.1, weight=2.0, priority=0),
                                 classic.Arrive(priority=1)], combiner=combiner)
    world = cs.World(steering, [[0.0, 0.01]], targets=[[10.0, 0.0]], circles=[circle], velocities=[[1.5, 0.0]],
                     **AGENT)
    path, deepest = run(world, 300)
    assert deepest == 0.0 and np.linalg.norm(path[-1, 0] - [10.0, 0.0]) < 0.6


@pytest.mark.parametrize("scene", ["bottleneck", "two_way_door", "zigzag", "u_trap", "corridor"])
def test_the_classic_recipe_crosses_no_wall_in_the_public_scenes(scene):
    geometry, steering, parameters = classic_setup(scene)
    world = geometry.world(steering, **parameters)
    trajectory, deepest = run(world, round(time_limit(scene) / DT))
    report = metrics.scene_report(geometry, trajectory, dt=DT, radius=parameters["radius"],
                                  max_speed=parameters["max_speed"])
    assert deepest == 0.0, "no contact with any obstacle"
    assert report["wall_penetrations"] == 0 and report["deepest_wall_penetration"] == 0.0
    depth = metrics.wall_penetration(trajectory, parameters["radius"], segments=geometry.segments,
                                     polygons=list(geometry.polygons) or None)
    assert not depth.max(initial=-np.inf) > 0.0
    assert report["arrived"] >= 0.75


def test_classic_avoidance_is_bit_identical_at_one_and_two_threads():
    geometry, steering, parameters = classic_setup("bottleneck")
    outcomes = []
    for threads in (1, 2):
        world = geometry.world(steering, threads=threads, **parameters)
        run(world, 200)
        outcomes.append((world.positions.tobytes(), world.velocities.tobytes(), world.heading.tobytes()))
    assert outcomes[0] == outcomes[1]


def test_the_new_behaviours_pickle_and_show_their_kind():
    field = cs.NavigationField([[8.0, 0.0]], area=(-2, -6, 10, 6), cell=0.5)
    behaviors = [classic.ObstacleAvoidance(horizon=2.0), classic.WallAvoidance(feeler_angle=0.3),
                 classic.Separation(radius=0.4), classic.FollowPath([[0.0, 0.0], [5.0, 0.0]], loop=True),
                 classic.FollowField(field)]
    assert [b.kind for b in behaviors] == ["obstacle_avoidance", "wall_avoidance", "separation", "follow_path",
                                           "follow_field"]
    assert [b.name for b in behaviors] == ["ObstacleAvoidance", "WallAvoidance", "Separation", "FollowPath",
                                           "FollowField"]
    steering = classic.Steering(behaviors)
    again = pickle.loads(pickle.dumps(steering))
    ends = []
    for s in (steering, again):
        world = cs.World(s, [[0.0, 1.0], [0.2, 1.0]], segments=[[3.0, -2.0, 3.0, 2.0]], **AGENT)
        run(world, 50)
        ends.append(world.positions.tobytes())
    assert ends[0] == ends[1]


@pytest.mark.parametrize(("make", "argument"), [
    (lambda: classic.ObstacleAvoidance(horizon=0.0), "horizon"),
    (lambda: classic.ObstacleAvoidance(margin=-1.0), "margin"),
    (lambda: classic.WallAvoidance(horizon=math.nan), "horizon"),
    (lambda: classic.WallAvoidance(feeler_angle=math.pi / 2), "feeler_angle"),
    (lambda: classic.WallAvoidance(feeler_angle=-0.1), "feeler_angle"),
    (lambda: classic.Separation(radius=0.0), "radius"),
    (lambda: classic.Separation(radius=math.inf), "radius"),
    (lambda: classic.FollowPath([[0.0, 0.0]]), "path"),
    (lambda: classic.FollowPath([[0.0, math.nan], [1.0, 0.0]]), "path"),
    (lambda: classic.FollowPath([[0.0, 0.0], [1.0, 0.0]], lookahead=0.0), "lookahead"),
    (lambda: classic.FollowPath([[0.0, 0.0], [1.0, 0.0]], loop="yes"), "loop"),
    (lambda: classic.FollowField("field"), "field"),
    (lambda: classic.FollowField(None), "field"),
])
def test_bad_values_name_their_argument(make, argument):
    with pytest.raises((ValueError, TypeError), match=argument):
        make()
