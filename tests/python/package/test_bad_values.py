"""Every public call, with each of its arguments in turn replaced by a bad value.

A call must either raise ValueError, TypeError or IndexError with a message that names
the argument (or the argument it clashes with, such as velocities whose shape no longer
matches new positions), or succeed with finite results: the interpreter never crashes,
no other exception escapes, and no NaN or inf comes out of input that was accepted.
Worlds built from a call are stepped, so that bad values the constructor lets through
would show in the motion.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pytest

import contextsteer as cs
from contextsteer import classic, metrics, scenarios

BAD_VALUES = [
    math.nan, math.inf, -math.inf, -1.0, 0.0, 1e300, -1e300, 1e-300, True, -(2**31), 2**63, 10**30, "x", None,
    np.float32(math.nan), 3e38, -3e38, 1e-30, 1e-44, 1e9, -1e9,
    np.empty((0, 2)), np.empty((0,)), np.ones((3, 3)), np.full((2, 2), math.nan), np.full((2, 2), 1e300),
    np.array([[1, 2]], dtype=object), np.ones((2, 2), complex), np.ones((2, 2), bool), np.ones((4, 4))[:, ::2],
    np.ones((2, 2), np.float16), np.ones((2, 2, 2)), np.ones(2), [[1, 2], [3]], np.full((2, 3), math.inf),
    np.zeros((2, 3)), np.full((5, 4), -3.0), np.array([[3e38, -3e38], [-3e38, 3e38]]),
    np.array([[3e38, 1.0, 2e38], [-3e38, 0.0, 3e38]]), np.array([[-3e38, -3e38, 3e38, 3e38]]),
]
REFUSALS = (ValueError, TypeError, IndexError)
POSITIONS = np.array([[0.0, 0.0], [1.0, 0.5], [3.0, -1.0]])


@dataclass
class Call:
    name: str
    run: Callable[..., Any]
    baseline: dict
    related: tuple[str, ...] = ()  # other arguments a message may name instead
    nonfinite_ok: bool = False     # results may hold inf or NaN by design (unreachable, never arrived)


def stepped(world: cs.World, steps: int = 3):
    for _ in range(steps):
        world.step(0.1)
    return world.positions.copy(), world.velocities.copy(), world.heading.copy(), world.angular_velocity.copy()


def pipeline() -> cs.Pipeline:
    return cs.Pipeline([cs.Chase([[5.0, 0.0]]), cs.Avoid(agents=True)])


def world(**kwargs) -> cs.World:
    return cs.World(pipeline(), POSITIONS, **kwargs)


def field_of_test() -> cs.NavigationField:
    return cs.NavigationField([[5.0, 0.0]], area=(-10, -10, 10, 10), cell=0.5, circles=[[2.0, 0.0, 1.0]])


def oval_track() -> cs.Track:
    t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    return cs.Track(np.c_[30 * np.cos(t), 20 * np.sin(t)], 4.0, closed=True)


def in_a_world(behavior: cs.Behavior):
    """A behaviour's maps from an evaluation, and a few steps of a world it steers."""
    return steered(cs.Pipeline([behavior, cs.Chase([[5.0, 0.0]])]))


def steered(steering: cs.Pipeline):
    e = steering.evaluate(POSITIONS, np.full((3, 2), 0.3))
    return e.interest, e.danger, stepped(cs.World(steering, POSITIONS, velocities=np.full((3, 2), 0.3)))


def behavior_call(cls, first: str | None, first_value, **options) -> Call:
    def run(**kwargs):
        args = [kwargs.pop(first)] if first else []
        return in_a_world(cls(*args, **kwargs))

    baseline = ({first: first_value} if first else {}) | options
    return Call(cls.__name__, run, baseline)


# A circle, a wall and a polygon for the classic behaviours that see the scene.
CLASSIC_SCENE = dict(circles=[[2.0, 0.0, 0.5]], segments=[[0.0, -2.0, 4.0, -2.0]],
                     polygons=[np.array([[4.0, 1.0], [5.0, 1.0], [5.0, 2.0]])])


def classic_call(name: str, **baseline) -> Call:
    def run(**kwargs):
        steering = classic.Steering([getattr(classic, name)(**kwargs)])
        return stepped(cs.World(steering, POSITIONS, velocities=np.full((3, 2), 0.3), max_speed=2.0, max_force=3.0,
                                radius=0.2, **CLASSIC_SCENE))

    return Call("classic." + name, run, baseline)


