"""The shipped card set in compiled form: a game's start without parsing and validating the card
files again (issue 35: a CLI game loads its scenario and map in under 0.3 s of CPU).

The package's own cards (``hexwar/data/cards/*.toml``) are the same at every start of one
installed hexwar, yet reading them meant parsing eight TOML files, building the 30 card file
models (:mod:`hexwar.formats.card_file`) and validating every card: about 0.045 s of CPU at
every start. ``hexwar/data/cards/compiled.json`` holds the :class:`CardSet` that
:func:`hexwar.rules.cards.load_cards` built from those files (every card as its field values),
with a fingerprint: the SHA-256 of the card files' names and bytes and of the source of the code
that turns them into a card set (:data:`CODE`). :func:`compiled_cards` returns the set only when
the fingerprint of the files and code on disk is the one recorded; any change to a card file or
to that code (an edited install, a developer's change not compiled yet) falls back to the full
load, with every problem reported as before. So the compiled form is never a second source of
truth: it is the validated result of exactly these bytes, like Python's own bytecode cache, and
``tests/test_cards_compiled.py`` checks it is current and equal, field by field and type by
type, to what the full load builds. ``python tools/compile_cards.py`` writes it again.

Nothing in the file is executed: JSON, whose objects name one of the card classes below
(anything else is refused and the full load runs).
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ...fileio import atomic_write_text
from ...model.compiled_docs import hash_sources, read_headed
from .cardset import CardSet
from .definitions import (
    CombatRules,
    CommandCard,
    CrewQuality,
    DamageCard,
    DamageSide,
    Effect,
    EffectKind,
    EventCard,
    UnitCard,
    Weapon,
)

__all__ = [
    "COMPILED_NAME",
    "COMPILED_FORMAT",
    "CODE",
    "card_data_dir",
    "default_cards",
    "fingerprint",
    "compiled_cards",
    "encode_cards",
    "decode_cards",
    "write_compiled",
]

COMPILED_NAME = "compiled.json"  #: beside the card files
COMPILED_FORMAT = "hexwar-cards-compiled"
_VERSION = 2  #: 2: a header line (fingerprint, check) above the payload line
#: a compiled card set larger than this is not read (the shipped one is about 100 KB)
MAX_BYTES = 4 * 1024 * 1024
#: the source files (relative to the ``hexwar`` package) that turn the card files into a
#: :class:`CardSet`: the reader, the card file models and the card classes
CODE = (
    "rules/cards/loader.py",
    "rules/cards/definitions.py",
    "rules/cards/cardset.py",
    "rules/cards/shipped.py",
    "formats/card_file.py",
    "formats/card_vocab.py",
    "formats/effect_rules.py",
)
_CLASSES: dict[str, type] = {
    c.__name__: c
    for c in (
        CombatRules,
        CommandCard,
        CrewQuality,
        DamageCard,
        DamageSide,
        Effect,
        EventCard,
        UnitCard,
        Weapon,
    )
}
_ENUMS: dict[str, type[Enum]] = {"EffectKind": EffectKind}
_MAPPINGS = ("weapons", "units", "qualities", "command", "damage", "events")


def card_data_dir() -> Path:
    """The package's card folder (``hexwar/data/cards``)."""
    return Path(str(resources.files("hexwar") / "data" / "cards"))


def fingerprint(folder: Path, code: Iterable[str] = CODE) -> str | None:
    """The SHA-256 (hex) of the card files in ``folder`` (names and bytes, by name) and of the
    source files ``code`` (paths relative to the ``hexwar`` package); ``None`` when a file cannot
    be read (then nothing compiled is trusted)."""
    h = hashlib.sha256(f"{COMPILED_FORMAT} {_VERSION}\n".encode())
    try:
        for p in sorted(folder.glob("*.toml")):
            data = p.read_bytes()
            h.update(f"card {p.name} {len(data)}\n".encode())
            h.update(data)
        hash_sources(h, code)
    except OSError:
        return None
    return h.hexdigest()


