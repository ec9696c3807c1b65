"""Parameters set on live behaviours and pipelines: checked as the constructor checks
them, taking effect at the next step of every world using them, refused while a world
steps with them, kept by copies and pickles; unknown attributes raise."""

from __future__ import annotations

import copy
import inspect
import math
import pickle

import numpy as np
import pytest

import contextsteer as cs


def navigation_field() -> cs.NavigationField:
    return cs.NavigationField([[6.0, 1.0]], area=(-10.0, -10.0, 10.0, 10.0), cell=0.5, circles=[[2.0, 2.0, 0.5]])


def oval() -> cs.Track:
    t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    return cs.Track(np.c_[30 * np.cos(t), 20 * np.sin(t)], 4.0, closed=True)


def neighbor_counting(**parameters) -> cs.PythonBehavior:
    """A Python behaviour whose interest grows with the neighbors within its own neighbor_radius."""
    def fill(batch, interest, danger):
        counts = np.diff(batch.neighbors(behavior.neighbor_radius).offsets)
        interest[:] = 0.1 * (1 + counts[:, None]) * np.abs(batch.slot_directions[:, 0])[None, :]

    behavior = cs.PythonBehavior(fill, **parameters)
    return behavior


# How each behaviour built into the library is made for the test world, given parameters.
BUILD = {
    cs.Chase: lambda **p: cs.Chase([[3.0, 1.0], [2.0, -2.0]], **({"max_distance": 8.0} | p)),
    cs.Avoid: lambda **p: cs.Avoid(**({"agents": True} | p)),
    cs.Flee: lambda **p: cs.Flee([[1.0, 1.0]], **p),
    cs.Forward: lambda **p: cs.Forward(**p),
    cs.Pursue: lambda **p: cs.Pursue(**p),
    cs.Evade: lambda **p: cs.Evade(**p),
    cs.Arrive: lambda **p: cs.Arrive([[3.0, 0.0]], **p),
    cs.Leave: lambda **p: cs.Leave([[1.0, 0.0]], **p),
    cs.Separation: lambda **p: cs.Separation(**p),
    cs.Alignment: lambda **p: cs.Alignment(**p),
    cs.Cohesion: lambda **p: cs.Cohesion(**p),
    cs.Wander: lambda **p: cs.Wander(**p),
    # With crowd costs, so that changing each crowd parameter changes the maps.
    cs.FollowField: lambda **p: cs.FollowField(navigation_field(), **({"crowd_density": 1.0} | p)),
    cs.FollowPath: lambda **p: cs.FollowPath([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0]], **p),
    cs.Rays: lambda **p: cs.Rays(**p),
    cs.TimeToCollision: lambda **p: cs.TimeToCollision(**p),
    cs.Anticipate: lambda **p: cs.Anticipate(**p),
    cs.RacingLanes: lambda **p: cs.RacingLanes(oval(), **p),
    cs.PythonBehavior: neighbor_counting,
}
SET_BY_BUILD = {cs.Chase: {"max_distance"}, cs.Avoid: {"agents"}, cs.FollowField: {"crowd_density"}}
# A value other than the default for every parameter of each, which changes its maps in
# the test world.
CHANGES = {
    cs.Chase: dict(max_distance=4.0, falloff="step", combine="sum", sideways=0.4, weight=0.5),
    cs.Avoid: dict(max_distance=1.0, falloff="step", world_obstacles=False, agents=False, keep_right=0.3,
                   wall_arc=0.5, weight=0.5),
    cs.Flee: dict(radius=1.2, falloff="step", sideways=0.4, weight=0.5),
    cs.Forward: dict(strength=0.3, weight=0.5),
    cs.Pursue: dict(max_prediction=0.1, sideways=0.4, weight=0.5),
    cs.Evade: dict(max_prediction=0.1, radius=2.5, falloff="step", sideways=0.4, weight=0.5),
    cs.Arrive: dict(target_radius=2.0, slowing_radius=10.0, sideways=0.4, weight=0.5),
    cs.Leave: dict(escape_radius=2.5, danger_radius=2.0, sideways=0.4, weight=0.5),
    cs.Separation: dict(radius=1.0, falloff="step", weight=0.5),
    cs.Alignment: dict(radius=1.5, weight=0.5),
    cs.Cohesion: dict(radius=1.5, weight=0.5),
    cs.Wander: dict(seed=9, rate=5.0, spread=0.2, strength=0.3, weight=0.5),
    cs.FollowField: dict(arrive_radius=6.5, slowing_radius=20.0, sideways=0.4, weight=0.5, to_target=True,
                         crowd_density=4.0, crowd_counterflow=3.0, crowd_every=0.0, crowd_radius=3.0),
    cs.FollowPath: dict(lookahead=0.5, arrive_radius=3.5, slowing_radius=10.0, window=1e-3, loop=True, sideways=0.4,
                        weight=0.5, to_target=True),
    cs.Rays: dict(length=0.8, mode="binary", weight=0.5),
    cs.TimeToCollision: dict(radius=2.0, horizon=0.5, falloff="step", weight=0.5),
    cs.Anticipate: dict(radius=2.0, horizon=0.5, keep_right=0.3, make_way=0.5, responsibility=0.5,
                        arc_edges=True, right_of_way=True, weight=0.5),
    cs.RacingLanes: dict(lanes=3, lookahead=4.0, line_width=1.0, window=1e-3, falloff="step", weight=0.5),
    cs.PythonBehavior: dict(neighbor_radius=3.0, weight=0.5),
}
# The window (metres an agent may travel in a step) shows in no map: too small a window
# makes the next step refuse dt.
REFUSES_THE_STEP = {"window"}
# A bad value for each parameter, and the error it raises.
BAD = {"max_distance": (-1.0, ValueError), "falloff": ("cubic", ValueError), "combine": ("avg", ValueError),
       "sideways": (1.0, ValueError), "weight": (1e300, ValueError), "world_obstacles": ("yes", TypeError),
       "agents": (1, TypeError), "keep_right": (1.0, ValueError), "radius": (0.0, ValueError),
       "strength": (-1.0, ValueError), "max_prediction": (math.inf, ValueError), "target_radius": (-0.5, ValueError),
       "slowing_radius": (0.0, ValueError), "escape_radius": (math.nan, ValueError),
       "danger_radius": (-2.0, ValueError),
       "make_way": (1.5, ValueError), "responsibility": (0.0, ValueError), "seed": (-1, ValueError),
       "rate": (0.0, ValueError),
       "spread": (-0.1, ValueError), "arrive_radius": (-1.0, ValueError), "lookahead": (-1.0, ValueError),
       "window": (0.0, ValueError), "loop": ("no", TypeError), "to_target": ("no", TypeError),
       "length": (0.0, ValueError),
       "mode": ("sonar", ValueError), "horizon": (-3.0, ValueError), "lanes": (0, ValueError),
       "line_width": (0.0, ValueError), "neighbor_radius": (-1.0, ValueError),
       "crowd_density": (-1.0, ValueError), "crowd_counterflow": (math.nan, ValueError),
       "crowd_every": (-0.5, ValueError), "crowd_radius": (0.0, ValueError), "wall_arc": (0.0, ValueError),
       "arc_edges": ("yes", TypeError), "right_of_way": ("yes", TypeError)}
