"""The C++ world against the plain-NumPy reference, and its motion rules."""

import math

import numpy as np
import pytest

import contextsteer as cs
from contextsteer import reference


def test_world_step_matches_the_numpy_reference():
    rng = np.random.default_rng(3)
    n, slots, dt = 300, 16, 0.05
    positions = rng.uniform(-20, 20, (n, 2)).astype(np.float32)
    circles = np.column_stack([rng.uniform(-20, 20, (25, 2)), rng.uniform(0.3, 2.0, 25)]).astype(np.float32)
    target = np.array([[30.0, 5.0]], np.float32)
    pipeline = cs.Pipeline([cs.Chase(target), cs.Avoid(max_distance=3.0)], slots=slots)
    # Some agents start in the circles, so that penetration is measured from the first step.
    with pytest.warns(UserWarning, match=r"40 of 300 agents start with their body in an obstacle"):
        world = cs.World(pipeline, positions, max_speed=2.0, max_acceleration=4.0, radius=0.5, circles=circles)

    dirs = reference.slot_directions(slots)
    p, v, h = positions.astype(np.float64), np.zeros((n, 2)), np.zeros(n)
    for _ in range(5):
        world.step(dt)
        p, v, h, penetration, overlap = reference.step(
            p, v, h, radius=np.full(n, 0.5), max_speed=np.full(n, 2.0), max_acceleration=np.full(n, 4.0),
            targets=target.astype(np.float64), circles=circles.astype(np.float64), dirs=dirs, avoid_distance=3.0,
            dt=dt)
    # float32 against float64; with this seed no agent sits on a tie between two slots.
    np.testing.assert_allclose(world.positions, p, atol=1e-4)
    np.testing.assert_allclose(world.heading, h, atol=1e-5)
    np.testing.assert_allclose(world.penetration, penetration, atol=1e-4)
    np.testing.assert_allclose(world.overlap, overlap, atol=1e-4)
    assert world.danger.max() > 0.5 and world.blocked.any()  # the avoid and brake paths were exercised
    assert penetration.max() > 0 and overlap.max() > 0  # and both measurements


def test_maps_of_a_step_equal_the_free_functions():
    rng = np.random.default_rng(5)
    positions = rng.uniform(-5, 5, (50, 2))
    pipeline = cs.Pipeline([cs.Chase([[6.0, 0.0], [0.0, 6.0]]), cs.Avoid([[0.0, 0.0, 1.0]], max_distance=4)],
                           slots=12, danger_mode="threshold", threshold=0.4, select="parabolic")
    e = pipeline.evaluate(positions, radius=0.3)
    d = cs.resolve(e.interest, e.danger, danger_mode="threshold", threshold=0.4, select="parabolic")
    np.testing.assert_array_equal(d.final, e.decision.final)
    np.testing.assert_array_equal(d.slot, e.decision.slot)
    dirs = reference.slot_directions(12)
    np.testing.assert_allclose(e.danger, reference.avoid_danger(positions, np.full(50, 0.3),
                                                                np.array([[0.0, 0.0, 1.0]]), dirs, 4), atol=1e-5)


def test_evaluate_outside_a_world_sees_the_other_agents_as_a_world_does():
    # Agents of several radii avoiding each other: Pipeline.evaluate must take each one's
    # radius into its neighbors' discs, as the world's explain() does for the same agents.
    rng = np.random.default_rng(8)
    positions = rng.uniform(-10, 10, (60, 2)).astype(np.float32)
    radius = rng.uniform(0.2, 1.2, 60).astype(np.float32)
    pipeline = cs.Pipeline([cs.Chase([20.0, 0.0]), cs.Avoid(agents=True, world_obstacles=False, max_distance=4.0)],
                           slots=16)
    e = pipeline.evaluate(positions, radius=radius)
    world = cs.World(pipeline, positions, radius=radius, max_speed=1.0, max_acceleration=1.0)
    for a in range(len(positions)):
        np.testing.assert_array_equal(e.danger[a], world.explain(a).danger, err_msg=f"agent {a}")
    assert (e.danger > 0.5).sum() > 60  # neighbors close enough to matter