def encode_cards(cards: CardSet) -> dict[str, Any]:
    """``cards`` as a JSON-ready document (without the fingerprint).

    Every card object is written once, children before parents, in ``objects``; a reference to
    one is ``{"$r": index}``, so an object shared in the set (a weapon of several units) is one
    object again when read. Tuples are lists, an :class:`EffectKind` is ``{"$e": ..., "v": ...}``;
    ``sources`` keeps the file names only (the folder is where the set is read).

    Raises:
        TypeError: for a value of a type the card classes do not hold.
    """
    objects: list[dict[str, Any]] = []
    index: dict[int, int] = {}

    def enc(v: Any) -> Any:
        if is_dataclass(v) and not isinstance(v, type):
            if id(v) not in index:
                body = {f.name: enc(getattr(v, f.name)) for f in fields(v)}
                if type(v).__name__ not in _CLASSES:
                    raise TypeError(f"not a card class: {type(v).__name__}")
                objects.append({"$": type(v).__name__, **body})
                index[id(v)] = len(objects) - 1
            return {"$r": index[id(v)]}
        if isinstance(v, Enum):
            return {"$e": type(v).__name__, "v": v.value}
        if isinstance(v, tuple):
            return [enc(x) for x in v]
        if v is None or isinstance(v, (str, int, float)):
            return v
        raise TypeError(f"cannot compile a {type(v).__name__} value")

    body: dict[str, Any] = {name: {k: enc(x) for k, x in getattr(cards, name).items()} for name in _MAPPINGS}
    body["rules"] = enc(cards.rules)
    body["sources"] = [Path(s).name for s in cards.sources]
    return {"format": COMPILED_FORMAT, "version": _VERSION, "objects": objects, **body}


def decode_cards(doc: Mapping[str, Any], folder: Path) -> CardSet:
    """The :class:`CardSet` of a document :func:`encode_cards` wrote; ``sources`` in ``folder``.

    Raises:
        KeyError, TypeError, ValueError, IndexError: for a document not written by
            :func:`encode_cards` (a class or enum name not of the card classes, a bad reference).
    """
    built: list[Any] = []

    def dec(v: Any) -> Any:
        if isinstance(v, list):
            return tuple(dec(x) for x in v)
        if isinstance(v, dict):
            if "$r" in v:
                i = v["$r"]
                if not isinstance(i, int) or not 0 <= i < len(built):
                    raise IndexError(f"bad reference {i!r}")
                return built[i]
            return _ENUMS[v["$e"]](v["v"])
        return v

    for o in doc["objects"]:
        cls = _CLASSES[o["$"]]
        built.append(cls(**{k: dec(x) for k, x in o.items() if k != "$"}))
    maps = {name: MappingProxyType({k: dec(x) for k, x in doc[name].items()}) for name in _MAPPINGS}
    return CardSet(
        **maps,  # type: ignore[arg-type]
        rules=dec(doc["rules"]),
        sources=tuple(str(folder / name) for name in doc["sources"]),
    )


def compiled_cards(folder: Path | None = None) -> CardSet | None:
    """The compiled card set of ``folder`` (default: the package's cards) when it is current:
    its recorded fingerprint is the one of the card files and code on disk; else ``None`` (the
    caller loads and validates the files). A missing, unreadable or malformed compiled file is
    ``None`` too."""
    folder = folder if folder is not None else card_data_dir()
    read = read_headed(folder / COMPILED_NAME, COMPILED_FORMAT, _VERSION, MAX_BYTES)
    if read is None:
        return None
    head, payload = read
    fp = head.get("fingerprint")
    if fp is None or fp != fingerprint(folder) or head.get("check") != _check_of(fp, payload):
        return None  # other files or code, or a payload the compiler did not write as it is
    try:
        return decode_cards(json.loads(payload), folder)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError):
        return None


def _check_of(fp: str, payload: bytes) -> str:
    """The SHA-256 (hex) binding the compiled payload to the fingerprint it was written for: an
    edit the compiler did not make (a card's number changed by hand, damage) is refused."""
    return hashlib.sha256(fp.encode() + b"\n" + payload.rstrip(b"\n")).hexdigest()


def write_compiled(cards: CardSet, folder: Path) -> Path:
    """Write ``folder/compiled.json`` for ``cards`` (loaded from ``folder`` by the full load),
    atomically; returns its path."""
    fp = fingerprint(folder)
    if fp is None:
        raise OSError(f"the card files or code under {folder} cannot be read")
    payload = json.dumps(encode_cards(cards), ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    head = {
        "format": COMPILED_FORMAT,
        "version": _VERSION,
        "fingerprint": fp,
        "check": _check_of(fp, payload.encode("utf-8")),
    }
    path = folder / COMPILED_NAME
    atomic_write_text(path, json.dumps(head, sort_keys=True) + "\n" + payload + "\n")
    return path


@cache
def default_cards() -> CardSet:
    """The package's own cards (``hexwar/data/cards``), loaded once per process: from their
    compiled form when it is current (the validated result of exactly these files and this
    code), else read and validated by :func:`hexwar.rules.cards.load_cards`, imported then (it
    imports the card file models, which a game's start does not build; by name, as the package's
    module ``__getattr__`` does, so :mod:`.loader` stays the one that imports this module).

    Raises:
        ValidationError: with every problem of the card files (the full load).
    """
    cards = compiled_cards(card_data_dir())
    if cards is None:
        cards = importlib.import_module("hexwar.rules.cards.loader").load_cards()
    return cards
