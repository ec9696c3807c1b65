"""Sphinx configuration of contextsteer's documentation site.

Build it from the repository root (``tests/run.sh --full`` does, with warnings as errors)::

    python -m sphinx -W --keep-going -b html -c docs . build/docs/html

The source directory is the repository root, so that the pages in ``docs/``, the
notebooks in ``notebooks/`` and ``benchmarks/README.md`` keep the relative links they
have on GitHub; ``include_patterns`` picks those files alone. The API reference is made
from the installed package's docstrings; the notebooks are executed at build time.
"""

import re
from pathlib import Path

import contextsteer

project = "contextsteer"
author = "The contextsteer developers"
copyright = "The contextsteer developers, MIT License"  # noqa: A001 (Sphinx's name)
release = contextsteer.__version__
version = release

root_doc = "docs/index"
include_patterns = [
    "docs/*.md",
    "docs/index.md",
    "docs/api.rst",
    "docs/generated/*.rst",
    "docs/images/*",
    "notebooks/*.ipynb",
    "README.md",
    "benchmarks/README.md",
    "CHANGELOG.md",
]
exclude_patterns = ["build", "**/.ipynb_checkpoints"]

extensions = [
    "myst_nb",  # Markdown pages (MyST) and executed notebooks
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
]

# --- Markdown pages --------------------------------------------------------------
# GitHub's heading anchors (worlds.md#the-step) resolve as they do on GitHub.
myst_heading_anchors = 3
myst_enable_extensions = ["dollarmath", "colon_fence"]
# A page's link to a repository file that is not part of the site (a C++ source) is fine.
suppress_warnings = ["myst.xref_missing"]

# --- Notebooks: executed at every build, their outputs shown -----------------------
nb_execution_mode = "force"
nb_execution_timeout = 600
nb_execution_raise_on_error = True
nb_merge_streams = True

# --- API reference -----------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = True
# No "show-inheritance": classes list no bases (public_bases_only below keeps internal ones out
# wherever a directive asks for them).
autodoc_default_options = {"members": True, "inherited-members": False}
autodoc_typehints = "none"  # the numpydoc sections carry the types
autodoc_member_order = "bysource"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_attributes_as_param_list = False
# numpydoc's own validation of the map functions and sweep while the site builds (the
# pattern is matched against each documented object's full name); every public name's
# docstring is checked by tests/python/package/test_docstrings.py, its examples run by
# tests/python/package/test_doctests.py.
NUMPYDOC_NAMES = ["slot_directions", "combine", "blur", "smooth", "resample", "resolve", "sweep"]
numpydoc_validation_checks = {"PR01", "PR02", "PR03", "PR10", "RT01", "EX01", "GL08"}
numpydoc_validation_exclude = {rf"^contextsteer\.(?!({'|'.join(NUMPYDOC_NAMES)})$)"}

templates_path = [str(Path(__file__).parent / "_templates")]  # the class page: the class and its members, nothing more

# --- HTML -------------------------------------------------------------------------
html_theme = "furo"
html_title = f"contextsteer {release}"
html_static_path: list[str] = []


# --- Docstrings not yet in numpydoc form ---------------------------------------------
NUMPYDOC_SECTION = re.compile(r"^\s*(Parameters|Returns|Attributes|Examples)\n\s*-{3,}\s*$", re.M)


def keep_as_written(app, what, name, obj, options, lines):
    """A docstring without numpydoc sections is shown as help() shows it: its first
    paragraph as text (the summary in the tables), the rest as a literal block, so that
    its plain-text layout is not read as reStructuredText."""
    text = "\n".join(lines)
    if not text.strip() or NUMPYDOC_SECTION.search(text):
        return
    paragraphs = text.strip().split("\n\n", 1)
    summary = " ".join(paragraphs[0].split()).replace("|", "\\|").replace("*", "\\*")
    lines[:] = [summary, ""]
    if len(paragraphs) > 1:
        lines += ["::", ""] + ["    " + line for line in paragraphs[1].splitlines()] + [""]


def source_of_top_level_names(app, modname, attribute):
    """viewcode keys each source page by the first name its module was documented under:
    a name the package exports from a module the reference also documents whole
    (``contextsteer.tune`` of ``contextsteer.tuning``) would key that page by
    ``contextsteer`` and break the links back from every other name of it. Such names keep
    to the package (no source link of their own; their module's page has it)."""
    if modname != "contextsteer":
        return None
    import importlib

    import contextsteer

    def source_module(obj):  # a public class names contextsteer as its module; _source_module its own
        return getattr(obj, "_source_module", getattr(obj, "__module__", None))

    defined_in = source_module(getattr(contextsteer, attribute.split(".")[0], None)) or ""
    # The modules where the names of the modules documented whole are defined (a public
    # path such as contextsteer.plotting gathers the names of several).
    modules = [importlib.import_module(f"contextsteer.{m}")
               for m in ("classic", "metrics", "scenarios", "plotting", "live", "tuning", "widgets")]
    documented_whole = {source_module(getattr(m, name)) for m in modules for name in m.__all__}
    if defined_in in documented_whole:
        return "contextsteer"
    return defined_in if defined_in.startswith("contextsteer.") else None


def public_bases_only(app, name, obj, options, bases) -> None:
    """A class's bases as a directive that shows them would list them: the public ones
    alone (an internal base such as the world's ``MovingObstacles`` has no page to link)."""
    import contextsteer

    public = {id(getattr(contextsteer, n)) for n in dir(contextsteer) if not n.startswith("_")}
    bases[:] = [base for base in bases if id(base) in public or base.__module__ == "builtins"]


def public_names_only(app) -> None:
    """autodoc gives a class the canonical name where it is defined (``:canonical:
    contextsteer.scenes.scenario.Scenario``); a class the reference documents under two
    public names (``contextsteer.Scenario``, ``contextsteer.scenarios.Scenario``) would be
    described twice under it, a duplicate object (an error with ``-W``). The Python
    domain's class and exception directives are replaced, through Sphinx's public API
    (``Domain.directives``, ``add_directive_to_domain``: no private name of Sphinx), by ones
    that drop that option: the reference names every class by its public paths alone.

    An alias such as ``contextsteer.Seek`` needs nothing here: autodoc describes it by its
    ``#:`` comment in ``contextsteer/__init__.py``, in its page and in the tables."""
    from sphinx.domains.python import PythonDomain

    def without_canonical(directive):
        class PublicPathsOnly(directive):
            def run(self):
                self.options.pop("canonical", None)
                return super().run()

        return PublicPathsOnly

    for objtype in ("class", "exception"):
        app.add_directive_to_domain("py", objtype, without_canonical(PythonDomain.directives[objtype]), override=True)


def setup(app):
    from pygments.lexers.special import TextLexer

    public_names_only(app)

    app.connect("viewcode-follow-imported", source_of_top_level_names)
    app.connect("autodoc-process-bases", public_bases_only)

    app.add_lexer("mermaid", TextLexer)  # docs/architecture.md's diagram, shown as its source
    app.connect("autodoc-process-docstring", keep_as_written, priority=400)  # before numpydoc
