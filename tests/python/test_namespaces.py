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


@pytest.mark.parametrize("name", MODULES)
def test_all_lists_what_the_module_defines(name):
    module = importlib.import_module(name)
    defined = {attribute for attribute, value in vars(module).items()
               if not attribute.startswith("_") and (inspect.isfunction(value) or inspect.isclass(value))
               and value.__module__ == name}
    aliases = {attribute for attribute in module.__all__ if isinstance(getattr(module, attribute), types.GenericAlias)}
    assert set(module.__all__) - aliases == defined  # aliases: sweeps.Run, the type of one run's parameters


def test_the_package_exports_what_its_all_names():
    missing = [attribute for attribute in cs.__all__ if not hasattr(cs, attribute)]
    assert not missing
    star = {}
    exec("from contextsteer import *", star)
    assert set(cs.__all__) <= set(star)
