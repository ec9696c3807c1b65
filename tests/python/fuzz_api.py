"""A fuzzer of contextsteer's public API, run by test_fuzz.py in a subprocess (so that a
crash fails a test instead of ending the run).

Random shapes, dtypes and values (NaN, +-inf, huge, subnormal), non-contiguous and
read-only arrays, stale ids, and Python behaviours that write into their own world
while it steps; moving obstacles (piles of coincident ones among them), goals and
contact; scenarios (every number of a scene replaced by each special value), the crowd
steering of random scenes; scenario files written at random, damaged recordings, and the
command line's options. It asserts that only the documented exceptions come out (ValueError, TypeError,
IndexError; ScenarioFileError naming the file for a scenario file, ValueError naming the
file for a recording), that finite accepted input gives finite output, that a refused
call leaves the world as it was (a failed step: as its docstring says), and that a user
error of ``contextsteer run``, ``live`` or ``demo`` is one line and exit code 2.

The file is long because one subprocess runs every target, each a strategy and its checks.

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

    @opts
    @given(arrays([(1, 3), (3, 3), (2, 4), (3, 2), (2,), (0, 3)]), arrays([(1, 2), (3, 2), (2,), (1, 1)]),
           arrays([(3, 2), (4, 2), (1, 2), (2,)]), st.sampled_from(SPECIAL), st.sampled_from(["loop", "back", "x"]),
           st.sampled_from(["circles", "segments", "polygon"]), st.integers(0, 3), st.sampled_from(SPECIAL))
    def moving_obstacles(shapes, velocities, waypoints, speed, mode, kind, pile, written):
        world = world_of(3)
        before = snapshot(world)
        if kind == "polygon":
            added = call(world.add_moving_polygon, shapes, velocities, speed)
        else:
            added = call(getattr(world, f"add_moving_{kind}"), shapes, velocities)
        if added is REFUSED:
            check_unchanged(world, before, f"add_moving_{kind}")
        if pile:  # a pile of coincident bodies: each add takes time near-linear in them
            world.add_moving_circles(np.tile([0.5, 0.5, 0.3], (2000 * pile, 1)))
            world.add_moving_segments(np.tile([0.0, 0.5, 1.0, 0.5], (2000 * pile, 1)), velocities=[0.1, 0.0])
        if world.moving_count:
            call(world.set_obstacle_path, [0], waypoints, speed, mode)
            for view in (world.moving_positions, world.moving_velocities, world.moving_angles):
                try:
                    view.flat[-1] = written
                except (ValueError, TypeError, OverflowError):
                    pass
        for _ in range(2):
            if call(world.step, 0.05) is not REFUSED:
                assert np.isfinite(world.positions).all()
        call(world.moving_shapes)
        saved = call(pickle.dumps, world)  # refused for a moving obstacle's value a step refuses
        if saved is not REFUSED:
            assert snapshot(pickle.loads(saved)) == snapshot(world)

    goal_values = st.sampled_from(SPECIAL + ["stay", "give_way", "leave", "x", None, True, 10**30])

    @opts
    @given(st.dictionaries(st.sampled_from(sorted(cs.Goals._fields)), goal_values, max_size=4),
           st.dictionaries(st.sampled_from(sorted(cs.Contact._fields)), goal_values, max_size=3),
           st.booleans(), st.integers(1, 6))
    def goals_and_contact(goals, contact, contact_on, n):
        world = world_of(n)
        made = call(cs.Goals, **goals)
        if made is not REFUSED:
            world.goals = made
        made = call(cs.Contact, **contact)
        if made is not REFUSED and contact_on:
            world.contact = made
        pile = cs.World(cs.Pipeline([cs.Chase([1.0, 0.0])], slots=8), np.zeros((n, 2)))  # agents all at one point
        pile.contact = cs.Contact()
        for w in (world, pile):
            w.targets[:] = 0.0
            for _ in range(3):
                if call(w.step, 0.05) is not REFUSED:
                    assert np.isfinite(w.positions).all()
            call(lambda w=w: w.events)

    return [combine, resolve, blur, world_calls, python_behaviour_writing_its_world, moving_obstacles,
            goals_and_contact, *scene_targets(opts), *file_targets(opts)]


# --- scenarios and the crowd steering -----------------------------------------------------
SCENE_FIELDS = {"starts": 2, "targets": 2, "bounds": None, "circles": 3, "segments": 4, "goal_areas": 4,
                "polygons": 2, "groups": None, "goal_area_groups": None}


@st.composite
def scenes(draw, most_agents=6):
    """The fields of a valid scene: up to ``most_agents`` agents, a few circles, walls, a
    polygon and goal areas, all inside bounds of up to 40 m."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    width, height = draw(st.sampled_from([4.0, 10.0, 40.0])), draw(st.sampled_from([4.0, 10.0, 25.0]))
    bounds = (-width / 2, -height / 2, width / 2, height / 2)
    n = draw(st.integers(1, most_agents))

    def inside(k):
        return rng.uniform(bounds[:2], bounds[2:], (k, 2))

    k = draw(st.integers(0, 4))
    circles = np.column_stack([inside(k), rng.uniform(0.1, 1.5, k)])
    k = draw(st.integers(0, 3))
    segments = np.hstack([inside(k), inside(k)])
    polygons = [inside(1) + [[0.0, 0.0], [1.0, 0.0], [0.5, 0.8]] for _ in range(draw(st.integers(0, 1)))]
    groups = np.sort(rng.integers(0, draw(st.integers(1, 3)), n))
    k = draw(st.integers(0, 2))
    corners = inside(k)
    goal_areas = np.hstack([np.minimum(corners, corners[::-1]), np.maximum(corners, corners[::-1])]) if k else \
        np.zeros((0, 4))
    return dict(name="fuzz", starts=inside(n), targets=inside(n), bounds=bounds, circles=circles, segments=segments,
                polygons=polygons, goal_areas=goal_areas, groups=groups,
                goal_area_groups=np.minimum(np.arange(len(goal_areas)), groups.max()))


