"""A pickled world made again: :func:`loaded_world` is what ``World.__reduce__`` names."""

from __future__ import annotations

import numpy as np

from ... import _core


def _runs(layers: np.ndarray):
    """``(begin, end, layer)`` for each run of equal values in ``layers``."""
    starts = [0, *(np.flatnonzero(np.diff(layers)) + 1).tolist(), len(layers)]
    return [(b, e, int(layers[b])) for b, e in zip(starts[:-1], starts[1:]) if e > b]


def loaded_world(cls, steerings, obstacles, state, threads, attributes, goals=None, moving=None, contact=None):
    """A pickled world again (see ``World.__reduce__``): its steerings in their order, its
    obstacles on their layers in theirs, then its agents, ids, time and steps."""
    world = object.__new__(cls)
    world.__dict__.update(attributes)
    world._steerings = list(steerings)
    world._core = _core.World(steerings[0]._core)
    for steering in steerings[1:]:
        world._core.add_steering(steering._core)
    circles, circle_layers, segments, segment_layers, polygons, polygon_layers, bounds = obstacles
    for begin, end, layer in _runs(circle_layers):
        world._core.add_circles(circles[begin:end], layer)
    for begin, end, layer in _runs(segment_layers):
        world._core.add_segments(segments[begin:end], layer)
    for polygon, layer in zip(polygons, polygon_layers):
        world._core.add_polygon(polygon, int(layer))
    if bounds is not None:
        world._core.set_bounds(np.asarray(bounds, np.float32))
    world._core.threads = threads
    world._core.restore_state(state)
    if goals is not None:
        world.goals = goals
    if moving is not None:
        world._core.load_moving(moving)
    world.contact = contact
    return world
