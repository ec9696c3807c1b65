"""Recipes: ready steerings built from the model, such as the crowd scenes' pipelines
(:mod:`contextsteer.recipes.crowd`). They take a scene's geometry as an argument and
import nothing above the model."""
