"""The examples in the package's docstrings run and print what they show (doctest).

The modules are those of the installed package; a module without examples adds none."""

import doctest
import importlib
import pkgutil

import numpy as np
import pytest

import contextsteer

MODULES = sorted(info.name for info in pkgutil.walk_packages(contextsteer.__path__, "contextsteer.")
                 if info.name != "contextsteer.__main__")
# Modules whose public docstrings are in numpydoc form, each with a runnable example.
WITH_EXAMPLES = ["contextsteer.model.context_map"]
# The modules of public names (tests/python/package/test_docstrings.py asks each for an example):
# their examples are found and run here.
OF_PUBLIC_NAMES = ["behaviors", "classic", "contact", "explain", "goals", "live", "metrics", "moving",
                   "moving_scenes", "navigation", "pipeline", "plotting", "racing", "recording", "scenarios",
                   "sweeps", "tuning", "widgets", "world"]


class _Finder(doctest.DocTestFinder):
    """doctest's finder, which takes a public class (whose ``__module__`` is its public path,
    ``contextsteer``) as defined where its ``_source_module`` says."""

    def _from_module(self, module, object):
        if getattr(object, "_source_module", None) == getattr(module, "__name__", None):
            return True
        if isinstance(object, type) and hasattr(object, "_source_module"):
            return False  # imported from elsewhere
        return super()._from_module(module, object)


def source_module(obj) -> str | None:
    """The module ``obj`` is defined in (a public class names its public path instead)."""
    return getattr(obj, "_source_module", getattr(obj, "__module__", None))


def examples_of(name: str) -> list[doctest.DocTest]:
    """The examples of the module ``name`` (those of what it defines, not what it imports)."""
    return _Finder(exclude_empty=True).find(importlib.import_module(name), name, globs={})


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_each_module_run(name):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    examples = 0
    with np.printoptions(legacy=False):
        for test in examples_of(name):
            runner.run(test)
            examples += len(test.examples)
    failed, _ = runner.summarize(verbose=False)
    assert failed == 0, f"{failed} example(s) of {name} failed (the report is above)"
    if name in WITH_EXAMPLES:
        assert examples >= 5, f"{name} has {examples} examples"


@pytest.mark.parametrize("name", OF_PUBLIC_NAMES)
def test_each_module_of_public_names_has_examples(name):
    """Counted over the modules that define what the public path holds: the module it names
    and, where it gathers names from modules beside it (a package, the scenes'
    namespace), those."""
    module = importlib.import_module(f"contextsteer.{name}")
    public = [getattr(module, n) for n in getattr(module, "__all__", dir(module)) if not n.startswith("_")]
    gathered = {module.__name__} | {source_module(obj) for obj in public} - {None}
    examples = sum(len(test.examples) for m in sorted(gathered) if m in MODULES for test in examples_of(m))
    assert examples >= 5, f"contextsteer.{name} ({', '.join(sorted(gathered))}) has {examples} examples"


def test_each_public_name_of_the_converted_modules_has_an_example():
    for name in WITH_EXAMPLES:
        module = importlib.import_module(name)
        public = [getattr(module, n) for n in dir(module) if not n.startswith("_")
                  and source_module(getattr(module, n)) == name]
        lacking = [obj.__name__ for obj in public if ">>>" not in (obj.__doc__ or "")]
        assert not lacking, f"{name}: no example in {lacking}"