def test_weights_and_combine_rules_reach_the_pipeline():
    a, b = cs.Chase([5.0, 0.0], weight=2.0), cs.Chase([0.0, 5.0], weight=0.5)
    e_sum = cs.Pipeline([a, b], interest_rule="sum").evaluate([[0.0, 0.0]])
    ea = cs.Pipeline([cs.Chase([5.0, 0.0])]).evaluate([[0.0, 0.0]])
    eb = cs.Pipeline([cs.Chase([0.0, 5.0])]).evaluate([[0.0, 0.0]])
    np.testing.assert_allclose(e_sum.interest, 2 * ea.interest + 0.5 * eb.interest, atol=1e-6)


def test_blur_and_smooth_options_shape_the_maps():
    chase = cs.Chase([10.0, 0.0])
    plain = cs.Pipeline([chase]).evaluate([[0.0, 0.0]])
    blurred = cs.Pipeline([chase], blur_interest=1.5).evaluate([[0.0, 0.0]])
    np.testing.assert_allclose(blurred.interest, cs.blur(plain.interest, 1.5), atol=1e-6)

    # Smoothing: after the target jumps, the map moves only part way toward the new one.
    target = cs.Chase([10.0, 0.0])
    world = cs.World(cs.Pipeline([target], smooth=0.75), [[0.0, 0.0]], max_speed=0.0)
    world.step(0.1)
    first = world.interest.copy()
    target.targets = [[0.0, 10.0]]
    world.step(0.1)
    fresh = cs.Pipeline([cs.Chase([0.0, 10.0])]).evaluate([[0.0, 0.0]]).interest
    np.testing.assert_allclose(world.interest, 0.25 * fresh + 0.75 * first, atol=1e-6)


def test_speed_and_acceleration_limits_hold():
    world = cs.World(cs.Pipeline([cs.Chase([100.0, 0.0])]), np.zeros((3, 2)), max_speed=[1.0, 2.0, 3.0],
                     max_acceleration=1.5)
    previous = np.zeros(3)
    for _ in range(60):
        world.step(0.1)
        speed = np.linalg.norm(world.velocities, axis=1)
        assert (speed <= np.array([1.0, 2.0, 3.0]) + 1e-5).all()
        assert (np.abs(speed - previous) <= 0.15 + 1e-5).all()
        previous = speed
    np.testing.assert_allclose(previous, [1.0, 2.0, 3.0], atol=1e-4)
    assert world.time == pytest.approx(6.0)


def test_agents_pass_an_obstacle_to_reach_the_target():
    world = cs.World(cs.Pipeline([cs.Chase([20.0, 0.0]), cs.Avoid(max_distance=3)], select="blend"),
                     [[0.0, 0.0], [0.0, 0.5], [0.0, -0.5]], max_speed=2.0, circles=[[10.0, 0.0, 2.0]])
    closest = np.full(3, np.inf)
    for _ in range(400):
        world.step(0.05)
        closest = np.minimum(closest, np.linalg.norm(world.positions - [10.0, 0.0], axis=1))
    assert (np.linalg.norm(world.positions - [20.0, 0.0], axis=1) < 1.0).all()
    assert (closest > 2.0 + 0.5 - 0.05).all()  # never overlapped the obstacle


@pytest.mark.parametrize("scene", ["crowd", "strays", "groups", "large"])
def test_disc_scene_matches_the_numpy_reference(scene):
    """The benchmark's NumPy step does what the C++ world does: maps, motion, overlap. With
    strays, three agents far from the crowd (two of them touching): the neighbor grid
    leaves them in its border cells, and they must still see each other and the crowd
    must not see them. With groups, the crowd split in four, kilometres apart: the grid
    gives each group cells of its own. With large, two agents of radius 6 and 3 m in the
    crowd: the kernels size their queries by the crowd's 0.5 m and meet these two apart."""
    rng = np.random.default_rng(9)
    n, slots, dt, sense = 1024, 16, 0.1, 6.0
    radius = np.sqrt(70 * n / np.pi) * np.sqrt(rng.random(n)) / 3  # dense: overlaps happen
    angle = rng.random(n) * 2 * np.pi
    positions = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)]).astype(np.float32)
    radii = np.full(n, 0.5)
    if scene == "strays":
        positions[-3:] = [(6000.0, 3.0), (6000.5, 3.25), (5.0, -8000.0)]  # exact in float32
    if scene == "groups":
        positions += np.float32([[0, 0], [2500, 0], [0, -3000], [2500, 3000]])[np.arange(n) % 4]
    if scene == "large":
        radii[[10, 20]] = 6.0, 3.0
    pipeline = cs.Pipeline([cs.Chase(), cs.Avoid(agents=True, world_obstacles=False, max_distance=sense)],
                           slots=slots)
    world = cs.World(pipeline, positions, targets=-positions, max_speed=1.5, max_acceleration=3.0, radius=radii)
    p, v, h = positions.astype(np.float64), np.zeros((n, 2)), np.zeros(n)
    dirs = reference.slot_directions(slots).astype(np.float64)
    for _ in range(3):
        world.step(dt)
        p, v, h, overlap = reference.disc_step(p, v, h, targets=-positions.astype(np.float64), radius=radii,
                                               max_speed=np.full(n, 1.5), max_acceleration=np.full(n, 3.0),
                                               dirs=dirs, sense_radius=sense, dt=dt)
    close = np.linalg.norm(world.positions - p, axis=1) < 1e-3
    assert close.mean() > 0.99  # float32 against float64: a rare tie between slots may differ
    np.testing.assert_allclose(world.overlap[close], overlap[close], atol=1e-3)
    assert overlap.max() > 0.1 and world.danger.max() > 0.5
    np.testing.assert_allclose(world.heading[close], h[close], atol=1e-3)
    if scene == "strays":
        assert close[-3:].all()
        assert world.overlap[-3:-1].min() > 0.2 and world.overlap[-1] == 0  # pushing apart, still touching
        assert world.danger[-3:-1].max() > 0.5 and world.danger[-1].max() == 0
    if scene == "large":
        assert close[[10, 20]].all() and (world.overlap[[10, 20]] > 0.5).all()


