"""The README's and the docs pages' Python examples run, in order, as a reader would paste
them; the files and sections they point to exist."""

import re
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[3]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))


def python_blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S)


def run_blocks(page: Path) -> dict:
    """Runs a page's Python blocks one after the other in one namespace; returns it."""
    namespace: dict = {}
    name = page.relative_to(ROOT)
    for number, block in enumerate(python_blocks(page), 1):
        try:
            exec(compile(block, f"{name} python block {number}", "exec"), namespace)
        except Exception as error:
            error.add_note(f"in {name} python block {number}:\n{block}")
            raise
    return namespace


def test_the_readme_examples_run(tmp_path, monkeypatch):
    assert len(python_blocks(README)) >= 4
    monkeypatch.chdir(tmp_path)
    namespace = run_blocks(README)
    # What the examples leave behind: a world that ran, its recording, a decision.
    world, rec = namespace["world"], namespace["rec"]
    assert world.steps_taken == 801
    assert rec.positions.shape == (801, 100, 2)  # the start, then 800 steps
    assert namespace["d"].final.shape == (16,)


@pytest.mark.parametrize("page", DOCS, ids=[page.name for page in DOCS])
def test_the_examples_of_each_docs_page_run(page, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # the examples may write files (run.npz)
    namespace = run_blocks(page)
    printed = capsys.readouterr().out
    if page.name == "worlds.md":
        assert (tmp_path / "run.npz").exists()
    if page.name == "sweeps.md":
        assert len(namespace["table"]) == 15  # a row per run: 3 sense radii x 5 seeds
    if page.name == "tuning.md":  # its search improves on the parameters in use, its trials differ
        trials = namespace["result"].trials
        assert (trials["state"] == "COMPLETE").all() and len(trials) == 30
        assert trials["value"].nunique() > 1
        assert namespace["result"].best_value < trials.set_index("number").loc[0, "value"]
        # The search is seeded: it prints what the page says it prints (a change of Optuna's
        # sampler or of the simulation's results shows here; the page then needs its new line).
        line = printed.strip().splitlines()[-1]
        assert f"# {line}\n" in page.read_text(), f"tuning.md's example now prints {line!r}"


def test_the_docs_have_examples():
    assert sum(len(python_blocks(page)) for page in DOCS) >= 10


def local_links(page: Path) -> list[str]:
    """Markdown links and images to files of the repository: ](path) or ](path#section)."""
    return [link for link in re.findall(r"\]\(([^)\s]+)\)", page.read_text()) if "://" not in link]


def anchors(page: Path) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as -."""
    headings = re.findall(r"^#+ (.+)$", re.sub(r"```.*?```", "", page.read_text(), flags=re.S), flags=re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def repository_paths(page: Path) -> list[str]:
    """Paths of the repository that a page names in backticks, as `src/...` or `tests/...`."""
    named = re.findall(r"`((?:src|tests|benchmarks|python|notebooks|docs|cmake)/[\w./\-]+)", page.read_text())
    return [path.split("::")[0] for path in named]


@pytest.mark.parametrize("page", [README, *DOCS, ROOT / "benchmarks" / "README.md"],
                         ids=["README.md", *(page.name for page in DOCS), "benchmarks/README.md"])
def test_the_links_and_paths_of_each_page_exist(page):
    missing = []
    for link in local_links(page):
        target, _, section = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        if not path.exists():
            missing.append(link)
        elif section and path.suffix == ".md" and section not in anchors(path):
            missing.append(link)
    missing += [path for path in repository_paths(page) if not (ROOT / path).exists()]
    assert not missing, f"{page.relative_to(ROOT)} points to what is not there: {missing}"
