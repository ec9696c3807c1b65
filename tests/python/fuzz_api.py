"""A fuzzer of contextsteer's public API, run by test_fuzz.py in a subprocess (so that a
crash fails a test instead of ending the run).

Random shapes, dtypes and values (NaN, +-inf, huge, subnormal), non-contiguous and
read-only arrays, stale ids, and Python behaviours that write into their own world
while it steps. It asserts that only the documented exceptions come out (ValueError,
TypeError, IndexError), that finite accepted input gives finite output, and that a
refused call leaves the world as it was (a failed step: as its docstring says).

    python tests/python/fuzz_api.py EXAMPLES    runs each target for EXAMPLES examples
"""

from __future__ import annotations

import pickle
import sys

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import contextsteer as cs

DOCUMENTED = (ValueError, TypeError, IndexError)
SPECIAL = [0.0, 1.0, -1.0, 0.5, np.nan, np.inf, -np.inf, 1e30, -1e30, 1e-45, -1e-40, 1e9, -1e9, 3e38, 2.0, 7.0]
calls = 0


def values(dtype):
    if np.dtype(dtype).kind == "f":
        return st.sampled_from(SPECIAL) | st.floats(-20, 20)
    if np.dtype(dtype).kind == "b":
        return st.booleans()
    return st.integers(-3, 40)


@st.composite
def arrays(draw, shapes=None):
    """An array of a random dtype and shape (or one of ``shapes``), maybe non-contiguous
    or read-only, or now and then something that is not an array at all."""
    if draw(st.integers(0, 30)) == 0:
        return draw(st.sampled_from([None, "abc", 3, [[1, 2], [3]], object()]))
    dtype = draw(st.sampled_from([np.float32, np.float64, np.float32, np.int64, np.int32, np.bool_]))
    shape = draw(st.sampled_from(shapes)) if shapes else draw(hnp.array_shapes(min_dims=0, max_dims=3, max_side=5))
    strided = draw(st.booleans()) and len(shape) > 0
    full = (shape[0] * 2, *shape[1:]) if strided else shape
    a = draw(hnp.arrays(dtype, full, elements=values(dtype)))
    if strided:
        a = a[::2]
    if draw(st.booleans()):
        a.setflags(write=False)
    return a


def finite_within(a, bound=1e9) -> bool:
    a = np.asarray(a)
    return a.dtype.kind in "biuf" and bool(np.all(np.isfinite(a)) and np.all(np.abs(a.astype(float)) <= bound))


REFUSED = object()  # what call() gives for a call refused with a documented exception


def call(fn, *args, **kwargs):
    """fn(*args, **kwargs); a documented exception gives REFUSED, anything else fails."""
    global calls
    calls += 1
    try:
        return fn(*args, **kwargs)
    except DOCUMENTED:
        return REFUSED


def snapshot(world):
    state = world._core.saved_state()
    return [bytes(c) for c in state[2]], world.steps_taken, world.time, world.agent_count


def check_unchanged(world, before, what):
    after = snapshot(world)
    assert after == before, f"{what} was refused but changed the world"


def world_of(n, pipeline=None, seed=0):
    rng = np.random.default_rng(seed)
    pipeline = pipeline or cs.Pipeline([cs.Chase([3.0, 0.0]), cs.Avoid(agents=True)], slots=8)
    return cs.World(pipeline, rng.uniform(-5, 5, (n, 2)), circles=[[0.0, 0.0, 1.0]])


