"""Contact (``world/contact.hpp``): an optional stage of a world's step that keeps every
body out of the obstacles and pushes overlapping agents apart, by moving them.

Off by default (``World(contact=None)``): a world without it steps exactly as before. On
(``World(contact=Contact())`` or ``world.contact = Contact(...)``), each step, after the
agents moved and before ``penetration`` and ``overlap`` are measured:

- **Obstacles.** Each agent's move of the step is swept against the walls (segments,
  polygon edges, bounds sides) and circles it senses: a move that would cross a wall or
  enter a circle stops at the first, on the side it came from, so no speed or step
  tunnels through anything. The disc is then pushed out of what it still overlaps and
  into the bounds, to 0.1 mm beyond touching.
- **Agents.** Up to ``iterations`` Jacobi passes: every pair overlapping by more than ``slop``
  (agent a is pushed by b when a senses b, as ``overlap`` is measured) is pushed apart
  along the line of centres by ``depth - slop``, split by mass (``m_b / (m_a + m_b)`` for
  a) when both sense each other; each agent's correction is kept out of the obstacles
  as above. Every pass reads the positions at its start and sums in a fixed order, so
  the results are the same at any thread count. The passes stop early once no pair
  overlaps by more than ``slop``.

Each agent's velocity then loses its part against its correction (it never gains speed):
an agent pressed into a wall or a crowd stops pressing into it. ``world.contact_correction`` tells how far
the last step's contact moved the agents. With ``events`` on, each contact deeper than
``slop`` is an event (:attr:`World.events`, :attr:`Recording.events`): ``agent_contact``
(``agent``, ``other`` agent, ``depth`` of the overlap before correction, metres; once
per pair) and ``obstacle_contact`` (``depth``: how far the agent was moved back out of
the obstacles, metres).
"""

from __future__ import annotations

import inspect

from . import _core
from ._arguments import ShowsArguments
from .behaviors import _checked, _unit

__all__ = ["Contact"]

_FIELDS = {f["name"]: f for f in _core.CONTACT_FIELDS}


class Contact(ShowsArguments):
    """The settings of a world's contact stage (this module's docstring tells what it does):
    ``World(contact=Contact(...))`` or ``world.contact = Contact(...)``; ``None`` turns it
    off. Every value is checked as given, naming it."""

    def __init__(self, **settings):
        params = _core.ContactParams()
        for name, value in settings.items():
            spec = _FIELDS.get(name)
            if spec is None:
                raise TypeError(f"Contact() got an unexpected keyword argument {name!r}; "
                                f"its settings are {', '.join(_FIELDS)}")
            setattr(params, name, _checked(spec, value))
        self._core = params

    @classmethod
    def _of_core(cls, params) -> Contact:
        return cls(**{name: getattr(params, name) for name in _FIELDS
                      if getattr(params, name) != _FIELDS[name]["default"]})

    def __eq__(self, other) -> bool:
        return isinstance(other, Contact) and all(getattr(self, n) == getattr(other, n) for n in _FIELDS)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in _FIELDS))

    @staticmethod
    def _fields() -> tuple[str, ...]:
        return tuple(_FIELDS)

    def settings(self) -> dict:
        """The settings that differ from the defaults, by name."""
        return {n: getattr(self, n) for n in _FIELDS if getattr(self, n) != _FIELDS[n]["default"]}

    def replace(self, **changes) -> Contact:
        """A copy with ``changes`` set."""
        return Contact(**{**{n: getattr(self, n) for n in _FIELDS}, **changes})


def _setting(spec: dict) -> property:
    unit = f" ({_unit(spec)})" if spec["unit"] else ""
    return property(lambda self: getattr(self._core, spec["name"]),
                    doc=f"{spec['doc']}{unit}; {spec['default']!r} by default.")


for _name, _spec in _FIELDS.items():
    setattr(Contact, _name, _setting(_spec))
Contact.__init__.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    + [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=f["default"]) for n, f in _FIELDS.items()])
Contact.__doc__ = (Contact.__doc__ or "") + "\n\n    Settings (from the C++ struct):\n" + "\n".join(
    f"    {n}: {f['doc']}{' (' + _unit(f) + ')' if f['unit'] else ''}; default {f['default']!r}."
    for n, f in _FIELDS.items()) + "\n"
