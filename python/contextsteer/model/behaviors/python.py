"""Behaviours written in Python: PythonBehavior, the Batch it is given and its Neighbors."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ... import _core
from ..._internal import validation as check

if TYPE_CHECKING:
    pass

from .base import Behavior

# A Python behaviour's fill: (batch, interest, danger), the maps ``(n, slots)`` or None.
Fill = Callable[["Batch", "NDArray[np.float32] | None", "NDArray[np.float32] | None"], None]



@dataclass(frozen=True)
class Neighbors:
    """Neighbors of every agent of a batch, in compressed rows: those of agent ``k`` are
    rows ``offsets[k]:offsets[k + 1]`` of the other arrays.

    Parameters
    ----------
    offsets : ndarray, shape (n + 1,)
        Where each agent's rows begin (and the last ends).
    ids : ndarray, shape (m,)
        The neighbors' ids.
    positions : ndarray, shape (m, 2)
        Their positions, metres.
    velocities : ndarray, shape (m, 2)
        Their velocities, m/s.

    Examples
    --------
    >>> import numpy as np
    >>> import contextsteer as cs
    >>> near = cs.Neighbors(np.array([0, 1, 2]), np.array([1, 0]), np.zeros((2, 2)), np.zeros((2, 2)))
    >>> near.ids[near.offsets[0]:near.offsets[1]]  # agent 0's neighbors
    array([1])
    """

    offsets: np.ndarray
    ids: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray


class Batch:
    """What a :class:`PythonBehavior` sees of the ``n`` agents it fills maps for.

    positions, velocities, targets: ``(n, 2)``; headings (radians), radius (metres),
    ids: ``(n,)``; slot_directions: ``(slots, 2)``; time: seconds. ``neighbors(radius)``
    returns a :class:`Neighbors` of the agents each one senses within ``radius`` metres
    (up to the behaviour's ``neighbor_radius``), while ``fill`` runs.

    memory: ``(n, memory)`` float32, what the behaviour keeps for each agent from one step
    of a world to the next (None when its ``memory`` is 0). NaN where nothing was kept
    yet: a new agent, after ``World.reset``, and outside a world. Write it in place; the
    world keeps it after ``fill`` returns (not in ``World.explain``, which changes
    nothing). Kept values must be NaN or within -1e9 to 1e9.

    Parameters
    ----------
    data : dict
        What the core passes to a :class:`PythonBehavior` (a batch is made for ``fill``,
        not by the user).

    Examples
    --------
    >>> import contextsteer as cs
    >>> seen = []
    >>> def look(batch, interest, danger):
    ...     seen.append((len(batch), batch.slot_directions.shape, batch.neighbors(2.0).ids))
    >>> pipeline = cs.Pipeline([cs.PythonBehavior(look, neighbor_radius=2.0)], slots=8)
    >>> _ = pipeline.evaluate([[0.0, 0.0], [1.0, 0.0]])
    >>> seen
    [(2, (8, 2), array([1, 0]))]
    """

    def __init__(self, data: dict):
        self.positions = data["positions"]
        self.velocities = data["velocities"]
        self.headings = data["headings"]
        self.radius = data["radius"]
        self.targets = data["targets"]
        self.ids = data["ids"]
        self.slot_directions = data["slot_directions"]
        self.time = data["time"]
        self.memory = data["memory"]
        self._neighbors = data["neighbors"]

    def __len__(self) -> int:
        return len(self.positions)

    def neighbors(self, radius: float) -> Neighbors:
        """The agents each agent of the batch senses within ``radius`` (while ``fill`` runs).

        Parameters
        ----------
        radius : float
            Metres, up to the behaviour's ``neighbor_radius``.

        Returns
        -------
        Neighbors
            In compressed rows, one run per agent.

        Examples
        --------
        >>> import numpy as np
        >>> import contextsteer as cs
        >>> counts = []
        >>> def count(batch, interest, danger):
        ...     counts.append(np.diff(batch.neighbors(1.5).offsets).tolist())
        >>> _ = cs.Pipeline([cs.PythonBehavior(count, neighbor_radius=2.0)]).evaluate([[0, 0], [1, 0], [5, 0]])
        >>> counts
        [[1, 1, 0]]
        """
        offsets, ids, positions, velocities = self._neighbors(check.number("radius", radius, minimum=0.0))
        return Neighbors(offsets, ids, positions, velocities)


class PythonBehavior(Behavior, core=_core.PythonBehavior):
    """A behaviour written in Python, composed with built-in ones in the same pipeline.

    Either subclass it and define ``fill(self, batch, interest, danger)``, or pass that
    function as ``fill``. Once per step it receives a :class:`Batch` of all the agents of
    the pipeline and writes ``(n, slots)`` float32 arrays in place: ``interest`` and/or
    ``danger``, zeros on entry (None for a kind it does not fill). The rest of the step
    stays in C++. Values that are not finite raise ``ValueError``.

    ``fills`` and ``memory`` are fixed once it is built: the pipeline and the worlds'
    memory are laid out by them.

    Parameters
    ----------
    fill : callable, optional
        ``fill(batch, interest, danger)``: writes the maps of ``batch`` in place and
        returns None. Required unless a subclass defines ``fill``.
    fills : {'interest', 'danger', 'both'}, default 'interest'
        The maps it fills.
    memory : int, default 0
        Values it keeps per agent between steps, in ``batch.memory`` (0 to 256). Agents
        added, removed and reset keep theirs right, as for built-in behaviours.

    Examples
    --------
    >>> import numpy as np
    >>> import contextsteer as cs
    >>> def east(batch, interest, danger):
    ...     interest[:] = np.maximum(0.0, batch.slot_directions[:, 0])
    >>> pipeline = cs.Pipeline([cs.PythonBehavior(east)], slots=8)
    >>> pipeline.evaluate([[0.0, 0.0]]).decision.direction
    array([[1., 0.]], dtype=float32)
    """

    def __init__(self, fill: Fill | None = None, *, fills: str = "interest", memory: int = 0,
                 **parameters: Any) -> None:
        if fill is not None:
            if not callable(fill):
                raise TypeError(f"fill: expected a function (batch, interest, danger), got {type(fill).__name__}")
            self._fill = fill
        elif type(self).fill is PythonBehavior.fill:
            raise TypeError("fill: pass a function, or subclass PythonBehavior and define "
                            "fill(batch, interest, danger)")
        else:
            self._fill = self.fill
        if check.name("fills", fills) not in ("interest", "danger", "both"):
            raise ValueError(f"fills: expected one of 'interest', 'danger', 'both', got {fills!r}")
        self._core = _core.PythonBehavior(_WeakFill(self), fills in ("interest", "both"), fills in ("danger", "both"),
                                          check.count("memory", memory, maximum=256), self._params(parameters))

    def fill(self, batch: Batch, interest, danger) -> None:
        """Write this behaviour's maps for ``batch`` into ``interest`` and/or ``danger``.

        Parameters
        ----------
        batch : Batch
            The agents.
        interest, danger : ndarray of float32, shape (n, slots), or None
            The maps to write in place (zeros on entry; None for a kind it does not fill).

        Examples
        --------
        >>> import contextsteer as cs
        >>> class East(cs.PythonBehavior):
        ...     def fill(self, batch, interest, danger):
        ...         interest[:] = batch.slot_directions[:, 0].clip(0.0)
        >>> cs.Pipeline([East()], slots=4).evaluate([[0.0, 0.0]]).decision.slot
        array([0.], dtype=float32)
        """
        self._fill(batch, interest, danger)

    def _call(self, data, interest, danger) -> None:
        self._fill(Batch(data), interest, danger)


class _WeakFill:
    """What the C++ core of a :class:`PythonBehavior` calls: the behaviour's ``_call``,
    reached through a weak reference.

    The core holds its callable with a reference the garbage collector cannot see. A
    strong one back to the behaviour would close a cycle through C++ (behaviour -> core ->
    callable -> behaviour, or through a world the function refers to) that is never
    freed. The Python objects that use the behaviour keep it alive instead: a
    :class:`~contextsteer.Pipeline` holds its behaviours and a
    :class:`~contextsteer.World` its pipelines, all in references the collector sees.
    """

    __slots__ = ("_behavior",)

    def __init__(self, behavior: PythonBehavior):
        self._behavior = weakref.ref(behavior)

    def __call__(self, data, interest, danger) -> None:
        behavior = self._behavior()
        if behavior is None:
            raise RuntimeError("PythonBehavior: the behaviour was freed while its core was still in use; "
                               "keep the PythonBehavior (or the Pipeline holding it) alive as long as it runs")
        behavior._call(data, interest, danger)

