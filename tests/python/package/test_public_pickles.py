"""Public classes pickle under their public path (``contextsteer.Avoid``), which stays as
modules move below it; pickles naming the modules they live in still load."""

import io
import pickle

import numpy as np
import pytest

import contextsteer as cs

PUBLIC_CLASSES = sorted(name for name in cs.__all__ if isinstance(getattr(cs, name), type))


def globals_named(data: bytes) -> set[str]:
    """The ``module.name`` of every class or function a pickle names, as loading it looks them up."""
    names: set[str] = set()

    class Recording(pickle.Unpickler):
        def find_class(self, module, name):
            names.add(f"{module}.{name}")
            return super().find_class(module, name)

    Recording(io.BytesIO(data)).load()
    return names


@pytest.mark.parametrize("name", PUBLIC_CLASSES)
def test_a_public_class_names_its_public_path(name):
    cls = getattr(cs, name)
    assert cls.__module__ == "contextsteer" and getattr(cs, cls.__qualname__) is cls
    assert cls._source_module.startswith("contextsteer.") and cls._source_module != "contextsteer"
    assert pickle.loads(pickle.dumps(cls)) is cls


def test_pickles_of_behaviours_worlds_and_scenes_name_the_public_paths():
    avoid = cs.Avoid(max_distance=2.0)
    assert "contextsteer.Avoid" in globals_named(pickle.dumps(avoid))
    assert repr(pickle.loads(pickle.dumps(avoid))) == repr(avoid)
    scene = cs.scenarios.corridor(3)
    data = pickle.dumps(scene)
    assert "contextsteer.Scenario" in globals_named(data) and pickle.loads(data) == scene
    world = scene.world(cs.Pipeline([cs.Seek(), cs.Avoid(agents=True)], slots=8))
    data = pickle.dumps(world)
    named = globals_named(data)
    assert {"contextsteer.Pipeline", "contextsteer.Avoid", "contextsteer.Chase"} <= named, named
    assert not [n for n in named if n.startswith(("contextsteer.model.behaviors", "contextsteer.model.pipeline"))]
    again = pickle.loads(data)
    np.testing.assert_array_equal(again.run(5, 0.05).positions, world.run(5, 0.05).positions)


def test_a_pickle_naming_the_module_a_class_lives_in_still_loads(monkeypatch):
    # As the package wrote them before: the class by the module it is defined in.
    monkeypatch.setattr(cs.Avoid, "__module__", cs.Avoid._source_module)
    old = pickle.dumps(cs.Avoid(max_distance=2.0))
    monkeypatch.undo()
    assert f"{cs.Avoid._source_module}.Avoid" in globals_named(old)
    loaded = pickle.loads(old)
    assert type(loaded) is cs.Avoid and repr(loaded) == "Avoid(max_distance=2)"
