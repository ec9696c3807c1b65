"""Parameters set on live behaviours and pipelines: checked as the constructor checks
them, taking effect at the next step of every world using them, refused while a world
steps with them, kept by copies and pickles; unknown attributes raise."""

from __future__ import annotations

import copy
import inspect
import pickle

import numpy as np
import pytest

import contextsteer as cs

# A value other than the default for each parameter of the behaviours built from C++ structs.
CHANGES = {
    cs.Chase: dict(max_distance=4.0, falloff="step", combine="sum", sideways=0.4, weight=0.5),
    cs.Avoid: dict(max_distance=1.0, falloff="step", world_obstacles=False, agents=False, keep_right=0.3,
                   weight=0.5),
}
# A bad value for each, and the error it raises.
BAD = {"max_distance": (-1.0, ValueError), "falloff": ("cubic", ValueError), "combine": ("avg", ValueError),
       "sideways": (1.0, ValueError), "weight": (1e300, ValueError), "world_obstacles": ("yes", TypeError),
       "agents": (1, TypeError), "keep_right": (1.0, ValueError)}


def maps_of(behavior) -> np.ndarray:
    """The behaviour's maps in a small world, after one step."""
    pipeline = cs.Pipeline([behavior], slots=16)
    world = cs.World(pipeline, [[0.0, 0.0], [1.2, 0.3], [-0.5, 2.0]], targets=[[3.0, 1.0], [-3.0, 0.0], [0.0, 5.0]],
                     circles=[[0.0, -1.5, 0.5]], keep_maps=True)
    world.step(0.05)
    return np.concatenate([world.interest, world.danger])


def built_with(cls, **parameters):
    if cls is cs.Chase:
        return cls([[3.0, 1.0], [2.0, -2.0]], **({"max_distance": 8.0} | parameters))
    return cls(**({"agents": True} | parameters))


@pytest.mark.parametrize("cls", CHANGES, ids=lambda c: c.__name__)
def test_the_signature_and_defaults_come_from_the_struct(cls):
    signature = inspect.signature(cls)
    for f in cls._core_class._fields:
        assert signature.parameters[f["name"]].default == f["default"]
        assert f["name"] in cls.__doc__


@pytest.mark.parametrize("cls", CHANGES, ids=lambda c: c.__name__)
def test_each_parameter_set_live_gives_the_maps_of_a_behaviour_built_with_it(cls):
    for name, value in CHANGES[cls].items():
        live = built_with(cls)
        setattr(live, name, value)
        assert getattr(live, name) == pytest.approx(value)
        expected = maps_of(built_with(cls, **{name: value}))
        np.testing.assert_array_equal(maps_of(live), expected, err_msg=name)
        assert not np.array_equal(expected, maps_of(built_with(cls))), name


@pytest.mark.parametrize("cls", CHANGES, ids=lambda c: c.__name__)
def test_bad_values_are_refused_by_name_and_change_nothing(cls):
    for name in CHANGES[cls]:
        behavior = built_with(cls)
        before = getattr(behavior, name)
        value, error = BAD[name]
        with pytest.raises(error, match=name):
            setattr(behavior, name, value)
        assert getattr(behavior, name) == before


def test_unknown_attributes_raise():
    avoid = cs.Avoid()
    with pytest.raises(AttributeError, match="max_dist"):
        avoid.max_dist = 5.0
    with pytest.raises(AttributeError, match="fills_danger"):
        avoid.fills_danger = False
    pipeline = cs.Pipeline([avoid])
    with pytest.raises(AttributeError, match="selection"):
        pipeline.selection = "average"
    with pytest.raises(AttributeError, match="slots"):
        pipeline.slots = 8
    with pytest.raises(TypeError, match="max_dist"):
        cs.Avoid(max_dist=5.0)