def spoiled(fields: dict, name: str, value, first: bool):
    """``fields`` with one number of field ``name`` (the first or the last) set to ``value``."""
    out = dict(fields)
    if name == "bounds":
        bounds = list(fields["bounds"])
        bounds[0 if first else 3] = value
        out["bounds"] = tuple(bounds)
    elif name == "polygons":
        if not fields["polygons"]:
            return None
        polygon = np.array(fields["polygons"][0], dtype=float)
        polygon.flat[0 if first else -1] = value
        out["polygons"] = [polygon]
    else:
        array = np.array(fields[name], dtype=float)
        if array.size == 0:
            return None
        array.flat[0 if first else -1] = value
        out[name] = array
    return out


def scene_targets(opts):
    pipeline = cs.Pipeline([cs.Seek(), cs.Avoid(agents=True)], slots=8)

    @opts
    @given(scenes(), st.sampled_from(sorted(SCENE_FIELDS)), arrays())
    def scenario_fields(fields, name, odd):
        """Every number of a scene, first and last of each field, replaced by each special
        value, and one field replaced by an odd array: a Scenario, or ValueError or TypeError
        when made; one made of finite values within bounds makes a world that steps."""
        made = call(cs.Scenario, **fields)
        assert made is not REFUSED, fields  # the valid scene is taken
        for field_name in SCENE_FIELDS:
            for value in SPECIAL + [1e10, -1e10, 500.0, -0.0]:
                for first in (True, False):
                    changed = spoiled(fields, field_name, value, first)
                    if changed is None:
                        continue
                    scene = call(cs.Scenario, **changed)
                    if scene is not REFUSED:
                        assert np.isfinite(scene.starts).all() and np.isfinite(scene.circles).all()
                        x0, y0, x1, y1 = scene.bounds
                        assert ((scene.starts >= [x0, y0]) & (scene.starts <= [x1, y1])).all()
        scene = call(cs.Scenario, **{**fields, name: odd})
        if scene is not REFUSED:
            world = call(scene.world, pipeline)
            if world is not REFUSED and call(world.step, 0.05) is not REFUSED:
                assert np.isfinite(world.positions).all()

    bad_arguments = st.sampled_from([{"radius": 0.0}, {"radius": -0.3}, {"radius": np.nan}, {"radius": np.inf},
                                     {"radius": 1e30}, {"radius": "x"}, {"radius": None}, {"slots": 3},
                                     {"slots": 16.5}, {"max_fields": 0}, {"max_fields": -1}])

    @opts
    @given(scenes(most_agents=8), st.sampled_from([0.05, 0.1, 0.3, 0.5, 1.0, 2.5]), st.sampled_from([4, 8, 16]),
           st.sampled_from([1, 4, 32]), bad_arguments)
    def crowd_steering(fields, radius, slots, max_fields, bad):
        """The crowd steering of a random scene: only documented errors (starts or targets
        in an obstacle, no way to a goal, bad arguments); a world made of it keeps its
        agents inside the bounds and its positions finite."""
        scene = cs.Scenario(**fields)
        arguments = {"radius": radius, "slots": slots, "max_fields": max_fields}
        assert call(cs.crowd_steering, scene, **{**arguments, **bad}) is REFUSED, bad
        crowd = call(cs.crowd_steering, scene, **arguments)
        if crowd is REFUSED:
            return
        assert call(crowd.world, radius=radius * 2) is REFUSED  # larger than it was built for
        world = call(crowd.world, max_speed=1.5)
        assert world is not REFUSED, scene
        x0, y0, x1, y1 = scene.bounds
        for _ in range(3):
            if call(world.step, 0.1) is not REFUSED:
                assert np.isfinite(world.positions).all()
                assert ((world.positions >= [x0, y0]) & (world.positions <= [x1, y1])).all()

    return [scenario_fields, crowd_steering]


