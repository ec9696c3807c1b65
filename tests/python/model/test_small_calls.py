"""``resolve`` and ``combine`` check plain input in one pass in C++ (``_core.try_resolve``,
``_core.try_combine``) and leave everything else to the Python checks. Whichever path a
call takes, it gives the same values, types and shapes, or the same exception with the
same message: each call here runs both ways and the outcomes are compared."""

import numpy as np
import pytest

import contextsteer as cs
from contextsteer import _core

FIELDS = ("direction", "strength", "slot", "blocked", "final")


def outcome(fn, *args, **kwargs):
    try:
        return ("ok", fn(*args, **kwargs))
    except Exception as exc:  # noqa: BLE001 - the exception itself is the outcome compared
        return ("error", type(exc), str(exc))


def python_path(monkeypatch, fn, *args, **kwargs):
    """The outcome with the C++ pre-check refusing every input, so the Python checks run."""
    with monkeypatch.context() as m:
        m.setattr(_core, "try_resolve", lambda *a: None)
        m.setattr(_core, "try_combine", lambda *a: None)
        return outcome(fn, *args, **kwargs)


def assert_same_value(a, b):
    assert type(a) is type(b)
    assert np.shape(a) == np.shape(b) and np.asarray(a).dtype == np.asarray(b).dtype
    np.testing.assert_array_equal(a, b)


def assert_same_outcome(monkeypatch, fn, *args, **kwargs):
    fast = outcome(fn, *args, **kwargs)
    slow = python_path(monkeypatch, fn, *args, **kwargs)
    if fast[0] == "ok" and slow[0] == "ok":
        if isinstance(fast[1], cs.Decision):
            assert type(slow[1]) is cs.Decision
            for field in FIELDS:
                assert_same_value(getattr(fast[1], field), getattr(slow[1], field))
        else:
            assert_same_value(fast[1], slow[1])
    else:
        assert fast == slow
    return fast[0]


def pick(rng, options):
    return options[int(rng.integers(len(options)))]


def random_resolve_call(rng):
    slots, n = int(rng.integers(1, 20)), int(rng.integers(0, 4))
    shape = (slots,) if n == 0 else (n, slots)
    dtype = pick(rng, [np.float32, np.float64])
    interest = rng.uniform(-1, 2, shape).astype(dtype)
    danger = rng.uniform(-1, 2, shape).astype(dtype) if rng.random() < 0.7 else None
    if rng.random() < 0.1:
        interest.flat[0] = pick(rng, [np.nan, np.inf, 2e9, 1e9])
    if rng.random() < 0.1:
        interest = interest.tolist()
    kwargs = {}
    if rng.random() < 0.5:
        kwargs["danger_mode"] = pick(rng, ["subtract", "threshold", "min_mask", "multiply", "unknown"])
    if rng.random() < 0.5:
        kwargs["select"] = pick(rng, ["argmax", "blend", "average", "parabolic", "gradient"])
    if rng.random() < 0.3:
        kwargs["threshold"] = pick(rng, [0.3, -1, np.nan, 2e9, 1])
    if rng.random() < 0.3:
        kwargs["margin"] = pick(rng, [0.1, -0.0, -1e-50, -1])
    if rng.random() < 0.3:
        kwargs["offset"] = pick(rng, [0.3, 1, np.float32(0.2), True, np.float64(2.0)])
    if rng.random() < 0.3:
        rows = max(n, 1)
        kwargs["current"] = pick(rng, [np.ones((rows, 2)), np.ones(2), [1.0, 0.0], (0, 1), np.ones((rows + 1, 2)),
                                       np.ones((rows, 3))])
        kwargs["hysteresis"] = pick(rng, [0.5, -1.0, 1e-50, 3])
    return (interest, danger), kwargs


