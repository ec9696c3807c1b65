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
import inspect

from . import _core
from ._arguments import ShowsArguments
from .behaviors import _checked, _unit

__all__ = ["AgentState", "Goals"]


class AgentState(enum.IntEnum):
    """The values of :attr:`World.state`."""

    MOVING = 0
    WAITING = 1
    GIVING_WAY = 2
    ARRIVED = 3


_FIELDS = {f["name"]: f for f in _core.GOAL_FIELDS}


class Goals(ShowsArguments):
    """How a world's agents reach their goals: arrival, waiting and giving way (this
    module's docstring tells how); ``World(goals=...)`` or ``world.goals = Goals(...)``,
    taking effect at the next step. Every value is checked as given, naming it."""

    def __init__(self, **settings):
        params = _core.GoalParams()
        for name, value in settings.items():
            spec = _FIELDS.get(name)
            if spec is None:
                raise TypeError(f"Goals() got an unexpected keyword argument {name!r}; "
                                f"its settings are {', '.join(_FIELDS)}")
            setattr(params, name, _checked(spec, value))
        self._core = params

    @classmethod
    def _of_core(cls, params) -> Goals:
        return cls(**{name: getattr(params, name) for name in _FIELDS
                      if getattr(params, name) != _FIELDS[name]["default"]})

    def __eq__(self, other) -> bool:
        return isinstance(other, Goals) and all(getattr(self, n) == getattr(other, n) for n in _FIELDS)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in _FIELDS))

    @staticmethod
    def _fields() -> tuple[str, ...]:
        return tuple(_FIELDS)

    def settings(self) -> dict:
        """The settings that differ from the defaults, by name."""
        return {n: getattr(self, n) for n in _FIELDS if getattr(self, n) != _FIELDS[n]["default"]}

    def replace(self, **changes) -> Goals:
        """A copy with ``changes`` set."""
        return Goals(**{**{n: getattr(self, n) for n in _FIELDS}, **changes})


def _setting(spec: dict) -> property:
    unit = f" ({_unit(spec)})" if spec["unit"] else ""
    return property(lambda self: getattr(self._core, spec["name"]),
                    doc=f"{spec['doc']}{unit}; {spec['default']!r} by default.")


for _name, _spec in _FIELDS.items():
    setattr(Goals, _name, _setting(_spec))
Goals.__init__.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    + [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=f["default"]) for n, f in _FIELDS.items()])
Goals.__doc__ = (Goals.__doc__ or "") + "\n\n    Settings (from the C++ struct):\n" + "\n".join(
    f"    {n}: {f['doc']}{' (' + _unit(f) + ')' if f['unit'] else ''}; default {f['default']!r}."
    for n, f in _FIELDS.items()) + "\n"
