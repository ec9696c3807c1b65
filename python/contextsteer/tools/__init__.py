"""Tools on top of everything else: the command line, the live view, notebook widgets,
parameter sweeps and tuning, and the demo."""
