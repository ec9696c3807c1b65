"""Every public name imports from each module path it had when the package was one flat
folder: ``tests/python/data/public_names.json`` lists them (each module's ``__all__`` and
the public names it defined, and ``contextsteer.__all__``), written from that package.
Pickles that package made (``pickles_before_layers.json``: the pickle, the repr and, for
the world, its positions 20 steps on) load, print and step as they did."""

import base64
import importlib
import json
import pickle
from pathlib import Path

import numpy as np
import pytest

import contextsteer as cs

DATA = Path(__file__).resolve().parents[1] / "data"
LISTED = json.loads((DATA / "public_names.json").read_text(encoding="utf-8"))
NAMES: dict[str, list[str]] = LISTED["names"]  # module path -> its public names
SAME: dict[str, list[str]] = LISTED["same_object"]  # a name -> the other paths of the same object
PICKLES = json.loads((DATA / "pickles_before_layers.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", sorted(NAMES))
def test_each_public_name_imports_from_its_module_path(path):
    module = importlib.import_module(path)
    missing = [name for name in NAMES[path] if not hasattr(module, name)]
    assert not missing, f"{path} lacks {missing}"
    star: dict = {}
    exec(f"from {path} import *", star)
    assert set(getattr(module, "__all__", ())) <= set(star)


def named(qualified: str):
    path, _, name = qualified.rpartition(".")
    return getattr(importlib.import_module(path), name)


@pytest.mark.parametrize("first", sorted(SAME))
def test_a_name_under_several_paths_is_one_object(first):
    different = [other for other in SAME[first] if named(other) is not named(first)]
    assert not different, f"{first} is not {different}"


@pytest.mark.parametrize("path", sorted(set(NAMES) - {"contextsteer"}))
def test_a_module_path_is_the_module_itself_and_an_attribute_of_the_package(path):
    module = importlib.import_module(path)
    assert importlib.import_module(module.__name__) is module
    assert getattr(cs, path.rpartition(".")[2]) is module


@pytest.mark.parametrize("name", sorted(PICKLES))
def test_a_pickle_of_the_flat_package_loads_and_prints_as_it_did(name):
    saved = PICKLES[name]
    loaded = pickle.loads(base64.b64decode(saved["pickle"]))
    assert f"{type(loaded).__module__}.{type(loaded).__qualname__}" == saved["type"] or \
        getattr(importlib.import_module(saved["type"].rpartition(".")[0]), type(loaded).__qualname__) is type(loaded)
    assert repr(loaded) == saved["repr"]


def test_a_world_pickled_by_the_flat_package_steps_on_as_it_did():
    saved = PICKLES["world"]
    world = pickle.loads(base64.b64decode(saved["pickle"]))
    world.run(20, 0.05)
    np.testing.assert_array_equal(world.positions, np.array(saved["positions_after_20_steps"], np.float32))
