"""Classic steering, to compare with context steering on one scene.

Each behaviour returns a linear acceleration (m/s^2) and an angular one (rad/s^2) for
an agent at ``p`` with velocity ``v``, maximum speed ``S`` and maximum acceleration ``A``,
toward a target ``t`` moving at ``w``. The target is ``target`` when given, else the
agent's own target: its target agent (``World(target_ids=...)``) or its target point
(``World(targets=...)``). An agent with no acceleration limit seeks and flees at 1 m/s^2.

Five behaviours see the scene: :func:`ObstacleAvoidance` (circles and polygons, by time
to collision), :func:`WallAvoidance` (feelers against walls, polygon edges and bounds),
:func:`Separation` (from the agents around), :func:`FollowPath` and :func:`FollowField`.
Blended with weights, or ranked by priority, they keep a classic agent off the walls.

``Steering`` combines behaviours by ``"blend"`` (``sum_k weight_k * output_k``) or by
``"priority"`` (the behaviours of each priority level, lowest first, are blended; the
first level whose output exceeds ``epsilon`` wins). The world then truncates the linear
part to ``A``, multiplies by the mass, truncates the force to the maximum force, divides
by the mass, integrates and truncates the velocity to ``S``.

One module per family of behaviours (seeking, facing, avoidance, following), as
:mod:`contextsteer.behaviors` holds the context ones, and the steering that combines them.
"""

from .avoidance import ObstacleAvoidance, Separation, WallAvoidance
from .facing import Face, LookWhereYouGo
from .following import FollowField, FollowPath
from .seeking import Arrive, Evade, Flee, Leave, Pursue, Seek
from .steering import ClassicBehavior, Steering

__all__ = ["Arrive", "ClassicBehavior", "Evade", "Face", "Flee", "FollowField", "FollowPath", "Leave",
           "LookWhereYouGo", "ObstacleAvoidance", "Pursue", "Seek", "Separation", "Steering", "WallAvoidance"]
