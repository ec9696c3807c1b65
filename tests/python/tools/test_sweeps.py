"""Parameter sweeps (contextsteer.sweep): rows, order, threads, interruptions and errors."""

import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest

import contextsteer as cs
from contextsteer import metrics

RECORD = ["positions", "velocities", "headings", "overlap"]


def crowd(n=20, sense=2.0, seed=0):
    """n agents crossing a 20 m square to the opposite side, avoiding each other."""
    starts = np.random.default_rng(seed).uniform(-10, 10, (n, 2))
    pipeline = cs.Pipeline([cs.Arrive(), cs.Avoid(agents=True, max_distance=sense)], slots=16, select="blend")
    return cs.World(pipeline, starts, targets=-starts, max_speed=1.5, max_acceleration=3.0, radius=0.4)


def test_rows_follow_the_grid_and_hold_each_runs_summary():
    table = cs.sweep(crowd, {"n": [5, 10], "sense": [1.0, 3.0], "seed": [0]}, steps=50, dt=0.1, record=RECORD)
    assert list(table[["n", "sense"]].itertuples(index=False, name=None)) == [(5, 1.0), (5, 3.0), (10, 1.0),
                                                                                (10, 3.0)]
    assert table.attrs["complete"] is True
    assert list(table.columns[:3]) == ["n", "sense", "seed"] and table.columns[-1] == "seconds"
    assert (table["seconds"] > 0).all()
    for row in table.itertuples(index=False):
        world = crowd(row.n, row.sense, row.seed)
        expected = metrics.summary(world.run(50, 0.1, record=RECORD), world.targets)
        for column, value in expected.items():
            np.testing.assert_equal(getattr(row, column), value, err_msg=column)


def test_a_sequence_of_runs_and_a_measure_of_ones_own():
    runs = [{"n": 4, "seed": 1}, {"n": 8, "seed": 2, "sense": 4.0}]

    def measure(world, recording):
        return {"agents": len(world), "last_x": float(recording.positions[-1, 0, 0])}

    table = cs.sweep(crowd, runs, steps=10, dt=0.1, measure=measure)
    assert list(table["agents"]) == [4, 8]
    assert np.isnan(table["sense"][0]) and table["sense"][1] == 4.0   # a run without it leaves a gap
    world = crowd(8, 4.0, 2)
    assert table["last_x"][1] == float(world.run(10, 0.1).positions[-1, 0, 0])


def test_threads_give_the_same_rows_as_one():
    grid = {"seed": [0, 1, 2, 3], "sense": [1.0, 2.0]}
    one = cs.sweep(crowd, grid, steps=60, dt=0.1, record=RECORD)
    two = cs.sweep(crowd, grid, steps=60, dt=0.1, record=RECORD, workers=2)
    assert one.drop(columns="seconds").equals(two.drop(columns="seconds"))


def failing_on_seed_2(seed):
    if seed == 2:
        raise RuntimeError("no scene for seed 2")
    return crowd(seed=seed)


def test_an_executor_of_processes_gives_the_same_rows_and_stays_open():
    grid = {"seed": [0, 1, 2], "sense": [1.0, 2.0]}
    here = cs.sweep(crowd, grid, steps=30, dt=0.1, record=RECORD)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        there = cs.sweep(crowd, grid, steps=30, dt=0.1, record=RECORD, executor=pool)
        assert here.drop(columns="seconds").equals(there.drop(columns="seconds"))
        with pytest.raises(RuntimeError, match="no scene for seed 2") as caught:
            cs.sweep(failing_on_seed_2, {"seed": [0, 1, 2]}, steps=5, dt=0.1, executor=pool)
        if sys.version_info >= (3, 11):
            assert "in run 2 of the sweep: {'seed': 2}" in caught.value.__notes__
        assert pool.submit(abs, -3).result() == 3   # the sweep left the pool open


def test_progress_shows_a_bar_over_the_runs(capsys):
    cs.sweep(crowd, {"seed": [0, 1]}, steps=5, dt=0.1, progress=True)
    assert "2/2" in capsys.readouterr().err


def interrupt_on_call(k, then=crowd):
    calls = []

    def make_world(**run):
        calls.append(run)
        if len(calls) == k:
            raise KeyboardInterrupt
        return then(**run)
    return make_world, calls


def test_an_interruption_keeps_the_runs_that_finished():
    make_world, calls = interrupt_on_call(3)
    with pytest.warns(RuntimeWarning, match="returning the 2 of 4 runs that finished"):
        table = cs.sweep(make_world, {"seed": [0, 1, 2, 3]}, steps=5, dt=0.1)
    assert list(table["seed"]) == [0, 1] and table.attrs["complete"] is False
    assert len(calls) == 3   # nothing ran after it


def test_a_run_interrupted_inside_world_run_is_dropped():
    steps = []

    def fill(batch, interest, danger):
        steps.append(1)
        if len(steps) == 8:   # in the second run, part-way
            raise KeyboardInterrupt
        interest[:] = 1.0

    def make_world(seed):
        return cs.World(cs.Pipeline([cs.PythonBehavior(fill=fill, fills="interest")], slots=8),
                        np.full((3, 2), float(seed)), max_speed=1.0)

    with pytest.warns(RuntimeWarning, match="returning the 1 of 3 runs"):
        table = cs.sweep(make_world, {"seed": [0, 1, 2]}, steps=5, dt=0.1)
    assert list(table["seed"]) == [0] and table["steps"][0] == 5


