"""A world of agents steered by context pipelines or classic steering: :class:`World`
(``world.py``), its members by concern (``agents.py``, ``running.py``, ``explaining.py``,
``obstacles.py``)."""

from .obstacles import ALL_LAYERS
from .running import progress_bar
from .world import MAX_THREADS, World
from .world import _loaded_world as _loaded_world  # what pickles of a world call to load it

__all__ = ["ALL_LAYERS", "MAX_THREADS", "World", "progress_bar"]