def random_combine_call(rng):
    slots, n = int(rng.integers(1, 20)), int(rng.integers(0, 4))
    shape = (slots,) if n == 0 else (n, slots)
    k = int(rng.integers(1, 4))
    maps = [rng.uniform(-1, 2, shape).astype(pick(rng, [np.float32, np.float64])) for _ in range(k)]
    if rng.random() < 0.1 and slots > 1:
        maps[-1] = maps[-1][..., :-1]
    if rng.random() < 0.05:
        maps[0].flat[-1] = np.nan
    if rng.random() < 0.2 and len({m.shape for m in maps}) == 1:
        maps = np.stack(maps) if n else np.stack(maps)[:, None]
    elif rng.random() < 0.2:
        maps = tuple(maps)
    rule = pick(rng, [None, "max", "sum", "mean", "min", "median"])
    weights = None
    if rng.random() < 0.5:
        weights = pick(rng, [[float(w) for w in rng.uniform(-1, 2, k)], np.ones(k), np.ones(k + 1), [0.0] * k,
                             [1e-45] * k, [True] * k, [1] * k, np.full(k, 1e-40, np.float32)])
    return (maps, rule, weights), {}


@pytest.mark.parametrize("seed", range(6))
def test_resolve_gives_what_the_python_checks_give(monkeypatch, seed):
    rng = np.random.default_rng(seed)
    for _ in range(150):
        args, kwargs = random_resolve_call(rng)
        assert_same_outcome(monkeypatch, cs.resolve, *args, **kwargs)


@pytest.mark.parametrize("seed", range(6))
def test_combine_gives_what_the_python_checks_give(monkeypatch, seed):
    rng = np.random.default_rng(seed)
    for _ in range(150):
        args, kwargs = random_combine_call(rng)
        assert_same_outcome(monkeypatch, cs.combine, *args, **kwargs)


MAP = np.linspace(0.0, 1.0, 16, dtype=np.float32)


def read_only(a):
    a = a.copy()
    a.flags.writeable = False
    return a


@pytest.mark.parametrize(
    "interest",
    [
        MAP,  # the plain case: taken by the C++ check
        MAP.astype(np.float64),
        MAP.tolist(),
        tuple(MAP.tolist()),
        read_only(MAP),
        np.stack([MAP, MAP])[:, ::2],  # not contiguous
        MAP.astype(">f4"),  # byte-swapped
        MAP.astype(np.float16),
        MAP.astype(np.int32),
        np.ma.masked_array(MAP, mask=MAP > 0.5),  # a subclass
        np.zeros((0, 16), np.float32),
        np.zeros(0, np.float32),
        np.zeros((2, 0), np.float32),
        np.zeros((1, 2, 16), np.float32),
        np.float32(1.0),
        [[0.1, 0.2], [0.3]],
        ["a", "b"],
        "abcd",
        None,
        np.array([0.1, np.nan], np.float32),
        np.array([0.1, -np.inf]),
        np.array([0.1, 1e300]),
        [0.1, 10**400],
        [0.1, True],
    ],
)
def test_every_kind_of_map_gets_the_same_outcome_on_both_paths(monkeypatch, interest):
    assert_same_outcome(monkeypatch, cs.resolve, interest)
    assert_same_outcome(monkeypatch, cs.resolve, interest, interest)
    assert_same_outcome(monkeypatch, cs.combine, [interest, interest])
    assert_same_outcome(monkeypatch, cs.combine, [interest], "mean", [2.0])


def test_the_plain_calls_take_the_cpp_check():
    decision = _core.try_resolve(cs.Decision, MAP, None, "subtract", 0.5, 0.0, "argmax", 0.0, 0.0, None)
    assert isinstance(decision, cs.Decision) and decision.slot == np.float32(15)
    assert _core.try_combine([MAP, MAP], "sum", [1.0, 2.0]) is not None
    # The rest goes to the Python checks.
    assert _core.try_resolve(cs.Decision, MAP[::2], None, "subtract", 0.5, 0.0, "argmax", 0.0, 0.0, None) is None
    assert _core.try_combine([MAP, MAP[:8]], "sum", None) is None


def test_a_decision_of_the_cpp_check_is_a_frozen_decision():
    decision = cs.resolve(MAP)
    with pytest.raises(AttributeError):
        decision.slot = 3  # type: ignore[misc]
    assert vars(decision).keys() == vars(cs.Decision(*(getattr(decision, f) for f in FIELDS))).keys()
    assert repr(decision).startswith("Decision(direction=array(")