# --- scenario files, recordings and the command line ----------------------------------------
TOML_VALUES = st.recursive(
    st.sampled_from(SPECIAL + [0, 1, -1, 3, 2**31, 2**70, "", "x", "Avoid", "blend", True, False]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
        ["type", "slots", "behaviors", "starts", "targets", "bounds", "circles", "kind", "shape", "dt", "steps",
         "max_speed", "radius", "x"]), inner, max_size=4),
    max_leaves=12)


def inline(value) -> str:
    """``value`` as an inline TOML value."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(inline(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value + '"'
    return str(value)  # nan, inf and -inf as TOML writes them


def scenario_texts():
    """A built-in scene's file with one key's value replaced by a random one, or a line cut
    out, or bytes flipped; now and then arrays nested past any parser's depth."""
    import tomli_w

    base = cs.scenario_file.builtin_path("moving_crossing").read_text()
    lines = base.splitlines()
    keyed = [i for i, line in enumerate(lines) if " = " in line and not line.startswith("#")
             and not line.rstrip().endswith("[")]

    @st.composite
    def texts(draw):
        how = draw(st.sampled_from(["value", "cut", "bytes", "deep", "table"]))
        if how == "value":
            i = draw(st.sampled_from(keyed))
            key = lines[i].split(" = ")[0]
            return "\n".join([*lines[:i], f"{key} = {inline(draw(TOML_VALUES))}", *lines[i + 1:]])
        if how == "cut":
            i = draw(st.integers(0, len(lines) - 1))
            return "\n".join(lines[:i] + lines[i + 1:])
        if how == "bytes":
            data = bytearray(base.encode())
            for _ in range(draw(st.integers(1, 6))):
                data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
            return bytes(data)
        if how == "deep":
            depth = draw(st.sampled_from([20, 400, 2000]))
            return "format = 1\nx = " + "[" * depth + "]" * depth
        return tomli_w.dumps({"format": 1, "geometry": {"bounds": [-5, -5, 5, 5]},
                              "groups": draw(st.lists(st.dictionaries(st.sampled_from(
                                  ["starts", "targets", "pipeline", "agents"]), TOML_VALUES), max_size=3)),
                              "pipeline": draw(TOML_VALUES)})

    return texts()


