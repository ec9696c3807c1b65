import matplotlib

matplotlib.use("Agg")  # tests draw into files, never windows
