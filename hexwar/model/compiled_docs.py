"""The shipped documents in compiled form: a start of a shipped scenario reads its files'
validated values instead of validating them again (issue 35: a CLI game loads its scenario and
map in under 0.3 s of CPU).

The shipped scenarios, maps, decks and rules tables are the same bytes at every start of one
installed hexwar, yet each start parsed them and validated them by their typed models, which
meant importing pydantic and building some twenty model classes: about 0.13 s of a 0.33 s
start. ``hexwar/data/compiled/`` holds, for each shipped document, the value its model gave
(every field, nested models, tuples and lists as they were, and each model's
``model_fields_set``), in a file named by the SHA-256 of the document's bytes, with the
fingerprint of the code that reads it (:data:`CODE`: the models, the migrations, this module).
:func:`lookup` hands the value back as a read-only :class:`Doc` tree only when a file for
exactly these bytes exists and was written by exactly this code; anything else (a user's own
file, an edited shipped file, a developer's change not compiled yet, a damaged compiled file)
returns ``None`` and the loader validates as before, reporting every problem. So the compiled
form is never a second source of truth: like Python's bytecode cache, it is the validated
result of these bytes. The loaders' semantic checks (cards that exist, hexes on the map, decks,
stacking, R4, R5, R10) still run on it. ``tests/test_compiled_docs.py`` checks each shipped
document's compiled value equals a fresh validation and that a load through it builds the same
game; ``python tools/compile_docs.py`` writes the folder again (the cards have their own,
:mod:`hexwar.rules.cards.shipped`).

A compiled file is two lines: a header (format, version, kind, the code's fingerprint and a
check) and the payload. The check is the SHA-256 of the document's key and the payload's bytes,
so a file the compiler did not write as it is (an edited number, damage, a truncated or swapped
file) is refused before its payload is parsed, and the document validated from its own file;
so is a file over :data:`MAX_BYTES`, a link to something else or a directory. The folder is
trusted as the package's code is: whoever can forge a check there can edit hexwar itself.
``hexwar validate`` never uses it (:func:`bypassed`). Nothing read is executed: JSON whose
objects are a model (``{"$m": fields, "$s": set}``), a tuple (``{"$t": items}``) or a mapping
(``{"$d": entries}``); anything else is refused.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = [
    "FORMAT",
    "KINDS",
    "CODE",
    "Doc",
    "compiled_dir",
    "key_of",
    "code_fingerprint",
    "hash_sources",
    "read_headed",
    "lookup",
    "bypassed",
    "encode",
    "decode",
    "document_file",
]

FORMAT = "hexwar-compiled-document"
_VERSION = 1
#: the document kinds compiled: hex scenario, lines scenario, map, deck, the rules tables
KINDS = ("scenario", "lines-scenario", "map", "deck", "terrain", "wrecks", "effects")
#: the source files (relative to the ``hexwar`` package) that turn a document's bytes into its
#: validated value: the models of every kind, their shared base, the migrations, this module
CODE = (
    "model/compiled_docs.py",
    "model/documents.py",
    "model/filemodel.py",
    "model/map_format.py",
    "model/map_file.py",
    "model/terrain_file.py",
    "formats/scenario_file.py",
    "formats/lines_file.py",
    "formats/deck_file.py",
    "formats/effects_file.py",
    "formats/effect_rules.py",
    "formats/migrate.py",
    "formats/save_steps.py",
)
#: switched off by tests that compare the compiled path with the validating one, and by
#: :func:`bypassed` (``hexwar validate`` validates the file itself)
ENABLED = True
#: a compiled file larger than this is not read (the shipped ones are under 100 KB)
MAX_BYTES = 4 * 1024 * 1024


@contextmanager
def bypassed() -> Iterator[None]:
    """Within the block no compiled document is used: every file is validated by its model
    (``hexwar validate`` checks the file, not the compiled form of its bytes)."""
    global ENABLED
    was, ENABLED = ENABLED, False
    try:
        yield
    finally:
        ENABLED = was


def compiled_dir() -> Path:
    """The package's folder of compiled documents (``hexwar/data/compiled``)."""
    return Path(str(resources.files("hexwar") / "data" / "compiled"))


