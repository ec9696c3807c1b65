"""The model: context maps, behaviours, pipelines, goals, contact, the world, navigation
fields, moving obstacles, classic steering and racing lanes; the recording a run writes
and the explanation of one agent's step. It imports only the private helpers below it."""
