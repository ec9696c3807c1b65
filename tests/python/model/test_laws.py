"""Laws that hold for every input: rotation, masking bounds, blending, resolution."""

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


def polar(distance: float, angle: float) -> list[float]:
    return [distance * math.cos(angle), distance * math.sin(angle)]


@settings(max_examples=300, deadline=None)
@given(
    target_angle=st.floats(0, 2 * math.pi),
    coarse=st.sampled_from([8, 16]),
    discs=st.lists(st.tuples(st.floats(1.5, 8), st.floats(0, 2 * math.pi), st.floats(0.2, 2)), max_size=6),
    others=st.lists(st.tuples(st.floats(1.5, 6), st.floats(0, 2 * math.pi)), max_size=3),
)
def test_doubling_the_resolution_keeps_a_clear_decision(target_angle, coarse, discs, others):
    """A clear decision at ``coarse`` slots stays within half a coarse slot at twice as many.

    Clear: no danger on the chosen slot nor on its two neighbors, and a final value above
    every slot two or more away by 0.1. Danger covers whole slot arcs, so that a coarse
    map never misses an obstacle between its slots; a coarse slot may then be blocked
    where the same direction is free at twice the resolution, and a decision beside
    danger can move by more. Such decisions are not clear.
    """
    target = [polar(50.0, target_angle)]
    circles = np.array([[*polar(d, a), r] for d, a, r in discs]).reshape(-1, 3)
    agents = [[0.0, 0.0]] + [polar(d, a) for d, a in others]  # agent 0 is the one judged

    def decide(slots):
        pipeline = cs.Pipeline([cs.Chase(target), cs.Avoid(agents=True, max_distance=5.0)], slots=slots)
        return pipeline.evaluate(agents, radius=0.5, circles=circles)

    rough, fine = decide(coarse), decide(2 * coarse)
    final, danger = rough.decision.final[0], rough.danger[0]
    best = int(np.argmax(final))
    apart = (np.arange(coarse) - best) % coarse
    far = final[(apart >= 2) & (apart <= coarse - 2)]
    assume(not rough.decision.blocked[0])
    assume((danger[[best - 1, best, (best + 1) % coarse]] == 0).all() and final[best] >= far.max() + 0.1)
    assert not fine.decision.blocked[0]
    turn = math.atan2(*fine.decision.direction[0][::-1]) - math.atan2(*rough.decision.direction[0][::-1])
    assert abs(math.remainder(turn, 2 * math.pi)) <= math.pi / coarse + 1e-5
