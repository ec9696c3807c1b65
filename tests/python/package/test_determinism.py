"""The determinism program's scenes (tests/cpp/determinism/determinism.cpp) built through the
Python API: each hashes (FNV-1a 64 over the positions, velocities and headings after the last
step) to the value the C++ program prints on every platform, recorded in
tests/cpp/determinism/hashes.txt. Every input is a small multiple of a power of two, so the
float32 arrays built here hold the very bits the C++ program builds."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import contextsteer as cs
from contextsteer import classic

HASHES = Path(__file__).resolve().parents[2] / "cpp" / "determinism" / "hashes.txt"


def fnv1a(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def state_hash(world: cs.World) -> str:
    data = b"".join(np.ascontiguousarray(a, dtype=np.float32).tobytes()
                    for a in (world.positions, world.velocities, world.heading))
    return f"{fnv1a(data):016x}"


def _disc(threads: int):
    p = np.array([[2 * i, 2 * j] for j in range(-10, 11) for i in range(-10, 11) if i * i + j * j <= 100],
                 dtype=np.float32)
    pipeline = cs.Pipeline([cs.Chase(), cs.Avoid(agents=True, world_obstacles=False, max_distance=15.0)], slots=16)
    return cs.World(pipeline, p, targets=-p, radius=0.5, max_speed=1.5, max_acceleration=3.0, threads=threads), 200, 0.1


def _crowd_pipeline(world: cs.World, goal, crowd: float) -> cs.Pipeline:
    """The crowd recipe of contextsteer.demo for one group, its field to the goal area."""
    field = world.navigation_field(goal_areas=[goal], cell=0.25, clearance=0.3, keep_right=2.0)
    return cs.Pipeline([cs.FollowField(field, sideways=0.5, to_target=True, slowing_radius=1.0,
                                       crowd_density=0.5 * crowd, crowd_counterflow=crowd),
                        cs.Avoid(max_distance=0.5, wall_arc=1.0),
                        cs.Anticipate(radius=3.0, horizon=0.5, keep_right=0.3, make_way=0.6, responsibility=0.9)],
                       slots=16, select="blend", danger_mode="multiply", hysteresis=1.0)


def _crowd(world: cs.World, groups, goals, crowd: float):
    pipelines = [_crowd_pipeline(world, goal, crowd) for goal in goals]
    for g, (positions, targets) in enumerate(groups):
        world.add_agents(np.array(positions, dtype=np.float32), steering=pipelines[g],
                         targets=np.array(targets, dtype=np.float32), radius=0.3, max_speed=1.4,
                         max_acceleration=4.0, groups=g)
    return world, 300, 0.05


def _crowd_world(threads: int, **obstacles) -> cs.World:
    return cs.World(cs.Pipeline([cs.Anticipate()]), threads=threads,
                    goals=cs.Goals(arrival="give_way", patience=2.0), contact=cs.Contact(slop=1e-5, events=False),
                    **obstacles)


def _door(threads: int):
    world = _crowd_world(threads, bounds=(-10.0, -5.0, 10.0, 5.0),
                         segments=[[0.0, -5.0, 0.0, -0.75], [0.0, 0.75, 0.0, 5.0]])
    left = [(-8.5 + k % 6, -3.0 + 2 * (k // 6)) for k in range(24)]
    groups = [([p for p in left], [(-x, y) for x, y in left]),
              ([(-x, -y) for x, y in left], [(x, -y) for x, y in left])]
    return _crowd(world, groups, [(3.0, -4.0, 9.0, 4.0), (-9.0, -4.0, -3.0, 4.0)], 1.0)


def _crossing(threads: int):
    world = _crowd_world(threads, bounds=(-10.0, -10.0, 10.0, 10.0), circles=[[0.0, 0.0, 1.0]])
    grid = [(-8.5 + k % 4, -1.5 + k // 4) for k in range(16)]
    groups = [([(a, c) for a, c in grid], [(-a, c) for a, c in grid]),
              ([(c, a) for a, c in grid], [(c, -a) for a, c in grid])]
    return _crowd(world, groups, [(5.0, -3.0, 9.0, 3.0), (-3.0, 5.0, 3.0, 9.0)], 0.0)


def _moving(threads: int):
    pipeline = cs.Pipeline([cs.Arrive(sideways=0.5), cs.Avoid(agents=True, max_distance=2.0, keep_right=0.3)],
                           slots=16, select="blend")
    world = cs.World(pipeline, bounds=(-8.0, -8.0, 8.0, 8.0), contact=cs.Contact(), threads=threads)
    world.add_moving_polygon([[-3.0, -0.25], [3.0, -0.25], [3.0, 0.25], [-3.0, 0.25]], angular_velocity=0.5)
    disc = world.add_moving_circles([[-5.0, 5.0, 0.75]])
    world.set_obstacle_path(disc, [[5.0, 5.0], [-5.0, 5.0]], speed=1.0, mode="back_and_forth")
    p = np.array([(-5.25 + 1.5 * (k % 8), -6.5 + k // 8) for k in range(40)], dtype=np.float32)
    world.add_agents(p, targets=-p, radius=0.3, max_speed=1.5, max_acceleration=3.0)
    return world, 300, 0.05


def _classic(threads: int):
    steering = classic.Steering([classic.Arrive(), classic.WallAvoidance(horizon=0.5, margin=0.1, weight=3.0),
                                 classic.ObstacleAvoidance(horizon=1.0, margin=0.1, weight=2.0),
                                 classic.Separation(radius=0.3), classic.LookWhereYouGo()], combiner="blend")
    world = cs.World(steering, bounds=(-10.0, -10.0, 10.0, 10.0), circles=[[0.0, 0.0, 1.5], [3.0, -2.0, 1.0]],
                     segments=[[-5.0, 4.0, 5.0, 4.0]], threads=threads)
    p = np.array([(-7.0 + 2 * (k % 8), -8.5 + k // 8) for k in range(40)], dtype=np.float32)
    world.add_agents(p, targets=-p, radius=0.3, max_speed=1.5, max_acceleration=3.0)
    return world, 300, 0.05


SCENES = {"disc": _disc, "door": _door, "crossing": _crossing, "moving": _moving, "classic": _classic}


def _recorded() -> dict[str, str]:
    return dict(line.split() for line in HASHES.read_text().splitlines() if line.strip())


def test_the_program_and_this_file_hold_the_same_scenes():
    assert sorted(_recorded()) == sorted(SCENES)


def run(scene: str, threads: int = 1) -> tuple[cs.World, float]:
    """The scene stepped through, and how far its agents moved on average, metres."""
    world, steps, dt = SCENES[scene](threads)
    start = world.positions.copy()
    for _ in range(steps):
        world.step(dt)
    return world, float(np.linalg.norm(world.positions - start, axis=1).mean())


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_scene_hashes_as_the_cpp_program_on_every_platform(scene):
    world, moved = run(scene)
    assert state_hash(world) == _recorded()[scene], scene
    assert moved > 1.5, f"{scene}: a run worth hashing moves its agents (on average {moved:.2f} m)"


def test_a_scene_hashes_alike_at_two_threads():
    assert state_hash(run("door", threads=2)[0]) == _recorded()["door"]


# --- No libm transcendental on the step's path ---------------------------------------------
CORE = Path(__file__).parents[2] / "src" / "contextsteer"
# Functions whose results differ between C libraries; sqrt, fma, floor, fmod, remainder,
# ldexp, frexp, lround and the like are exact or correctly rounded by IEEE 754, so alike.
TRANSCENDENTAL = re.compile(
    r"(?<![\w.>:])(?:std::|::)?(?:a?sinh?|a?cosh?|a?tanh?|atan2|exp|exp2|expm1|log|log2|log10|log1p|pow|hypot|cbrt"
    r"|erfc?|tgamma|lgamma)[fl]?\s*\(|__builtin_(?:sin|cos|tan|atan2|exp|log|pow)\w*\s*\(")


def transcendental_calls(text: str) -> list[str]:
    """The libm transcendental calls in C++ source text, comments left out."""
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)
    return [m.group(0) for m in TRANSCENDENTAL.finditer(code)]


def test_the_core_calls_no_libm_transcendental():
    found = {str(path.relative_to(CORE)): calls for path in sorted(CORE.rglob("*"))
             if path.suffix in {".cpp", ".hpp", ".inl"} and path.stem != "real_math"  # which defines them
             and (calls := transcendental_calls(path.read_text()))}
    assert found == {}, "the core's own maths (base/real_math.hpp) give the same bits everywhere"


def test_the_scan_finds_libm_calls_and_passes_the_cores_own():
    assert transcendental_calls("x = std::exp(-4 * x); y = sinf(a) + ::cos(b); z = std::atan2(p, q);") == [
        "std::exp(", "sinf(", "::cos(", "std::atan2("]
    assert transcendental_calls("x = math::exp(y); math::sincos(a, s, c); v = std::sqrt(w); // std::sin(x)\n"
                                "lane_sincos(x, s, c); p.cos(); q->exp(); std::fmod(a, b);") == []