def file_targets(opts):
    import atexit
    import contextlib
    import io
    import os
    import shutil
    import tempfile
    from pathlib import Path

    import contextsteer.tools.live as live_module
    from contextsteer.__main__ import main as contextsteer_command

    folder = Path(tempfile.mkdtemp(prefix="contextsteer-fuzz-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    world = cs.World(cs.Pipeline([cs.Seek(), cs.Avoid(agents=True)], slots=8), [[0.0, 0.0], [1.0, 0.0]],
                     targets=[[3.0, 0.0], [3.0, 1.0]])
    world.add_moving_circles([[0.0, 2.0, 0.5]], [[1.0, 0.0]])
    good = folder / "good.npz"
    world.run(5, record="all").save(good)
    saved = good.read_bytes()

    @opts
    @given(scenario_texts())
    def scenario_files(text):
        path = folder / "scene.toml"
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
        try:
            scenario = cs.Scenario.load(path)
        except cs.ScenarioFileError as error:
            assert str(error).startswith(str(path)), error  # names the file
            return
        world = call(scenario.world)
        if world is not REFUSED:
            call(world.step, 0.05)

    @opts
    @given(st.lists(st.tuples(st.integers(0, len(saved) - 1), st.integers(0, 255)), max_size=8),
           st.integers(0, len(saved)))
    def damaged_recordings(flips, cut):
        data = bytearray(saved[:cut] if cut < len(saved) // 2 else saved)
        for at, byte in flips:
            if at < len(data):
                data[at] = byte
        path = folder / "damaged.npz"
        path.write_bytes(bytes(data))
        try:
            cs.Recording.load(path)
        except ValueError as error:
            assert str(path) in str(error), error  # names the file

    options_of = {"run": ("--steps", "--duration", "--fps", "--speed", "--threads", "--watch", "--video", "--record"),
                  "live": ("--every",), "demo": ("--agents", "--steps", "--seed", "--out")}
    values = st.sampled_from(["0", "-1", "nan", "inf", "-inf", "1e30", "1e-300", "3000000000", "1180591620717411303424",
                              "2", "0.1", "x", "", "/nonexistent/d/v.gif", str(folder / "v.gif"),
                              str(folder / "r.npz"), str(folder), "r.csv"])

    @opts
    @given(st.sampled_from(["run", "live", "demo"]),
           st.sampled_from(["circle", str(folder / "scene.toml"), "nosuch", str(folder), str(good)]),
           st.lists(st.tuples(st.integers(0, 7), values), max_size=3))
    def command_line(command, scene, drawn):
        arguments = [command] + ([scene] if command != "demo" else ["--scene", "circle"])
        for k, value in drawn:
            option = options_of[command][k % len(options_of[command])]
            if option in ("--steps", "--duration") and value in ("2", "0.1"):
                value = "2"  # short runs only
            arguments += [option, value]
        if command == "run":
            arguments += ["--quiet"] + ([] if {"--steps", "--duration"} & set(arguments) else ["--steps", "2"])
        if command == "demo" and "--steps" not in arguments:
            arguments += ["--steps", "2"]
        err = io.StringIO()
        show = live_module.show
        live_module.show = lambda live: None  # no window: the file is read and its world made, then it ends
        cwd = os.getcwd()
        os.chdir(folder)  # where a demo's figure goes
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                code = contextsteer_command(arguments)
        except SystemExit as exit_:
            code = exit_.code
        finally:
            live_module.show = show
            os.chdir(cwd)
        assert code in (0, 2), (arguments, code, err.getvalue())
        if code == 2:  # a user error: one line
            lines = err.getvalue().strip().splitlines()
            assert len(lines) == 1 and "error: " in lines[0], (arguments, err.getvalue())

    return [scenario_files, damaged_recordings, command_line]


def main(examples: int) -> None:
    np.seterr(all="ignore")
    for target in targets(examples):
        target()
        print(f"{target.__name__}: {examples} examples, {calls} calls so far", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
