"""Scenario files: a whole experiment in one TOML file (docs/scenario-files.md).

``[geometry]`` (bounds, circles, walls, polygons, moving obstacles), ``[run]`` (:class:`RunSettings`),
``[goals]`` and ``[contact]`` (the settings of :class:`~contextsteer.Goals` and of
:class:`~contextsteer.Contact` that differ from their defaults; ``[contact]`` turns the
contact stage on),
``[agents]`` and ``[pipeline]`` shared by every group, and ``[[groups]]``: each group's
starts, targets and goal areas, and its own ``agents`` and ``pipeline`` where they differ.
Read with ``tomllib`` (``tomli`` before Python 3.11), written with ``tomli-w``; every
value read is checked, and every error names the file and the key. Geometry is written
to the bit (float64 reprs), so a file loads to the same world as the scenario saved.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

from .._internal import validation as check
from .._internal.toml_tables import ScenarioFileError as ScenarioFileError  # a ValueError naming file and key
from ..recipes.crowd import CROWD_SCENES, DT, SCENES, recipe
from ..recipes.crowd_steering import crowd_steering
from . import file_format, moving_scenes
from .file_format import (  # noqa: F401
    AGENT_KEYS,
    FORMAT,
    GEOMETRY_KEYS,
    GROUP_KEYS,
    HEADER,
    MOVING_KEYS,
    RUN_KEYS,
    TOP_KEYS,
    RunSettings,
)
from .scenario import Scenario
from .setups import scene_setup


def load(path: str | os.PathLike) -> Scenario:
    """The scenario of the file ``path`` (see :meth:`Scenario.load`)."""
    return file_format.load(path, Scenario)


def loads(text: str, path: str | os.PathLike = "<string>") -> Scenario:
    """The scenario of the TOML ``text``; ``path`` names it in errors."""
    return file_format.loads(text, path, Scenario)


def save(scenario: Scenario, path: str | os.PathLike, header: str = HEADER) -> None:
    """Writes ``scenario`` to ``path`` (see :meth:`Scenario.save`)."""
    Path(path).write_text(dumps(scenario, header), encoding="utf-8")


def dumps(scenario: Scenario, header: str = HEADER) -> str:
    """``scenario`` as the text of a scenario file."""
    if not isinstance(scenario, Scenario):
        raise TypeError(f"scenario: expected a contextsteer.Scenario, got {type(scenario).__name__}")
    return file_format.dumps(scenario, header)


# --- the built-in scenes ------------------------------------------------------------------
SCENES_DIRECTORY = Path(__file__).parent / "builtin"


def builtin_names() -> tuple[str, ...]:
    """The scenes that ship as files: the demo's (:data:`contextsteer.demo.SCENES`) and
    the moving-obstacle scenes (:data:`contextsteer.moving_scenes.MOVING_SCENES`)."""
    return SCENES + moving_scenes.MOVING_SCENES


def builtin_path(name: str) -> Path:
    """The file of the built-in scene ``name`` (one of :func:`builtin_names`) in the package."""
    names = builtin_names()
    if check.name("name", name) not in names:
        raise ValueError(f"name: expected one of {', '.join(repr(s) for s in names)}, got {name!r}")
    return SCENES_DIRECTORY / f"{name}.toml"


def from_demo(scene: str, agents: int | None = None, *, seed: int = 0) -> Scenario:
    """The built-in scene as its builder gives it, with its steering, agent parameters and
    run (its step and time limit): :func:`~contextsteer.demo.scene_setup` for the demo's
    scenes, :func:`~contextsteer.moving_scenes.moving_scene_setup` (steps of
    :data:`~contextsteer.moving_scenes.DT`, 1,000 of them) for the moving-obstacle ones.
    The crowd scenes' and the moving scenes' steering is the
    :class:`~contextsteer.CrowdSteering` they are built from (their files say
    ``[steering] kind = "crowd"``), its goals and contact stage the crowd's."""
    if check.name("scene", scene) in moving_scenes.MOVING_SCENES:
        geometry, steering, parameters = moving_scenes.moving_scene_setup(scene, agents, seed=seed)
        run = RunSettings(dt=moving_scenes.DT, steps=moving_scenes.STEPS)
    else:
        geometry, steering, parameters = scene_setup(scene, agents, seed=seed)
        run = RunSettings(dt=DT, steps=recipe(scene).steps)
    if scene in CROWD_SCENES or scene in moving_scenes.MOVING_SCENES:  # the crowd steering, its world's settings
        steering = crowd_steering(geometry, radius=parameters["radius"], slots=_slots(steering))
        parameters = {name: value for name, value in parameters.items() if name not in ("goals", "contact", "groups")}
    return dataclasses.replace(geometry, steering=steering, agent_parameters=parameters, run=run)


def _slots(steering) -> int:
    """The slots of a pipeline, or of the first of several."""
    return (steering[0] if isinstance(steering, (list, tuple)) else steering).slots


def builtin_text(scene: str) -> str:
    """The text of the built-in scene's file, as :func:`write_builtin` writes it."""
    return dumps(from_demo(scene), HEADER + "# A built-in scene, written by: python -m contextsteer.scenario_file\n")


def write_builtin(directory: str | os.PathLike = SCENES_DIRECTORY) -> list[Path]:
    """Writes the file of every built-in scene into ``directory``; returns their paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for scene in builtin_names():
        path = directory / f"{scene}.toml"
        path.write_text(builtin_text(scene), encoding="utf-8")
        paths.append(path)
    return paths


__all__ = ["RunSettings", "ScenarioFileError", "builtin_names", "builtin_path", "dumps", "from_demo", "load", "loads",
           "save", "write_builtin"]

if __name__ == "__main__":
    for written in write_builtin(sys.argv[1] if len(sys.argv) > 1 else SCENES_DIRECTORY):
        print(written)