# Parameters that act only beside a FollowField in the pipeline (its agents' way left).
NEEDS_A_WAY = {"right_of_way"}


def library_behaviors() -> list[type]:
    """Every behaviour class the package exports whose parameters come from a C++ struct."""
    return [c for c in vars(cs).values()
            if isinstance(c, type) and issubclass(c, cs.Behavior) and "_core_class" in vars(c)]


def maps_of(behavior, steps: int = 6, *, way: bool = False) -> np.ndarray:
    """The behaviour's maps in a small world, after each of a few steps (after a
    FollowField's, with ``way``): enough for a crowd field's march, spread over four
    evaluations after the first, to end."""
    pipeline = cs.Pipeline([cs.FollowField(navigation_field()), behavior] if way else [behavior], slots=16)
    if isinstance(behavior, cs.RacingLanes):
        world = cs.World(pipeline, [[30.0, 0.0], [29.0, 3.0], [29.5, -2.0]], velocities=[[0.0, 3.0]] * 3,
                         max_speed=5.0, keep_maps=True)
    else:
        world = cs.World(pipeline, [[0.0, 0.0], [1.2, 0.3], [-0.5, 2.0], [3.0, 0.0]],
                         velocities=[[1.0, 0.0], [0.0, 1.0], [-1.0, 0.5], [-1.0, 0.0]],
                         targets=[[3.0, 1.0], [-3.0, 0.0], [0.0, 5.0], [-2.0, -2.0]], target_ids=[1, 3, 0, 2],
                         circles=[[0.0, -1.5, 0.5]], segments=[[-4.0, 3.0, 4.0, 3.5]], max_speed=2.0,
                         keep_maps=True)
    rows = []
    for _ in range(steps):
        world.step(0.05)
        rows.append(np.concatenate([world.interest, world.danger]))
    return np.concatenate(rows)


