"""A world of agents steered by context pipelines or classic steering.

This module is long because World is the library's main object: its docstrings carry
the units, shapes and guarantees of every call a user makes on it.
"""

from __future__ import annotations

import inspect
import math
import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import _core
from . import _validation as check
from . import recording as rec
from .agent_columns import AGENT_COLUMNS, SPAWNED
from .classic import Steering as ClassicSteering
from .contact import Contact
from .goals import Goals
from .moving import MovingObstacles
from .pipeline import Pipeline
from .recording import events_of_core as _events

ALL_LAYERS = 0xFFFFFFFF
MAX_THREADS = 1024  # the core's limit (World::kMaxThreads)


def _layer_mask(name: str, value) -> int:
    """A bit mask of layers: a whole number from 0 to ALL_LAYERS."""
    return check.count(name, value, minimum=0, maximum=ALL_LAYERS)


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


def _runs(layers: np.ndarray):
    """``(begin, end, layer)`` for each run of equal values in ``layers``."""
    starts = [0, *(np.flatnonzero(np.diff(layers)) + 1).tolist(), len(layers)]
    return [(b, e, int(layers[b])) for b, e in zip(starts[:-1], starts[1:]) if e > b]


def _loaded_world(cls, steerings, obstacles, state, threads, attributes, goals=None, moving=None, contact=None):
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
        unknown = sorted(set(agent_parameters) - _AGENT_PARAMETERS)
        if unknown:
            raise TypeError(f"World() got unexpected keyword arguments: {', '.join(unknown)} (agent parameters are "
                            f"{', '.join(sorted(_AGENT_PARAMETERS))})")
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

    # --- agents -------------------------------------------------------------------
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
        columns = {column.name: _spawn_values(column, given[column.name], m) for column in SPAWNED[1:]}
        first = self._core.add_agents({"positions": pos, **columns}, index)
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
        another thread starts while the pickle reads the world raises it too)."""
        circle_layers, segment_layers, polygon_layers = self._core.obstacle_layers
        obstacles = (self.circles, circle_layers, self.segments, segment_layers, self.polygons, polygon_layers,
                     self.bounds)
        attributes = {k: v for k, v in self.__dict__.items() if k not in ("_core", "_steerings")}
        moving = self._core.moving_state() if self._core.moving_count else None
        return _loaded_world, (type(self), list(self._steerings), obstacles, self._core.saved_state(), self.threads,
                               attributes, self.goals, moving, self.contact)

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

    # --- stepping -----------------------------------------------------------------
    def step(self, dt: float = 1 / 60, *, substeps: int = 1) -> None:
        """Advance ``dt`` seconds (1e-6 to 1e9), integrating motion in ``substeps`` parts of at
        least 1e-6 s; the GIL is released meanwhile.

        A value the state must not hold (NaN, beyond the bound) raises ValueError naming
        the array and the agent (IndexError for an unknown target id), before anything
        moves: the world is then as before the call. So does a pile: more than 16,384
        agents in one cell of the neighbour grid (rows as tall as the longest neighbour
        reach, cells half as wide), where every neighbour query would read them all and
        the step would take time in the square of their number; no crowd of agents that
        do not overlap comes near it. Values written *during* the step are
        checked too, before the stages that read them:

        - by a :class:`PythonBehavior` (or another thread) while the behaviours prepare
          their maps: the error comes before anything moves; the world is as before the
          step but for the values written, and ``steps_taken`` and ``time`` are unchanged.
        - by another thread while the agents move: positions, velocities, headings and
          angular velocities must be finite after the move (and within 1e20, beyond any
          move of a valid state). The step then counts as taken (the agents moved,
          ``steps_taken`` and ``time`` advanced), but ``penetration`` and ``overlap`` still
          hold the previous step's values.

        In both cases the next step refuses the value again until it is written over.

        Parameters
        ----------
        dt : float, default 1/60
            Seconds to advance, 1e-6 to 1e9.
        substeps : int, default 1
            Equal parts of ``dt`` the motion is integrated in.

        Raises
        ------
        ValueError
            A bad ``dt`` or ``substeps``, or a state value the world must not hold.
        IndexError
            An unknown target id.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]], targets=[[5.0, 0.0]], max_speed=2.0)
        >>> for _ in range(60):
        ...     world.step(1 / 60)
        >>> round(world.time, 6), world.steps_taken
        (1.0, 60)
        """
        if type(dt) is float and type(substeps) is int and substeps == 1 and 1e-6 <= dt <= 1e9:
            self._core.step(dt, 1)  # what the checks below let through, without their cost
        else:
            self._core.step(*check.time_step(dt, substeps))

    def run(self, steps: int, dt: float = 1 / 60, *, substeps: int = 1, record="state", progress: bool = False,
            chunk: int | None = None, include_start: bool = True) -> rec.Recording:
        """Run ``steps`` steps in C++ and return what was recorded.

        An error in a step (a value refused, see :meth:`step`) is raised as it came; the
        steps taken before it are lost with the recording, but stay taken.

        Parameters
        ----------
        steps : int
            Steps to run.
        dt : float, default 1/60
            Seconds per step.
        substeps : int, default 1
            Equal parts of ``dt`` the motion is integrated in.
        record : str, iterable of str or None, default 'state'
            ``"state"`` (positions, velocities, headings), ``"all"``, None (only the
            times), one name or an iterable of names among positions, velocities,
            headings, interest, danger, final, direction, strength, slot, blocked,
            penetration, overlap, state, waiting_time, arrival_time, give_way. A world
            with moving obstacles records their poses too (``moving_positions``,
            ``moving_angles``). The :class:`~contextsteer.Recording` docstring gives the
            memory per step.
        progress : bool, default False
            Show a tqdm progress bar.
        chunk : int, optional
            Steps per call into C++ (default: about 1% of the run). Between chunks the run
            can be interrupted (Ctrl-C, or a KeyboardInterrupt raised by a
            :class:`PythonBehavior`): it then returns the steps that finished, with
            ``complete=False``, instead of losing them. The world and the recording then
            agree: the recording holds every step the world took.
        include_start : bool, default True
            The recording's first row is the state before the first step (its time the
            world's time then, 0 for a new world), followed by one row per step:
            ``steps + 1`` rows. False: only the steps' rows (``steps`` of them, the first at
            the end of the first step), as to continue a recording
            (:meth:`Recording.joined <contextsteer.Recording.joined>`).

        Returns
        -------
        Recording
            The recorded arrays, first axis the step.

        Raises
        ------
        ValueError
            A bad argument, a map asked for while :attr:`keep_maps` is False, or a step's error.
        MemoryError
            A recording larger than the memory available (less what the recordings of
            other runs under way in this process hold), raised before the run starts.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0]], targets=[[5.0, 0.0]])
        >>> recording = world.run(120, record=["positions", "strength"])
        >>> recording                     # the start, then 120 steps
        Recording(steps=121, agents=1, recorded=('positions', 'strength'), complete=True)
        >>> recording.positions.shape, recording.strength.shape, recording.steps_run
        ((121, 1, 2), (121, 1), 120)
        """
        steps = check.count("steps", steps)
        first_row = int(check.flag("include_start", include_start))
        dt, substeps = check.time_step(dt, substeps)
        names = self._record_names(record)
        unkept = [name for name in names if name in rec.MAPS and not self.keep_maps]
        if unkept:
            raise ValueError(f"record: {', '.join(unkept)} cannot be recorded while keep_maps is False "
                             f"(the world does not keep its maps); set world.keep_maps = True first")
        chunk = max(1, steps // 100) if chunk is None else check.count("chunk", chunk, minimum=1)
        progress = check.flag("progress", progress)
        n, slots = self.agent_count, self.slots
        # The steps taken, not a count kept here, say what the recording holds: an
        # interruption reaches Python once a chunk has returned from C++, wherever the
        # loop then stands; each step is recorded as soon as the world takes it.
        start = self.steps_taken
        recording = None
        try:
            # NumPy's empty arrays only reserve memory; a recording larger than the machine
            # would be found out part-way through the run, by the system killing the process.
            with rec.reserving((steps + first_row) * rec.bytes_per_step(names, n, slots, self.moving_count),
                               f"record: {steps} steps of {', '.join(names) or 'the time alone'} for {n} agents",
                               "record fewer arrays (record='state' or None) or fewer steps"):
                recording = self._empty_recording(steps + first_row, names)
                recording.includes_start = bool(first_row)
                if first_row:
                    self._record_start(recording)
                self._run_recorded(recording, start, dt, substeps, chunk, progress, first_row)
        except KeyboardInterrupt:
            if recording is None:
                raise
            taken = self.steps_taken - start
            return recording if taken == steps else recording.truncated(taken + first_row)
        return recording

    def _record_start(self, recording: rec.Recording) -> None:
        """Fills the first row of ``recording`` with the world's state now."""
        recording.time[0] = self.time
        for column in AGENT_COLUMNS:
            if column.record in recording.recorded:
                getattr(recording, column.record)[0] = getattr(self, column.name)
        if recording.moving_positions is not None and recording.moving_angles is not None:
            recording.moving_positions[0] = self.moving_positions
            recording.moving_angles[0] = self.moving_angles

    def _empty_recording(self, steps: int, names: tuple[str, ...]) -> rec.Recording:
        """A recording of ``steps`` steps of ``names``, its arrays allocated, to be filled."""
        n, slots = self.agent_count, self.slots
        arrays: dict[str, Any] = {}  # keyword arguments of Recording: its array fields
        for name in names:
            field_width, dtype = rec.FIELDS[name]
            width = slots if isinstance(field_width, str) else field_width
            shape = (steps, n) if width == 1 else (steps, n, width)
            arrays[name] = np.empty(shape, dtype=dtype)
        if self.moving_count:  # their poses, whatever else is recorded
            arrays.update(moving_positions=np.empty((steps, self.moving_count, 2), dtype=np.float32),
                          moving_angles=np.empty((steps, self.moving_count), dtype=np.float32),
                          moving_kinds=self.moving_kinds, moving_local_shapes=self.moving_local_shapes())
        return rec.Recording(np.empty(steps), self.ids.copy(), recorded=names, **arrays)

    def _run_recorded(self, recording: rec.Recording, start: int, dt: float, substeps: int, chunk: int,
                      progress: bool, first_row: int = 0) -> None:
        """The body of :meth:`run`: fills ``recording`` from row ``first_row`` on from the
        world at step ``start``, ``chunk`` steps per call into C++."""
        steps = recording.steps - first_row
        bar = progress_bar(steps) if progress else None
        try:
            while (done := self.steps_taken - start) < steps:
                k = min(chunk, steps - done)
                rows = slice(first_row + done, first_row + done + k)
                parts = {name: getattr(recording, name)[rows] for name in recording.recorded}
                if recording.moving_positions is not None and recording.moving_angles is not None:
                    parts.update(moving_positions=recording.moving_positions[rows],
                                 moving_angles=recording.moving_angles[rows])
                events = self._core.run(k, dt, substeps, parts, time=recording.time[rows], ids=recording.ids)
                recording.add_events(_events(events))
                if bar is not None:
                    bar.update(k)
        finally:
            if bar is not None:
                bar.close()

    @staticmethod
    def _record_names(record) -> tuple[str, ...]:
        if record is None or record is False:
            return ()
        if record is True or (isinstance(record, str) and record == "state"):
            return rec.STATE
        if isinstance(record, str) and record == "all":
            return tuple(rec.FIELDS)
        if isinstance(record, str) and record in rec.FIELDS:  # one name, as in record="positions"
            return (record,)
        if isinstance(record, str) or not isinstance(record, Iterable):
            raise ValueError(f"record: expected 'state', 'all', None, a name or names among {', '.join(rec.FIELDS)}, "
                             f"got {record!r}")
        names = tuple(record)
        for name in names:
            if not isinstance(name, str) or name not in rec.FIELDS:
                raise ValueError(f"record: expected names among {', '.join(rec.FIELDS)}, got {name!r}")
        return names

    # --- explaining -----------------------------------------------------------------
    def explain(self, agent: int, *, dt: float = 1 / 60):
        """Why agent ``agent`` (an id) steers as it does, evaluated from the current state.

        A context agent gives an :class:`~contextsteer.Explanation` (its pipeline's maps and
        decision); a classic agent a :class:`~contextsteer.ClassicExplanation` (each
        behaviour's output and their combination), computed as a step of ``dt`` seconds
        would compute it (``step``'s default; the maps do not depend on dt).

        Parameters
        ----------
        agent : int
            The agent's id.
        dt : float, default 1/60
            Seconds of the step a classic agent's output is computed for.

        Returns
        -------
        Explanation or ClassicExplanation
            For a context or a classic agent.

        Raises
        ------
        IndexError
            An unknown or removed id.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek(), cs.Avoid()], slots=8), [[0.0, 0.0]],
        ...                  targets=[[5.0, 0.0]], circles=[[2.0, 0.0, 0.5]])
        >>> explanation = world.explain(0)
        >>> [type(behavior).__name__ for behavior, kind, _ in explanation.behaviors]
        ['Chase', 'Avoid']
        >>> explanation.blocked
        False
        """
        from .explain import ClassicExplanation, Explanation

        index = self._row_of("agent", agent)
        dt, _ = check.time_step(dt, 1)
        steering = self._steerings[int(self.steering_index[index])]
        if not isinstance(steering, Pipeline):
            e = self._core.explain_classic(index, dt)
            behaviors = [(b, np.array(linear, np.float32), angular)
                         for b, (linear, angular) in zip(steering.behaviors, e["behaviors"])]
            level = e["level"] if steering.combiner == "priority" else None
            return ClassicExplanation(agent, behaviors, np.array(e["linear"], np.float32), e["angular"], level, dt)
        e = self._core.explain(index)
        behaviors = [(steering.behaviors[b], kind, m) for b, kind, m in e["behaviors"]]
        masked = e["final"] < np.maximum(e["interest"], 0) - 1e-12
        return Explanation(agent, behaviors, e["interest"], e["danger"], e["final"], masked,
                           np.array(e["direction"], np.float32), e["strength"], e["slot"], e["blocked"])

    # --- neighbors -----------------------------------------------------------------
    def neighbors(self, point=None, radius: float = 1.0, *, agent=None, layers=None) -> np.ndarray:
        """Ids of the agents within ``radius`` metres of a point or of an agent, in a fixed order.

        Parameters
        ----------
        point : array_like, shape (2,), optional
            The point, metres (give it or ``agent``).
        radius : float, default 1
            Metres.
        agent : int, optional
            The id of the agent whose neighbors are wanted (itself excluded, and by default
            only the layers it senses).
        layers : int, optional
            Bit mask of the layers to include (all, or the agent's sense mask, by default).

        Returns
        -------
        ndarray of int64
            The neighbors' ids.

        Raises
        ------
        ValueError
            Both or neither of ``point`` and ``agent``, or a bad value.
        IndexError
            An unknown ``agent``.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), [[0.0, 0.0], [0.5, 0.0], [3.0, 0.0]])
        >>> world.neighbors([0.0, 0.0], 1.0)
        array([0, 1])
        >>> world.neighbors(agent=0, radius=1.0)
        array([1])
        """
        radius = check.number("radius", radius, minimum=0.0)
        exclude = -1
        if (point is None) == (agent is None):
            raise ValueError("point, agent: expected exactly one of them")
        if agent is not None:
            exclude = self._row_of("agent", agent)
            point = self.positions[exclude]
            mask = int(self.sense_masks[exclude]) if layers is None else layers
        else:
            if isinstance(point, numbers.Number):  # neighbors(3, 2.0) for the agent with id 3, most likely
                raise ValueError(f"point: expected an array of shape (2,), got the number {point!r} (for the "
                                 f"agents near an agent, pass its id as agent=)")
            mask = ALL_LAYERS if layers is None else layers
        mask = _layer_mask("layers", mask)
        rows = self._core.neighbors(check.shaped("point", point, (2,)), radius, mask, exclude)
        return self.ids[rows]

    # --- obstacles ------------------------------------------------------------------
    def add_circles(self, circles, *, layer: int = 1) -> None:
        """Add circle obstacles.

        Parameters
        ----------
        circles : array_like, shape (m, 3)
            x, y, radius in metres.
        layer : int, default 1
            Bit mask of the layers they are on.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]))
        >>> world.add_circles([[2.0, 0.0, 0.5]], layer=2)
        >>> world.circles
        array([[2. , 0. , 0.5]], dtype=float32)
        """
        self._core.add_circles(check.points("circles", circles, columns=3), _layer_mask("layer", layer))

    def add_segments(self, segments, *, layer: int = 1) -> None:
        """Add walls.

        Parameters
        ----------
        segments : array_like, shape (m, 4)
            Each x0, y0, x1, y1 in metres.
        layer : int, default 1
            Bit mask of the layers they are on.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]))
        >>> world.add_segments([[0.0, 1.0, 5.0, 1.0]])
        >>> world.segments
        array([[0., 1., 5., 1.]], dtype=float32)
        """
        self._core.add_segments(check.segments("segments", segments), _layer_mask("layer", layer))

    def add_polygon(self, vertices, *, layer: int = 1) -> None:
        """Add a polygon, ``(k, 2)`` vertices in order (k >= 3, convex or concave); its edges
        are walls and its inside counts as penetrated.

        Parameters
        ----------
        vertices : array_like, shape (k, 2)
            The vertices in order, metres.
        layer : int, default 1
            Bit mask of the layers it is on.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]))
        >>> world.add_polygon([[0.0, 0.0], [2.0, 0.0], [1.0, 1.5]])
        >>> len(world.polygons)
        1
        """
        self._core.add_polygon(check.polygon("vertices", vertices), _layer_mask("layer", layer))

    def clear_obstacles(self) -> None:
        """Remove every circle, segment, polygon and the bounds.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), circles=[[2.0, 0.0, 0.5]], bounds=(0, 0, 4, 4))
        >>> world.clear_obstacles()
        >>> world.circles.shape, world.bounds
        ((0, 3), None)
        """
        self._core.clear_obstacles()

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

    def navigation_field(self, goals=None, *, goal_areas=None, area=None, cell: float = 0.25,
                         clearance: float = 0.0, keep_right: float = 0.0, layers: int = ALL_LAYERS):
        """A :class:`~contextsteer.NavigationField` round this world's obstacles as they stand now.

        The field is a snapshot: build another after adding or removing obstacles.

        Parameters
        ----------
        goals : array_like, shape (k, 2), optional
            Goal points, metres (give these, ``goal_areas`` or both).
        goal_areas : array_like, shape (k, 4), optional
            Goal rectangles ``(xmin, ymin, xmax, ymax)``, metres.
        area : array_like, shape (4,), optional
            The rectangle the field covers, metres (the world's bounds when not given; one
            of them is needed).
        cell : float, default 0.25
            Cell size, metres.
        clearance : float, default 0
            Metres kept from the obstacles, as for the field.
        keep_right : float, default 0
            Metres, as for the field.
        layers : int, default ALL_LAYERS
            Bit mask: the obstacles on these layers block the field (the bounds always
            do); pass an agent's sense mask to plan for what it senses.

        Returns
        -------
        NavigationField
            The field.

        Raises
        ------
        ValueError
            No ``area`` and no bounds, no goal, or a bad value.

        Examples
        --------
        >>> import contextsteer as cs
        >>> world = cs.World(cs.Pipeline([cs.Seek()]), bounds=(0, 0, 10, 4), circles=[[5.0, 2.0, 0.5]])
        >>> field = world.navigation_field([[9.0, 2.0]], cell=0.25)
        >>> round(field.distance_at([1.0, 2.0]), 1)  # round the circle: more than the 8 m straight
        8.2
        """
        from .navigation import NavigationField

        if area is None:
            area = self.bounds
            if area is None:
                raise ValueError("area: expected (xmin, ymin, xmax, ymax), the rectangle the field covers, "
                                 "as this world has no bounds; got None")
        return NavigationField._of_world(self._core, _layer_mask("layers", layers), goals, goal_areas, area, cell,
                                         clearance, keep_right)

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


def _spawn_values(column, value, m: int):
    """``value`` for the spawned column ``column`` of ``m`` new agents, checked as the
    column says; None (the column's default) stays None."""
    if value is None:
        return None
    if column.width != 1:
        return check.shaped(column.name, value, (m, column.width))
    if column.dtype.kind == "f":
        return check.per_agent(column.name, value, m, minimum=column.minimum, allow_inf=column.allow_inf)
    return check.per_agent_int(column.name, value, m, minimum=column.minimum, maximum=column.maximum)


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


def progress_bar(total: int, unit: str = "step"):
    """A tqdm progress bar over ``total`` units (steps of a run, runs of a sweep)."""
    try:
        from tqdm.auto import tqdm
    except ImportError as exc:  # pragma: no cover - tqdm is a dependency
        raise ImportError("progress=True needs tqdm (pip install tqdm)") from exc
    return tqdm(total=total, unit=unit)


# The keyword arguments World() passes on to add_agents, for the check of unknown ones
# (its steering, positions and velocities are World's own arguments).
_AGENT_PARAMETERS = frozenset(inspect.signature(World.add_agents).parameters) - {
    "self", "steering", "positions", "velocities"}
