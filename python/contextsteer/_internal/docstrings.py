"""numpydoc sections made from the C++ parameter fields (``name, kind, default, unit,
doc, bounds, choices``): a behaviour's or a settings class's docstring lists each field
as a parameter with its type, unit and default, and says what a bad value raises."""

from __future__ import annotations

import inspect
import re

UNITS = {"m": "metres", "s": "seconds", "rad": "radians", "Hz": "per second"}
# numpydoc's sections, in the order numpydoc wants them
SECTIONS = ["Parameters", "Returns", "Yields", "Receives", "Other Parameters", "Raises", "Warns", "Warnings",
            "See Also", "Notes", "References", "Examples"]


def unit(spec: dict) -> str:
    """The field's unit in words ("" for none)."""
    return UNITS.get(spec["unit"], spec["unit"])


def field_type(spec: dict) -> str:
    """The numpydoc type of a field: ``float``, ``bool``, ``int`` or its choices."""
    kind = spec["kind"]
    if kind == "name":
        return "{" + ", ".join(repr(c) for c in spec.get("choices", [])) + "}" if spec.get("choices") else "str"
    if kind == "number":
        return "float or None" if spec.get("bounds", {}).get("absent") else "float"
    return {"flag": "bool", "seed": "int", "count": "int"}.get(kind, "int")


def _bounds(spec: dict) -> str:
    b = {k: v for k, v in spec.get("bounds", {}).items() if k != "absent"}
    parts = [f"at least {b['minimum']:g}" if "minimum" in b else "", f"above {b['above']:g}" if "above" in b else "",
             f"at most {b['maximum']:g}" if "maximum" in b else "", f"below {b['below']:g}" if "below" in b else ""]
    return ", ".join(p for p in parts if p)


def field_entry(spec: dict) -> str:
    """One numpydoc parameter: ``name : type, default d`` and its description."""
    default = spec["default"]
    shown = f"{default:g}" if isinstance(default, float) else repr(default)
    described = spec["doc"] + (f", {unit(spec)}" if spec["unit"] else "")
    bounds = _bounds(spec)
    described += f" ({bounds})." if bounds else "."
    return f"{spec['name']} : {field_type(spec)}, default {shown}\n    {described[0].upper()}{described[1:]}"


def _split(doc: str) -> tuple[str, dict[str, str]]:
    """A cleaned docstring's text before its first numpydoc section, and its sections by name."""
    header = re.compile(r"^(" + "|".join(SECTIONS) + r")\n-{3,}\n", re.M)
    found = list(header.finditer(doc))
    head = doc[:found[0].start()] if found else doc
    sections = {}
    for match, following in zip(found, found[1:] + [None]):
        sections[match[1]] = doc[match.end():following.start() if following else len(doc)].strip("\n")
    return head.rstrip() + "\n", sections


def _join(head: str, sections: dict[str, str]) -> str:
    parts = [head.rstrip()]
    for name in SECTIONS:
        if name in sections:
            parts.append(f"{name}\n{'-' * len(name)}\n{sections[name].rstrip()}")
    return "\n\n".join(parts) + "\n"


def with_fields(doc: str | None, fields: list[dict], raises: str) -> str:
    """``doc`` with ``fields`` appended to its Parameters section (made when missing) and a
    Raises section of ``raises`` (unless it has one)."""
    head, sections = _split(inspect.cleandoc(doc or ""))
    entries = "\n".join(field_entry(f) for f in fields)
    sections["Parameters"] = (sections["Parameters"].rstrip() + "\n" + entries) if "Parameters" in sections \
        else entries
    sections.setdefault("Raises", raises)
    return _join(head, sections)
