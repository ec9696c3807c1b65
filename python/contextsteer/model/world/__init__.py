"""A world of agents steered by context pipelines or classic steering: :class:`World`
(``world.py``), its members by concern (``agents.py``, ``running.py``, ``explaining.py``,
``obstacles.py``) and how a pickle of it loads (``loading.py``)."""

from .loading import loaded_world as _loaded_world  # noqa: F401 -- what older pickles of a world call
from .obstacles import ALL_LAYERS
from .running import progress_bar
from .world import MAX_THREADS, World

__all__ = ["ALL_LAYERS", "MAX_THREADS", "World", "progress_bar"]
