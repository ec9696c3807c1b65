"""docs/adding-a-behavior.md, followed as written: its example behaviour's header, source,
binding line and Python class are taken from the page's code blocks, compiled into a small
extension module beside the installed one (sharing its registered types) and used in a
world. If a step of the guide stops working, or its code stops compiling, this fails."""

from __future__ import annotations

import importlib.util
import inspect
import math
import os
import re
import subprocess
import sysconfig
from pathlib import Path

import numpy as np
import pybind11
import pytest

import contextsteer as cs
from contextsteer import behaviors

ROOT = Path(__file__).resolve().parents[3]
GUIDE = ROOT / "docs" / "adding-a-behavior.md"
# The core's sources the example needs besides its own (the checks its parameters run).
CORE_SOURCES = ["src/contextsteer/behaviors/support/parameters.cpp", "src/contextsteer/base/parameter_checks.cpp"]


def guide_blocks() -> dict[str, str]:
    """The guide's code blocks, by the file named in bold above each (the new files by their
    name alone, in src/contextsteer/behaviors/)."""
    pattern = re.compile(r"\*\*`([^`]+)`([^*]*)\*\*[^\n]*\n```\w+\n(.*?)```", re.DOTALL)
    blocks = {path + extra: code for path, extra, code in pattern.findall(GUIDE.read_text())}
    return {("src/contextsteer/behaviors/" + name if "/" not in name else name): code for name, code in blocks.items()}


def test_the_guide_names_each_file_it_changes():
    blocks = guide_blocks()
    assert set(blocks) == {"src/contextsteer/behaviors/drift.hpp", "src/contextsteer/behaviors/drift.cpp",
                           "src/bindings/bind_behaviors.cpp", "python/contextsteer/model/behaviors/motion.py",
                           "python/contextsteer/model/behaviors/__init__.py (`__all__`)"}
    for path in blocks:
        assert (ROOT / path.split(" ")[0]).parent.is_dir(), path
    # The places it adds to exist as it says: the binding function, the exported list.
    assert "void bind_behaviors(py::module_& m)" in (ROOT / "src/bindings/bind_behaviors.cpp").read_text()
    assert set(behaviors.__all__) <= set(cs.__all__)


@pytest.fixture(scope="module")
def guide_core(tmp_path_factory):
    """The guide's C++ (header, source, binding line) built as a module that extends the
    installed contextsteer._core."""
    blocks = guide_blocks()
    build = tmp_path_factory.mktemp("guide")
    overlay = build / "src" / "contextsteer" / "behaviors"
    overlay.mkdir(parents=True)
    (overlay / "drift.hpp").write_text(blocks["src/contextsteer/behaviors/drift.hpp"])
    (overlay / "drift.cpp").write_text(blocks["src/contextsteer/behaviors/drift.cpp"])
    binding = blocks["src/bindings/bind_behaviors.cpp"].splitlines()
    includes = "\n".join(line for line in binding if line.startswith("#include"))
    body = "\n".join(line for line in binding if line.strip() and not line.startswith("#include"))
    (build / "module.cpp").write_text(f"""#include <pybind11/pybind11.h>

#include "bind_parameters.hpp"
{includes}

namespace contextsteer::bindings {{
void bind_guide(py::module_& m) {{
{body}
}}
}}  // namespace contextsteer::bindings

PYBIND11_MODULE(guide_core, m) {{
  pybind11::module_::import("contextsteer._core");  // registers Behavior, the base bound beside
  contextsteer::bindings::bind_guide(m);
}}
""")
    target = build / f"guide_core{sysconfig.get_config_var('EXT_SUFFIX')}"
    command = [os.environ.get("CXX", "c++"), "-std=c++17", "-O1", "-shared", "-fPIC", "-fvisibility=hidden",
               f"-I{build / 'src'}", f"-I{ROOT / 'src'}", f"-I{ROOT / 'src' / 'bindings'}",
               f"-I{pybind11.get_include()}", f"-I{sysconfig.get_paths()['include']}",
               str(build / "module.cpp"), str(overlay / "drift.cpp"), *(str(ROOT / s) for s in CORE_SOURCES),
               "-o", str(target)]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-4000:]
    spec = importlib.util.spec_from_file_location("guide_core", target)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def Drift(guide_core):  # noqa: N802 -- the class the guide defines
    """The guide's Python class, defined as if in contextsteer/model/behaviors/motion.py."""
    namespace = dict(vars(behaviors), _core=guide_core)
    exec(guide_blocks()["python/contextsteer/model/behaviors/motion.py"], namespace)
    exported = eval("[" + guide_blocks()["python/contextsteer/model/behaviors/__init__.py (`__all__`)"] + "]")
    assert exported == ["Drift"]
    return namespace["Drift"]


def interest_of(world: cs.World) -> np.ndarray:
    world.step(0.05)
    return world.interest.copy()


def test_the_guides_behaviour_steers_a_world(Drift):  # noqa: N803
    drift = Drift(angle=math.pi / 2, strength=0.5)
    signature = inspect.signature(Drift)
    assert [(p.name, p.default, p.kind) for p in signature.parameters.values()] == [
        ("angle", 0.0, inspect.Parameter.KEYWORD_ONLY), ("strength", 1.0, inspect.Parameter.KEYWORD_ONLY),
        ("weight", 1.0, inspect.Parameter.KEYWORD_ONLY)]
    assert "angle" in Drift.__doc__ and "radians" in Drift.__doc__
    world = cs.World(cs.Pipeline([drift], slots=8), [[0.0, 0.0], [3.0, 1.0]])
    directions = cs.slot_directions(8)
    expected = 0.5 * np.maximum(0.0, directions[:, 1])  # toward +y
    np.testing.assert_allclose(interest_of(world), np.stack([expected, expected]), atol=1e-6)
    assert np.all(world.velocities[:, 1] > 0) and np.allclose(world.velocities[:, 0], 0, atol=1e-5)

    drift.strength = 0.25  # live: taken at the next step
    np.testing.assert_allclose(interest_of(world), np.stack([expected, expected]) / 2, atol=1e-6)
    with pytest.raises(ValueError, match="strength"):
        drift.strength = -1.0
    with pytest.raises(ValueError, match="strength"):
        Drift(strength=-1.0)
    with pytest.raises(AttributeError, match="streng"):
        drift.streng = 1.0
    assert repr(drift) == "Drift(angle=1.5708, strength=0.25)"


def test_the_guides_behaviour_is_refused_a_change_during_a_step(Drift):  # noqa: N803
    drift = Drift()
    seen = []

    def fill(batch, interest, danger):
        try:
            drift.angle = 1.0
        except RuntimeError as error:
            seen.append(str(error))

    cs.World(cs.Pipeline([drift, cs.PythonBehavior(fill)]), [[0.0, 0.0]]).step(0.05)
    assert len(seen) == 1 and seen[0].startswith("angle: in use by a world's step()")
    assert drift.angle == 0.0
