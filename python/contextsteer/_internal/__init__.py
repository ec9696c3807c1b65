"""The package's private helpers, the lowest layer: argument checks and their messages,
argument display, docstrings and settings made from the C++ fields, TOML tables and the
shapes scenes are built of. They know nothing of behaviours, worlds or scenes."""
