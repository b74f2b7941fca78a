"""The base of hexwar's typed file models (pydantic v2) and their problem reports.

Every file kind hexwar reads is declared once, as a tree of frozen pydantic models
(:class:`FileModel`): the map in :mod:`hexwar.model.map_file`, the scenario, save and card
data beside their loaders. From that one declaration come

- the structural check: :func:`check` validates a parsed document (JSON, or TOML as a dict)
  and turns every pydantic error into a :class:`~hexwar.errors.Problem` naming the file and
  the field path in hexwar's spelling (``features.D07.fire_turns``, ``commands[3].cmd``), all
  problems at once, worded from the field's ``description`` ("expected an integer 1..500
  (hexes), got 0");
- the JSON Schema (draft 2020-12) that ``hexwar schema KIND`` prints (:func:`json_schema`);
- the format references in docs/ (``tools/gen_format_docs.py``).

Models are strict (no ``"24"`` for 24, no ``true`` for 1) and refuse unknown keys. What a
model cannot say (a terrain code in the table, a hex on the board, a card that exists) is the
semantic check of each loader, which runs after the model.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any, TypeVar

import pydantic
from pydantic import BaseModel, BeforeValidator, ConfigDict, TypeAdapter
from pydantic_core import InitErrorDetails, PydanticCustomError

from ..errors import Problem
from .documents import Lenient, Step, merge_problems, upgrade_document

__all__ = [
    "FileModel",
    "EXACT",
    "DEFERRED",
    "BUILT",
    "MAX_SCHEMA_PROBLEMS",
    "adapter",
    "validate",
    "new_list",
    "new_dict",
    "check",
    "read_lenient",
    "Lenient",
    "field_path",
    "json_schema",
    "problems_of",
    "merge_problems",
    "error_details",
    "Step",
    "upgrade_document",
]

MAX_SCHEMA_PROBLEMS = 200  # a wholly wrong file reports this many, then a count of the rest
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

M = TypeVar("M", bound=BaseModel)


class FileModel(BaseModel):
    """A part of a hexwar file: strict types, unknown keys refused, frozen once read.

    A field's ``description`` is its user documentation: it is the "expected ..." of a
    problem report, the schema's description and the line of the format reference.
    """

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def exact_number(value: Any) -> Any:
    """Refuse ``true``/``false`` and floats where a ``Literal`` of integers is expected.

    Strict mode does not reach a ``Literal`` field: pydantic compares by equality, so ``true``
    and ``1.0`` pass as ``1``. This runs before that comparison (the field's ``Literal`` then
    refuses every other value with its own message).

    Args:
        value: the document's value, as parsed (JSON or TOML).

    Returns:
        ``value`` unchanged.

    Raises:
        pydantic_core.PydanticCustomError: ``exact_number`` for a bool or a float (reported by
            :func:`check` as a problem naming the field).
    """
    if isinstance(value, bool | float):
        raise PydanticCustomError(
            "exact_number", "expected the integer itself, got {got}", {"got": json.dumps(value)}
        )
    return value


#: Put on a ``Literal`` of integers (``Annotated[Literal[1], EXACT]``): no ``true`` or ``1.0``
#: for ``1``, as the strict models say everywhere else.
EXACT = BeforeValidator(exact_number)


#: The config of a model that is only a base of others or is read by few commands (a save, a
#: round-1 map): its validator is built when it is first used, not when its module is imported,
#: so starting a game does not build it (issue 35: a game's start under 0.3 s of CPU). Same
#: checks, same messages; the first use pays the build (about 1 ms a model).
DEFERRED = FileModel.model_config | ConfigDict(defer_build=True)
#: The config of a model under a :data:`DEFERRED` base that every start reads: built at import.
BUILT = ConfigDict(defer_build=False)


def new_list() -> list[Any]:
    """A new empty list: the ``default_factory`` of a model's list field.

    The same default as ``default_factory=list``, but a Python function: for the builtin
    ``list`` pydantic reads the signature by tokenizing its text signature when it builds the
    model (about 0.1 ms a field, 2 ms the first time; issue 35: a game's start builds some 40
    such fields)."""
    return []


def new_dict() -> dict[Any, Any]:
    """A new empty dict: the ``default_factory`` of a model's table field (see :func:`new_list`)."""
    return {}


@cache
def adapter(model: type[M]) -> TypeAdapter[M]:
    """The one :class:`~pydantic.TypeAdapter` of ``model`` (built once per process), for its JSON
    Schema; documents are validated by the model's own validator (:func:`validate`)."""
    return TypeAdapter(model)