def test_an_interruption_with_threads_keeps_the_finished_rows_in_order():
    def measure(world, recording):
        if world.positions.shape[0] == 7:
            raise KeyboardInterrupt
        return {"agents": len(world)}

    with pytest.warns(RuntimeWarning, match="sweep interrupted"):
        table = cs.sweep(crowd, {"n": [3, 4, 7, 5, 6]}, steps=5, dt=0.1, measure=measure, workers=2)
    assert table.attrs["complete"] is False
    assert 7 not in set(table["n"]) and list(table["n"]) == sorted(table["n"])


def test_an_error_in_a_run_names_the_run():
    for workers in (1, 2):
        with pytest.raises(RuntimeError, match="no scene for seed 2") as caught:
            cs.sweep(failing_on_seed_2, {"seed": [0, 1, 2, 3]}, steps=5, dt=0.1, workers=workers)
        if sys.version_info >= (3, 11):
            assert "in run 2 of the sweep: {'seed': 2}" in caught.value.__notes__


def never_called(**run):
    raise AssertionError("make_world should not be called")


@pytest.mark.parametrize("kwargs, error, message", [
    ({"make_world": 3}, TypeError, "make_world: expected a callable"),
    ({"params": {"seed": 3}}, TypeError, "params: expected a sequence of values for 'seed'"),
    ({"params": {"seed": "012"}}, TypeError, "params: expected a sequence of values for 'seed'"),
    ({"params": {"seed": []}}, ValueError, "params: expected at least one value for 'seed'"),
    ({"params": []}, ValueError, "params: expected at least one run"),
    ({"params": [{"seed": 1}, 2]}, TypeError, "params: expected a {name: value} mapping for run 1, got int"),
    ({"params": {"not a name": [1]}}, TypeError, "params: expected parameter names that can be keywords"),
    ({"params": 5}, TypeError, "params: expected {name: values} or a sequence"),
    ({"steps": -1}, ValueError, "steps: expected an integer >= 0"),
    ({"dt": 0.0}, ValueError, "dt: expected a number >= 1e-06, got 0.0"),
    ({"workers": 0}, ValueError, "workers: expected an integer >= 1"),
    ({"executor": 2}, TypeError, "executor: expected a concurrent.futures.Executor, got int"),
    ({"executor": ThreadPoolExecutor(1), "workers": 2}, ValueError, "workers: the executor decides"),
    ({"record": ["positions", "speed"]}, ValueError, "record: expected names among"),
    ({"measure": "summary"}, TypeError, "measure: expected a callable"),
    ({"progress": 1}, TypeError, "progress: expected a bool"),
])
def test_bad_arguments_fail_before_any_run(kwargs, error, message):
    arguments = {"make_world": never_called, "params": {"seed": [0]}, "steps": 5, "dt": 0.1, **kwargs}
    with pytest.raises(error, match=message.replace("{", r"\{").replace("}", r"\}")):
        cs.sweep(arguments.pop("make_world"), arguments.pop("params"), **arguments)


@pytest.mark.parametrize("measure, error, message", [
    (lambda world, recording: [1.0], TypeError, "measure: expected a {column: value} mapping, got list"),
    (lambda world, recording: {"x": np.zeros(3)}, TypeError, r"measure: expected a scalar for column 'x', got shape"),
    (lambda world, recording: {"seed": 1.0}, ValueError, "measure: column 'seed' is also a parameter"),
    (lambda world, recording: {"seconds": 1.0}, ValueError, "measure: column 'seconds' is also"),
    (lambda world, recording: {3: 1.0}, TypeError, "measure: expected str column names, got 3"),
])
def test_a_bad_measure_is_named(measure, error, message):
    with pytest.raises(error, match=message.replace("{", r"\{").replace("}", r"\}")):
        cs.sweep(crowd, {"seed": [0]}, steps=3, dt=0.1, measure=measure)


def test_make_world_must_return_a_world():
    with pytest.raises(TypeError, match="make_world: expected a World, got dict"):
        cs.sweep(lambda seed: {"seed": seed}, {"seed": [0]}, steps=3, dt=0.1)


def tiny_world(**_):
    return cs.World(cs.Pipeline([cs.Chase([1.0, 0.0])]), [[0.0, 0.0]])


@pytest.mark.parametrize("params", [np.array(1.0), {"a": np.array(1.0)}])
def test_a_sweep_over_a_0d_array_names_params(params):
    with pytest.raises(TypeError, match=r"^params: expected"):
        cs.sweep(tiny_world, params, steps=1)


def test_an_interruption_during_the_sweeps_start_up_returns_the_empty_table(monkeypatch):
    import contextsteer.sweeps as sweeps

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(sweeps, "progress_bar", interrupted)
    with pytest.warns(RuntimeWarning, match="sweep interrupted: returning the 0 of 2 runs"):
        table = cs.sweep(tiny_world, {"a": [1, 2]}, steps=1, progress=True)
    assert len(table) == 0 and table.attrs["complete"] is False
