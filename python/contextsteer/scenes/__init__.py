"""Scenes: the standard scenarios (:mod:`contextsteer.scenarios`), those with moving
obstacles (:mod:`contextsteer.moving_scenes`) and scenario files
(:mod:`contextsteer.scenario_file`, the built-in ones in ``builtin/``)."""
