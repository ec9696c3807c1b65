"""How a world's agents reach their goals (``world/goals.hpp``): each agent's state, its
arrival, what it does there, and how a face-off that nobody wins is settled.

Each step, after the agents moved, the world updates per agent:

- ``waiting_time``: seconds since the agent last *progressed*, that is, moved
  ``progress_distance`` metres from where it last progressed (net displacement: an agent
  shaking in place does not progress);
- ``state`` (:class:`AgentState`): arrived within ``arrival_radius`` of its target,
  waiting after ``stall_time`` seconds without progress, giving way, or moving;
- ``arrival_time``: the world's time at its first arrival, -1 before.

An agent that has waited ``patience`` seconds (never, by default) settles the face-off
with the agent most in its way: an oncoming agent and it agree that the one that waited
longer passes (equal waits: the smaller id); the other *gives way* for ``give_way_time``
seconds, to its right, left or back: the first of these its last danger map holds below
0.5, else the freest. While giving way its pipeline's interest is a cosine lobe that way
alone (its danger is its own), so it steps aside only as far as that is free, then heads
for its goal again.

``arrival`` says what an agent does at its goal: ``"stay"``; ``"give_way"``, stay and
step aside off the line of a waiting agent it blocks; or ``"leave"``, be removed from the
world at the end of the step it arrives in. Arrivals, departures and each giving way are
events (:attr:`World.events`, :attr:`Recording.events`).
"""

from __future__ import annotations

import enum

from .. import _core
from .._internal.settings import Settings

__all__ = ["AgentState", "Goals"]


class AgentState(enum.IntEnum):
    """The values of :attr:`World.state`.

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]], targets=[[0.1, 0.0]])
    >>> world.step()
    >>> cs.AgentState(int(world.state[0])).name
    'ARRIVED'
    """

    MOVING = 0
    WAITING = 1
    GIVING_WAY = 2
    ARRIVED = 3


class Goals(Settings, params=_core.GoalParams, fields=_core.GOAL_FIELDS):
    """How a world's agents reach their goals: arrival, waiting and giving way (this
    module's docstring tells how); ``World(goals=...)`` or ``world.goals = Goals(...)``,
    taking effect at the next step. Every value is checked as given, naming it.

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]], targets=[[1.0, 0.0]],
    ...                  goals=cs.Goals(arrival="leave"))
    >>> recording = world.run(180)
    >>> len(world), list(recording.events["kind"])
    (0, ['arrived', 'left'])
    """