def _crowd_world(keep_maps, smooth=0.0, threads=1):
    rng = np.random.default_rng(12)
    positions = rng.uniform(-15, 15, (600, 2)).astype(np.float32)
    plain = cs.Pipeline([cs.Chase(), cs.Avoid(agents=True, world_obstacles=False, max_distance=4.0)], slots=16)
    smoothed = cs.Pipeline([cs.Chase(), cs.Avoid(agents=True, world_obstacles=False, max_distance=4.0)], slots=16,
                           smooth=smooth)
    world = cs.World(plain, positions[:300], targets=-positions[:300], max_speed=1.5, max_acceleration=3.0,
                     threads=threads, keep_maps=keep_maps)
    world.add_agents(positions[300:], targets=-positions[300:], max_speed=1.5, steering=smoothed)
    return world


@pytest.mark.parametrize("smooth", [0.0, 0.5])
def test_a_world_without_kept_maps_moves_to_the_same_bits(smooth):
    kept, unkept = _crowd_world(True, smooth), _crowd_world(False, smooth, threads=2)
    for _ in range(15):
        kept.step(0.1)
        unkept.step(0.1)
    for name in ("positions", "velocities", "heading", "direction", "strength", "slot", "blocked", "overlap"):
        np.testing.assert_array_equal(getattr(unkept, name), getattr(kept, name), err_msg=name)
    assert kept.danger.max() > 0.5  # the crowd is dense enough for avoidance to steer


def test_maps_of_a_world_that_does_not_keep_them_raise_until_kept_again():
    world = _crowd_world(False)
    world.step(0.1)
    for name in ("interest", "danger", "final"):
        with pytest.raises(RuntimeError, match=f"{name}: .*keep_maps"):
            getattr(world, name)
    with pytest.raises(ValueError, match="record: interest, final cannot be recorded while keep_maps is False"):
        world.run(2, 0.1, record=["positions", "interest", "final"])
    with pytest.raises(ValueError, match="record: .*keep_maps"):
        world.run(2, 0.1, record="all")
    assert world.run(2, 0.1, record="state").positions.shape == (3, 600, 2)  # other fields still record
    with pytest.raises(TypeError, match="keep_maps: expected True or False, got 1"):
        world.keep_maps = 1

    # Kept again, the next step writes them: the same maps as a world that always kept them.
    reference_world = _crowd_world(True)
    for _ in range(3):
        reference_world.step(0.1)
    world.keep_maps = True
    world.step(0.1)
    reference_world.step(0.1)
    np.testing.assert_array_equal(world.final, reference_world.final)
    np.testing.assert_array_equal(world.danger, reference_world.danger)
    assert world.run(1, 0.1, record="all").interest.shape == (2, 600, 16)


