"""Table options in words: each option with a plain description, the values it takes and its
default ("a whole number from 10 to 900; 90 by default"), and a refused option explained the same
way ("choosing_seconds must be a whole number from 10 to 900"), never in the validator's terms."""

from __future__ import annotations

import types
import typing
from typing import Any, Literal

from annotated_types import Ge, Gt, Le, Lt
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo


def _bounds(info: FieldInfo) -> tuple[Any, Any]:
    low: Any = None
    high: Any = None
    for item in info.metadata:
        if isinstance(item, Ge):
            low = item.ge
        elif isinstance(item, Gt):
            low = item.gt
        elif isinstance(item, Le):
            high = item.le
        elif isinstance(item, Lt):
            high = item.lt
    return low, high


def _parts(annotation: Any) -> tuple[list[Any], bool]:
    """The annotation's types, and whether None is one of them."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(annotation)
        return [a for a in args if a is not type(None)], type(None) in args
    return [annotation], False


def with_nones(model: type[BaseModel], data: dict[str, Any]) -> dict[str, Any]:
    """Options typed as text (``turn_seconds=none``): "none" or "null" is None for an option
    that may be none, as ``takes`` says it may."""
    out = dict(data)
    for key, value in data.items():
        info = model.model_fields.get(key)
        if info is not None and isinstance(value, str) and value.strip().lower() in ("none", "null") \
                and _parts(info.annotation)[1]:
            out[key] = None
    return out


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def takes(info: FieldInfo) -> str:
    """What an option accepts, in words: "a whole number from 10 to 900", "random or none"."""
    kinds, optional = _parts(info.annotation)
    kind = kinds[0] if kinds else str
    low, high = _bounds(info)
    if typing.get_origin(kind) is Literal:
        values = [str(v) for v in typing.get_args(kind)]
        said = " or ".join(values) if len(values) == 2 else "one of " + ", ".join(values)
    elif kind is bool:
        said = "true or false"
    elif kind in (int, float):
        noun = "a whole number" if kind is int else "a number"
        if low is not None and high is not None:
            said = f"{noun} from {_number(low)} to {_number(high)}"
        elif low is not None:
            said = f"{noun} of at least {_number(low)}"
        elif high is not None:
            said = f"{noun} of at most {_number(high)}"
        else:
            said = noun
    else:
        said = "a text"
        if info.metadata and any(hasattr(m, "max_length") for m in info.metadata):
            longest = next(m.max_length for m in info.metadata if hasattr(m, "max_length"))
            said = f"a text of at most {longest} characters"
    return said + (" (or none)" if optional else "")


def default_in_words(info: FieldInfo) -> str:
    """The default as a player reads it; a field may word it itself (``json_schema_extra``
    ``{"default_words": "no timer"}``)."""
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    if extra.get("default_words"):
        return str(extra["default_words"])
    default = info.get_default(call_default_factory=True)
    if default is None:
        return "none"
    if isinstance(default, bool):
        return "on (true)" if default else "off (false)"
    if isinstance(default, (int, float)):
        return _number(default)
    if isinstance(default, (list, tuple, dict, set, str)) and not default:
        return "none"
    return str(default)


def describe(model: type[BaseModel]) -> list[str]:
    """One line per option: its name, what it does, what it takes and its default."""
    lines = []
    for name, info in model.model_fields.items():
        what = (info.description or "").strip().rstrip(".")
        lines.append(f"• **{name}**{': ' + what if what else ''}. Takes {takes(info)}; "
                     f"{default_in_words(info)} by default.")
    return lines


def readable_error(exc: ValidationError, model: type[BaseModel] | None = None, *, subject: str = "") -> str:
    """A refused set of options (or an action) in plain sentences: what each key takes, or which
    keys exist."""
    fields = model.model_fields if model is not None else {}
    said: list[str] = []
    for err in exc.errors():
        loc = [str(x) for x in err.get("loc", ()) if not isinstance(x, int)]
        key = loc[0] if loc else ""
        if err.get("type") == "extra_forbidden" and model is not None:
            known = ", ".join(fields) or "none"
            sentence = f"{key!r} is not an option{' of ' + subject if subject else ''}. The options are: {known}"
        elif key in fields:
            sentence = f"`{key}` must be {takes(fields[key])}"
        else:
            where = ".".join(loc)
            sentence = f"{where}: {err.get('msg', 'is not valid')}" if where else err.get("msg", "is not valid")
        if sentence not in said:
            said.append(sentence)
        if len(said) == 3:
            break
    return ". ".join(s[0].upper() + s[1:] for s in said) + "."
