"""Every per-agent column the core declares (agent_columns.hpp) reaches everything made
from the table: the World's views, add_agents, reset, copy, pickling and the recording."""

from __future__ import annotations

import inspect
import math
import pickle

import numpy as np
import pytest

import contextsteer as cs
from contextsteer.agent_columns import AGENT_COLUMNS, SPAWNED

SLOTS = 16


def busy_world() -> cs.World:
    """Three agents, a chaser among them, every spawned column given, a few steps taken."""
    pipeline = cs.Pipeline([cs.Chase(), cs.Avoid(agents=True, max_distance=3.0)], slots=SLOTS)
    world = cs.World(pipeline, [[0.0, 0.0], [1.5, 0.0], [0.0, 2.0]], [[0.1, 0.0], [0.0, 0.1], [0.0, 0.0]],
                     heading=[0.1, 0.2, 0.3], angular_velocity=0.5, radius=[0.4, 0.5, 0.6], max_speed=1.5,
                     max_acceleration=[3.0, math.inf, 2.0], max_turn_rate=4.0, mass=[1.0, 2.0, 3.0], max_force=9.0,
                     targets=[[10.0, 0.0], [-10.0, 0.0], [0.0, 10.0]], target_ids=[-1, -1, 0], layers=[1, 3, 1],
                     sense_masks=[1, 1, 3])
    world.step(0.05)
    world.step(0.05)
    return world


def shape_of(column, world: cs.World) -> tuple[int, ...]:
    width = world.slots if column.width == "slots" else column.width
    return (len(world),) if width == 1 else (len(world), width)


def test_the_table_names_each_column_once_with_a_kind_the_world_knows():
    names = [c.name for c in AGENT_COLUMNS]
    assert len(names) == len(set(names))
    assert {c.kind for c in AGENT_COLUMNS} == {"state", "parameter", "identity", "result"}
    assert all(c.writable == (c.kind in ("state", "parameter")) for c in AGENT_COLUMNS)
    assert [c.name for c in SPAWNED][0] == "positions"


@pytest.mark.parametrize("column", AGENT_COLUMNS, ids=lambda c: c.name)
def test_each_column_is_a_world_view_of_its_shape_dtype_and_access(column):
    world = busy_world()
    view = getattr(world, column.name)
    assert view.shape == shape_of(column, world) and view.dtype == column.dtype
    assert view.flags.writeable == column.writable
    assert column.doc in type(world).__dict__[column.name].__doc__
    assert column.name in World_annotations()   # declared for type checkers too


def World_annotations() -> dict[str, str]:
    return {name: kind for name, kind in inspect.get_annotations(cs.World).items()
            if isinstance(kind, str) and kind.startswith("NDArray[")}


def test_the_world_declares_for_type_checkers_exactly_the_columns_of_the_table():
    # each with its dtype, so that mypy sees World.positions as NDArray[np.float32]
    scalar = {np.dtype(bool): "bool_"}  # np.bool_: the name of NumPy 1 and 2
    expected = {c.name: f"NDArray[np.{scalar.get(np.dtype(c.dtype), np.dtype(c.dtype).name)}]" for c in AGENT_COLUMNS}
    assert World_annotations() == expected


def test_add_agents_takes_every_spawned_column_by_name_with_the_table_default():
    parameters = inspect.signature(cs.World.add_agents).parameters
    taken = set(parameters) - {"self", "steering"}
    assert taken == {c.name for c in SPAWNED}
    for column in SPAWNED[1:]:
        default = parameters[column.name].default
        if default is not None:   # None: the column's default, filled by the core
            assert default == column.default, column.name
    # An agent given nothing but a position holds every column's default.
    world = cs.World(cs.Pipeline([cs.Chase()], slots=SLOTS), [[0.0, 0.0]])
    for column in AGENT_COLUMNS:
        if column.kind != "identity":
            np.testing.assert_array_equal(getattr(world, column.name), np.full(shape_of(column, world), column.default,
                                                                              column.dtype), err_msg=column.name)


@pytest.mark.parametrize("column", [c for c in SPAWNED if c.minimum is not None and c.minimum > -math.inf],
                         ids=lambda c: c.name)
def test_add_agents_refuses_a_value_below_the_columns_minimum_by_its_name(column):
    world = cs.World(cs.Pipeline([cs.Chase()], slots=SLOTS))
    below = column.minimum - 1 if column.dtype.kind == "i" or column.minimum == 0 else column.minimum / 2
    with pytest.raises(ValueError, match=f"^{column.name}: "):
        world.add_agents([[0.0, 0.0]], **{column.name: below})


def test_reset_puts_back_the_state_columns_as_spawned_and_the_results_to_their_default():
    world = busy_world()
    spawned = cs.World(world.steerings[0], [[0.0, 0.0], [1.5, 0.0], [0.0, 2.0]], [[0.1, 0.0], [0.0, 0.1], [0.0, 0.0]],
                       heading=[0.1, 0.2, 0.3], angular_velocity=0.5, targets=[[10.0, 0.0], [-10.0, 0.0], [0.0, 10.0]])
    world.reset()
    for column in AGENT_COLUMNS:
        values = getattr(world, column.name)
        if column.kind == "state":
            np.testing.assert_array_equal(values, getattr(spawned, column.name), err_msg=column.name)
        elif column.kind == "result":
            np.testing.assert_array_equal(values, np.full(values.shape, column.default, column.dtype),
                                          err_msg=column.name)


@pytest.mark.parametrize("how", ["copy", "pickle"])
def test_every_column_survives_copy_and_pickling_and_goes_on_alike(how):
    world = busy_world()
    other = world.copy() if how == "copy" else pickle.loads(pickle.dumps(world))
    for column in AGENT_COLUMNS:
        mine, theirs = getattr(world, column.name), getattr(other, column.name)
        np.testing.assert_array_equal(theirs, mine, err_msg=column.name)
        assert not np.shares_memory(mine, theirs), column.name
    world.step(0.05), other.step(0.05)
    for column in AGENT_COLUMNS:
        np.testing.assert_array_equal(getattr(other, column.name), getattr(world, column.name), err_msg=column.name)


def test_every_recordable_column_is_recorded_under_its_record_name_as_the_world_holds_it():
    recordable = [c for c in AGENT_COLUMNS if c.record is not None]
    assert {c.record for c in recordable} == set(cs.recording.FIELDS)
    world = busy_world()
    recording = world.run(3, 0.05, record="all")
    for column in recordable:
        recorded = getattr(recording, column.record)
        assert recorded.shape == (4, *shape_of(column, world)) and recorded.dtype == column.dtype, column.name
        np.testing.assert_array_equal(recorded[-1], getattr(world, column.name), err_msg=column.name)


def test_the_core_refuses_a_column_it_does_not_spawn_or_record():
    core = busy_world()._core
    with pytest.raises(ValueError, match="columns: no agent is spawned with a column ids"):
        core.add_agents({"positions": np.zeros((1, 2), np.float32), "ids": np.zeros(1, np.int64)}, 0)
    with pytest.raises(ValueError, match="record: no column is recorded as radius"):
        core.run(1, 0.05, 1, {"radius": np.zeros((1, 3), np.float32)})
