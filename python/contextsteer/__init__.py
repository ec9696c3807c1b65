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

from importlib import metadata as _metadata

from . import behaviors as _behaviors
from . import classic, metrics, moving_scenes, scenarios, widgets
from .behaviors import *  # noqa: F403 -- every behaviour, as behaviors.__all__ lists them
from .contact import Contact
from .context_map import Decision, blur, combine, resample, resolve, slot_directions, smooth
from .explain import ClassicExplanation, Explanation
from .goals import AgentState, Goals
from .navigation import NavigationField
from .pipeline import Evaluation, Pipeline
from .racing import LaneMaps, RacingLanes, Track
from .recording import Recording
from .scenario_file import RunSettings, ScenarioFileError
from .scenarios import Scenario
from .sweeps import sweep
from .tuning import tune
from .world import ALL_LAYERS, World

try:  # the one version, CMakeLists.txt's, as the installed package's metadata records it
    __version__: str = _metadata.version("contextsteer")
except _metadata.PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    *_behaviors.__all__,
    "ALL_LAYERS",
    "AgentState",
    "Goals",
    "Contact",
    "ClassicExplanation",
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
