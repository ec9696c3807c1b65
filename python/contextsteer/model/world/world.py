"""The world: :class:`World`, its construction, copies, pickles, settings and per-agent
arrays; its other members live by concern beside it (agents, running, explaining,
obstacles) and are bound into the class body, so that they are World's own methods."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ... import _core
from ..._internal import validation as check
from ..agent_columns import AGENT_COLUMNS
from ..classic import Steering as ClassicSteering
from ..contact import Contact
from ..goals import Goals
from ..moving import MovingObstacles
from ..pipeline import Pipeline
from ..recording import events_of_core as _events
from . import agents, explaining, loading, obstacles, running
from .obstacles import ALL_LAYERS as ALL_LAYERS  # every layer

MAX_THREADS = 1024  # the core's limit (World::kMaxThreads)


def _view(name: str, doc: str) -> property:
    return property(lambda self: getattr(self._core, name), doc=doc)


def _map_view(name: str, doc: str) -> property:
    """A view of maps, which only a world that keeps them (World.keep_maps) has."""

    def get(self):
        if not self._core.keep_maps:
            raise RuntimeError(f"{name}: the world does not keep its maps (keep_maps is False); set "
                               f"world.keep_maps = True and step to have them")
        return getattr(self._core, name)

    return property(get, doc=doc)


class World(MovingObstacles):
    """Agents, obstacles, a neighbor grid and a step that runs in C++ for all agents.

    Each :meth:`step` has named stages: *check* (the state arrays hold valid values),
    *index* (resolve target ids; reuse the neighbor grid the last *measure* built when
    no position, radius or layer changed since, else rebuild it), *evaluate* (every
    context agent fills, merges and resolves its maps; every classic agent computes its
    steering), *integrate* (motion, in ``substeps``
    equal parts of ``dt``) and *measure* (rebuild the grid over the moved agents, then
    obstacle penetration and agent overlap).

    Motion. A context decision becomes the desired velocity
    ``direction * strength * max_speed``, approached with at most
    ``min(max_acceleration, max_force / mass)``. A classic steering's linear output is
    truncated to ``max_acceleration``, turned into a force (times ``mass``) truncated to
    ``max_force``, divided by ``mass``, and the velocity is truncated to ``max_speed``. So an
    agent faster than its ``max_speed`` (added so, or its ``max_speed`` lowered) is slowed at
    its acceleration limit if context-steered, at once if classic; neither ever speeds up
    past ``max_speed``. Integration is semi-implicit Euler (the new velocity moves the
    agent). The heading follows the velocity, turning at most ``max_turn_rate``, unless a
    classic Face or LookWhereYouGo steers it.

    Per-agent arrays are NumPy views of the world's memory, rows in agent order (see
    ``ids``): the state and parameters are writable, the rest read-only. A view stays
    valid after agents are added or removed, or the world is deleted; it then keeps the
    values it had, so read the property again for fresh ones.

    Values. Every coordinate, length, speed, time and weight lies within +-1e9 (the core
    computes in float32; see docs/worlds.md); a step refuses, before anything moves, state
    that left the bound or turned NaN since the last one, naming the array and the agent.

    Python threads. :meth:`step` and :meth:`run` release the GIL, so other threads run
    meanwhile. A call from one of them that would change this world (or rebuild its
    grid: :meth:`explain`, :meth:`neighbors`) raises RuntimeError until the step
    returns; reading the arrays is allowed and shows the state part-way through a step.

    Parameters
    ----------
    steering : Pipeline or classic.Steering
        The first steering; agents use it unless :meth:`add_agents` says otherwise.
    positions : array_like, shape (n, 2), optional
        The first agents' positions, metres (none if None).
    velocities : array_like, shape (n, 2), optional
        Their velocities, m/s (at rest if None).
    circles : array_like, shape (m, 3), optional
        Circle obstacles, x, y, radius in metres, on layer 1 (see :meth:`add_circles`).
    segments : array_like, shape (m, 4), optional
        Walls, x0, y0, x1, y1 in metres, on layer 1.
    polygons : list of array_like of shape (k, 2), optional
        Polygon obstacles (convex or concave), vertices in metres, on layer 1.
    bounds : array_like, shape (4,), optional
        ``(xmin, ymin, xmax, ymax)`` metres: walls on every layer (see :attr:`bounds`).
    threads : int, default 1
        Worker threads for the step (1 to 1024); results are identical for any count.
    keep_maps : bool, default True
        Whether each step keeps every agent's interest, danger and final maps
        (:attr:`interest`, :attr:`danger`, :attr:`final`); see :attr:`keep_maps`.
    goals : Goals, optional
        How the agents reach their goals: arrival, waiting, giving way (see :attr:`goals`).
    contact : Contact, optional
        The contact stage's settings, or None (the default) for no contact stage; see
        :attr:`contact`.
    **agent_parameters
        The first agents' other columns, by name, as :meth:`add_agents` takes them
        (``radius``, ``max_speed``, ``targets``...).

    Raises
    ------
    TypeError
        An unknown keyword, or an argument of the wrong type.
    ValueError
        An array of the wrong shape, or a value out of its bounds (named in the message).

    Examples
    --------
    >>> import contextsteer as cs
    >>> pipeline = cs.Pipeline([cs.Seek(), cs.Avoid(agents=True)], slots=16)
    >>> world = cs.World(pipeline, [[0.0, 0.0], [0.0, 2.0]], targets=[[10.0, 0.0], [10.0, 2.0]],
    ...                  max_speed=1.5, circles=[[5.0, 0.0, 1.0]])
    >>> world
    World(agents=2, steerings=1, threads=1, time=0 s)
    >>> world.run(600).positions.shape  # 10 s: (the start and each step, agents, 2)
    (601, 2, 2)
    >>> bool(world.positions[0, 0] > 9.0)
    True
    """

    def __init__(self, steering, positions=None, velocities=None, *, circles=None, segments=None,
                 polygons=None, bounds=None, threads: int = 1, keep_maps: bool = True, goals: Goals | None = None,
                 contact: Contact | None = None, **agent_parameters):
        unknown = sorted(set(agent_parameters) - agents.AGENT_PARAMETERS)
        if unknown:
            raise TypeError(f"World() got unexpected keyword arguments: {', '.join(unknown)} (agent parameters are "
                            f"{', '.join(sorted(agents.AGENT_PARAMETERS))})")
        self._steerings = [self._check_steering(steering)]
        self._core = _core.World(self._steerings[0]._core)
        self.threads = threads
        self.keep_maps = keep_maps
        if goals is not None:
            self.goals = goals
        self.contact = contact
        if circles is not None:
            self.add_circles(circles)
        if segments is not None:
            self.add_segments(segments)
        for polygon in check.polygons("polygons", polygons):
            self.add_polygon(polygon)
        if bounds is not None:
            self.bounds = bounds
        if positions is not None:
            self.add_agents(positions, velocities, **agent_parameters)
        elif agent_parameters:
            raise TypeError(f"{', '.join(agent_parameters)}: agent parameters need positions")

    @staticmethod
    def _check_steering(steering):
        if not isinstance(steering, (Pipeline, ClassicSteering)):
            raise TypeError(f"steering: expected a contextsteer.Pipeline or a contextsteer.classic.Steering, "
                            f"got {type(steering).__name__}")
        return steering

    def _steering_index(self, steering) -> int:
        if steering is None:
            return 0
        if isinstance(steering, int) and not isinstance(steering, bool):
            if not 0 <= steering < len(self._steerings):
                raise IndexError(f"steering: expected an index from 0 to {len(self._steerings) - 1}, got {steering}")
            return steering
        for i, known in enumerate(self._steerings):
            if known is steering:
                return i
        index = self._core.add_steering(self._check_steering(steering)._core)
        self._steerings.append(steering)  # only once the world took it
        return index

    # --- agents: agents.py ------------------------------------------------------------
    add_agents = agents.add_agents
    remove_agents = agents.remove_agents
    index_of = agents.index_of
    _row_of = agents._row_of

    def reset(self) -> None:
        """Put every agent back to the position, velocity, heading, angular velocity and
        target it was added with; time, steps, maps and decisions start again.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]], targets=[[5.0, 0.0]])
        >>> world.step()
        >>> world.reset()
        >>> world.positions, world.steps_taken
        (array([[0., 0.]], dtype=float32), 0)
        """
        self._core.reset()

    def copy(self) -> World:
        """A new world in this one's state, to branch runs from (a parameter changed, agents
        added) or to keep as a checkpoint.

        It has its own copy of every agent's state, parameters and spawn state (for
        :meth:`reset`), the last maps and decisions, what behaviours keep per agent, the
        obstacles, ids, time, step count, threads and ``keep_maps``. The steerings are
        shared: they never change (a :class:`PythonBehavior` that keeps state in its own
        attributes shares it too; what it keeps in ``memory=`` is copied). Stepped alike,
        the two worlds give the same results to the bit. ``copy.copy`` and
        ``copy.deepcopy`` do the same; ``pickle`` saves the same state, with the steerings.

        Returns
        -------
        World
            The copy.

        Examples
        --------
        >>> import numpy as np
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]], targets=[[5.0, 0.0]])
        >>> twin = world.copy()
        >>> _ = world.run(30), twin.run(30)
        >>> bool(np.array_equal(world.positions, twin.positions))
        True
        """
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)  # a subclass's own attributes too (shallow)
        twin._steerings = list(self._steerings)
        twin._core = self._core.copy()
        return twin

    __copy__ = copy

    def __deepcopy__(self, memo) -> World:
        return self.copy()

    def __reduce__(self):
        """A world pickles whole, as :meth:`copy` copies it (its steerings pickled with it):
        loaded, and stepped alike, it gives the same results to the bit. To save a run and
        go on with it later, or to send a world to another process. While another thread
        steps it, pickling raises RuntimeError (busy), as :meth:`copy` does (and a step
        another thread starts while the pickle reads the world raises it too). A value
        written into a moving obstacle's view that a step would refuse (NaN, beyond 1e9)
        raises ValueError naming the column."""
        circle_layers, segment_layers, polygon_layers = self._core.obstacle_layers
        obstacles = (self.circles, circle_layers, self.segments, segment_layers, self.polygons, polygon_layers,
                     self.bounds)
        attributes = {k: v for k, v in self.__dict__.items() if k not in ("_core", "_steerings")}
        moving = self._core.moving_state() if self._core.moving_count else None
        return loading.loaded_world, (type(self), list(self._steerings), obstacles, self._core.saved_state(),
                                      self.threads, attributes, self.goals, moving, self.contact)

    # --- steering -----------------------------------------------------------------
    @property
    def steerings(self) -> tuple:
        """The world's steerings; ``steering_index`` says which one each agent uses."""
        return tuple(self._steerings)

    def set_steering(self, steering, index: int = 0) -> None:
        """Replace steering ``index`` for all its agents. A pipeline of another slot count
        changes the world's resolution: the maps are resampled (interest linearly, danger
        by max) so that smoothing carries on. All pipelines of a world share one slot count.

        Parameters
        ----------
        steering : Pipeline or classic.Steering
            The new steering.
        index : int, default 0
            Which of :attr:`steerings` it replaces.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]])
        >>> world.set_steering(cs.Pipeline([cs.Seek(), cs.Avoid()], slots=32))
        >>> world.slots
        32
        """
        index = check.count("index", index, maximum=len(self._steerings) - 1)
        self._core.set_steering(index, self._check_steering(steering)._core)
        self._steerings[index] = steering

    @property
    def threads(self) -> int:
        """Threads used by the step (1 to 1024); results are bit-identical for any count."""
        return self._core.threads

    @threads.setter
    def threads(self, value: int) -> None:
        self._core.threads = check.count("threads", value, minimum=1, maximum=MAX_THREADS)

    @property
    def keep_maps(self) -> bool:
        """Whether each step keeps the agents' interest, danger and final maps (default
        True). Off, a step skips writing three ``(n, slots)`` float32 arrays (at 100,000
        agents and 16 slots, 19 MB of memory traffic per step); decisions and motion stay
        the same to the bit, but :attr:`interest`, :attr:`danger` and :attr:`final` raise
        and :meth:`run` cannot record them. Turned back on, the maps are written again from
        the next step."""
        return self._core.keep_maps

    @keep_maps.setter
    def keep_maps(self, value: bool) -> None:
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"keep_maps: expected True or False, got {value!r}")
        self._core.keep_maps = bool(value)

    @property
    def goals(self) -> Goals:
        """How the agents reach their goals (:mod:`contextsteer.goals`): when one has
        arrived, what it does there, when it waits and how face-offs are settled. Set a
        :class:`~contextsteer.Goals` (``world.goals = world.goals.replace(patience=2.0)``);
        it takes effect at the next step."""
        return Goals._of_core(self._core.goals)

    @goals.setter
    def goals(self, value: Goals) -> None:
        if not isinstance(value, Goals):
            raise TypeError(f"goals: expected a contextsteer.Goals, got {type(value).__name__}")
        self._core.goals = value._core

    @property
    def contact(self) -> Contact | None:
        """The contact stage's settings (:mod:`contextsteer.contact`), or None while the
        world has no contact stage (the default). Set a :class:`~contextsteer.Contact` to
        turn it on, None to turn it off; it takes effect at the next step."""
        params = self._core.contact
        return None if params is None else Contact._of_core(params)

    @contact.setter
    def contact(self, value: Contact | None) -> None:
        if value is not None and not isinstance(value, Contact):
            raise TypeError(f"contact: expected a contextsteer.Contact or None, got {type(value).__name__}")
        self._core.contact = None if value is None else value._core

    @property
    def contact_correction(self) -> dict:
        """How far the last step's contact stage moved the agents: ``total`` (metres, summed
        over agents), ``max`` (metres, the most any one was moved), ``agents`` (how many
        were moved) and ``passes`` (agent-agent passes run); all 0 without contact."""
        return self._core.contact_correction

    @property
    def events(self) -> dict[str, np.ndarray]:
        """What happened in the last step, in order: a dict of equal-length arrays ``step``
        (the step count once taken), ``time`` (s), ``agent`` (id), ``kind``, ``other`` (the
        other agent's id, -1 when none) and ``depth`` (metres, 0 when none). Kinds:
        ``"agent_contact"`` and ``"obstacle_contact"`` (with contact on, see
        :mod:`contextsteer.contact`), ``"arrived"``, ``"left"`` (removed at arrival, see
        :class:`~contextsteer.Goals`), ``"gave_way"``; then ``"removed"`` for the agents
        :meth:`remove_agents` removed since the step (stamped with the world's step count
        and time when removed; a recording does not hold these)."""
        return _events(self._core.events)

    # --- stepping: running.py -----------------------------------------------------------
    step = running.step
    run = running.run
    _record_start = running._record_start
    _empty_recording = running._empty_recording
    _run_recorded = running._run_recorded
    _record_names = staticmethod(running._record_names)

    # --- explaining and neighbors: explaining.py ------------------------------------------
    explain = explaining.explain
    neighbors = explaining.neighbors

    # --- obstacles: obstacles.py -------------------------------------------------------
    add_circles = obstacles.add_circles
    add_segments = obstacles.add_segments
    add_polygon = obstacles.add_polygon
    clear_obstacles = obstacles.clear_obstacles
    navigation_field = obstacles.navigation_field

    @property
    def bounds(self):
        """``(xmin, ymin, xmax, ymax)`` metres, or None. Agents belong inside; the sides are
        walls on every layer. Assign None to remove them."""
        return self._core.bounds

    @bounds.setter
    def bounds(self, value) -> None:
        if value is None:
            self._core.clear_bounds()
        else:
            self._core.set_bounds(check.shaped("bounds", value, (4,)))

    @property
    def circles(self) -> NDArray[np.float32]:
        """``(m, 3)`` circle obstacles, x, y, radius in metres (a copy)."""
        return self._core.circles

    @property
    def segments(self) -> NDArray[np.float32]:
        """``(m, 4)`` walls added with add_segments, metres (a copy)."""
        return self._core.segments

    @property
    def polygons(self) -> list[NDArray[np.float32]]:
        """List of ``(k, 2)`` polygon vertex arrays, metres (copies)."""
        return self._core.polygons

    # --- counters -------------------------------------------------------------------
    @property
    def agent_count(self) -> int:
        """Number of agents."""
        return self._core.agent_count

    @property
    def slots(self) -> int:
        """Slot count of the maps (0 while no context pipeline is in use)."""
        return self._core.slots

    @property
    def steps_taken(self) -> int:
        """Steps taken since the world was made or reset."""
        return self._core.steps_taken

    @property
    def time(self) -> float:
        """Simulated seconds since the world was made or reset."""
        return self._core.time

    @property
    def stage_times(self) -> dict[str, float]:
        """Wall seconds of each stage of the last step: check, index, evaluate, integrate,
        contact, measure, progress (a dict)."""
        return self._core.stage_times

    # --- per-agent arrays ----------------------------------------------------------------
    # NumPy views, one per column of the core's table (agent_columns.py), made below the
    # class with their docs; declared here for type checkers (a test keeps the two alike).
    positions: NDArray[np.float32]
    velocities: NDArray[np.float32]
    heading: NDArray[np.float32]
    angular_velocity: NDArray[np.float32]
    radius: NDArray[np.float32]
    max_speed: NDArray[np.float32]
    max_acceleration: NDArray[np.float32]
    max_turn_rate: NDArray[np.float32]
    mass: NDArray[np.float32]
    max_force: NDArray[np.float32]
    targets: NDArray[np.float32]
    target_ids: NDArray[np.int64]
    layers: NDArray[np.uint32]
    sense_masks: NDArray[np.uint32]
    steering_index: NDArray[np.int32]
    ids: NDArray[np.int64]
    interest: NDArray[np.float32]
    danger: NDArray[np.float32]
    final: NDArray[np.float32]
    direction: NDArray[np.float32]
    strength: NDArray[np.float32]
    slot: NDArray[np.float32]
    blocked: NDArray[np.bool_]
    penetration: NDArray[np.float32]
    overlap: NDArray[np.float32]
    state: NDArray[np.int32]
    waiting_time: NDArray[np.float32]
    arrival_time: NDArray[np.float32]
    progress_anchor: NDArray[np.float32]
    give_way: NDArray[np.float32]
    give_way_left: NDArray[np.float32]
    groups: NDArray[np.int32]

    def __len__(self) -> int:
        return self._core.agent_count

    def __repr__(self) -> str:
        return (f"World(agents={len(self)}, steerings={len(self._steerings)}, threads={self.threads}, "
                f"time={float(self.time):g} s)")


def _column_view(column) -> property:
    """The property of a per-agent column: a NumPy view of the world's memory."""
    shape = "(n,)" if column.width == 1 else f"(n, {column.width})"
    dtype = "" if column.dtype == np.float32 else f"{column.dtype} "
    access = "writable" if column.writable else "read-only"
    doc = f"``{shape}`` {dtype}{column.doc}, {access} view."
    return (_map_view if column.width == "slots" else _view)(column.name, doc)


# The per-agent arrays, one per column of the core's table (agent_columns.py): writable
# state and parameters, read-only identity, last step's maps, decisions and measurements.
for _column in AGENT_COLUMNS:
    setattr(World, _column.name, _column_view(_column))
del _column
