"""World.explain: every behaviour's own map is the one it contributed.

Each behaviour's own maps, combined by the pipeline's rules and weights, equal the merged
maps explain reports, in worlds of 1, 2, 3 and 1,000 agents (a few agents, and most of a
grid evaluated at once, take different paths through Avoid and the other neighbor
behaviours)."""

from __future__ import annotations

import numpy as np
import pytest

import contextsteer as cs


def field() -> cs.NavigationField:
    return cs.NavigationField([[8.0, 0.0]], area=(-40.0, -40.0, 40.0, 40.0), cell=1.0, circles=[[4.0, 4.0, 1.0]])


BEHAVIORS = {
    "Chase": lambda: cs.Chase([[6.0, 1.0]], max_distance=30.0),
    "Chase(own)": lambda: cs.Chase(sideways=0.3),
    "Avoid(agents)": lambda: cs.Avoid(agents=True, max_distance=3.0),
    "Avoid(agents, circles)": lambda: cs.Avoid([[2.0, 1.0, 0.5]], agents=True, max_distance=3.0),
    "Avoid(scene)": lambda: cs.Avoid(max_distance=4.0),
    "Flee": lambda: cs.Flee([[1.0, 1.0]], radius=8.0),
    "Forward": lambda: cs.Forward(strength=0.7),
    "Pursue": lambda: cs.Pursue(),
    "Evade": lambda: cs.Evade(radius=6.0),
    "Arrive": lambda: cs.Arrive([[3.0, 0.0]], slowing_radius=8.0),
    "Leave": lambda: cs.Leave([[1.0, 0.0]]),
    "Separation": lambda: cs.Separation(radius=3.0),
    "Alignment": lambda: cs.Alignment(radius=4.0),
    "Cohesion": lambda: cs.Cohesion(radius=4.0),
    "Wander": lambda: cs.Wander(seed=3),
    "FollowField": lambda: cs.FollowField(field()),
    "FollowPath": lambda: cs.FollowPath([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0]]),
    "Rays": lambda: cs.Rays(length=4.0),
    "TimeToCollision": lambda: cs.TimeToCollision(radius=6.0),
    "PythonBehavior": lambda: cs.PythonBehavior(lambda batch, interest, danger: danger.__setitem__(
        slice(None), np.abs(batch.slot_directions[:, 0])[None, :] * 0.5), fills="danger"),
}
SIZES = [1, 2, 3, 1000]


def world_of(behavior, n: int) -> cs.World:
    rng = np.random.default_rng(n)
    if n <= 3:
        positions = np.array([[0.0, 0.0], [1.5, 0.0], [0.5, 1.2]])[:n]
    else:
        positions = rng.uniform(-15.0, 15.0, (n, 2))
    targets = -positions + 0.5
    pipeline = cs.Pipeline([cs.Chase(weight=0.8), behavior, cs.Avoid(agents=True, max_distance=2.0, weight=0.6)],
                           slots=16, danger_rule="max", interest_rule="sum")
    world = cs.World(pipeline, positions, targets=targets, circles=[[3.0, -2.0, 1.0]],
                     segments=[[-5.0, 3.0, 5.0, 3.0]], velocities=rng.normal(0.0, 0.5, (n, 2)))
    world.step(0.05)
    return world


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("name", BEHAVIORS)
def test_own_maps_combine_to_the_merged_maps(name, n):
    world = world_of(BEHAVIORS[name](), n)
    for agent in sorted({0, n // 2, n - 1}):
        e = world.explain(int(world.ids[agent]))
        for kind, merged, rule in (("interest", e.interest, "sum"), ("danger", e.danger, "max")):
            own = [(b.weight, values) for b, k, values in e.behaviors if k == kind]
            expected = (cs.combine([v for _, v in own], rule, np.array([w for w, _ in own]))
                        if own else np.zeros_like(merged))
            np.testing.assert_allclose(expected, merged, rtol=1e-5, atol=1e-6, err_msg=f"{name}, {kind}, agent {agent}")


def test_avoid_own_danger_in_a_world_of_two():
    p = cs.Pipeline([cs.Chase(), cs.Avoid(agents=True, max_distance=3.0)], slots=16)
    w = cs.World(p, [[0.0, 0.0], [1.5, 0.0]], targets=[[10.0, 0.0], [-10.0, 0.0]])
    w.step(0.05)
    e = w.explain(0)
    (avoid, kind, own), = [b for b in e.behaviors if b[1] == "danger"]
    assert own.max() > 0.5
    np.testing.assert_array_equal(own, e.danger)