def validate(model: type[M], data: Any) -> M:
    """``data`` validated by ``model``'s own validator (built with the model, or on first use for
    a :data:`DEFERRED` one): the same checks, errors and value as a
    :class:`~pydantic.TypeAdapter` of the model, without building a second validator for it
    (issue 35: a start validates some ten kinds of file, about 0.5 ms of CPU a validator).

    A type that is not a model class (an ``Annotated`` model with a validator of its own, as
    :data:`hexwar.formats.save_file.SaveFile`) is validated by its :func:`adapter`.

    Raises:
        pydantic.ValidationError: every error of ``data``.
    """
    if isinstance(model, type) and issubclass(model, BaseModel):
        return model.model_validate(data)
    return adapter(model).validate_python(data)


@cache
def _schema(model: type[BaseModel]) -> dict[str, Any]:
    return adapter(model).json_schema(ref_template="#/$defs/{model}")


def json_schema(model: type[BaseModel], schema_id: str, title: str, description: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``model``, as ``hexwar schema KIND`` prints it.

    Args:
        model: the file's root model.
        schema_id: the ``$id`` (``urn:hexwar:schema:map``).
        title: the schema's title.
        description: what the file is (the model's docstring is for programmers).

    Returns:
        a new JSON-ready dict (the caller may change it).
    """
    body = _tidy(json.loads(json.dumps(_schema(model))))
    body.pop("title", None)
    body.pop("description", None)
    return {"$schema": SCHEMA_DIALECT, "$id": schema_id, "title": title, "description": description, **body}


def _tidy(node: Any) -> Any:
    """Schema cleanup: no generated titles; a keyed table's key pattern in ``propertyNames``."""
    if isinstance(node, list):
        return [_tidy(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: _tidy(v) for k, v in node.items() if not (k == "title" and isinstance(v, str))}
    pats = out.get("patternProperties")
    if isinstance(pats, dict) and len(pats) == 1 and isinstance(out.get("propertyNames"), dict):
        ((pattern, value),) = pats.items()
        out["propertyNames"] = {**out["propertyNames"], "pattern": pattern}
        out["additionalProperties"] = value
        del out["patternProperties"]
    return out


def field_path(parts: Iterable[Any]) -> str:
    """A location (``('features', 'D07', 'fire')``) as hexwar spells it: ``features.D07.fire``.

    >>> field_path(["commands", 3, "cmd"]), field_path([])
    ('commands[3].cmd', '')
    """
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        else:
            out += f".{p}" if out else str(p)
    return out


def _resolve(root: Mapping[str, Any], node: Mapping[str, Any]) -> Mapping[str, Any]:
    """``node`` with ``$ref`` followed and a nullable ``anyOf`` unwrapped."""
    for _ in range(8):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            node = {**root["$defs"][ref[len("#/$defs/") :]], **{k: v for k, v in node.items() if k != "$ref"}}
            continue
        any_of = node.get("anyOf")
        if isinstance(any_of, list):
            real = [x for x in any_of if x.get("type") != "null"]
            if len(real) == 1:
                node = {**real[0], **{k: v for k, v in node.items() if k != "anyOf"}}
                continue
        break
    return node


def _node_at(root: Mapping[str, Any], loc: Iterable[Any]) -> Mapping[str, Any] | None:
    """The schema node describing the value at ``loc``, or ``None``."""
    node = _resolve(root, root)
    for p in loc:
        if isinstance(p, int):
            items = node.get("items")
            if not isinstance(items, dict):
                return None
            node = _resolve(root, items)
        else:
            props = node.get("properties", {})
            if p in props:
                node = _resolve(root, props[p])
            elif isinstance(node.get("additionalProperties"), dict):
                node = _resolve(root, node["additionalProperties"])
            elif isinstance(node.get("patternProperties"), dict) and node["patternProperties"]:
                node = _resolve(root, next(iter(node["patternProperties"].values())))
            else:
                return None
    return node


def _got(value: Any) -> str:
    try:
        got = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # a TOML date and the like: not JSON
        got = repr(value)
    return got if len(got) <= 60 else got[:57] + "..."


def problems_of(exc: pydantic.ValidationError, model: type[BaseModel], src: str) -> list[Problem]:
    """Every error of ``exc`` (a validation of ``model``) as a problem naming ``src`` and the field.

    The wording is hexwar's: ``missing; expected ...``, ``unknown field; expected one of
    [...]``, ``bad name; expected ...`` (a bad key of a keyed table), ``expected ..., got ...``
    (the field's description), or the message of a model's own check. A wholly wrong file
    reports :data:`MAX_SCHEMA_PROBLEMS` problems and a count of the rest.
    """
    root = _schema(model)
    out: list[Problem] = []
    for err in exc.errors(include_url=False):
        loc = list(err["loc"])
        kind = err["type"]
        ctx = err.get("ctx") or {}
        if "[key]" in loc:  # a key of a keyed table does not fit: name the key
            i = loc.index("[key]")
            parent = _node_at(root, loc[: i - 1]) or {}
            names = parent.get("propertyNames", {}) if isinstance(parent, dict) else {}
            desc = names.get("description") or "a valid name"
            out.append(Problem(src, field_path(loc[:i]), f"bad name; expected {desc}"))
            continue
        where = field_path(loc)
        if kind == "extra_forbidden":
            parent = _node_at(root, loc[:-1]) or {}
            known = sorted(parent.get("properties", {}))
            hint = f"; expected one of {known}" if known else ""
            out.append(Problem(src, where, f"unknown field{hint}"))
            continue
        if "field" in ctx:  # a model's own check naming one of its fields
            out.append(Problem(src, field_path([*loc, ctx["field"]]), err["msg"]))
            continue
        node = _node_at(root, loc) or {}
        desc = node.get("description")
        if kind == "missing":
            out.append(Problem(src, where, f"missing; expected {desc}" if desc else "missing"))
        elif desc and not kind.startswith("value_error") and kind != "assertion_error":
            out.append(Problem(src, where, f"expected {desc}, got {_got(err['input'])}"))
        else:
            msg = err["msg"].removeprefix("Value error, ")
            out.append(Problem(src, where, msg))
    if len(out) > MAX_SCHEMA_PROBLEMS:
        rest = len(out) - MAX_SCHEMA_PROBLEMS
        out = out[:MAX_SCHEMA_PROBLEMS] + [Problem(src, "", f"... and {rest} more schema problems")]
    return out


def error_details(exc: pydantic.ValidationError) -> list[InitErrorDetails]:
    """The errors of ``exc`` as details a wrap validator can raise again with errors of its own.

    Each keeps its type name, location, message and context (re-raised as a custom error, so
    a model's own error types pass through too).
    """
    return [
        InitErrorDetails(
            type=PydanticCustomError(e["type"], e["msg"].replace("{", "{{").replace("}", "}}"), e.get("ctx")),
            loc=e["loc"],
            input=e["input"],
        )
        for e in exc.errors(include_url=False)
    ]


def check(model: type[M], data: Any, src: str) -> tuple[M | None, list[Problem]]:
    """Validate ``data`` against ``model``: ``(the typed value, [])`` or ``(None, problems)``.

    Args:
        model: the file's root model.
        data: the parsed document.
        src: the file name for the reports.
    """
    try:
        return validate(model, data), []
    except pydantic.ValidationError as exc:
        return None, problems_of(exc, model, src)


def read_lenient(model: type[M], data: Any, src: str, rounds: int = 8) -> Lenient[M]:
    """Validate ``data`` against ``model``, and when it does not fit, read what does.

    Every problem is reported as by :func:`check`. The parts the model refuses are then left
    out (the nearest optional field holding each error: a bad ``budget`` drops the budget, a bad
    item of a list drops the list, an unknown key drops the key; a required field takes a
    neutral value of its type once, ``0``, ``""``, ``[]``, ``"x"``, when that fits) and the rest validated
    again, so a loader's semantic checks still run on everything else and one run reports
    everything.

    Args:
        model: the file's root model.
        data: the parsed document (not changed).
        src: the file name for the reports.
        rounds: how many times to leave parts out before giving up.

    Returns:
        a :class:`Lenient`: ``(typed value, [], {})`` for a fitting document; ``(typed value
        of what fits, problems, paths filled in)`` for one that does not; ``(None, problems,
        ...)`` when a required part is broken beyond a neutral value (nothing left to read).
    """
    try:
        return Lenient(validate(model, data), [], frozenset())
    except pydantic.ValidationError as exc:
        problems = problems_of(exc, model, src)
        errors = exc.errors(include_url=False)
    root = _schema(model)
    doc = data
    tried: set[tuple[Any, ...]] = set()
    dropped: set[tuple[Any, ...]] = set()  # optional fields left out: not filled, but not read either
    for _ in range(rounds):
        pruned = _prune(doc, root, errors, tried, dropped)
        filled = frozenset(field_path(t) for t in tried)
        gone = filled | frozenset(field_path(t) for t in dropped)
        if pruned is None:
            return Lenient(None, problems, gone)
        doc = pruned
        try:
            return Lenient(validate(model, doc), problems, gone)
        except pydantic.ValidationError as exc:
            errors = exc.errors(include_url=False)
            # a model's own rules run only once its fields fit: report what they find now, but
            # nothing about a part holding a value filled in here, nor a part left out here (a
            # wrong `side` is reported once, not again as "missing": that part is already refused)
            seen = {(p.where, p.message) for p in problems}
            parents = frozenset(_parent(f) for f in filled)
            left_out = frozenset(field_path(t) for t in dropped)
            fresh = Lenient(None, problems_of(exc, model, src), filled | parents | left_out)
            problems = problems + [
                p for p in fresh.semantic(fresh.problems) if (p.where, p.message) not in seen
            ]
    return Lenient(None, problems, frozenset(field_path(t) for t in tried | dropped))


_NO_VALUE = object()


def _neutral(node: Mapping[str, Any] | None) -> Any:
    """A neutral value of the schema ``node``'s type (``_NO_VALUE`` when it names none); the
    model then says whether it fits."""
    if node is None:
        return _NO_VALUE
    if "const" in node:
        return node["const"]
    if node.get("enum"):
        return node["enum"][0]
    kind = node.get("type")
    if kind == "integer":
        return max(0, node.get("minimum", 0))
    if kind == "string" and isinstance(node.get("pattern"), str):  # a text of the right spelling
        for cand in ("", "x", "A01", "A01:A01"):
            try:
                if re.search(node["pattern"], cand) and len(cand) >= node.get("minLength", 0):
                    return cand
            except re.error:
                break
        return _NO_VALUE
    neutral: dict[Any, Any] = {"string": "", "boolean": False, "array": [], "object": {}}
    return neutral.get(kind, _NO_VALUE)


def _prune(
    doc: Any,
    root: Mapping[str, Any],
    errors: list[Any],
    tried: set[tuple[Any, ...]],
    dropped: set[tuple[Any, ...]] | None = None,
) -> Any:
    """A copy of ``doc`` where each error's part is left out or made neutral, or ``None``.

    The nearest part holding the error that can go goes: an optional field is left out (its
    path added to ``dropped``); a required field, a missing one or a list item takes a neutral
    value of its type once (``tried``); a list is never emptied for one bad item. ``None`` when
    only the root is left.
    """
    out = copy.deepcopy(doc)
    for err in errors:
        parts = list(err["loc"])
        if "[key]" in parts:
            parts = parts[: parts.index("[key]")]
        elif "field" in (err.get("ctx") or {}):  # a model's own check naming a field: a missing key
            parts.append(err["ctx"]["field"])
        if _depth(out, parts) < min(_depth(doc, parts), len(parts) - 1):
            continue  # a part holding it is already left out
        for j in range(len(parts), 0, -1):
            key = parts[j - 1]
            node = _node_at(root, parts[: j - 1])
            parent = out
            try:
                for p in parts[: j - 1]:
                    parent = parent[p]
            except (KeyError, IndexError, TypeError):
                continue
            if node is None or not isinstance(parent, (dict, list)):
                continue
            if isinstance(key, str) and isinstance(parent, dict) and key not in node.get("required", ()):
                if key in parent:
                    del parent[key]
                    if dropped is not None:
                        dropped.add(tuple(parts[:j]))
                    break
            here = tuple(parts[:j])
            value = _neutral(_node_at(root, parts[:j]))
            in_item = any(isinstance(x, int) for x in parts[j:])  # a bad item: the list itself is fine
            if here in tried or value is _NO_VALUE or in_item:
                continue
            if isinstance(key, int) != isinstance(parent, list):
                continue
            if isinstance(parent, list) and not 0 <= key < len(parent):
                continue
            tried.add(here)
            parent[key] = copy.deepcopy(value)
            break
        else:
            return None
    return out


def _parent(where: str) -> str:
    """The field holding ``where``: ``a.b[2]`` of ``a.b[2].c``, ``a.b`` of ``a.b[2]``."""
    cut = max(where.rfind("."), where.rfind("["))
    return where[:cut] if cut > 0 else where


def _depth(doc: Any, parts: list[Any]) -> int:
    """How many steps of ``parts`` exist in ``doc``."""
    for n, p in enumerate(parts):
        try:
            doc = doc[p]
        except (KeyError, IndexError, TypeError):
            return n
    return len(parts)
