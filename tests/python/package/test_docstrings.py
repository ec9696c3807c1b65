"""Every public name's docstring is in numpydoc form (read with ``numpydoc.docscrape``):
a summary; for a function, method or class, a Parameters section naming each of its
parameters and nothing else, a Returns section when it returns something, a Raises
section when its body raises, and an Examples section (tests/python/package/test_doctests.py
runs them). A property needs a summary only.

The public names are those of ``contextsteer.__all__``, of the modules the API reference
documents whole, and their classes' public methods and properties.
"""

from __future__ import annotations

import ast
import enum
import importlib
import inspect
import textwrap
import warnings

import pytest
from numpydoc.docscrape import ClassDoc, FunctionDoc, NumpyDocString

import contextsteer

MODULES = ["classic", "metrics", "scenarios", "moving_scenes", "plotting", "live", "tuning", "widgets"]


def _members(qualified: str, cls: type):
    """The public methods and properties of ``cls`` defined in the package (its own or a
    package base class's), by name."""
    seen = set()
    for klass in cls.__mro__:
        if not klass.__module__.startswith("contextsteer") or klass.__module__.startswith("contextsteer._core"):
            continue
        for name, value in vars(klass).items():
            if name.startswith("_") or name in seen:
                continue
            if isinstance(value, (property, classmethod, staticmethod)) or inspect.isfunction(value):
                seen.add(name)
                yield f"{qualified}.{name}", value


def public_objects() -> dict[str, object]:
    names = [f"contextsteer.{n}" for n in contextsteer.__all__ if n not in MODULES]
    for module in MODULES:
        names += [f"contextsteer.{module}.{n}" for n in importlib.import_module(f"contextsteer.{module}").__all__]
    objects: dict[str, object] = {}
    for qualified in names:
        module, _, attribute = qualified.rpartition(".")
        obj = getattr(importlib.import_module(module), attribute)
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue  # a constant (ALL_LAYERS): documented in the reference's prose
        objects[qualified] = obj
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            objects.update(_members(qualified, obj))
    return objects


OBJECTS = public_objects()


def _parameters(function) -> list[str]:
    """The documented-to-be parameters of ``function``: all but self/cls, with ``*args`` and
    ``**kwargs`` as named."""
    names = []
    for p in inspect.signature(function).parameters.values():
        if p.name in ("self", "cls"):
            continue
        names.append({inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}.get(p.kind, "")
                     + p.name)
    return names


def _raises(function) -> bool:
    """Whether the body of ``function`` has a raise statement of its own."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return False
    return any(isinstance(node, ast.Raise) and node.exc is not None for node in ast.walk(tree))


def _returns_something(function) -> bool:
    annotation = inspect.signature(function).return_annotation
    if annotation is not inspect.Signature.empty:
        return annotation not in (None, "None", "NoReturn")
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return False
    return any(isinstance(node, ast.Return) and node.value is not None for node in ast.walk(tree))


def problems(name: str, obj) -> list[str]:
    """What the docstring of ``obj`` lacks, in words (none: it is in numpydoc form)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpydoc warns of an unknown section
        try:
            if isinstance(obj, property):
                doc = NumpyDocString(inspect.getdoc(obj) or "")
            elif inspect.isclass(obj):
                doc = ClassDoc(obj, config={"show_class_members": False})
            else:
                doc = FunctionDoc(getattr(obj, "__func__", obj))
        except Exception as exc:  # noqa: BLE001 - a docstring numpydoc cannot read is a problem
            return [f"numpydoc cannot read it: {exc}"]
    found = []
    if not "".join(doc["Summary"]).strip():
        found.append("no summary")
    if isinstance(obj, property):
        return found
    function = getattr(obj, "__func__", obj)
    if inspect.isclass(obj):
        function = None if obj.__init__ is object.__init__ or issubclass(obj, enum.Enum) else obj.__init__
    if function is not None:
        sections = doc["Parameters"] + doc["Other Parameters"] + (doc["Attributes"] if inspect.isclass(obj) else [])
        documented = [n.strip() for p in sections for n in p.name.replace("\\", "").split(",")]
        expected = _parameters(function)
        missing = [p for p in expected if p not in documented and p.lstrip("*") not in documented]
        unknown = [p for p in documented if p not in expected and f"**{p}" not in expected and f"*{p}" not in expected]
        if missing:
            found.append(f"parameters not documented: {missing}")
        if unknown:
            found.append(f"documented parameters it does not have: {unknown}")
        if not inspect.isclass(obj) and _returns_something(function) and not (doc["Returns"] or doc["Yields"]):
            found.append("no Returns section")
        if _raises(function) and not doc["Raises"]:
            found.append("raises, but has no Raises section")
    if not any(">>>" in line for line in doc["Examples"]):
        found.append("no Examples section with an example")
    return found


def test_the_walk_reaches_every_kind_of_public_name():
    assert {"contextsteer.World", "contextsteer.World.run", "contextsteer.World.positions", "contextsteer.Avoid",
            "contextsteer.Avoid.fills_danger", "contextsteer.sweep", "contextsteer.metrics.summary",
            "contextsteer.classic.Steering.behaviors", "contextsteer.widgets.Tuner.advance"} <= set(OBJECTS)
    assert len(OBJECTS) > 400


@pytest.mark.parametrize("name", sorted(OBJECTS))
def test_the_docstring_is_in_numpydoc_form(name):
    assert not problems(name, OBJECTS[name]), f"{name}: {'; '.join(problems(name, OBJECTS[name]))}"


def test_the_check_sees_a_missing_parameter_and_example():
    def scale(values, factor=2.0):
        """Scale values.

        Parameters
        ----------
        values : array_like
            The values.

        Returns
        -------
        ndarray
            ``values * factor``.
        """
        return values * factor

    assert problems("scale", scale) == ["parameters not documented: ['factor']",
                                        "no Examples section with an example"]
