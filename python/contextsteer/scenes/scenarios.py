"""Ready-made scenes for demos, notebooks and sweeps: the standard tests of crowd and
steering methods, each a function of a few sizes and a seed.

| scene | what it tests |
| --- | --- |
| :func:`corridor` | finding a way past pillars in a corridor |
| :func:`swap` | two crowds walking through each other, head on |
| :func:`circle` | agents on a circle crossing to the opposite point: everyone meets in the middle |
| :func:`crossing` | two streams crossing at right angles |
| :func:`bottleneck` | a room emptying through a narrow door |
| :func:`two_way_door` | two crowds swapping rooms through one door, both ways at once |
| :func:`four_way` | four groups, from north, south, east and west, crossing a square |
| :func:`zigzag` | a single file through a corridor 1.5 agents wide with many bends |
| :func:`u_trap` | a U-shaped cup of walls open toward the agents, the goal behind it |

Lengths are in metres, up to 1,000 m; a scene holds up to 1,000,000 agents.
A :class:`Scenario` holds only geometry; :meth:`Scenario.world` puts it in a
:class:`~contextsteer.World` with the steering and agent parameters of your choice.
The scenes of several groups, each with a goal of its own (the door, the four-way
crossing), number them in :attr:`Scenario.groups`.

A scenario can also carry its steering, its agents' parameters and how long to run it
(:class:`~contextsteer.RunSettings`): a whole experiment, which :meth:`Scenario.save`
writes to a TOML file and :meth:`Scenario.load` reads (see docs/scenario-files.md).
Every scene of the demo ships as such a file (:func:`builtin`).

The scenes' builders live by kind in :mod:`~contextsteer.scenes.corridors`,
:mod:`~contextsteer.scenes.meeting` and :mod:`~contextsteer.scenes.rooms`; this module is
their namespace.
"""

from __future__ import annotations

from . import recorded_scene as _recorded_scene  # noqa: F401 -- a recording's scene made a Scenario
from .corridors import corridor, u_trap, zigzag
from .meeting import circle, crossing, four_way, swap
from .rooms import bottleneck, two_way_door
from .scenario import MAX_AGENTS as MAX_AGENTS  # the largest scene
from .scenario import MAX_LENGTH as MAX_LENGTH  # metres
from .scenario import Scenario
from .scenario_file import builtin_path


def builtin(name: str) -> Scenario:
    """The built-in scene ``name`` (one of :data:`contextsteer.demo.SCENES` or
    :data:`contextsteer.moving_scenes.MOVING_SCENES`) as its file in the package holds it:
    geometry, moving obstacles, steering, agent parameters and run, loaded with
    :meth:`Scenario.load`. The same scenario as :func:`contextsteer.demo.scene_setup` (or
    :func:`~contextsteer.moving_scenes.moving_scene_setup`) builds, to the bit.

    Parameters
    ----------
    name : str
        One of :data:`contextsteer.demo.SCENES` or
        :data:`contextsteer.moving_scenes.MOVING_SCENES`.

    Returns
    -------
    Scenario
        The scene.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.scenarios.builtin("corridor")
    Scenario('corridor': 12 agents, 114 circles, 0 walls, bounds=(-3.5, -5.5, 42.5, 5.5))
    """
    return Scenario.load(builtin_path(name))


__all__ = ["Scenario", "bottleneck", "builtin", "circle", "corridor", "crossing", "four_way", "swap", "two_way_door",
           "u_trap",
           "zigzag"]