def test_every_behaviour_is_covered_with_every_parameter():
    classes = library_behaviors()
    assert len(classes) >= 18, classes
    for cls in classes:
        assert cls in BUILD and cls in CHANGES, f"{cls.__name__}: add it to BUILD and CHANGES"
        assert set(CHANGES[cls]) == set(cls._parameters), cls.__name__
        assert set(cls._parameters) <= set(BAD), cls.__name__


@pytest.mark.parametrize("cls", CHANGES, ids=lambda c: c.__name__)
def test_the_signature_and_defaults_come_from_the_struct(cls):
    signature = inspect.signature(cls)
    for f in cls._core_class._fields:
        parameter = signature.parameters[f["name"]]
        assert parameter.default == f["default"] and parameter.kind is inspect.Parameter.KEYWORD_ONLY
        assert f["name"] in cls.__doc__
        if f["name"] not in SET_BY_BUILD.get(cls, ()):
            assert getattr(BUILD[cls](), f["name"]) == pytest.approx(f["default"])


@pytest.mark.parametrize("cls", CHANGES, ids=lambda c: c.__name__)
def test_each_parameter_set_live_gives_the_maps_of_a_behaviour_built_with_it(cls):
    for name, value in CHANGES[cls].items():
        live = BUILD[cls]()
        setattr(live, name, value)
        assert getattr(live, name) == pytest.approx(value), name
        if name in REFUSES_THE_STEP:
            for behavior in (live, BUILD[cls](**{name: value})):
                with pytest.raises(ValueError, match="dt"):
                    maps_of(behavior)
            maps_of(BUILD[cls]())
            continue
        way = name in NEEDS_A_WAY
        expected = maps_of(BUILD[cls](**{name: value}), way=way)
        np.testing.assert_array_equal(maps_of(live, way=way), expected, err_msg=name)
        assert not np.array_equal(expected, maps_of(BUILD[cls](), way=way)), f"{cls.__name__}.{name} changed no map"


@pytest.mark.parametrize("cls", CHANGES, ids=lambda c: c.__name__)
def test_a_change_between_steps_takes_effect_at_the_next(cls):
    changes = {k: v for k, v in CHANGES[cls].items() if k not in REFUSES_THE_STEP}
    behavior = BUILD[cls]()
    first = maps_of(behavior, steps=1)
    for name, value in changes.items():
        setattr(behavior, name, value)
    np.testing.assert_array_equal(maps_of(behavior), maps_of(BUILD[cls](**changes)))
    assert not np.array_equal(maps_of(behavior, steps=1), first)


@pytest.mark.parametrize("cls", CHANGES, ids=lambda c: c.__name__)
def test_bad_values_are_refused_by_name_and_change_nothing(cls):
    for name in CHANGES[cls]:
        behavior = BUILD[cls]()
        before = getattr(behavior, name)
        value, error = BAD[name]
        with pytest.raises(error, match=name):
            setattr(behavior, name, value)
        assert getattr(behavior, name) == before
        with pytest.raises(error, match=name):
            BUILD[cls](**{name: value})


@pytest.mark.parametrize("cls", CHANGES, ids=lambda c: c.__name__)
def test_unknown_attributes_of_every_behaviour_raise(cls):
    behavior = BUILD[cls]()
    with pytest.raises(AttributeError, match="no parameter 'strenght'"):
        behavior.strenght = 1.0
    with pytest.raises(TypeError, match="strenght"):
        BUILD[cls](strenght=1.0)


@pytest.mark.parametrize("cls", CHANGES, ids=lambda c: c.__name__)
def test_copies_and_pickles_of_every_behaviour_keep_changed_values(cls):
    if cls is cs.PythonBehavior:
        return  # its fill is a closure, which pickles by reference only; its own test is in test_pickling.py
    behavior = BUILD[cls]()
    changes = {k: v for k, v in CHANGES[cls].items() if k not in REFUSES_THE_STEP}
    for name, value in changes.items():
        setattr(behavior, name, value)
    for clone in (pickle.loads(pickle.dumps(behavior)), copy.deepcopy(behavior)):
        assert repr(clone) == repr(behavior)
        for name, value in changes.items():
            assert getattr(clone, name) == pytest.approx(value), name
        np.testing.assert_array_equal(maps_of(clone), maps_of(behavior))


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
    assert len(seen) == 1 and seen[0].startswith("max_distance: in use by the world's step() or run() (or an "
                                                 "evaluation) this call came from, on the same thread"), seen
    assert avoid.max_distance == 5.0  # refused, not half written
    pipeline.threshold = 0.1  # not in use by any world: taken
    avoid.max_distance = 2.0  # once the step returned: taken
    assert avoid.max_distance == 2.0
