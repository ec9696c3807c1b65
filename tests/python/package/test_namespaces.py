"""Each module of the package lists in ``__all__`` exactly what it defines for users, so that
``from contextsteer.metrics import *`` and the documentation tools see the public names and
not what the module imported (``dataclass``, ``field``, ``Recording``, ...)."""

import importlib
import inspect
import types

import pytest

import contextsteer as cs

MODULES = ["contextsteer.classic", "contextsteer.metrics", "contextsteer.moving", "contextsteer.moving_scenes",
           "contextsteer.plotting", "contextsteer.scenarios",
           "contextsteer.sweeps", "contextsteer.tuning", "contextsteer.widgets"]


# Names a module lists that live in a module beside it: the scenes' namespace gathers the
# builders of scenes/; plotting shows the maps the model draws (for its explanations
# too); the moving scenes' bodies are what a Scenario holds.
REEXPORTED = {
    "contextsteer.plotting": {"plot_context_maps"},
    "contextsteer.moving_scenes": {"MovingBody", "add_bodies"},
    "contextsteer.scenarios": {"Scenario", "bottleneck", "circle", "corridor", "crossing", "four_way", "swap",
                               "two_way_door", "u_trap", "zigzag"},
}


@pytest.mark.parametrize("name", MODULES)
def test_all_lists_what_the_module_defines(name):
    module = importlib.import_module(name)
    home = module.__name__  # the module where the path's names live now, a package of several
    defined = {attribute for attribute, value in vars(module).items()
               if not attribute.startswith("_") and (inspect.isfunction(value) or inspect.isclass(value))
               and (value.__module__ == home or value.__module__.startswith(home + "."))}
    aliases = {attribute for attribute in module.__all__ if isinstance(getattr(module, attribute), types.GenericAlias)}
    # aliases: sweeps.Run, the type of one run's parameters
    assert set(module.__all__) - aliases == defined | REEXPORTED.get(name, set())


def test_the_package_exports_what_its_all_names():
    missing = [attribute for attribute in cs.__all__ if not hasattr(cs, attribute)]
    assert not missing
    star = {}
    exec("from contextsteer import *", star)
    assert set(cs.__all__) <= set(star)
