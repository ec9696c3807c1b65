"""How objects print and pickle: as the call that built them (``Chase(targets=[[20, 0]],
sideways=0.5)``), or by counted nouns (``3 walls``)."""

from __future__ import annotations

import copy
import functools
import inspect
import numbers

import numpy as np

# Arrays of up to this many numbers, and lists of up to this many objects of one type, are
# written out; larger ones by their shape or their count (a list of objects of several types,
# a pipeline's behaviours, is written out whole).
_ARRAY_SHOWN_WHOLE = 8
# Arguments kept as copies for pickling: those a caller may change in place afterwards.
_COPIED = (list, tuple, dict, np.ndarray)


class ShowsArguments:
    """Base of the classes whose repr is the call that built them, and which pickle (and
    deep-copy) as that call: loading one builds it again, with the settings it has now.

    The arguments given to the outermost ``__init__`` (a user's subclass's, not those it
    passes on to ``super().__init__``) are written down as they came, positional or by
    name; those left out (at their defaults) are not shown. A parameter that can be set
    afterwards (a property with a setter, or one named in ``_shown_as_now``) is shown and
    pickled as it is now. The others are kept as copies (lists and arrays): changing the
    array given afterwards changes neither the object nor its pickle. A subclass's public
    attributes are pickled too, as they are now.
    """

    _shown_as_now: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None:
            return
        kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        positional_names = [p.name for p in inspect.signature(init).parameters.values() if p.kind in kinds][1:]

        @functools.wraps(init)
        def init_keeping_arguments(self, *args, **kwargs):
            outermost = "_arguments_given" not in self.__dict__
            if outermost:
                self._arguments_given = []
            init(self, *args, **kwargs)
            if outermost:
                given = [(positional_names[i] if i < len(positional_names) else None, False, value)
                         for i, value in enumerate(args)]
                given += [(name, True, value) for name, value in kwargs.items()]
                # (name or None, given by keyword, text or None when shown as now, value kept),
                # written and copied now: an array given may be changed afterwards.
                self._arguments_given = [
                    (name, keyword, None, None) if self._is_shown_as_now(name) else
                    (name, keyword, show(value), copy.deepcopy(value) if isinstance(value, _COPIED) else value)
                    for name, keyword, value in given]

        cls.__init__ = init_keeping_arguments

    def __repr__(self) -> str:
        parts = []
        for name, keyword, text, _ in getattr(self, "_arguments_given", []):
            text = show(getattr(self, name)) if text is None else text
            parts.append(f"{name}={text}" if keyword else text)
        return f"{type(self).__name__}({', '.join(parts)})"

    def __reduce__(self):
        args, kwargs = [], {}
        for name, keyword, text, value in self._arguments_given:
            value = getattr(self, name) if text is None else value
            if keyword:
                kwargs[name] = value
            else:
                args.append(value)
        # A subclass's public attributes (a PythonBehavior's gain, say) as they are now;
        # the private ones are the built object's own, made again by the call.
        public = {k: v for k, v in self.__dict__.items() if not k.startswith("_")}
        return functools.partial(type(self), **kwargs), tuple(args), public or None

    def _is_shown_as_now(self, name) -> bool:
        attribute = getattr(type(self), name, None) if name else None
        return name in self._shown_as_now or (isinstance(attribute, property) and attribute.fset is not None)


def show(value) -> str:
    """``value`` as it would be typed: numbers with up to 6 significant digits, small
    arrays as nested lists, larger ones by their shape, sequences of objects as lists of
    their reprs (long ones of a single type by their count), functions by their name."""
    if value is None or isinstance(value, (bool, str)):
        return repr(value)
    if isinstance(value, np.bool_):
        return repr(bool(value))
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return f"{float(value):g}"
    if isinstance(value, (list, tuple, np.ndarray)):
        array = np.asarray(value) if _all_numbers(value) else None
        if array is None or array.dtype.kind not in "biuf":
            kinds = {type(v).__name__ for v in value}
            if len(value) > _ARRAY_SHOWN_WHOLE and len(kinds) == 1:  # a field per group of a crowd, say
                return f"<list of {counted(len(value), kinds.pop())}>"
            return "[" + ", ".join(show(v) for v in value) + "]"
        if array.size > _ARRAY_SHOWN_WHOLE:
            return f"<array of shape {array.shape}>"
        return _nested(array)
    if inspect.isfunction(value) or inspect.ismethod(value):
        return value.__qualname__
    return repr(value)


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless one: ``"1 wall"``, ``"0 walls"``, ``"3 walls"``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _all_numbers(value) -> bool:
    if isinstance(value, np.ndarray):
        return True
    return all(isinstance(v, numbers.Real) or (isinstance(v, (list, tuple, np.ndarray)) and _all_numbers(v))
               for v in value)


def _nested(array: np.ndarray) -> str:
    if array.ndim == 0:
        return show(array.item())
    return "[" + ", ".join(_nested(row) for row in array) + "]"
