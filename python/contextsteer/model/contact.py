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
  a) when both sense each other. With ``motion_share`` s (0 to 1, 0 by default), a share s
  of each such push is split instead by how far each agent's move of the step went
  toward the other (by mass when neither moved toward the other): an agent that walks
  into a standing one is the one moved back, and a crowd that stands is not shoved
  about by those passing. Each agent's correction is kept out of the obstacles as above.
  Every pass reads the positions at its start and sums in a fixed order, so the results
  are the same at any thread count. The passes stop early once no pair overlaps by more
  than ``slop``.

Each agent's velocity then loses its part against its correction (it never gains speed):
an agent pressed into a wall or a crowd stops pressing into it. ``world.contact_correction`` tells how far
the last step's contact moved the agents. With ``events`` on, each contact deeper than
``slop`` is an event (:attr:`World.events`, :attr:`Recording.events`): ``agent_contact``
(``agent``, ``other`` agent, ``depth`` of the overlap before correction, metres; once
per pair) and ``obstacle_contact`` (``depth``: how far the agent was moved back out of
the obstacles, metres).
"""

from __future__ import annotations

from .. import _core
from .._internal.settings import Settings

__all__ = ["Contact"]


class Contact(Settings, params=_core.ContactParams, fields=_core.CONTACT_FIELDS):
    """The settings of a world's contact stage (this module's docstring tells what it does):
    ``World(contact=Contact(...))`` or ``world.contact = Contact(...)``; ``None`` turns it
    off. Every value is checked as given, naming it.

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [0.5, 0.0]], radius=0.5,
    ...                  contact=cs.Contact(iterations=16))
    >>> world.step()
    >>> float(world.overlap.max()) <= world.contact.slop
    True
    >>> world.contact_correction["agents"]
    2
    """