def scenario_call(name: str, related: tuple[str, ...] = (), **baseline) -> Call:
    def run(**kwargs):
        scene = getattr(scenarios, name)(**kwargs)
        return scene.starts, scene.targets, stepped(scene.world(cs.Pipeline([cs.Chase(scene.targets)])))

    return Call("scenarios." + name, run, baseline, related)


def cs_plotting():
    from contextsteer import plotting  # imported on demand, as users do

    return plotting


def recorded() -> cs.Recording:
    return world().run(5, 0.1, record="all")


def drawn(plot, polar: bool = False):
    """A plotting call on an axis of its own, closed afterwards."""
    import matplotlib.pyplot as plt

    def run(**kwargs):
        fig, ax = plt.subplots(subplot_kw={"projection": "polar"} if polar else {})
        try:
            plot(ax=ax, **kwargs)
        finally:
            plt.close(fig)
    return run


def add_then_step(method: str):
    def run(**kwargs):
        w = world()
        getattr(w, method)(**kwargs)
        return stepped(w)
    return run


CALLS = [
    Call("World", lambda **k: stepped(cs.World(pipeline(), **k)),
         dict(positions=POSITIONS, velocities=np.zeros((3, 2)), circles=np.array([[2.0, 2.0, 0.5]]),
              segments=np.array([[-5.0, -5.0, 5.0, -5.0]]), polygons=[np.array([[8.0, 8.0], [9.0, 8.0], [9.0, 9.0]])],
              bounds=(-20.0, -20.0, 20.0, 20.0), threads=1, keep_maps=True, radius=0.5, max_speed=2.0,
              max_acceleration=4.0, max_turn_rate=3.0, mass=1.0, max_force=5.0, heading=0.1, angular_velocity=0.0,
              layers=1, sense_masks=1),
         related=("velocities",)),
    Call("World.step", add_then_step("step"), dict(dt=0.1, substeps=2)),
    Call("World.run", lambda **k: world().run(**k).positions, dict(steps=3, dt=0.1, substeps=1, record="all", chunk=2)),
    Call("World.add_agents", add_then_step("add_agents"),
         dict(positions=np.array([[4.0, 4.0]]), velocities=np.array([[0.0, 1.0]]), heading=0.0, angular_velocity=0.0,
              radius=0.5, max_speed=1.0, max_acceleration=2.0, max_turn_rate=1.0, mass=1.0, max_force=2.0, layers=1,
              sense_masks=1),
         related=("velocities",)),
    Call("World.add_circles", add_then_step("add_circles"), dict(circles=np.array([[2.0, 2.0, 0.5]]), layer=1)),
    Call("World.add_segments", add_then_step("add_segments"), dict(segments=np.array([[0.0, 2.0, 3.0, 2.0]]), layer=1)),
    Call("World.add_polygon", add_then_step("add_polygon"),
         dict(vertices=np.array([[5.0, 5.0], [6.0, 5.0], [6.0, 6.0], [5.0, 6.0]]), layer=1)),
    Call("World.neighbors(point)", lambda **k: world().neighbors(**k),
         dict(point=np.array([0.0, 0.0]), radius=2.0, layers=1)),
    Call("World.neighbors(agent)", lambda **k: world().neighbors(**k), dict(agent=0, radius=2.0)),
    Call("World.index_of", lambda **k: world().index_of(**k), dict(ids=np.array([0, 1]))),
    Call("World.remove_agents", add_then_step("remove_agents"), dict(ids=np.array([1]))),
    Call("World.explain", lambda **k: world().explain(**k).interest, dict(agent=1)),
    Call("World.set_steering", add_then_step("set_steering"), dict(steering=pipeline(), index=0)),
    Call("World.navigation_field",
         lambda **k: cs.World(pipeline(), POSITIONS, circles=[[2.0, 0.0, 1.0]]).navigation_field(**k).distances,
         dict(goals=np.array([[5.0, 0.0]]), area=(-10.0, -10.0, 10.0, 10.0), cell=0.5, clearance=0.2, layers=1),
         nonfinite_ok=True),
    Call("NavigationField", lambda **k: cs.NavigationField(**k).directions,
         dict(goals=np.array([[5.0, 0.0]]), area=(-10.0, -10.0, 10.0, 10.0), cell=0.5, clearance=0.2,
              circles=np.array([[2.0, 0.0, 1.0]]), segments=np.array([[0.0, 3.0, 3.0, 3.0]]),
              polygons=[np.array([[-5.0, -5.0], [-4.0, -5.0], [-4.0, -4.0]])], bounds=(-10.0, -10.0, 10.0, 10.0))),
    Call("NavigationField.direction_at", lambda **k: field_of_test().direction_at(**k), dict(points=POSITIONS)),
    Call("NavigationField.distance_at", lambda **k: field_of_test().distance_at(**k), dict(points=POSITIONS),
         nonfinite_ok=True),
    Call("NavigationField.path_from", lambda **k: field_of_test().path_from(**k),
         dict(start=np.array([-5.0, 0.0]), step=0.3, max_length=50.0)),
    Call("Pipeline", lambda **k: steered(cs.Pipeline([cs.Chase([[5.0, 0.0]]), cs.Avoid([[2.0, 0.0, 0.5]])], **k)),
         dict(slots=16, offset=0.0, interest_rule="max", danger_rule="max", danger_mode="subtract", threshold=0.5,
              margin=0.1, select="argmax", hysteresis=0.1, smooth=0.2, blur_interest=0.1, blur_danger=0.1,
              turn_back=0.5, turn_back_wait=5.0)),
    Call("Pipeline.evaluate", lambda **k: pipeline().evaluate(**k).decision.direction,
         dict(positions=POSITIONS, velocities=np.zeros((3, 2)), radius=0.5, circles=np.array([[2.0, 0.0, 0.5]])),
         related=("velocities",)),
    Call("resolve", lambda **k: cs.resolve(**k).direction,
         dict(interest=np.ones((2, 8)), danger=np.zeros((2, 8)), danger_mode="subtract", threshold=0.5, margin=0.1,
              select="argmax", offset=0.0, hysteresis=0.1, current=np.zeros((2, 2))),
         related=("danger", "current")),
    Call("combine", cs.combine, dict(maps=[np.ones((2, 8)), np.ones((2, 8))], rule="mean", weights=[1.0, 2.0])),
    Call("blur", cs.blur, dict(maps=np.ones((2, 8)), width=1.0)),
    Call("smooth", cs.smooth, dict(maps=np.ones((2, 8)), previous=np.zeros((2, 8)), factor=0.3)),
    Call("resample", cs.resample, dict(maps=np.ones((2, 8)), slots=12, method="linear")),
    Call("slot_directions", cs.slot_directions, dict(slots=8, offset=0.1)),
    behavior_call(cs.Chase, "targets", np.array([[5.0, 0.0]]), max_distance=10.0, falloff="linear", combine="max",
                  sideways=0.3, weight=1.0),
    behavior_call(cs.Arrive, "targets", np.array([[5.0, 0.0]]), target_radius=0.5, slowing_radius=3.0,
                  sideways=0.2, weight=1.0),
    behavior_call(cs.Flee, "threats", np.array([[1.0, 0.0]]), radius=10.0, falloff="linear", sideways=0.2, weight=1.0),
    behavior_call(cs.Leave, "threats", np.array([[1.0, 0.0]]), escape_radius=1.0, danger_radius=5.0, sideways=0.2,
                  weight=1.0),
    behavior_call(cs.Avoid, "circles", np.array([[2.0, 0.0, 0.5]]), points=np.array([[0.0, 3.0]]), max_distance=5.0,
                  falloff="linear", world_obstacles=True, agents=True, keep_right=0.2, weight=1.0),
    behavior_call(cs.Evade, None, None, max_prediction=1.0, radius=10.0, falloff="linear", sideways=0.2, weight=1.0),
    behavior_call(cs.Pursue, None, None, max_prediction=1.0, sideways=0.2, weight=1.0),
    behavior_call(cs.Alignment, None, None, radius=5.0, weight=1.0),
    behavior_call(cs.Cohesion, None, None, radius=5.0, weight=1.0),
    behavior_call(cs.Separation, None, None, radius=2.0, falloff="linear", weight=1.0),
    behavior_call(cs.TimeToCollision, None, None, radius=10.0, horizon=3.0, falloff="linear", weight=1.0),
    behavior_call(cs.Forward, None, None, strength=1.0, weight=1.0),
    behavior_call(cs.Rays, None, None, length=5.0, mode="distance", weight=1.0),
    behavior_call(cs.Wander, None, None, seed=0, rate=0.5, spread=1.0, strength=1.0, weight=1.0),
    behavior_call(cs.FollowPath, "waypoints", np.array([[0.0, 0.0], [5.0, 0.0], [5.0, 5.0]]), lookahead=2.0,
                  arrive_radius=0.5, slowing_radius=3.0, window=4.0, loop=False, sideways=0.1, weight=1.0),
    behavior_call(cs.FollowField, "field", field_of_test(), arrive_radius=0.5, slowing_radius=3.0, sideways=0.1,
                  weight=1.0),
    behavior_call(cs.PythonBehavior, "fill", lambda batch, interest, danger: None, fills="interest",
                  neighbor_radius=1.0, weight=1.0, memory=2),
    Call("Track", lambda **k: (lambda t: (t.locate(POSITIONS), t.point_at(3.0, 0.5)))(cs.Track(**k)),
         dict(centreline=np.array([[0.0, 0.0], [10.0, 0.0], [20.0, 5.0]]), half_width=3.0,
              racing_line=np.array([0.5, 1.0, -1.0]), closed=False),
         related=("racing_line",)),
    Call("Track.locate", lambda **k: oval_track().locate(**k), dict(points=POSITIONS)),
    Call("Track.point_at", lambda **k: oval_track().point_at(**k), dict(s=3.0, lateral=0.5)),
    Call("RacingLanes",
         lambda **k: stepped(cs.World(cs.Pipeline([cs.RacingLanes(oval_track(), **k)]), [[30.0, 0.0], [29.0, 3.0]],
                                      velocities=[[0.0, 3.0], [0.0, 3.0]], max_speed=5.0)),
         dict(lanes=7, lookahead=10.0, line_width=1.0, window=20.0, falloff="linear", weight=1.0)),
    classic_call("Seek", target=np.array([5.0, 0.0]), weight=1.0, priority=0),
    classic_call("Flee", target=np.array([5.0, 0.0]), weight=1.0, priority=0),
    classic_call("Arrive", target=np.array([5.0, 0.0]), target_radius=0.5, slowing_radius=3.0, time_to_target=0.1,
                 weight=1.0, priority=0),
    classic_call("Leave", target=np.array([5.0, 0.0]), escape_radius=1.0, danger_radius=5.0, time_to_target=0.1,
                 weight=1.0, priority=0),
    classic_call("Pursue", target=np.array([5.0, 1.0]), max_prediction=1.0, weight=1.0, priority=0),
    classic_call("Evade", target=np.array([5.0, 1.0]), max_prediction=1.0, weight=1.0, priority=0),
    classic_call("Face", target=np.array([5.0, 0.0]), time_to_target=0.1, align_tolerance=0.01, weight=1.0,
                 priority=0),
    classic_call("LookWhereYouGo", time_to_target=0.1, align_tolerance=0.01, weight=1.0, priority=0),
    classic_call("ObstacleAvoidance", horizon=1.0, margin=0.2, weight=1.0, priority=0),
    classic_call("WallAvoidance", horizon=1.0, margin=0.2, feeler_angle=0.6, weight=1.0, priority=0),
    classic_call("Separation", radius=1.0, weight=1.0, priority=0),
    classic_call("FollowPath", path=np.array([[0.0, 0.0], [5.0, 0.0], [5.0, 5.0]]), lookahead=1.0, loop=False,
                 target_radius=0.5, slowing_radius=3.0, time_to_target=0.1, weight=1.0, priority=0),
    classic_call("FollowField", field=field_of_test(), time_to_target=0.1, weight=1.0, priority=0),
    Call("classic.Steering",
         lambda **k: stepped(cs.World(classic.Steering([classic.Seek(np.array([5.0, 0.0]))], **k), POSITIONS)),
         dict(combiner="priority", epsilon=1e-3)),
    scenario_call("bottleneck", agents=10, door=1.6, room=12.0, seed=0),
    scenario_call("circle", agents=8, radius=20.0, jitter=0.5, seed=1),
    scenario_call("corridor", agents=5, seed=0),
    scenario_call("crossing", ("agents",), agents=10, width=10.0, depth=20.0, approach=10.0, seed=0),
    scenario_call("swap", agents=20, spacing=5.0, columns=5, gap=65.0, seed=0),
    Call("metrics.arrival_times", lambda **k: metrics.arrival_times(recorded(), **k),
         dict(targets=np.array([[5.0, 0.0]] * 3), within=1.0), nonfinite_ok=True),
    Call("metrics.summary", lambda **k: list(metrics.summary(recorded(), **k).values()),
         dict(targets=np.array([[5.0, 0.0]] * 3), within=1.0), nonfinite_ok=True),
    Call("Recording.truncated", lambda **k: recorded().truncated(**k).positions, dict(steps=3)),
    Call("plotting.animate", drawn(lambda **k: cs_plotting().animate(**k)),
         dict(recording=recorded(), radius=0.3, every=1, interval=40.0, color="tab:blue", trail=2)),
    Call("plotting.plot_context_maps", drawn(lambda **k: cs_plotting().plot_context_maps(**k), polar=True),
         dict(maps={"interest": np.ones(8), "danger": np.zeros(8)}, offset=0.0, direction=np.array([1.0, 0.0]),
              strength=0.5, styles={"danger": {"linestyle": "--"}})),
    Call("Explanation.plot", drawn(lambda **k: world().explain(1).plot(**k), polar=True), dict(behaviors=True)),
    Call("plotting.plot_field", drawn(lambda **k: cs_plotting().plot_field(**k)),
         dict(field=field_of_test(), arrows=12, cmap="viridis")),
    Call("plotting.plot_obstacles", drawn(lambda **k: cs_plotting().plot_obstacles(**k)),
         dict(obstacles=np.array([[0.0, 0.0, 1.0]]))),
    Call("plotting.plot_segments", drawn(lambda **k: cs_plotting().plot_segments(**k)),
         dict(segments=np.array([[0.0, 0.0, 1.0, 1.0]]))),
    Call("plotting.plot_trajectories", drawn(lambda **k: cs_plotting().plot_trajectories(**k)),
         dict(trajectories=np.zeros((5, 2, 2)), mark_ends=True, targets=np.ones((2, 2)), groups=np.array([0, 1]),
              agents=np.array([1]), legend=True)),
    Call("plotting.plot_polygons", drawn(lambda **k: cs_plotting().plot_polygons(**k)),
         dict(polygons=[np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])])),
    Call("tune", lambda **k: cs.tune(lambda a: cs.World(pipeline(), POSITIONS * a), **k).trials["value"].to_numpy(),
         dict(space={"a": (0.5, 2.0)}, trials=1, steps=3, dt=0.1, workers=1, seed=0), nonfinite_ok=True),
    Call("sweep", lambda **k: cs.sweep(lambda a: cs.World(pipeline(), POSITIONS * a), **k),
         dict(params={"a": [1, 2]}, steps=3, dt=0.1, substeps=1, record="state", workers=1), nonfinite_ok=True),
]


