"""The per-agent columns of a world, as the core declares them (``agent_columns.hpp``).

Each column is an array of the world (``World.<name>``, a NumPy view), and, by its kind:

- ``state``: given to ``add_agents``, writable, changed by the steps, put back by ``reset``;
- ``parameter``: given to ``add_agents``, writable;
- ``identity``: set by the world, read-only;
- ``result``: written by every step, read-only.

``World``'s views, the checks of ``add_agents`` and what ``World.run`` can record are
built from this table.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import _core


class AgentColumn(NamedTuple):
    name: str             # World.<name>, add_agents(<name>=...)
    kind: str             # "state", "parameter", "identity" or "result"
    dtype: np.dtype
    width: int | str      # values per agent, or "slots" for a map
    default: Any          # the value of an agent given none, and of a result after reset
    writable: bool        # whether the view is writable
    minimum: Any          # the smallest value add_agents takes (-inf: from -1e9), or None
    maximum: Any          # the largest whole number add_agents takes, or None
    allow_inf: bool       # whether +inf (no limit) is taken
    record: str | None    # the name World.run records it under, or None
    doc: str              # meaning and units


AGENT_COLUMNS: tuple[AgentColumn, ...] = tuple(AgentColumn(**row) for row in _core.AGENT_COLUMNS)
SPAWNED = tuple(c for c in AGENT_COLUMNS if c.kind in ("state", "parameter"))
