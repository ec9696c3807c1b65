"""The layers of docs/architecture.md, held by the sources: includes point down, vector code
stays in kernels/, and no source file grows past ~500 lines without saying why."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CORE = ROOT / "src" / "contextsteer"
ARCHITECTURE = ROOT / "docs" / "architecture.md"

# Lowest first: a file may include from its own layer and the ones before it. A subfolder
# belongs to the layer of its first folder (behaviors/support is behaviors), but for the
# kernels' instances: a wide kernel (kernels/wide/) and its per-width files
# (kernels/baseline/, avx2/, avx512/) work on the domain's own types, so they sit above
# every layer, as the bindings (src/bindings/) do, and only they include each other.
LAYERS = ["base", "kernels", "runtime", "geometry", "maps", "scene", "navigation", "behaviors",
          "steering", "pipeline", "world"]

INCLUDE = re.compile(r'^\s*#\s*include\s*"contextsteer/([^/"]+)/([^"]*)"')
KERNEL_INSTANCES = {"wide", "baseline", "avx2", "avx512"}
INSTANCES = "kernel instances"


def layer_of_path(parts: tuple[str, ...]) -> str:
    """The layer of a core file given as its parts below src/contextsteer/."""
    if parts[0] == "kernels" and len(parts) > 2 and parts[1] in KERNEL_INSTANCES:
        return INSTANCES
    return parts[0]


def rank(layer: str) -> int:
    return len(LAYERS) if layer == INSTANCES else LAYERS.index(layer)

# A preprocessor condition that picks a vector path, an instruction set or a CPU: the
# macros of kernels/simd.hpp and the compilers' own.
CONDITION = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif)\b(.*)$")
VECTOR_MACRO = re.compile(
    r"\bCONTEXTSTEER_(SIMD|AVX\w*|NO_VECTOR_KERNELS|VECTOR_KERNELS|HAS_\w+|TARGET_\w+|WIDTH\w*)\b"
    r"|\b__(AVX|SSE|ARM_NEON|ARM_FEATURE|aarch64|x86_64|i386|FMA)\w*"
)

LONG_FILE_LINES = 500
# What the first comment of a long file says: "... is long because ...".
LONG_FILE_REASON = re.compile(r"long because", re.I)


def core_sources() -> list[Path]:
    return sorted(p for p in CORE.rglob("*") if p.suffix in {".hpp", ".cpp", ".h", ".inl"})


def all_sources() -> list[Path]:
    return sorted(p for p in (ROOT / "src").rglob("*") if p.suffix in {".hpp", ".cpp", ".h", ".inl"})


def layer_of(path: Path) -> str:
    return layer_of_path(path.relative_to(CORE).parts)


def test_every_folder_of_the_core_is_a_layer():
    folders = {p.name for p in CORE.iterdir() if p.is_dir()}
    assert folders == set(LAYERS), (
        "a folder of src/contextsteer/ is not a layer of docs/architecture.md (or a layer has no folder): "
        f"folders {sorted(folders)}, layers {LAYERS}; add it to both, in its place"
    )
    assert not [p for p in CORE.iterdir() if p.is_file()], "every core source sits in its layer's folder"


def test_no_file_includes_from_a_layer_above_its_own():
    upward = []
    for path in core_sources():
        own = rank(layer_of(path))
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = INCLUDE.match(line)
            if match is None:
                continue
            assert match[1] in LAYERS, f"{path.relative_to(ROOT)}:{number} includes from an unknown layer: {line}"
            included = layer_of_path((match[1], *match[2].split("/")))
            if rank(included) > own or (included == INSTANCES and own != rank(INSTANCES)):
                upward.append(f"{path.relative_to(ROOT)}:{number} ({layer_of(path)}) includes {match[1]}: {line}")
    assert not upward, "includes from a layer above the file's own:\n" + "\n".join(upward)


def test_the_include_check_finds_an_upward_include():
    # The pattern the check reads, on lines as the sources write them.
    assert INCLUDE.match('#include "contextsteer/world/world.hpp"')[1] == "world"
    wide = INCLUDE.match('#include "contextsteer/kernels/wide/move_agents.inl"')
    assert layer_of_path((wide[1], *wide[2].split("/"))) == INSTANCES
    assert layer_of_path(("kernels", "dispatch.hpp")) == "kernels"
    assert INCLUDE.match('  #  include "contextsteer/behaviors/support/falloff.hpp"')[1] == "behaviors"
    assert INCLUDE.match("#include <vector>") is None
    assert LAYERS.index("world") > LAYERS.index("maps")


def test_the_architecture_page_draws_the_same_layers_in_the_same_order():
    text = ARCHITECTURE.read_text()
    # The table of layers: one row per layer, lowest first, with its folder.
    folders = re.findall(r"^\|\s*\d+\s*\|\s*[^|]+\|\s*`src/contextsteer/([a-z_]+)/`", text, flags=re.M)
    assert folders == LAYERS, f"docs/architecture.md lists {folders}, the test {LAYERS}"


def test_no_vector_condition_outside_the_kernels():
    found = []
    for path in all_sources():
        if path.is_relative_to(CORE / "kernels"):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            condition = CONDITION.match(line)
            if condition and VECTOR_MACRO.search(condition[2]):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "vector-code conditions outside src/contextsteer/kernels/:\n" + "\n".join(found)


def test_the_vector_condition_check_knows_the_macros():
    for line in ["#ifdef CONTEXTSTEER_SIMD", "#if defined(CONTEXTSTEER_AVX2_DISPATCH)", "#ifdef __SSE__",
                 "#if defined(__x86_64__) || defined(__i386__)", "#ifndef CONTEXTSTEER_NO_VECTOR_KERNELS",
                 "#elif defined(__ARM_NEON)", "#if CONTEXTSTEER_HAS_AVX512"]:
        condition = CONDITION.match(line)
        assert condition and VECTOR_MACRO.search(condition[2]), line
    for line in ["#ifdef __linux__", "#if defined(__GNUC__) || defined(__clang__)", "#ifndef NDEBUG",
                 "#include <immintrin.h>"]:
        condition = CONDITION.match(line)
        assert not (condition and VECTOR_MACRO.search(condition[2])), line


def leading_comment(path: Path) -> str:
    lines = []
    for line in path.read_text().splitlines():
        if line.strip().startswith("//"):
            lines.append(line)
        elif line.strip() or lines:
            break
    return "\n".join(lines)


def test_no_source_file_is_long_without_saying_why():
    long = [f"{path.relative_to(ROOT)}: {lines} lines" for path in all_sources()
            if (lines := len(path.read_text().splitlines())) > LONG_FILE_LINES
            and not LONG_FILE_REASON.search(leading_comment(path))]
    assert not long, (f"files over {LONG_FILE_LINES} lines whose first comment does not say why "
                      "('... is long because ...'):\n" + "\n".join(long))
