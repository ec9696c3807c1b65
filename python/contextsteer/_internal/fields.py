"""The C++ fields that behaviours' parameters and a world's settings declare: a value checked
as its field takes it, the field's unit in words, and what a constructor made from fields raises."""

from __future__ import annotations

from . import validation as check


def checked(spec: dict, value):
    """``value`` checked as the C++ field ``spec`` takes it (the core checks again)."""
    name, kind = spec["name"], spec["kind"]
    if kind == "number":
        bounds = dict(spec["bounds"])
        if bounds.pop("absent", False) and value is None:
            return None  # left unset: the C++ struct says what that means
        return check.number(name, value, **bounds)
    if kind == "flag":
        return check.flag(name, value)
    if kind == "name":
        return check.name(name, value)  # the core names the choices when it is not one
    if kind == "seed":
        return check.count(name, value, maximum=2**64 - 1)
    bounds = spec["bounds"]
    return check.count(name, value, minimum=int(bounds.get("minimum", 0)),
                       maximum=int(bounds.get("maximum", check.INT_MAX)))


def unit_words(spec: dict) -> str:
    return {"m": "metres", "s": "seconds", "rad": "radians", "Hz": "per second"}.get(spec["unit"], spec["unit"])



RAISES = """TypeError
    A keyword that is not a parameter of the class, or a value of the wrong type.
ValueError
    A value outside its bounds, not finite, or not one of its choices."""

