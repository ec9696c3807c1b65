"""Each combine rule, danger mode, selection method and shaping function against
hand-computed values, in batch and single-map form."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from placement import clear_points

import contextsteer as cs


def test_slot_directions_are_unit_vectors_counter_clockwise_from_x():
    d = cs.slot_directions(4, offset=0.5)
    assert d.shape == (4, 2) and d.dtype == np.float32
    angles = 0.5 + np.pi / 2 * np.arange(4)
    np.testing.assert_allclose(d, np.column_stack([np.cos(angles), np.sin(angles)]), atol=1e-6)
    assert cs.slot_directions(1).shape == (1, 2)
    big = cs.slot_directions(1024)
    np.testing.assert_allclose(np.linalg.norm(big, axis=1), 1, atol=1e-6)


A = np.array([[0.0, 0.5, 1.0], [0.2, 0.2, 0.2]])
B = np.array([[0.4, 0.2, -1.0], [0.0, 0.6, 0.1]])


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("max", [[0.4, 0.5, 1.0], [0.2, 0.6, 0.2]]),
        ("min", [[0.0, 0.2, -1.0], [0.0, 0.2, 0.1]]),
        ("sum", [[0.4, 0.7, 0.0], [0.2, 0.8, 0.3]]),
        ("mean", [[0.2, 0.35, 0.0], [0.1, 0.4, 0.15]]),
    ],
)
def test_combine_rules(rule, expected):
    np.testing.assert_allclose(cs.combine([A, B], rule), expected, atol=1e-6)
    np.testing.assert_allclose(cs.combine(np.stack([A, B]), rule), expected, atol=1e-6)


def test_combine_default_is_max_and_weights_default_to_weighted_sum():
    np.testing.assert_allclose(cs.combine([A, B]), np.maximum(A, B), atol=1e-6)
    np.testing.assert_allclose(cs.combine([A, B], weights=[2, 0.5]), 2 * A + 0.5 * B, atol=1e-6)
    np.testing.assert_allclose(cs.combine([A, B], "mean", weights=[3, 1]), (3 * A + B) / 4, atol=1e-6)
    np.testing.assert_allclose(cs.combine([A, B], "max", weights=[2, 0.5]), np.maximum(2 * A, 0.5 * B), atol=1e-6)


def test_combine_single_maps_keep_their_rank():
    out = cs.combine([A[0], B[0]], "sum")
    assert out.shape == (3,)
    np.testing.assert_allclose(out, [0.4, 0.7, 0.0], atol=1e-6)


INTEREST = np.array([1.0, 0.8, 0.6, 0.4])
DANGER = np.array([0.9, 0.3, 0.1, 0.0])


@pytest.mark.parametrize(
    ("mode", "kwargs", "final", "slot"),
    [
        ("subtract", {}, [0.1, 0.5, 0.5, 0.4], 1),
        ("threshold", {"threshold": 0.5}, [0.0, 0.8, 0.6, 0.4], 1),
        ("threshold", {"threshold": 0.05}, [0.0, 0.0, 0.0, 0.4], 3),
        ("min_mask", {"margin": 0.15}, [0.0, 0.0, 0.6, 0.4], 2),
        ("min_mask", {}, [0.0, 0.0, 0.0, 0.4], 3),
        ("multiply", {}, [0.1, 0.56, 0.54, 0.4], 1),
    ],
)
def test_danger_modes(mode, kwargs, final, slot):
    d = cs.resolve(INTEREST, DANGER, danger_mode=mode, **kwargs)
    np.testing.assert_allclose(d.final, final, atol=1e-6)
    assert d.slot == slot
    assert d.strength == pytest.approx(max(final), abs=1e-6)
    assert not d.blocked


MAP = np.array([0.2, 1.0, 0.5, 0.0])
BLEND_SLOT = math.atan2(1.0, -0.3) / (math.pi / 2)  # 0.2*(1,0) + 1*(0,1) + 0.5*(-1,0) = (-0.3, 1)


@pytest.mark.parametrize(
    ("select", "slot"),
    [
        ("argmax", 1.0),
        ("blend", BLEND_SLOT),
        ("average", BLEND_SLOT),  # the same sum here, since slot 3 is empty
        ("parabolic", 1 + 0.5 * (0.2 - 0.5) / (0.2 - 2 + 0.5)),
        ("gradient", 1 + (0.5 - 0.2) / (2 * (1.0 - 0.2))),
    ],
)
def test_selection_methods(select, slot):
    d = cs.resolve(MAP, select=select)
    assert d.slot == pytest.approx(slot, abs=1e-5)
    angle = slot * math.pi / 2
    np.testing.assert_allclose(d.direction, [math.cos(angle), math.sin(angle)], atol=1e-5)
    t = slot - 1
    assert d.strength == pytest.approx((1 - t) * 1.0 + t * 0.5, abs=1e-5)


def test_average_uses_every_slot():
    m = np.array([0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.6])  # slots 1 and 7 are 90 degrees apart
    d = cs.resolve(m, select="average")
    v = 1.0 * np.array([math.cos(math.pi / 4), math.sin(math.pi / 4)]) + 0.6 * np.array(
        [math.cos(7 * math.pi / 4), math.sin(7 * math.pi / 4)])
    np.testing.assert_allclose(d.direction, v / np.linalg.norm(v), atol=1e-5)


def test_blocked_agents_brake():
    d = cs.resolve(np.ones((2, 8)), np.array([np.ones(8), np.r_[np.ones(7), 0.5]]))
    np.testing.assert_array_equal(d.blocked, [True, False])
    np.testing.assert_array_equal(d.direction[0], [0, 0])
    assert d.strength[0] == 0 and d.slot[0] == -1
    assert d.slot[1] == 7 and d.strength[1] == pytest.approx(0.5)


def test_resolve_batch_shapes_and_dtypes():
    rng = np.random.default_rng(0)
    d = cs.resolve(rng.random((5, 12)), rng.random((5, 12)), select="blend")
    assert d.direction.shape == (5, 2) and d.final.shape == (5, 12)
    assert d.strength.shape == d.slot.shape == d.blocked.shape == (5,)
    assert d.blocked.dtype == bool and d.direction.dtype == np.float32
    assert ((d.strength >= 0) & (d.strength <= 1)).all()


def test_offset_rotates_directions():
    d = cs.resolve(MAP, offset=0.3)
    np.testing.assert_allclose(d.direction, [math.cos(math.pi / 2 + 0.3), math.sin(math.pi / 2 + 0.3)], atol=1e-6)


def test_blur_hand_computed_and_wrapping():
    spike = np.zeros(12)
    spike[0] = 1
    out = cs.blur(spike, 1.0)
    g = np.exp(-0.5 * np.arange(4) ** 2)
    total = g[0] + 2 * g[1:].sum()
    assert out[0] == pytest.approx(1 / total, abs=1e-6)
    assert out[11] == pytest.approx(g[1] / total, abs=1e-6)  # wrapped around
    assert out.sum() == pytest.approx(1, abs=1e-6)
    np.testing.assert_array_equal(cs.blur(np.array([[0.0, 1.0, 0.5]]), 0), [[0.0, 1.0, 0.5]])


def test_a_blur_wider_than_the_circle_wraps_round_it_and_tends_to_the_mean():
    maps = np.random.default_rng(3).random((4, 9))
    # Width 2 on 9 slots reaches 6 slots each way: the kernel laps the circle.
    k = np.arange(-6, 7)
    g = np.exp(-0.5 * (k / 2.0) ** 2)
    expected = np.stack([sum(w * np.roll(row, -int(j)) for j, w in zip(k, g)) / g.sum() for row in maps])
    np.testing.assert_allclose(cs.blur(maps, 2.0), expected, atol=1e-6)
    # The widest accepted blur is each row's mean, in at most 9 taps a slot (not 2^19).
    np.testing.assert_allclose(cs.blur(maps, 1e9), np.repeat(maps.mean(axis=1, keepdims=True), 9, axis=1), atol=1e-5)


def test_smooth_blends_with_previous():
    np.testing.assert_allclose(cs.smooth([1.0, 0.0], [0.0, 1.0], factor=0.25), [0.75, 0.25], atol=1e-7)
    np.testing.assert_allclose(cs.smooth(A, B, 0.0), A, atol=1e-7)
    np.testing.assert_allclose(cs.smooth(A, B, 1.0), B, atol=1e-7)


def test_resample_linear_and_max():
    m = np.array([0.0, 1.0, 0.0, 0.5])
    np.testing.assert_allclose(cs.resample(m, 8), [0, 0.5, 1, 0.5, 0, 0.25, 0.5, 0.25], atol=1e-7)
    np.testing.assert_allclose(cs.resample(m, 2), [0, 0], atol=1e-7)
    np.testing.assert_allclose(cs.resample(m, 2, method="max"), [1, 1], atol=1e-7)
    assert cs.resample(np.ones((3, 16)), 7).shape == (3, 7)
    # Resampling to the same count is the identity; up then down returns the original.
    rng = np.random.default_rng(1)
    r = rng.random((4, 10))
    np.testing.assert_allclose(cs.resample(r, 10), r, atol=1e-7)
    np.testing.assert_allclose(cs.resample(cs.resample(r, 20), 10), r, atol=1e-6)


def test_hysteresis_breaks_near_ties_toward_the_current_direction():
    # Two equal lobes, east (slot 0) and west (slot 4); the agent already moves west.
    m = np.array([1.0, 0.5, 0.0, 0.5, 1.0, 0.5, 0.0, 0.5])
    assert cs.resolve(m).slot == 0
    d = cs.resolve(m, hysteresis=0.2, current=[-1.0, 0.1])
    assert d.slot == 4
    np.testing.assert_allclose(d.final, m, atol=1e-7)  # reported without the bias
    assert d.strength == pytest.approx(1.0)
    # A clear preference is not overturned by a small bias: east 1.0 against west 0.8.
    clear = m.copy()
    clear[4] = 0.8
    assert cs.resolve(clear, hysteresis=0.2, current=[-1.0, 0.0]).slot == 0
    # The bias only reweights open slots: it never opens a masked one.
    danger = np.zeros(8)
    danger[4] = 1.0
    biased = cs.resolve(m, danger, danger_mode="threshold", hysteresis=5.0, current=[-1.0, 0.0])
    assert biased.slot != 4 and biased.final[4] == 0  # north-west (open) may win; west stays masked


@pytest.mark.parametrize("slots", [16, 256, 257, 1024])
def test_hysteresis_breaks_ties_at_any_slot_count(slots):
    # Equal lobes east and west: the biased copy of the map is held on the stack up to 256
    # slots and in a per-thread buffer beyond; both lean west for an agent moving west.
    angles = 2 * np.pi * np.arange(slots) / slots
    m = np.abs(np.cos(angles)).astype(np.float32)
    west = int(np.argmax(np.cos(angles) == np.cos(angles).min()))
    assert cs.resolve(m).slot == 0
    d = cs.resolve(m, hysteresis=0.2, current=[-1.0, 0.0])
    assert d.slot == west and d.strength == pytest.approx(m[west])
    np.testing.assert_array_equal(d.final, m)  # reported without the bias


def test_pipeline_hysteresis_holds_only_a_way_that_leads_on():
    # Interest 1 east, 0.9 north-east, 0.6 west. Doubled by hysteresis, the west would win
    # for an agent backing off west, but that way is 180 degrees from the peak and below
    # it: not held, it goes east. North-east, 45 degrees from the peak, is held.
    behaviours = [cs.Chase([[10.0, 0.0]]), cs.Chase([[10.0, 10.0]], weight=0.9), cs.Chase([[-10.0, 0.0]], weight=0.6)]
    velocities = [[-1.0, 0.0], [1.0, 1.0]]
    held = cs.Pipeline(behaviours, slots=8, hysteresis=1.0).evaluate([[0.0, 0.0]] * 2, velocities=velocities)
    np.testing.assert_array_equal(held.decision.slot, [0, 1])
    plain = cs.Pipeline(behaviours, slots=8).evaluate([[0.0, 0.0]] * 2, velocities=velocities)
    np.testing.assert_array_equal(plain.decision.slot, [0, 0])


def test_pipeline_hysteresis_uses_each_agents_velocity():
    chase = cs.Chase([[10.0, 0.0], [-10.0, 0.0]], combine="max")
    p = cs.Pipeline([chase], slots=8, hysteresis=0.3)
    e = p.evaluate([[0.0, 0.0], [0.0, 0.0]], velocities=[[1.0, 0.0], [-1.0, 0.0]])
    np.testing.assert_array_equal(e.decision.slot, [0, 4])
    with pytest.raises(ValueError, match="hysteresis"):
        cs.Pipeline([chase], hysteresis=-1)


finite32 = st.floats(-1e9, 1e9, width=32, allow_subnormal=True)


def test_the_mean_of_subnormal_weights_is_the_mean():
    np.testing.assert_array_equal(cs.combine([[0.5, 0.0, 0.25]], "mean", [1e-45]), [0.5, 0.0, 0.25])
    np.testing.assert_allclose(cs.combine([[0.5, 0.0, 0.25], [1.0, 1.0, 1.0]], "mean", [1e-45, 3e-45]),
                               [0.875, 0.75, 0.8125], rtol=0.2)  # subnormals hold few bits
    np.testing.assert_allclose(cs.combine([[0.5, 0.0, 0.25], [1.0, 1.0, 1.0]], "mean", [1e-40, 3e-40]),
                               [0.875, 0.75, 0.8125], rtol=1e-4)


def test_normal_weights_give_the_bits_they_gave():
    rng = np.random.default_rng(3)
    maps = rng.uniform(-2, 2, (3, 40)).astype(np.float32)
    weights = np.array([0.3, 2.0, 1e-3], np.float32)
    expected = weights[0] * maps[0]
    for w, m in zip(weights[1:], maps[1:]):
        expected = expected + w * m
    expected = expected * (np.float32(1) / (weights[0] + weights[1] + weights[2]))
    np.testing.assert_array_equal(cs.combine(maps[:, None, :], "mean", weights)[0], expected)


def test_weights_that_cancel_out_are_refused_by_name():
    with pytest.raises(ValueError, match=r"^weights: the mean needs weights whose sum is at least a millionth"):
        cs.combine([[0.5, 0.0], [1.0, 1.0], [1.0, 0.0]], "mean", [1.0, -1.0, 1e-45])
    with pytest.raises(ValueError, match=r"^weights: the mean needs weights whose sum is not zero"):
        cs.combine([[0.5, 0.0], [1.0, 1.0]], "mean", [1.0, -1.0])


@pytest.mark.parametrize("make", [lambda w: cs.Chase([5.0, 0.0], weight=w), lambda w: cs.Avoid(agents=True, weight=w),
                                  lambda w: cs.Rays(weight=w), lambda w: cs.TimeToCollision(weight=w)])
@pytest.mark.parametrize("weight", [1e-40, 1e-45, -1e-44])
def test_pipelines_with_subnormal_weights_keep_finite_maps(make, weight):
    behavior = make(weight)
    pipeline = cs.Pipeline([behavior], interest_rule="mean", danger_rule="mean")
    rng = np.random.default_rng(0)
    world = cs.World(pipeline, clear_points(rng, -2, 2, 30, 0.5, circles=[[0.0, 0.0, 0.5]]),
                     velocities=rng.uniform(-1, 1, (30, 2)), circles=[[0.0, 0.0, 0.5]])
    for _ in range(3):
        world.step(0.05)
    for name in ("interest", "danger", "final", "direction", "strength", "positions"):
        assert np.isfinite(getattr(world, name)).all(), name


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4).flatmap(lambda k: st.tuples(
    st.lists(st.lists(finite32, min_size=3, max_size=3), min_size=k, max_size=k),
    st.lists(finite32, min_size=k, max_size=k))), st.sampled_from(["max", "sum", "mean", "min"]))
def test_combine_never_gives_nan_or_inf_from_accepted_finite_input(maps_and_weights, rule):
    maps, weights = maps_and_weights
    try:
        out = cs.combine(maps, rule, weights)
    except ValueError as error:
        assert rule == "mean" and str(error).startswith("weights: the mean needs weights whose sum")
        return
    assert np.isfinite(out).all(), (maps, weights, rule, out)


def test_a_blur_wider_than_any_kernel_averages_the_map():
    # Widths of millions of slots are capped before they are converted to a kernel radius
    # (the conversion used to overflow an int and ask for a huge vector).
    maps = np.arange(8.0)
    assert cs.blur(maps, 1e9) == pytest.approx(np.full(8, maps.mean()), abs=1e-4)


def test_core_guards_direct_calls():
    """The raw module also refuses bad shapes instead of reading out of bounds."""
    from contextsteer import _core

    with pytest.raises(ValueError, match="danger"):
        _core.resolve(np.ones((2, 8), np.float32), np.ones((1, 8), np.float32), "subtract", 0.5, 0.0, "argmax", 0.0)
    with pytest.raises(ValueError, match="weights"):
        _core.combine(np.ones((2, 8), np.float32), "sum", np.ones(3, np.float32))
