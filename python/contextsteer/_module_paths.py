"""The package's module paths from before it was cut into layers, kept working.

``contextsteer.plotting``, ``contextsteer.world``, ... are the public paths users import
(and that pickles record); the modules live in the layer subpackages. A finder on
``sys.meta_path`` answers an import of an old path with the module itself, imported on
demand, so that ``import contextsteer.plotting`` gives ``contextsteer.analysis.plotting``
(one module object under both names) and nothing heavy is imported before it is asked for.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys

# old path (under contextsteer.) -> the module's home (under contextsteer.)
MOVED = {

    "agent_columns": "model.agent_columns",
    "behaviors": "model.behaviors",
    "classic": "model.classic",
    "contact": "model.contact",
    "context_map": "model.context_map",
    "explain": "model.explain",
    "goals": "model.goals",
    "moving": "model.moving",
    "navigation": "model.navigation",
    "pipeline": "model.pipeline",
    "racing": "model.racing",
    "recording": "model.recording",
    "reference": "model.reference",
    "world": "model.world",
    "metrics": "analysis.metrics",
    "plotting": "analysis.plotting",
    "video": "analysis.video",
    "moving_scenes": "scenes.moving_scenes",
    "scenario_file": "scenes.scenario_file",
    "scenarios": "scenes.scenarios",
    "cli": "tools.cli",
    "demo": "tools.demo",
    "live": "tools.live",
    "sweeps": "tools.sweeps",
    "tuning": "tools.tuning",
    "widgets": "tools.widgets",
}


def home(package: str, name: str) -> str | None:
    """The module an old path ``package.name`` (or one below it) names, or None."""
    if not name.startswith(package + "."):
        return None
    old = name[len(package) + 1:]
    for prefix, new in MOVED.items():
        if old == prefix or old.startswith(prefix + "."):
            return f"{package}.{new}{old[len(prefix):]}"
    return None


class _Alias(importlib.abc.Loader):
    """Loads an old path as the module of its new one (imported if it was not yet)."""

    def __init__(self, target: str):
        self.target = target

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        self.spec = module.__spec__  # the import machinery sets the old path's spec on the module
        return module

    def exec_module(self, module) -> None:
        module.__spec__ = self.spec  # it ran when its own path was imported: its own spec back

    def get_code(self, fullname: str):
        """What ``python -m`` of an old path runs: the module's own path, as ``__main__``."""
        return compile(f"import runpy\nrunpy.run_module({self.target!r}, run_name='__main__', alter_sys=True)\n",
                       f"<{fullname}>", "exec")


class OldPaths(importlib.abc.MetaPathFinder):
    """Finds the old module paths of ``package``: each is the module of its new path."""

    def __init__(self, package: str):
        self.package = package

    def find_spec(self, fullname, path=None, target=None):
        new = home(self.package, fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(new))


def install(package: str) -> None:
    """Puts the finder of ``package``'s old paths on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, OldPaths) and f.package == package for f in sys.meta_path):
        sys.meta_path.insert(0, OldPaths(package))
