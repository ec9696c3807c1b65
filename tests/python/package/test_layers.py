"""The Python package's layers (docs/architecture.md): each subpackage of contextsteer
imports only from itself and the layers below it, never from one above, not even inside
a function; no module imports another that imports it back, through any chain; the
package's top holds only its face, and a module over 500 lines says at its top why.

Read from the sources (stdlib ``ast``), so that an import in a branch no test runs counts too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "python" / "contextsteer"
# Lowest first: a module may import from its own layer and those before it. The C++
# module (_core) is below them all; the top's modules (the face) may import any layer.
LAYERS = ["_internal", "model", "recipes", "analysis", "scenes", "tools"]
TOP = {"__init__", "__main__", "_module_paths"}
LONG = 500  # lines


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int:
    """-1 for the C++ module, the index in LAYERS for a layer's module, len(LAYERS) for the top."""
    parts = module.split(".")
    if parts[1:2] == ["_core"]:
        return -1
    if len(parts) > 1 and parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return len(LAYERS)


def imports(module: str) -> list[tuple[str, int]]:
    """Every contextsteer module ``module`` imports, anywhere in it, with the line."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names if alias.name.split(".")[0] == "contextsteer"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.split(".")[0] == "contextsteer":
                source = node.module
            else:
                continue
            for alias in node.names:  # `from . import x`: x is a module when there is one
                child = f"{source}.{alias.name}"
                found.append((child if child in MODULES or child.endswith("._core") else source, node.lineno))
    return found


def test_the_layers_are_the_packages_folders():
    folders = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())
    assert folders == sorted(LAYERS)


def test_the_top_holds_only_the_face():
    top = sorted(p.name for p in PACKAGE.iterdir() if p.is_file() and p.suffix in (".py", ".pyi"))
    assert {Path(name).stem for name in top if name.endswith(".py")} == TOP
    assert len(top) <= 8, top


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_only_from_its_layer_and_those_below(module):
    upward = [f"line {line}: {imported}" for imported, line in imports(module)
              if layer_of(imported) > layer_of(module)]
    assert not upward, f"{module} imports from a layer above it: {upward}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_modules_by_their_own_paths(module):
    from contextsteer._module_paths import home

    old = [f"line {line}: {imported}" for imported, line in imports(module)
           if module.split(".")[1:2] != ["_module_paths"] and home("contextsteer", imported)]
    assert not old, f"{module} imports a module by its old path: {old}"


def test_no_module_imports_one_that_imports_it_back():
    graph = {module: {imported for imported, _ in imports(module) if imported in MODULES and imported != module}
             for module in MODULES}
    # Tarjan's strongly connected components: a component of two or more is a circle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    assert not circles, f"import circles: {circles}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_long_module_says_why_at_its_top(module):
    path = MODULES[module]
    lines = path.read_text(encoding="utf-8").splitlines()
    if len(lines) > LONG:
        docstring = ast.get_docstring(ast.parse("\n".join(lines))) or ""
        assert "long because" in docstring, f"{module}: {len(lines)} lines and no word at its top on why"
