"""The world's agents: adding and removing them, and finding their rows by id.

These functions are methods of :class:`~contextsteer.World` (bound in its class body,
``add_agents = agents.add_agents``); ``self`` is the world."""

from __future__ import annotations

import inspect
import math

import numpy as np

from ..._internal import validation as check
from ..agent_columns import SPAWNED
from ..obstacle_overlap import warn_placed_in_obstacles
from .obstacles import ALL_LAYERS


def add_agents(self, positions, velocities=None, *, steering=None, heading=0.0, angular_velocity=0.0,
               radius=0.5, max_speed=1.0, max_acceleration=math.inf, max_turn_rate=math.inf, mass=1.0,
               max_force=math.inf, targets=None, target_ids=None, layers=1,
               sense_masks=ALL_LAYERS, groups=0) -> np.ndarray:
    """Append agents and return their ids.

    Each argument but steering is a column of
    :data:`~contextsteer.agent_columns.AGENT_COLUMNS` (its default the column's, its
    checks the column's). The per-agent numbers take a number (every agent) or an
    ``(m,)`` array.

    Parameters
    ----------
    positions : array_like, shape (m, 2)
        Positions, metres.
    velocities : array_like, shape (m, 2), optional
        Velocities, m/s (at rest if None).
    steering : Pipeline, classic.Steering or int, optional
        None (the world's first steering), a steering object (added to the world if
        new) or the index of one of :attr:`steerings`.
    heading : float or array_like, shape (m,), default 0
        Radians from +x.
    angular_velocity : float or array_like, shape (m,), default 0
        Radians per second.
    radius : float or array_like, shape (m,), default 0.5
        Metres.
    max_speed : float or array_like, shape (m,), default 1
        Metres per second.
    max_acceleration : float or array_like, shape (m,), default inf
        Metres per second squared.
    max_turn_rate : float or array_like, shape (m,), default inf
        Radians per second.
    mass : float or array_like, shape (m,), default 1
        Kilograms (from 1e-9).
    max_force : float or array_like, shape (m,), default inf
        Newtons (inf: no limit beyond the acceleration).
    targets : array_like, shape (m, 2), optional
        Each agent's target point, metres (the origin if None).
    target_ids : array_like of int, shape (m,), optional
        Id of the agent each one targets, -1 for none (it then uses its target
        point); an id may name an agent of this same call.
    layers : int or array_like, shape (m,), default 1
        Bit mask of the layers each agent is on.
    sense_masks : int or array_like, shape (m,), default ALL_LAYERS
        Bit mask of the layers each agent senses: agent a senses b when
        ``sense_masks[a] & layers[b]``.
    groups : int or array_like, shape (m,), default 0
        The group of each agent, 0 to 65535: a :class:`FollowField` of one field per
        group leads an agent of group ``g`` along its field ``g``.

    Returns
    -------
    ndarray of int64, shape (m,)
        The new agents' ids, never reused.

    Warns
    -----
    UserWarning
        Agents whose body (of ``radius``) overlaps a static obstacle they sense where
        they start, or at their target point, naming how many and which rows: such a
        body cannot stand there.

    Raises
    ------
    ValueError
        An array of the wrong shape, or a value out of its column's bounds.
    TypeError
        A value of the wrong type.

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]])
    >>> world.add_agents([[1.0, 0.0], [2.0, 0.0]], radius=0.3, max_speed=[1.0, 2.0])
    array([1, 2])
    >>> world.max_speed
    array([1., 1., 2.], dtype=float32)
    """
    given = locals()
    pos = check.shaped("positions", positions, (None, 2))
    m = len(pos)
    index = self._steering_index(steering)
    columns = {column.name: spawn_values(column, given[column.name], m) for column in SPAWNED[1:]}
    first = self._core.add_agents({"positions": pos, **columns}, index)
    rows = np.arange(len(self) - m, len(self))
    # The values as the world holds them (a column given None has its default).
    warn_placed_in_obstacles(self, rows, pos, self.radius[rows], self.sense_masks[rows],
                             None if targets is None else self.targets[rows],
                             None if target_ids is None else self.target_ids[rows])
    return np.arange(first, first + m, dtype=np.int64)


def remove_agents(self, ids) -> None:
    """Remove agents by id.

    Ids are never reused, and the world keeps a row number (4 bytes) for every id it
    ever issued, removed or not, so that a stale id is told apart from a live one:
    a world that adds and removes agents all along holds 4 MB per million agents
    ever added (12 MB after 3 million), in memory and in its pickles. To start
    afresh, build a new world with the agents that remain (their ids then restart
    from 0).

    Parameters
    ----------
    ids : int or array_like of int
        The ids of the agents to remove.

    Raises
    ------
    IndexError
        An unknown or removed id (nothing is removed then).

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]])
    >>> world.remove_agents([1])
    >>> world.ids
    array([0, 2])
    """
    self._core.remove_agents(check.ids("ids", ids))


def index_of(self, ids) -> np.ndarray:
    """Rows of the agents ``ids`` in the per-agent arrays.

    Parameters
    ----------
    ids : int or array_like of int
        Agent ids.

    Returns
    -------
    ndarray of int64
        The row of each id, in the order given.

    Raises
    ------
    IndexError
        An unknown or removed id.

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]])
    >>> world.remove_agents(0)
    >>> world.index_of([2, 1])
    array([1, 0])
    """
    try:
        return self._core.index_of(check.ids("ids", ids))
    except IndexError as error:  # the core names its own argument, "id"
        raise IndexError(f"ids: {str(error).removeprefix('id: ')}") from None


def _row_of(self, name: str, agent) -> int:
    """The row of the one agent whose id is ``agent``; errors name the argument ``name``."""
    agent = check.agent_id(name, agent)
    try:
        return int(self.index_of([agent])[0])
    except IndexError as error:
        raise IndexError(f"{name}: {str(error).removeprefix('ids: ')}") from None


def spawn_values(column, value, m: int):
    """``value`` for the spawned column ``column`` of ``m`` new agents, checked as the
    column says; None (the column's default) stays None."""
    if value is None:
        return None
    if column.width != 1:
        return check.shaped(column.name, value, (m, column.width))
    if column.dtype.kind == "f":
        return check.per_agent(column.name, value, m, minimum=column.minimum, allow_inf=column.allow_inf)
    return check.per_agent_int(column.name, value, m, minimum=column.minimum, maximum=column.maximum)


# The keyword arguments World() passes on to add_agents, for the check of unknown ones
# (its steering, positions and velocities are World's own arguments).
AGENT_PARAMETERS = frozenset(inspect.signature(add_agents).parameters) - {"self", "steering", "positions", "velocities"}
