"""The documentation site: Sphinx builds it with warnings as errors (the docs pages, the
notebooks executed, the API reference from the installed package's docstrings); every
public name is in the reference; no internal link is broken; a headless Chromium opens
the index and the API page and they render (title, navigation, a figure).

Needs the ``docs`` extra and Debian's ``chromium``; ``tests/run.sh --full`` runs it."""

import re
import shutil
import subprocess
import sys
import zlib
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import contextsteer

ROOT = Path(__file__).resolve().parents[2]
MODULES = ["classic", "metrics", "scenarios", "moving_scenes", "plotting", "tuning", "widgets"]


@pytest.fixture(scope="session")
def site() -> Path:
    """Builds the site into build/docs/html (kept, to be looked at); returns that folder."""
    out = ROOT / "build" / "docs" / "html"
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(ROOT / "docs" / "generated", ignore_errors=True)
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                             "-c", str(ROOT / "docs"), str(ROOT), str(out)],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, f"the site did not build cleanly:\n{result.stdout}\n{result.stderr}"
    # Sphinx's own messages (the notebooks' kernels write lines of their own to stderr)
    warnings = re.findall(r"^.*\b(?:WARNING|ERROR|CRITICAL): .*$", result.stderr, flags=re.M)
    assert not warnings, "the build warned:\n" + "\n".join(warnings)
    return out


class Page(HTMLParser):
    """The ids, links (href and src) and tags of one HTML page."""

    def __init__(self, path: Path):
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.tags: list[tuple[str, dict]] = []
        self.feed(path.read_text(encoding="utf-8"))

    def handle_starttag(self, tag, attrs):
        attributes = {name: value or "" for name, value in attrs}
        self.tags.append((tag, attributes))
        if "id" in attributes:
            self.ids.add(attributes["id"])
        for name in ("href", "src"):
            if name in attributes:
                self.links.append(attributes[name])


def public_names() -> list[str]:
    names = [f"contextsteer.{name}" for name in contextsteer.__all__ if name not in MODULES]
    for module in MODULES:
        names.append(f"module-contextsteer.{module}")
        imported = __import__(f"contextsteer.{module}", fromlist=["__all__"])
        names += [f"contextsteer.{module}.{name}" for name in imported.__all__]
    return names


def test_every_public_name_is_in_the_reference(site):
    ids: set[str] = set()
    for page in (site / "docs" / "generated").glob("*.html"):
        ids |= Page(page).ids
    missing = [name for name in public_names() if name not in ids]
    assert not missing, f"not in the API reference: {missing}"
    api = Page(site / "docs" / "api.html")
    linked = {urlsplit(link).path.rsplit("/", 1)[-1] for link in api.links}
    assert {"contextsteer.World.html", "contextsteer.resolve.html", "contextsteer.metrics.html"} <= linked


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def test_the_reference_names_classes_by_their_public_paths_and_describes_aliases(site):
    generated = site / "docs" / "generated"
    # The site's inventory (what intersphinx links to) holds no class under the module where
    # it is defined (Scenario is contextsteer.Scenario and contextsteer.scenarios.Scenario,
    # never contextsteer.scenes.scenario.Scenario): the reference names public paths alone.
    header, _, body = (site / "objects.inv").read_bytes().partition(b"zlib.\n")
    assert header.startswith(b"# Sphinx inventory version 2"), header
    objects = [line.split()[0] for line in zlib.decompress(body).decode().splitlines()]
    assert "contextsteer.Scenario" in objects and "contextsteer.scenarios.Scenario" in objects
    internal = [name for name in objects if re.match(r"contextsteer\.(model|scenes|analysis|tools|recipes|_)", name)]
    assert not internal, internal
    # An alias has its description, in its page and in the reference's table.
    description = "An alias of Chase, the classic name of the same behaviour"
    assert description in text_of((generated / "contextsteer.Seek.html").read_text(encoding="utf-8"))
    api = text_of((site / "docs" / "api.html").read_text(encoding="utf-8"))
    assert f"Seek {description}" in api


def test_the_pages_and_the_notebooks_are_in_the_site(site):
    for page in ["concepts", "behaviors", "worlds", "navigation", "sweeps", "tuning", "cpp-core", "architecture",
                 "performance", "development", "install"]:
        assert (site / "docs" / f"{page}.html").exists(), page
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        html = (site / "notebooks" / f"{notebook.stem}.html").read_text(encoding="utf-8")
        # executed at build time: the cells' outputs are there, figures among them
        assert "cell_output" in html, notebook.name
        assert re.search(r'<img[^>]+src="[^"]*\.png"', html), f"{notebook.name} shows no figure"


def test_no_internal_link_is_broken(site):
    pages = {path: Page(path) for path in site.rglob("*.html")}
    broken = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "data:", "javascript:")):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{path.relative_to(site)}: {link}")
            elif parts.fragment and target.suffix == ".html":
                if target not in pages:
                    pages[target] = Page(target)
                if unquote(parts.fragment) not in pages[target].ids:
                    broken.append(f"{path.relative_to(site)}: {link} (no such anchor)")
    assert len(pages) > 50
    assert not broken, "broken links:\n" + "\n".join(broken)


def chromium(*arguments: str) -> str:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    assert browser, "Chromium is missing (Debian: apt-get install chromium)"
    result = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                             "--window-size=1280,1600", *arguments], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("page", ["docs/index.html", "docs/api.html"])
def test_chromium_renders_the_index_and_the_api_page(site, page, tmp_path):
    url = (site / page).as_uri()
    dom = chromium("--virtual-time-budget=5000", "--dump-dom", url)
    title = re.search(r"<title>(.*?)</title>", dom, flags=re.S)
    assert title and "contextsteer" in title[1], "no title"
    # the navigation: the sidebar's tree of the site's pages, with the guides and the reference
    navigation = re.search(r'class="sidebar-tree".*?</div>', dom, flags=re.S)
    assert navigation, "no navigation"
    for entry in ("Concepts", "API reference", "01_context_maps"):
        assert entry.lower() in navigation[0].lower().replace("-", " ").replace(" ", "_") or \
            entry.lower() in navigation[0].lower(), f"the navigation lacks {entry}"
    if page == "docs/index.html":
        assert re.search(r'<img[^>]+src="[^"]*corridor\.png"', dom), "the index shows no figure"
    else:
        assert "contextsteer.World.html" in dom and "contextsteer.sweep.html" in dom
    # and it paints: a screenshot that is not one flat colour
    shot = tmp_path / "page.png"
    chromium(f"--screenshot={shot}", url)
    assert shot.stat().st_size > 20_000, "the screenshot is nearly empty"