def test_a_change_takes_effect_at_the_next_step_of_every_world_using_it():
    avoid = cs.Avoid(agents=True, max_distance=0.5)
    pipeline = cs.Pipeline([cs.Chase(), avoid], slots=16)
    worlds = [cs.World(pipeline, [[0.0, 0.0], [1.5, 0.0]], targets=[[10.0, 0.0], [-10.0, 0.0]], keep_maps=True)
              for _ in range(2)]
    for w in worlds:
        w.step(0.05)
        assert w.danger.max() == 0.0
    avoid.max_distance = 5.0  # the example: was taken without a word, and did nothing
    for w in worlds:
        w.step(0.05)
        assert w.danger.max() > 0.5


def test_pipeline_settings_set_live():
    def decided(pipeline):
        w = cs.World(pipeline, [[0.0, 0.0], [1.5, 0.4]], targets=[[10.0, 3.0], [-10.0, 0.0]], circles=[[3.0, 0.0, 1.0]])
        w.step(0.05)
        return np.concatenate([w.velocities.ravel(), w.heading])

    settings = dict(offset=0.1, interest_rule="sum", danger_rule="sum", danger_mode="threshold", threshold=0.3,
                    margin=0.2, select="average", blur_interest=1.0, blur_danger=1.0, smooth=0.5, hysteresis=0.4)
    for name, value in settings.items():
        live = cs.Pipeline([cs.Chase(), cs.Avoid(agents=True)], slots=16)
        setattr(live, name, value)
        assert getattr(live, name) == pytest.approx(value)
        built = cs.Pipeline([cs.Chase(), cs.Avoid(agents=True)], slots=16, **{name: value})
        np.testing.assert_array_equal(decided(live), decided(built), err_msg=name)
        assert f"{name}=" in repr(live)
        np.testing.assert_array_equal(decided(pickle.loads(pickle.dumps(live))), decided(built), err_msg=name)
    with pytest.raises(ValueError, match="select"):
        live.select = "best"
    with pytest.raises(ValueError, match="smooth"):
        live.smooth = 2.0


def test_a_zero_weight_sum_under_the_mean_rule_is_refused_at_the_step():
    chase = cs.Chase()
    w = cs.World(cs.Pipeline([chase], interest_rule="mean"), [[0.0, 0.0]], targets=[[5.0, 0.0]])
    chase.weight = 0.0
    with pytest.raises(ValueError, match="weight"):
        w.step(0.05)
    chase.weight = 1.0
    w.step(0.05)


def test_copies_and_pickles_keep_changed_values():
    avoid = cs.Avoid(agents=True)
    avoid.max_distance = 2.5
    avoid.keep_right = 0.2
    chase = cs.Chase([[1.0, 2.0]])
    chase.sideways = 0.3
    for original in (avoid, chase):
        for clone in (pickle.loads(pickle.dumps(original)), copy.deepcopy(original)):
            assert repr(clone) == repr(original)
    assert pickle.loads(pickle.dumps(avoid)).max_distance == 2.5
    assert copy.deepcopy(chase).sideways == pytest.approx(0.3)


def test_a_change_during_a_step_raises_busy():
    avoid = cs.Avoid(agents=True)
    pipeline = cs.Pipeline([avoid], slots=8)
    seen = []

    def fill(batch, interest, danger):
        # Runs inside the world's step, with its parameters held for reading.
        for target, name, value in ((avoid, "max_distance", 2.0), (pipeline, "threshold", 0.1)):
            try:
                setattr(target, name, value)
            except RuntimeError as error:
                seen.append(str(error))

    pipeline_with_hook = cs.Pipeline([avoid, cs.PythonBehavior(fill)], slots=8)
    world = cs.World(pipeline_with_hook, [[0.0, 0.0], [1.0, 0.0]])
    world.step(0.05)
    assert len(seen) == 1 and seen[0].startswith("max_distance: in use by a world's step()"), seen
    assert avoid.max_distance == 5.0  # refused, not half written
    pipeline.threshold = 0.1  # not in use by any world: taken
    avoid.max_distance = 2.0  # once the step returned: taken
    assert avoid.max_distance == 2.0
