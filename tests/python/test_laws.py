"""Laws that hold for every input: rotation, masking bounds, blending."""

import math

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import contextsteer as cs

SELECTS = ["argmax", "blend", "average", "parabolic", "gradient"]
MODES = ["subtract", "threshold", "min_mask", "multiply"]

# Values on a coarse grid plus a tiny distinct tie-breaker keep the best slot unique,
# so that rotating the maps has one right answer.
unit_values = st.floats(0, 1, allow_nan=False, width=32)


def distinct(values: np.ndarray) -> np.ndarray:
    return values + np.arange(values.size).reshape(values.shape) * 1e-4 / values.size


@settings(max_examples=150, deadline=None)
@given(
    slots=st.integers(3, 64),
    data=st.data(),
    select=st.sampled_from(SELECTS),
    mode=st.sampled_from(MODES),
)
def test_rotating_maps_by_k_slots_moves_the_choice_by_k(slots, data, select, mode):
    interest = distinct(data.draw(arrays(np.float64, slots, elements=unit_values)))
    danger = data.draw(arrays(np.float64, slots, elements=unit_values)) * 0.5
    k = data.draw(st.integers(0, slots - 1))
    a = cs.resolve(interest, danger, danger_mode=mode, select=select, margin=0.1)
    b = cs.resolve(np.roll(interest, k), np.roll(danger, k), danger_mode=mode, select=select, margin=0.1)
    assert a.blocked == b.blocked
    if a.blocked:
        return
    if select == "average":
        # Where the lobes nearly cancel, the resultant's direction is rounding noise.
        resultant = np.linalg.norm(a.final @ cs.slot_directions(slots).astype(np.float64))
        assume(resultant > 0.05 * a.final.sum())
    shift = (b.slot - a.slot - k) % slots
    assert min(shift, slots - shift) < 2e-3
    assert math.isclose(a.strength, b.strength, abs_tol=1e-4)


@settings(max_examples=200, deadline=None)
@given(
    slots=st.integers(1, 48),
    data=st.data(),
    margin=st.floats(0, 0.5),
    select=st.sampled_from(SELECTS),
)
def test_min_mask_never_picks_a_slot_above_least_danger_plus_margin(slots, data, margin, select):
    interest = data.draw(arrays(np.float64, (3, slots), elements=unit_values))
    danger = data.draw(arrays(np.float64, (3, slots), elements=unit_values))
    d = cs.resolve(interest, danger, danger_mode="min_mask", margin=margin, select=select)
    limit = danger.astype(np.float32).min(axis=1) + np.float32(margin)
    for agent in range(3):
        if d.blocked[agent]:
            continue
        best = int(np.argmax(d.final[agent]))
        assert danger.astype(np.float32)[agent, best] <= limit[agent] + 1e-6
        # Every open slot is within the limit and every closed slot is zero in the final map.
        closed = danger.astype(np.float32)[agent] > limit[agent]
        assert (d.final[agent][closed] == 0).all()


def test_four_slot_blend_gives_a_diagonal_toward_a_target_at_45_degrees():
    chase = cs.Pipeline([cs.Chase([10.0, 10.0])], slots=4, select="blend")
    d = chase.evaluate([[0.0, 0.0]]).decision
    angle = math.degrees(math.atan2(d.direction[0, 1], d.direction[0, 0]))
    assert 0 < angle < 90
    assert abs(angle - 45) < 1e-3
    argmax = cs.Pipeline([cs.Chase([10.0, 10.0])], slots=4).evaluate([[0.0, 0.0]]).decision
    assert math.degrees(math.atan2(argmax.direction[0, 1], argmax.direction[0, 0])) in (0.0, 90.0)


@settings(max_examples=60, deadline=None)
@given(target_angle=st.floats(0, 2 * math.pi), slots=st.sampled_from([8, 16, 32]))
def test_rotating_the_scene_rotates_the_decision(target_angle, slots):
    """Rotating target and obstacle by a whole number of slots rotates the choice with them."""
    rotate_by = 2 * math.pi / slots * 3
    def scene(angle):
        target = 10 * np.array([math.cos(angle), math.sin(angle)])
        obstacle = 4 * np.array([math.cos(angle + 0.2), math.sin(angle + 0.2)])
        return target, np.array([[*obstacle, 1.0]])
    t0, o0 = scene(target_angle)
    t1, o1 = scene(target_angle + rotate_by)
    def decide(target, obstacles):
        p = cs.Pipeline([cs.Chase(target), cs.Avoid(obstacles, max_distance=5)], slots=slots, select="blend")
        return p.evaluate([[0.0, 0.0]], radius=0.5).decision
    a, b = decide(t0, o0), decide(t1, o1)
    shift = (b.slot[0] - a.slot[0] - 3) % slots
    assert min(shift, slots - shift) < 0.05
