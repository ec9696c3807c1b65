import matplotlib

matplotlib.use("Agg")  # tests draw into files, never windows


def pytest_report_header(config):
    """Which contextsteer the tests import: the installed package (a wheel, or an editable
    install), never the sources by path; tests/python is no package, so pytest puts only
    this folder on sys.path."""
    import contextsteer

    return f"contextsteer {contextsteer.__version__} from {contextsteer.__file__}"
