"""Context behaviours: each fills interest or danger maps for every agent of a batch,
one module per family (toward and away from targets, avoidance, the agent's own motion,
flocking, following a way, behaviours written in Python) on a shared base.

A behaviour knows nothing of the others; a :class:`~contextsteer.Pipeline` combines
them. Distances are in metres. Where a behaviour shapes by distance, ``falloff`` names
the curve over ``x = distance / max_distance`` (0 when ``max_distance`` is infinite):
``"step"`` 1; ``"linear"`` ``1 - x``; ``"smoothstep"`` ``1 - (3x^2 - 2x^3)``;
``"inverse_square"`` ``1 / (1 + 16 x^2)``; ``"exponential"`` ``exp(-4x)``.
"""

from ..._internal.fields import RAISES as RAISES  # the Raises section of every behaviour's docstring
from .avoidance import Anticipate, Avoid, Rays, TimeToCollision
from .base import Behavior
from .base import record_change as record_change  # used by the pipeline too
from .flocking import Alignment, Cohesion, Separation
from .following import FollowField, FollowPath
from .motion import Forward, Wander
from .python import Batch, Neighbors, PythonBehavior
from .python import Fill as Fill  # the type of a Python behaviour's fill
from .targets import Arrive, Chase, Evade, Flee, Leave, Pursue, Seek

# What the package exports from here: adding a behaviour adds its name to this list.
__all__ = [
    "Alignment",
    "Anticipate",
    "Arrive",
    "Avoid",
    "Batch",
    "Behavior",
    "Chase",
    "Cohesion",
    "Evade",
    "Flee",
    "FollowField",
    "FollowPath",
    "Forward",
    "Leave",
    "Neighbors",
    "Pursue",
    "PythonBehavior",
    "Rays",
    "Seek",
    "Separation",
    "TimeToCollision",
    "Wander",
]
