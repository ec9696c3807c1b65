"""The Python sources pass ruff with the project's settings (pyproject.toml: [tool.ruff]),
and the C++ sources are as clang-format writes them (.clang-format)."""

import subprocess
import sys
from pathlib import Path

import clang_format

ROOT = Path(__file__).resolve().parents[3]
CPP_SOURCES = sorted(p for folder in ("src", "tests/cpp", "benchmarks/cpp")
                     for p in (ROOT / folder).rglob("*") if p.suffix in (".cpp", ".hpp"))


def test_ruff_finds_nothing():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--output-format", "concise",
                             "python", "tests", "benchmarks"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_would_find_a_line_too_long(tmp_path):
    # The check can fail: the same settings flag a line past 120 characters.
    source = tmp_path / "long.py"
    source.write_text("x = " + "1 + " * 40 + "1\n")
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--config", str(ROOT / "pyproject.toml"),
                             "--output-format", "concise", str(source)], capture_output=True, text=True)
    assert result.returncode == 1 and "E501" in result.stdout


def clang_format_check(*paths) -> subprocess.CompletedProcess:
    return subprocess.run([clang_format.get_executable("clang-format"), "--dry-run", "--Werror",
                           f"--style=file:{ROOT / '.clang-format'}", *map(str, paths)],
                          capture_output=True, text=True)


def test_cpp_sources_are_clang_formatted():
    assert len(CPP_SOURCES) > 80  # the sources were found
    result = clang_format_check(*CPP_SOURCES)
    assert result.returncode == 0, "run: clang-format -i on these\n" + result.stderr[:3000]


def test_clang_format_would_find_a_misformatted_line(tmp_path):
    source = tmp_path / "bad.cpp"
    source.write_text("int  f( int x ){return x;}\n")
    result = clang_format_check(source)
    assert result.returncode != 0 and "bad.cpp" in result.stderr
