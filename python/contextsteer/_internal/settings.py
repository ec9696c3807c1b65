"""Settings of a world made from a C++ struct's declared fields (as behaviours' parameters
are): ``Goals`` and ``Contact`` subclass :class:`Settings`, naming their struct and fields.
Each value is checked as given, naming it; the class's signature, properties and
docstring come from the fields."""

from __future__ import annotations

import inspect
from typing import Any

from .arguments import ShowsArguments
from .docstrings import with_fields
from .fields import RAISES, checked, unit_words


class Settings(ShowsArguments):
    """Base of a world's settings: ``class Goals(Settings, params=_core.GoalParams,
    fields=_core.GOAL_FIELDS)``."""

    _params: type
    _fields: dict[str, dict]  # name -> the C++ field's description

    def __init_subclass__(cls, params=None, fields=None, **kwargs):
        super().__init_subclass__(**kwargs)
        if params is None:
            return
        cls._params = params
        cls._fields = {f["name"]: f for f in fields}
        for name, spec in cls._fields.items():
            unit = f" ({unit_words(spec)})" if spec["unit"] else ""
            setattr(cls, name, property(lambda self, name=name: getattr(self._core, name),
                                        doc=f"{spec['doc']}{unit}; {spec['default']!r} by default."))
        def __init__(self, **settings: Any) -> None:
            Settings.__init__(self, **settings)

        # A signature of the class's own, listing its settings with their defaults.
        __init__.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
            + [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=f["default"])
               for n, f in cls._fields.items()])
        cls.__init__ = __init__  # type: ignore[method-assign]
        cls.__doc__ = with_fields(cls.__doc__, list(cls._fields.values()), RAISES)

    def __init__(self, **settings: Any) -> None:
        params = self._params()
        for name, value in settings.items():
            spec = self._fields.get(name)
            if spec is None:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {name!r}; "
                                f"its settings are {', '.join(self._fields)}")
            setattr(params, name, checked(spec, value))
        self._core = params

    @classmethod
    def _of_core(cls, params):
        return cls(**{name: getattr(params, name) for name in cls._fields
                      if getattr(params, name) != cls._fields[name]["default"]})

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and all(getattr(self, n) == getattr(other, n) for n in self._fields)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in self._fields))

    def settings(self) -> dict:
        """The settings that differ from the defaults, by name.

        Returns
        -------
        dict
            Name -> value.

        Examples
        --------
        >>> import contextsteer as cs
        >>> cs.Goals(patience=2.0).settings()
        {'patience': 2.0}
        """
        return {n: getattr(self, n) for n in self._fields if getattr(self, n) != self._fields[n]["default"]}

    def replace(self, **changes):
        """A copy with ``changes`` set.

        Parameters
        ----------
        **changes
            Settings by name, checked as the constructor checks them.

        Returns
        -------
        Settings
            The copy, of the same class.

        Examples
        --------
        >>> import contextsteer as cs
        >>> cs.Goals(patience=2.0).replace(stall_time=0.5).settings()
        {'stall_time': 0.5, 'patience': 2.0}
        """
        return type(self)(**{**{n: getattr(self, n) for n in self._fields}, **changes})