def targets(examples):
    opts = settings(max_examples=examples, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))

    @opts
    @given(arrays(), st.sampled_from(["max", "sum", "mean", "min", "avg", None]), arrays())
    def combine(maps, rule, weights):
        out = call(cs.combine, maps, rule, weights)
        if out is not REFUSED and finite_within(maps) and (weights is None or finite_within(weights)):
            assert np.isfinite(out).all(), (maps, rule, weights, out)

    @opts
    @given(arrays(), arrays(), st.sampled_from(["subtract", "mask", "zero"]), st.sampled_from(SPECIAL),
           st.sampled_from(["argmax", "blend", "x"]), arrays([(1, 2), (2, 2), (2,)]))
    def resolve(interest, danger, mode, threshold, select, current):
        d = call(cs.resolve, interest, danger, danger_mode=mode, threshold=threshold, select=select, current=current)
        if d is not REFUSED and finite_within(interest) and (danger is None or finite_within(danger)):
            assert np.isfinite(d.direction).all() and np.isfinite(d.strength).all()

    @opts
    @given(arrays(), st.sampled_from(SPECIAL))
    def blur(maps, width):
        out = call(cs.blur, maps, width)
        if out is not REFUSED and finite_within(maps):
            assert np.isfinite(out).all()

    columns = ["positions", "velocities", "heading", "angular_velocity", "radius", "max_speed", "max_acceleration",
               "max_turn_rate", "mass", "max_force", "targets", "target_ids", "layers", "sense_masks"]

    @opts
    @given(st.integers(0, 6), st.sampled_from(columns), arrays(), st.sampled_from(SPECIAL + [1e-3]),
           st.integers(1, 3), st.integers(1, 2))
    def world_calls(n, column, value, dt, substeps, threads):
        world = world_of(n)
        world.threads = threads
        # add_agents with one bad column: refused whole, or taken
        before = snapshot(world)
        added = call(world.add_agents, [[1.0, 1.0], [2.0, 2.0]], **{column: value} if column != "positions" else {})
        if added is REFUSED:
            check_unchanged(world, before, f"add_agents({column}=...)")
        # writes into a view between steps, then a step
        view = getattr(world, column)
        try:
            view[...] = value
        except (ValueError, TypeError, IndexError, OverflowError):
            pass  # NumPy refuses the assignment
        before = snapshot(world)
        if call(world.step, dt, substeps=substeps) is REFUSED:
            check_unchanged(world, before, "step")
        else:
            assert np.isfinite(world.positions).all()
        # stale and odd ids
        ids = world.ids.copy()
        if len(ids):
            world.remove_agents(ids[:1])
        for agent in (0, -1, 10**12, 1.5, "x", None, np.int64(1)):
            before = snapshot(world)
            if call(world.remove_agents, [agent]) is REFUSED:
                check_unchanged(world, before, "remove_agents")
            call(world.index_of, [agent])
            call(world.explain, agent)
            call(world.neighbors, agent=agent, radius=2.0)
        call(world.neighbors, value, radius=dt)
        before = snapshot(world)
        if call(world.run, 2, dt, record="all") is REFUSED:
            check_unchanged(world, before, "run")
        copy = world.copy()
        assert snapshot(copy) == snapshot(world)
        assert snapshot(pickle.loads(pickle.dumps(world))) == snapshot(world)

    @opts
    @given(st.sampled_from(columns), st.sampled_from(SPECIAL), st.integers(1, 5), st.booleans())
    def python_behaviour_writing_its_world(column, value, n, neighbors):
        def fill(batch, interest, danger):
            interest[:] = 0.5
            view = getattr(world, column)
            try:
                view[-1] = value
            except (ValueError, TypeError, OverflowError):
                pass
            if neighbors:
                batch.neighbors(1.0)

        pipeline = cs.Pipeline([cs.Avoid(agents=True), cs.PythonBehavior(fill, neighbor_radius=1.0),
                                cs.Chase([1.0, 1.0])], slots=8)
        world = world_of(n, pipeline)
        for _ in range(2):
            if call(world.step, 0.05) is not REFUSED:
                assert np.isfinite(world.positions).all()

    return [combine, resolve, blur, world_calls, python_behaviour_writing_its_world]


def main(examples: int) -> None:
    np.seterr(all="ignore")
    for target in targets(examples):
        target()
        print(f"{target.__name__}: {examples} examples, {calls} calls so far", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
