"""Matplotlib helpers: obstacles, walls, navigation fields, trajectories, a crowd's density,
context maps and animations of a run, one module per kind of picture (the scene, fields,
trajectories, densities, animations; context maps are drawn by
:mod:`contextsteer.model.map_plots`, which the model's explanations use too).

Each function draws on ``ax`` (a new one when None) and returns the artists it made,
so callers can restyle or remove them. matplotlib is imported by these modules only.
"""

from ...model.map_plots import MAP_COLOURS as MAP_COLOURS  # a public name of contextsteer.plotting
from ...model.map_plots import plot_context_maps
from .animation import animate
from .density import plot_density
from .fields import plot_field
from .scene import (
           plot_moving_obstacles,
           plot_obstacles,
           plot_polygons,
           plot_scenario,
           plot_scene,
           plot_segments,
           scene_legend,
)
from .trajectories import plot_trajectories

__all__ = ["animate", "plot_context_maps", "plot_density", "plot_field", "plot_moving_obstacles", "plot_obstacles",
           "plot_polygons", "plot_scenario", "plot_scene", "plot_segments", "plot_trajectories", "scene_legend"]
