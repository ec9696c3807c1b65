"""The crowd scenes' bars, with their recommended recipes (demo.scene_setup, contact stage
included) at full size, over a few seeds: at least 99% of the agents home within the time
limit at 16 slots and at 8 (every one of the few of the U-trap and the zigzag), none
stalled at the end, no wall crossed, and the deepest overlap no deeper than ORCA's in the
same scene; heading reversals in the door and the four-way at most twice ORCA's; 95% of
the door's agents home within 90 s; and in scenes of other sizes (a wider door in smaller
rooms, a smaller square, a larger cup, more bends, legs at 40 and 55 degrees at 8 slots),
every agent home. The figures over seeds 0-9 are in benchmarks/README.md."""

import functools

import numpy as np
import pytest

from contextsteer import metrics
from contextsteer.demo import DT, scene_setup, time_limit

# Metres: ORCA's deepest overlap in each scene over seeds 0-9 (agents 0.6 m wide), as
# benchmarks/README.md ("Crowds beside ORCA") records it from benchmarks/bench_crowds.py.
ORCA_DEEPEST_OVERLAP = {"two_way_door": 0.091, "four_way": 0.061, "zigzag": 3.2e-5, "u_trap": 0.015}
# Heading reversals per agent-minute of ORCA in the same scenes, seeds 0-9 (the same table).
ORCA_REVERSALS = {"two_way_door": 1.1, "four_way": 1.9}


@functools.cache
def run_recipe(scene: str, seed: int, slots: int | None) -> tuple[dict, int]:
    geometry, steering, parameters = scene_setup(scene, seed=seed, slots=slots)
    world = geometry.world(list(steering), **parameters)
    rec = world.run(round(time_limit(scene) / DT), DT, record="state")
    report = metrics.scene_report(geometry, rec.positions, dt=DT, radius=parameters["radius"],
                                  max_speed=parameters["max_speed"])
    return report, len(geometry.starts)


@pytest.mark.parametrize("scene, seed, slots", [("two_way_door", 0, None), ("two_way_door", 1, None),
                                                ("two_way_door", 2, None), ("four_way", 0, None),
                                                ("four_way", 1, None), ("u_trap", 0, None), ("u_trap", 1, None),
                                                ("u_trap", 2, None), ("zigzag", 0, None), ("zigzag", 1, None),
                                                ("zigzag", 2, 8), ("zigzag", 3, 8), ("two_way_door", 0, 8),
                                                ("two_way_door", 1, 8), ("four_way", 0, 8)])
def test_the_agents_get_home(scene, seed, slots):
    report, _ = run_recipe(scene, seed, slots)
    assert report["arrived"] >= 0.99
    assert report["stalled_end"] == 0 and report["wall_penetrations"] == 0
    assert report["deepest_overlap"] <= ORCA_DEEPEST_OVERLAP[scene]


@pytest.mark.parametrize("scene, agents, slots, sizes", [
    ("two_way_door", 120, None, {"door": 2.4, "room": 10.0}),
    ("four_way", 100, None, {"square": 8.0}),
    ("u_trap", 40, None, {"cup_width": 8.0, "cup_depth": 5.0}),
    ("zigzag", 12, None, {"bends": 12, "leg": 2.0}),
    ("zigzag", 10, 8, {"angle": 40.0}),
    ("zigzag", 10, 8, {"angle": 55.0}),
])
def test_the_agents_get_home_in_scenes_of_other_sizes(scene, agents, slots, sizes):
    geometry, steering, parameters = scene_setup(scene, agents, slots=slots, seed=3, **sizes)
    world = geometry.world(list(steering), **parameters)
    rec = world.run(round(time_limit(scene) / DT), DT, record="state")
    report = metrics.scene_report(geometry, rec.positions, dt=DT, radius=parameters["radius"],
                                  max_speed=parameters["max_speed"])
    assert report["arrived"] >= 0.99
    assert report["stalled_end"] == 0 and report["wall_penetrations"] == 0


@pytest.mark.parametrize("scene, seeds", [("two_way_door", (0, 1, 2)), ("four_way", (0, 1))])
def test_jammed_agents_reverse_at_most_twice_as_often_as_orcas(scene, seeds):
    reversals = np.mean([run_recipe(scene, seed, None)[0]["reversals_per_agent_minute"] for seed in seeds])
    assert reversals <= 2 * ORCA_REVERSALS[scene]


def test_the_two_way_door_gets_95_percent_home_within_90_s():
    times = [run_recipe("two_way_door", seed, None)[0]["time_to_95"] for seed in (0, 1, 2)]
    assert np.mean(times) <= 90.0, times