def test_a_pile_of_agents_at_one_point_is_refused_before_anything_moves():
    limit = 16384
    pile = cs.World(cs.Pipeline([cs.Chase([5.0, 0.0])]), np.zeros((limit + 1, 2)))
    with pytest.raises(ValueError, match=r"positions: 16385 agents lie in one cell of the neighbour grid .*"
                                         r"near \(0, 0\)\); a step takes at most 16384 there"):
        pile.step(0.05)
    assert pile.steps_taken == 0 and pile.time == 0
    np.testing.assert_array_equal(pile.positions, 0)
    with pytest.raises(ValueError, match="16385 agents lie in one cell"):
        pile.run(3, 0.05)
    assert pile.steps_taken == 0
    # One agent fewer steps, and so does the same crowd spread out.
    cs.World(cs.Pipeline([cs.Chase([5.0, 0.0])]), np.zeros((limit, 2))).step(0.05)
    spread = cs.World(cs.Pipeline([cs.Chase([5.0, 0.0]), cs.Avoid(agents=True)]),
                      np.random.default_rng(0).uniform(-200, 200, (limit + 1, 2)))
    spread.step(0.05)
    assert spread.steps_taken == 1


def test_evaluate_refuses_a_pile_of_agents_that_see_each_other_as_a_step_does():
    limit = 16384
    with pytest.raises(ValueError, match=r"positions: 16385 agents lie in one cell of the neighbour grid .*"
                                         r"near \(0, 0\)\); an evaluation takes at most 16384 there"):
        cs.Pipeline([cs.Avoid(agents=True)]).evaluate(np.zeros((limit + 1, 2)))
    # Agents that do not look at each other are evaluated however piled.
    evaluation = cs.Pipeline([cs.Seek([[1.0, 0.0]])], slots=8).evaluate(np.zeros((limit + 1, 2)))
    np.testing.assert_allclose(evaluation.decision.direction, np.tile([1.0, 0.0], (limit + 1, 1)), atol=1e-6)


PIPELINE = cs.Pipeline([cs.Chase([5.0, 0.0]), cs.Avoid()])


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"positions": np.ones((3, 3))}, ValueError, ["positions", "(m, 2)", "(3, 3)"]),
        ({"positions": [[0, 0]], "velocities": [[0, 0], [1, 1]]}, ValueError, ["velocities", "(1, 2)", "(2, 2)"]),
        ({"positions": [[0, 0]], "max_speed": -1}, ValueError, ["max_speed", "values from 0 to 1e9", "got -1"]),
        ({"positions": [[0, 0]], "max_speed": [1, 2]}, ValueError, ["max_speed", "(1,)", "(2,)"]),
        ({"positions": [[0, 0]], "max_speed": math.inf}, ValueError, ["max_speed", "from 0 to 1e9, got inf"]),
        ({"positions": [[0, 0]], "max_acceleration": math.nan}, ValueError, ["max_acceleration", "or inf, got nan"]),
        ({"positions": [[0, 0]], "radius": -0.5}, ValueError, ["radius", "from 0 to 1e9, got -0.5"]),
        ({"positions": [[math.inf, 0]]}, ValueError, ["positions", "finite"]),
        ({"circles": [[0, 0]]}, ValueError, ["circles", "(m, 3)", "(1, 2)"]),
        # A misspelt agent parameter is named as World's, with or without positions.
        ({"positions": [[0, 0]], "max_sped": 2}, TypeError, ["World()", "max_sped", "max_speed"]),
        ({"maxspeed": 2, "radiuss": 1}, TypeError, ["World()", "maxspeed, radiuss", "sense_masks"]),
    ],
)
def test_bad_world_input_is_named(kwargs, error, words):
    with pytest.raises(error) as info:
        cs.World(PIPELINE, **kwargs)
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize("threads", [1, 2])
def test_bad_state_is_named_the_same_on_any_thread_count(threads):
    # The state is checked in ranges of agents on every thread; the message must still
    # name the first bad value in agent order, past the first range too.
    rng = np.random.default_rng(0)
    world = cs.World(PIPELINE, rng.uniform(-500, 500, (30000, 2)), threads=threads)
    world.velocities[25000] = [np.inf, 0.0]
    world.positions[17000, 1] = np.nan
    world.positions[29000, 0] = np.nan
    with pytest.raises(ValueError, match=r"^positions: .* for agent 17000$"):
        world.step(0.1)
    world.positions[[17000, 29000]] = 0.0
    with pytest.raises(ValueError, match=r"^velocities: .* for agent 25000$"):
        world.step(0.1)
    world.velocities[25000] = 0.0
    world.step(0.1)
    assert world.steps_taken == 1
