"""contextsteer: context steering for game agents, a C++ core with NumPy bindings.

Context maps have one value per direction ("slot"); behaviours write interest and
danger into them; a pipeline combines, masks and resolves them into a direction and a
strength for every agent at once. Plotting lives in :mod:`contextsteer.plotting`
(imported on demand, so matplotlib is not loaded by ``import contextsteer``); standard
scenes in :mod:`contextsteer.scenarios` (those with moving obstacles in
:mod:`contextsteer.moving_scenes`), and whole experiments in TOML files
(:meth:`Scenario.load`); measures of a run in :mod:`contextsteer.metrics`;
:func:`sweep` runs a grid of parameters into a pandas DataFrame (pandas, too, is
imported when a sweep runs); :func:`tune` searches them with Optuna.
"""

import importlib as _importlib

from . import _module_paths

# The modules' public paths from before the layers (contextsteer.plotting, ...) import
# the modules where they live now; see _module_paths.
_module_paths.install(__name__)

from .analysis import metrics  # noqa: E402 -- the paths above first
from .model import behaviors as _behaviors  # noqa: E402
from .model import classic  # noqa: E402
from .model.behaviors import *  # noqa: E402, F403 -- every behaviour, as behaviors.__all__ lists them
from .model.contact import Contact  # noqa: E402
from .model.context_map import Decision, blur, combine, resample, resolve, slot_directions, smooth  # noqa: E402
from .model.explain import ClassicExplanation, Explanation  # noqa: E402
from .model.goals import AgentState, Goals  # noqa: E402
from .model.navigation import NavigationField  # noqa: E402
from .model.pipeline import Evaluation, Pipeline  # noqa: E402
from .model.racing import LaneMaps, RacingLanes, Track  # noqa: E402
from .model.recording import Recording  # noqa: E402
from .model.world import ALL_LAYERS, World  # noqa: E402
from .recipes.crowd_steering import CrowdSteering, crowd_steering  # noqa: E402
from .scenes import moving_scenes, scenarios  # noqa: E402
from .scenes.scenario_file import RunSettings, ScenarioFileError  # noqa: E402
from .scenes.scenarios import Scenario  # noqa: E402
from .tools import widgets  # noqa: E402
from .tools.sweeps import sweep  # noqa: E402
from .tools.tuning import tune  # noqa: E402

# A name of the package's own (the star import above brought it too), so that the #:
# comment is its description in the API reference.
#: An alias of :class:`Chase`, the classic name of the same behaviour: ``Seek is Chase``, so
#: ``Seek(...)`` takes :class:`Chase`'s arguments.
Seek = _behaviors.Seek  # type: ignore[misc]

__version__: str  # read on first use, see __getattr__


def _version() -> str:
    """The one version, CMakeLists.txt's, as the installed package's metadata records it
    (read on first use: importlib.metadata takes a while to import)."""
    from importlib import metadata

    try:
        return metadata.version("contextsteer")
    except metadata.PackageNotFoundError:  # imported from a source tree that was never installed
        return "0+unknown"


def __getattr__(name: str):
    """``__version__``, and a module by its public path on first use (``contextsteer.plotting``
    after ``import contextsteer`` alone), as ``import contextsteer.plotting`` would give it."""
    if name == "__version__":
        globals()["__version__"] = version = _version()
        return version
    if name in _module_paths.MOVED:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    *_behaviors.__all__,
    "ALL_LAYERS",
    "AgentState",
    "Goals",
    "Contact",
    "ClassicExplanation",
    "CrowdSteering",
    "Explanation",
    "LaneMaps",
    "NavigationField",
    "RacingLanes",
    "Track",
    "Decision",
    "Evaluation",
    "Pipeline",
    "Recording",
    "RunSettings",
    "Scenario",
    "ScenarioFileError",
    "World",
    "classic",
    "crowd_steering",
    "metrics",
    "moving_scenes",
    "scenarios",
    "sweep",
    "tune",
    "widgets",
    "blur",
    "combine",
    "resample",
    "resolve",
    "slot_directions",
    "smooth",
]


def _public_face() -> None:
    """The public classes named by their public path, ``contextsteer.Avoid`` rather than
    the module they live in: pickles record that path (which stays as modules move), and
    reprs and help show it. ``_source_module`` keeps the module each is defined in (the
    reference's source links follow it, docs/conf.py)."""
    for name in __all__:
        obj = globals()[name]
        if isinstance(obj, type) and obj.__module__.startswith(__name__ + "."):
            setattr(obj, "_source_module", obj.__module__)  # noqa: B010 -- a new attribute of any class
            obj.__module__ = __name__


_public_face()
