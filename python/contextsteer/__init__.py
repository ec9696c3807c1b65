"""contextsteer: context steering for game agents, a C++ core with NumPy bindings.

Context maps have one value per direction ("slot"); behaviours write interest and
danger into them; a pipeline combines, masks and resolves them into a direction and a
strength for every agent at once. Plotting lives in :mod:`contextsteer.plotting`
(imported on demand, so matplotlib is not loaded by ``import contextsteer``).
"""

from .behaviors import Avoid, Behavior, Chase
from .context_map import Decision, blur, combine, resample, resolve, slot_directions, smooth
from .pipeline import Evaluation, Pipeline
from .world import World

__version__ = "0.1.0"

__all__ = [
    "Avoid",
    "Behavior",
    "Chase",
    "Decision",
    "Evaluation",
    "Pipeline",
    "World",
    "blur",
    "combine",
    "resample",
    "resolve",
    "slot_directions",
    "smooth",
]
