"""The base of every context behaviour: its C++ core, its parameters declared from the
C++ struct (signature, docstring, checked properties), its repr and pickle as the call
that built it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ... import _core
from ..._internal import validation as check
from ..._internal.arguments import ShowsArguments
from ..._internal.docstrings import with_fields
from ..._internal.fields import RAISES, checked, unit_words

if TYPE_CHECKING:
    pass


class Behavior(ShowsArguments):
    """Base of every behaviour; wraps the C++ object that fills the maps. Its repr is the
    call that built it.

    A behaviour built into the library takes the parameters its C++ struct declares
    (defaults, units, checks: listed under "Parameters" in its docstring). Each can be set
    on a live behaviour (``avoid.max_distance = 5.0``): the value is checked as the
    constructor checks it and takes effect at the next step of every world using the
    behaviour. Setting one while a world steps with it (from another thread) raises
    RuntimeError (busy): set it again once the step returns. Setting an attribute the
    behaviour does not have raises AttributeError.

    Examples
    --------
    >>> import contextsteer as cs
    >>> avoid = cs.Avoid(max_distance=3.0)
    >>> isinstance(avoid, cs.Behavior), avoid.fills_danger
    (True, True)
    >>> avoid.max_distance = 5.0
    >>> avoid
    Avoid(max_distance=5)
    """

    _core: _core.Behavior
    # name -> its description from the C++ struct (name, kind, default, unit, doc, bounds, choices)
    _parameters: dict = {}
    _core_class: Any  # the C++ class, whose Params struct holds the defaults

    def __init_subclass__(cls, core=None, **kwargs):
        if core is not None:
            cls._core_class = core
            cls._parameters = {f["name"]: f for f in core._fields}
            for name, f in cls._parameters.items():
                setattr(cls, name, _parameter_property(f))
            _declare_parameters(cls)
        super().__init_subclass__(**kwargs)

    def _params(self, given: dict):
        """The C++ parameter struct of this class: its defaults, with ``given`` set by name
        (each checked)."""
        params = self._core_class.Params()
        for name, value in given.items():
            spec = self._parameters.get(name)
            if spec is None:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {name!r}; "
                                f"its parameters are {', '.join(self._parameters)}")
            setattr(params, name, checked(spec, value))
        return params

    def __setattr__(self, name, value):
        library = type(self).__module__.split(".")[0] == "contextsteer"  # a public class names contextsteer alone
        if (library and not name.startswith("_") and "_core" in self.__dict__
                and not isinstance(getattr(type(self), name, None), property)):
            raise AttributeError(f"{type(self).__name__} has no parameter {name!r}"
                                 + (f"; its parameters are {', '.join(self._parameters)}" if self._parameters else ""))
        super().__setattr__(name, value)

    @property
    def weight(self) -> float:
        """Factor applied to this behaviour's maps by the pipeline's combine rule."""
        return self._core.weight

    @property
    def fills_interest(self) -> bool:
        """Whether this behaviour writes interest maps."""
        return self._core.fills_interest

    @property
    def fills_danger(self) -> bool:
        """Whether this behaviour writes danger maps."""
        return self._core.fills_danger



def _parameter_property(spec: dict) -> property:
    name = spec["name"]

    def get(self):
        return getattr(self._core, name)

    def set_(self, value):
        setattr(self._core, name, checked(spec, value))
        record_change(self, name)

    unit = f" ({unit_words(spec)})" if spec["unit"] else ""
    return property(get, set_, doc=f"{spec['doc']}{unit}; {spec['default']!r} by default.")


def record_change(obj, name: str) -> None:
    """After ``name`` was set on a live ``obj``: its repr and pickle show it as it is now."""
    given = obj.__dict__.get("_arguments_given")
    if given is not None and not any(entry[0] == name for entry in given):
        given.append((name, True, None, None))



def _declare_parameters(cls) -> None:
    """The class's ``__init__`` signature and docstring, completed from its C++ fields: its
    own arguments, then every parameter by keyword with the struct's default."""
    import inspect

    init = cls.__dict__["__init__"]
    own = [p for p in inspect.signature(init).parameters.values() if p.kind != inspect.Parameter.VAR_KEYWORD]
    keyword = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=f["default"])
               for name, f in cls._parameters.items()]
    init.__signature__ = inspect.Signature(own + keyword)
    cls.__doc__ = with_fields(cls.__doc__, list(cls._parameters.values()), RAISES)


def _targets(name: str, value):
    """Shared target points, or none with the agent's own target when value is None."""
    if value is None:
        return np.zeros((0, 2), np.float32), True
    return check.points(name, value), False