def key_of(text: str) -> str:
    """The SHA-256 (hex) of a document's text as UTF-8: the name of its compiled file."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def document_file(text: str, folder: Path | None = None) -> Path:
    """Where the compiled form of the document ``text`` is (or would be) written."""
    return (folder or compiled_dir()) / f"{key_of(text)}.json"


@cache
def code_fingerprint(code: tuple[str, ...] = CODE) -> str | None:
    """The SHA-256 (hex) of the source files ``code`` (paths relative to the ``hexwar``
    package); ``None`` when one cannot be read (then nothing compiled is trusted)."""
    h = hashlib.sha256(f"{FORMAT} {_VERSION}\n".encode())
    try:
        hash_sources(h, code)
    except OSError:
        return None
    return h.hexdigest()


def hash_sources(h: Any, code: Iterable[str]) -> None:
    """Feed the source files ``code`` (paths relative to the ``hexwar`` package), each with its
    name and length, into the hash ``h`` (a :mod:`hashlib` object); shared with the compiled
    card set's fingerprint (:func:`hexwar.rules.cards.shipped.fingerprint`).

    Raises:
        OSError: when a file cannot be read.
    """
    root = Path(__file__).resolve().parents[1]
    for rel in code:
        data = (root / rel).read_bytes()
        h.update(f"code {rel} {len(data)}\n".encode())
        h.update(data)


class Doc:
    """A validated model's values, read-only, by attribute as on the model instance
    (``doc.scenario.turns``), with the model's ``model_fields_set`` (the fields the document
    set, defaults left out). Equal when the values are.

    Raises:
        AttributeError: for a field the model does not have, and on any assignment.
    """

    __slots__ = ("_values", "model_fields_set")

    def __init__(self, values: dict[str, Any], fields_set: frozenset[str]) -> None:
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "model_fields_set", fields_set)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a compiled document is read-only ({name!r})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Doc) and self._values == other._values

    __hash__ = None  # type: ignore[assignment]

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        """``(field, value)`` pairs, as iterating a pydantic model gives."""
        return iter(self._values.items())

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self._values.items())
        return f"Doc({inner})"


def encode(value: Any) -> Any:
    """A validated model value (a pydantic model instance and what it holds) as JSON-ready
    data :func:`decode` turns back into the same values.

    Raises:
        TypeError: for a value of a type no shipped model holds (a set, a non-finite float, an
            object), so the compile step fails rather than write something it cannot read back.
    """
    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        names = type(value).model_fields
        return {"$m": {n: encode(getattr(value, n)) for n in names}, "$s": sorted(value.model_fields_set)}
    if isinstance(value, tuple):
        return {"$t": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise TypeError(f"a mapping with keys that are not text: {list(value)[:3]!r}")
        return {"$d": {k: encode(v) for k, v in value.items()}}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    raise TypeError(f"cannot compile a {type(value).__name__}: {value!r:.60}")


class _Refused(Exception):
    """The compiled data is not what :func:`encode` writes."""


def decode(data: Any) -> Any:
    """The values :func:`encode` wrote: :class:`Doc` for a model, tuples, lists, dicts.

    Raises:
        ValueError: for anything :func:`encode` does not write.
    """
    try:
        return _decode(data)
    except (_Refused, TypeError, AttributeError) as exc:
        raise ValueError(f"not a compiled document: {exc}") from None


def _decode(v: Any) -> Any:
    if isinstance(v, dict):
        if len(v) == 2 and "$m" in v and "$s" in v:
            fields = v["$m"]
            if not isinstance(fields, dict):
                raise _Refused("model fields")
            return Doc({str(k): _decode(x) for k, x in fields.items()}, frozenset(str(s) for s in v["$s"]))
        if len(v) == 1 and "$t" in v and isinstance(v["$t"], list):
            return tuple(_decode(x) for x in v["$t"])
        if len(v) == 1 and "$d" in v and isinstance(v["$d"], dict):
            return {str(k): _decode(x) for k, x in v["$d"].items()}
        raise _Refused(f"object with keys {sorted(v)[:4]}")
    if isinstance(v, list):
        return [_decode(x) for x in v]
    if v is None or isinstance(v, (bool, int, str)) or (isinstance(v, float) and math.isfinite(v)):
        return v
    raise _Refused(type(v).__name__)


_FOUND: dict[str, tuple[str, Any] | None] = {}


def lookup(text: str, kinds: Iterable[str]) -> Doc | None:
    """The validated value of the document ``text`` when its compiled form exists, was written
    by this code and is of one of ``kinds``; else ``None`` (validate it as usual).

    Args:
        text: the document's text, exactly as read.
        kinds: the kinds the caller reads (a subset of :data:`KINDS`).
    """
    if not ENABLED:
        return None
    key = key_of(text)
    if key not in _FOUND:
        _FOUND[key] = _read(compiled_dir() / f"{key}.json")
    found = _FOUND[key]
    if found is None or found[0] not in tuple(kinds):
        return None
    return found[1]  # type: ignore[no-any-return]


def read_headed(
    path: Path, fmt: str, version: int, max_bytes: int | None = None
) -> tuple[dict[str, Any], bytes] | None:
    """The header (a JSON object of ``format`` ``fmt`` and ``version``) and the payload bytes of a
    compiled file written as two lines (this module's documents, the compiled card set), or
    ``None`` for a missing or unreadable file, a link to something that is not a file, a file
    over ``max_bytes`` (default :data:`MAX_BYTES`), a header that is not one, or a payload not
    ended by its newline (cut short). Never raises; the caller checks the rest of the header.
    """
    try:
        if not path.is_file() or path.stat().st_size > (max_bytes or MAX_BYTES):
            return None
        raw = path.read_bytes()
    except OSError:
        return None
    head_raw, sep, payload = raw.partition(b"\n")
    if not sep or not payload.endswith(b"\n"):
        return None
    try:
        head = json.loads(head_raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(head, dict) or head.get("format") != fmt or head.get("version") != version:
        return None
    return head, payload[:-1]


def _check_of(key: str, payload: bytes) -> str:
    """The SHA-256 (hex) binding a compiled payload to the document's key (its bytes' hash)."""
    return hashlib.sha256(key.encode() + b"\n" + payload).hexdigest()


def _read(path: Path) -> tuple[str, Any] | None:
    """The ``(kind, Doc)`` in the compiled file ``path``, or ``None`` for anything that is not
    exactly what :func:`compiled_document` wrote for that key with this code: a missing, large,
    truncated, edited or damaged file, another format, version, kind or code (never raises)."""
    read = read_headed(path, FORMAT, _VERSION)
    if read is None:
        return None
    head, payload = read
    fp = code_fingerprint()
    if fp is None or head.get("code") != fp or head.get("kind") not in KINDS:
        return None
    if head.get("check") != _check_of(path.stem, payload):  # an edit the compiler did not make
        return None
    try:
        doc = decode(json.loads(payload))
    except (ValueError, RecursionError):
        return None
    return (str(head["kind"]), doc) if isinstance(doc, Doc) else None


def compiled_document(kind: str, text: str, value: Any) -> str:
    """The compiled file's text for document ``text`` of ``kind`` whose validated model value is
    ``value`` (written by ``tools/compile_docs.py``).

    Raises:
        ValueError: for an unknown kind; TypeError: see :func:`encode`.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown document kind {kind!r}; expected one of {KINDS}")
    payload = json.dumps(encode(value), separators=(",", ":"))  # mappings keep their order
    head = {
        "format": FORMAT,
        "version": _VERSION,
        "kind": kind,
        "code": code_fingerprint(),
        "check": _check_of(key_of(text), payload.encode()),
    }
    return json.dumps(head, sort_keys=True) + "\n" + payload + "\n"