def has_nonfinite(result) -> bool:
    if isinstance(result, np.ndarray):
        return result.dtype.kind == "f" and not np.isfinite(result).all()
    if isinstance(result, (list, tuple)):
        return any(has_nonfinite(r) for r in result)
    if isinstance(result, float):
        return not math.isfinite(result)
    return False


def fault_of(call: Call, argument: str, kwargs: dict) -> str | None:
    """What is wrong with the call's outcome, or None when it is as it should be."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NumPy's overflow warnings on the way to an error
            result = call.run(**kwargs)
    except REFUSALS as error:
        named = [argument, *call.related]
        if not any(name in str(error) for name in named):
            return f"{type(error).__name__} not naming {' or '.join(named)}: {error}"
        return None
    except Exception as error:  # noqa: BLE001 -- any other kind is the failure being looked for
        return f"{type(error).__name__} (expected ValueError, TypeError or IndexError): {error}"
    if not call.nonfinite_ok and has_nonfinite(result):
        return "accepted, and gave NaN or inf"
    return None


@pytest.mark.parametrize("call", CALLS, ids=[c.name for c in CALLS])
def test_every_argument_refuses_bad_values_by_name(call):
    assert fault_of(call, "-", call.baseline) is None  # the baseline itself runs cleanly
    faults = []
    for argument in call.baseline:
        for value in BAD_VALUES:
            fault = fault_of(call, argument, call.baseline | {argument: value})
            if fault:
                faults.append(f"{call.name}({argument}={value!r}): {fault}")
    assert not faults, "\n".join(faults[:15])


def test_the_check_sees_each_kind_of_fault():
    def raises(kind):
        def run(**kwargs):
            raise kind("x: no good")
        return run

    assert fault_of(Call("ok", lambda x: np.ones(2), {}), "x", {"x": 1}) is None
    assert fault_of(Call("named", raises(ValueError), {}), "x", {"x": 1}) is None
    assert "not naming y" in fault_of(Call("unnamed", raises(ValueError), {}), "y", {"y": 1})
    assert "RuntimeError" in fault_of(Call("odd", raises(RuntimeError), {}), "x", {"x": 1})
    assert "NaN or inf" in fault_of(Call("nan", lambda x: (np.ones(2), [np.array([np.nan])]), {}), "x", {"x": 1})
    assert fault_of(Call("nan ok", lambda x: np.array([np.inf]), {}, nonfinite_ok=True), "x", {"x": 1}) is None
