"""What every file loader shares that needs no model library: a lenient read's result
(:class:`Lenient`), the problems' merge (:func:`merge_problems`) and ``schema_version``
upgrades (:func:`upgrade_document`), and the entry points :func:`read_lenient` and
:func:`check`, which import the typed models' machinery (:mod:`hexwar.model.filemodel`,
pydantic) only when a document is validated.

A start of a shipped scenario validates nothing: its documents come from their compiled form
(:mod:`hexwar.model.compiled_docs`), so it does not import pydantic at all (issue 35: a CLI
game loads its scenario and map in under 0.3 s of CPU; ``tests/test_startup_imports.py``).
:mod:`hexwar.model.filemodel` re-exports every name.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Generic, NamedTuple, TypeVar

from ..errors import Problem, ValidationError

__all__ = ["Lenient", "Step", "upgrade_document", "merge_problems", "read_lenient", "check"]

M = TypeVar("M")


class Lenient(NamedTuple, Generic[M]):
    """What :func:`read_lenient` read: the typed value (``None``: nothing readable), every
    problem of the document, and the field paths it gave neutral values or left out because
    they did not fit (``filled``)."""

    value: M | None
    problems: list[Problem]
    filled: frozenset[str]

    def semantic(self, problems: list[Problem]) -> list[Problem]:
        """``problems`` of a loader's semantic checks without those about a value it filled in
        or left out (the document did not hold it as read; its own problem is already reported,
        naming what the document held: ``hex: expected a hex label like 'D07', got 'A'``, never
        the check's ``got None`` of the value left out)."""
        return [
            p
            for p in problems
            if not any(p.where == f or p.where.startswith((f + ".", f + "[", f + " ")) for f in self.filled)
        ]


#: A migration step: the parsed document of version N in, a NEW document of version N + 1 out
#: (the input is never changed, so no caller copies a whole 500x500 map to be safe).
Step = Callable[[dict[str, Any]], dict[str, Any]]


def upgrade_document(
    doc: dict[str, Any],
    current: int,
    steps: Mapping[int, Step],
    src: str = "<memory>",
    default: int | None = None,
) -> tuple[dict[str, Any], list[int]]:
    """Run the steps from ``doc``'s ``schema_version`` up to ``current``, in memory.

    Args:
        doc: the parsed document (not changed).
        current: the version this hexwar reads.
        steps: from_version -> the step to from_version + 1.
        src: the file name for problem reports.
        default: the version of a document without ``schema_version`` (``None``: required).

    Returns:
        ``(document of version current, versions stepped from)``; ``doc`` itself when it
        was current already.

    Raises:
        ValidationError: naming ``schema_version`` when it is not an integer, newer than this
            hexwar reads, or older than any step known.
    """
    v = doc.get("schema_version", default)
    if not isinstance(v, int) or isinstance(v, bool):
        # the value as the file writes it (true, 1.0, "1"), as the models' own messages say it;
        # Python's repr read "got True" and, for no field at all, "got None" (fresh7)
        try:
            got = "got " + json.dumps(v, ensure_ascii=False)[:60]
        except (TypeError, ValueError):  # a TOML date and the like: not JSON
            got = f"got {v!r}"[:64]
        want = "1" if current == 1 else f"an integer 1..{current}"  # "1..1" read oddly
        said = f"missing; expected {want}" if "schema_version" not in doc else f"expected {want}, {got}"
        raise ValidationError([Problem(src, "schema_version", said)])
    if v > current:
        raise ValidationError(
            [
                Problem(
                    src,
                    "schema_version",
                    f"version {v} is newer than this hexwar reads "
                    f"(up to {current}): update hexwar to open this file",
                )
            ]
        )
    out = doc
    stepped: list[int] = []
    while v < current:
        step = steps.get(v)
        if step is None:
            raise ValidationError(
                [Problem(src, "schema_version", f"expected 1..{current}; no migration from version {v}")]
            )
        out = step(out)
        stepped.append(v)
        v += 1
    return out, stepped


def merge_problems(schema: list[Problem], semantic: list[Problem]) -> list[Problem]:
    """Schema problems first, then the semantic ones; a schema problem is dropped when a
    semantic check names the same field (or a hex inside it) more precisely.

    >>> a = [Problem("f", "levels[2]", "expected digits"), Problem("f", "width", "expected 1..500")]
    >>> b = [Problem("f", "levels[2] A03", "ground level 'x'; expected a digit 0-9")]
    >>> [p.where for p in merge_problems(a, b)]
    ['width', 'levels[2] A03']
    """
    wheres = [p.where for p in semantic]

    def covered(w: str) -> bool:
        return any(s == w or s.startswith(w + " ") or s.startswith(w + ".") for s in wheres) if w else False

    return [p for p in schema if not covered(p.where)] + list(semantic)


def read_lenient(model: type[M], data: Any, src: str, rounds: int = 8) -> Lenient[M]:
    """:func:`hexwar.model.filemodel.read_lenient` (validate ``data`` by ``model``, and when it
    does not fit, read what does), importing the model machinery on first use.

    Args:
        model: the file's root model class.
        data: the parsed document (not changed).
        src: the file name for the reports.
        rounds: how many times to leave parts out before giving up.
    """
    from .filemodel import read_lenient as read

    return read(model, data, src, rounds)  # type: ignore[type-var]  # M is a model class there


def check(model: type[M], data: Any, src: str) -> tuple[M | None, list[Problem]]:
    """:func:`hexwar.model.filemodel.check`: ``(the typed value, [])`` or ``(None, problems)``,
    importing the model machinery on first use.

    Args:
        model: the file's root model class.
        data: the parsed document.
        src: the file name for the reports.
    """
    from .filemodel import check as chk

    return chk(model, data, src)  # type: ignore[type-var]  # M is a model class there
