"""cs.tune: Optuna's search over a world's parameters, in parallel, resumable from its storage."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import contextsteer as cs
from contextsteer import demo, scenarios
from contextsteer.tuning import CrowdObjective

# The crossing scene of the demo, small: 12 agents in blocks 6 m deep, 20 s of 0.05 s steps.
_, RECOMMENDED, AGENT_PARAMETERS = demo.scene_setup("crossing", 12)
ARRIVE, AVOID = RECOMMENDED.behaviors
SPACE = {"sideways": (0.0, 1.0), "max_distance": (0.5, 4.0), "keep_right": (0.0, 0.6)}
RECOMMENDED_PARAMS = {"sideways": ARRIVE.sideways, "max_distance": AVOID.max_distance, "keep_right": AVOID.keep_right}
RUN = {"steps": 400, "dt": 0.05}


def crossing(sideways, max_distance, keep_right, seed=0):
    geometry = scenarios.crossing(12, width=6.0, depth=6.0, approach=4.0, seed=seed)
    pipeline = cs.Pipeline([cs.Arrive(sideways=sideways),
                            cs.Avoid(agents=True, max_distance=max_distance, keep_right=keep_right)],
                           slots=RECOMMENDED.slots, select=RECOMMENDED.select)
    return geometry.world(pipeline, **AGENT_PARAMETERS)


def test_the_crossing_tuned_is_at_least_as_good_as_recommended_and_the_search_explores():
    result = cs.tune(crossing, SPACE, trials=30, cases={"seed": [0, 1]}, enqueue=[RECOMMENDED_PARAMS], workers=2,
                     **RUN)
    table = result.trials
    assert len(table) == 30 and (table["state"] == "COMPLETE").all()
    # The first trial is the recommended parameters, measured as the objective measures them.
    first = table.iloc[0]
    assert {name: first[name] for name in SPACE} == pytest.approx(RECOMMENDED_PARAMS)
    objective = CrowdObjective()
    by_hand = np.mean([objective(w, w.run(**RUN))["objective"] for w in (crossing(**RECOMMENDED_PARAMS, seed=s)
                                                                       for s in (0, 1))])
    assert first["value"] == pytest.approx(by_hand)
    assert result.best_value <= first["value"]
    # The search explored: every other trial has parameters of its own across the space.
    params = table[list(SPACE)].to_numpy()
    assert len({tuple(row) for row in params}) == 30
    for k, (low, high) in enumerate(SPACE.values()):
        assert params[:, k].min() < low + 0.25 * (high - low) and params[:, k].max() > high - 0.25 * (high - low)
    # The measures of the objective are columns, the best parameters a pipeline ready to use.
    assert {"arrived", "time_to_95", "deepest_overlap", "reversals_per_agent_minute", "seconds"} <= set(table)
    assert result.best_value == table["value"].min()
    assert result.best_params == table.loc[table["value"].idxmin(), list(SPACE)].to_dict()
    pipeline = result.pipeline
    assert isinstance(pipeline, cs.Pipeline)
    assert pipeline.behaviors[0].sideways == pytest.approx(result.best_params["sideways"], rel=1e-6)
    assert pipeline.behaviors[1].max_distance == pytest.approx(result.best_params["max_distance"], rel=1e-6)
    assert result.complete


def interrupting(after: int, calls: list):
    """An objective that counts its calls and interrupts the search at call ``after``."""
    objective = CrowdObjective()

    def measure(world, recording):
        calls.append(world.steerings[0].behaviors[0].sideways)
        if len(calls) == after:
            raise KeyboardInterrupt
        return objective(world, recording)
    return measure


@pytest.mark.parametrize("file", ["study.log", "study.db"])
def test_an_interrupted_search_resumes_from_its_storage_without_repeating_a_finished_trial(tmp_path, file):
    storage = tmp_path / file
    calls: list = []
    with pytest.warns(RuntimeWarning, match="tune interrupted"):
        first = cs.tune(crossing, SPACE, interrupting(5, calls), trials=8, storage=storage, steps=60, dt=0.05)
    assert not first.complete and len(first.trials) == 5 and len(calls) == 5
    finished = first.trials[first.trials["state"] == "COMPLETE"]
    assert len(finished) == 4
    interrupted = first.trials.iloc[4]
    assert interrupted["state"] == "RUNNING"

    calls.clear()
    second = cs.tune(crossing, SPACE, interrupting(0, calls), trials=8, storage=storage, steps=60, dt=0.05)
    assert second.complete
    table = second.trials
    done = table[table["state"] == "COMPLETE"]
    assert len(done) == 8 and len(calls) == 4            # the 4 missing trials, and no other
    # The finished trials are the same ones, not run again; the interrupted one failed and
    # its parameters ran first.
    np.testing.assert_array_equal(done["value"].to_numpy()[:4], finished["value"].to_numpy())
    assert table.iloc[4]["state"] == "FAIL"
    rerun = table.iloc[5]
    assert rerun["state"] == "COMPLETE" and rerun["rerun_of"] == 4
    assert calls[0] == pytest.approx(interrupted["sideways"])
    assert len({tuple(row) for row in done[list(SPACE)].to_numpy()}) == 8
    # Asking for as many as there are runs nothing.
    calls.clear()
    third = cs.tune(crossing, SPACE, interrupting(0, calls), trials=8, storage=storage, steps=60, dt=0.05)
    assert calls == [] and third.best_value == second.best_value


def test_trials_run_on_an_executor_of_processes():
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        result = cs.tune(crossing, SPACE, trials=4, workers=2, executor=pool, steps=40, dt=0.05)
        assert (result.trials["state"] == "COMPLETE").all() and len(result.trials) == 4
        assert pool.submit(abs, -3).result() == 3   # left open


def test_an_objective_may_be_a_plain_number_to_maximize_and_choices_and_integers_are_searched():
    def make_world(slots, select):
        return cs.World(cs.Pipeline([cs.Arrive()], slots=slots, select=select), [[0.0, 0.0]], targets=[[5.0, 0.0]])

    def reached(world, recording):
        return -float(np.linalg.norm(recording.positions[-1, 0] - [5.0, 0.0]))

    result = cs.tune(make_world, {"slots": (4, 32), "select": ["argmax", "blend"]}, reached, direction="maximize",
                     trials=6, steps=20, dt=0.1)
    assert result.trials["slots"].map(type).eq(int).all() and set(result.trials["select"]) <= {"argmax", "blend"}
    assert result.best_value == result.trials["value"].max()
    assert result.pipeline.slots == result.best_params["slots"]


def test_trials_whose_objective_is_not_finite_fail_and_end_the_search():
    def make_world(a):
        return cs.World(cs.Pipeline([cs.Arrive()]), [[0.0, 0.0]], targets=[[5.0, 0.0]])

    def nan_for_small_a(world, recording):
        return float("nan") if world.steerings[0].behaviors[0].weight < 0.5 else 1.0

    with pytest.warns(RuntimeWarning, match="not finite"):
        never = cs.tune(make_world, {"a": (0.0, 1.0)}, lambda world, recording: float("nan"), trials=3, steps=5)
    assert list(never.trials["state"]) == ["FAIL"] * 3 and never.steerings == () and np.isnan(never.best_value)
    # Some fail, the others count.
    def weighted(weight):
        return cs.World(cs.Pipeline([cs.Arrive(weight=weight)]), [[0.0, 0.0]], targets=[[5.0, 0.0]])

    some = cs.tune(weighted, {"weight": (0.0, 1.0)}, nan_for_small_a, trials=4, steps=5, enqueue=[{"weight": 0.1}])
    assert (some.trials["state"] == "COMPLETE").sum() == 4 and some.trials["state"][0] == "FAIL"


def test_tune_refuses_bad_arguments_by_name():
    with pytest.raises(TypeError, match="make_world"):
        cs.tune(3, SPACE, steps=10)
    with pytest.raises(TypeError, match="space"):
        cs.tune(crossing, {}, steps=10)
    with pytest.raises(TypeError, match=r"space\['sideways'\]"):
        cs.tune(crossing, {"sideways": 0.5}, steps=10)
    with pytest.raises(ValueError, match=r"space\['sideways'\] high"):
        cs.tune(crossing, {"sideways": (1.0, 0.0)}, steps=10)
    with pytest.raises(ValueError, match="direction"):
        cs.tune(crossing, SPACE, steps=10, direction="down")
    with pytest.raises(ValueError, match="cases"):
        cs.tune(crossing, SPACE, steps=10, cases={"sideways": [0.1]})
    with pytest.raises(ValueError, match="enqueue"):
        cs.tune(crossing, SPACE, steps=10, enqueue=[{"speed": 1.0}])
    with pytest.raises(TypeError, match="storage"):
        cs.tune(crossing, SPACE, steps=10, storage=3)
    with pytest.raises(ValueError, match="steps"):
        cs.tune(crossing, SPACE, steps=1)
    with pytest.raises(ValueError, match="objective"):
        cs.tune(crossing, SPACE, lambda world, recording: {"arrived": 1.0}, steps=10, trials=1)
