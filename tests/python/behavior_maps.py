"""Helpers of the behaviour tests: a behaviour's maps in a world that has not moved yet,
and the cosine lobe they are checked against."""

import numpy as np

import contextsteer as cs

DIRS8 = cs.slot_directions(8).astype(np.float64)


def maps_of(behaviors, positions, *, slots=8, **world):
    """Interest and danger of each agent, from the state the world starts in."""
    world.setdefault("max_speed", 0.0)  # the maps are computed before anything moves
    w = cs.World(cs.Pipeline(behaviors if isinstance(behaviors, list) else [behaviors], slots=slots), positions,
                 **world)
    w.step(0.01)
    return w.interest.copy(), w.danger.copy(), w


def lobe(u, dirs=DIRS8):
    return np.maximum(0, dirs @ np.asarray(u, float))
