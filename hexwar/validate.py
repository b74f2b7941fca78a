"""Validate any hexwar file by its kind: maps now; scenarios, saves and card files register here.

``VALIDATORS`` maps a kind to a function ``(path) -> None`` that raises
:class:`~hexwar.errors.ValidationError` with every problem. Maps, scenarios and saves are
upgraded from older ``schema_version`` s in memory (:mod:`hexwar.formats.migrate`), checked
against their JSON Schema first (:mod:`hexwar.formats.schema`, ``hexwar schema KIND``), then by
hexwar's semantic checks (labels on the map, units that exist, the game's setup, the replay),
all problems reported at once with file and field path. :func:`detect_kind` reads the
file's ``format`` field (JSON) or its top-level tables (TOML) to choose.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from .errors import Problem, ValidationError
from .fileio import read_json, read_toml, sniff_kind
from .formats.migrate import CURRENT
from .model import compiled_docs

__all__ = ["VALIDATORS", "detect_kind", "validate_file"]


def _validate_map(path: str) -> None:
    from .model.maps import BattleMap

    BattleMap.load(path)


# kind -> validator, or "module:function" imported when first needed.
VALIDATORS: dict[str, Callable[[str], None] | str] = {
    "hexwar-map": _validate_map,
    "hexwar-scenario": "hexwar.game.scenario:validate_scenario_file",
    "hexwar-save": "hexwar.game.save:validate_save_file",
    "hexwar-cards": "hexwar.rules.cards:validate_card_file",
    "hexwar-deck": "hexwar.lines.scenario:validate_deck_file",
    "hexwar-campaign-cards": "hexwar.campaign.cards:validate_campaign_card_file",
    "hexwar-campaign-save": "hexwar.campaign.save:validate_campaign_save_file",
}


def detect_kind(path: str) -> str:
    """The file kind: the JSON ``format`` field, or ``"hexwar-scenario"`` for TOML with [scenario].

    The file is read under the size limit of the kind its first 64 KB name
    (:func:`hexwar.fileio.sniff_kind`), so a refusal names the limit that applies.

    Raises:
        ValidationError: when the file cannot be read or its kind is unknown.
    """
    p = Path(path)
    sniffed = sniff_kind(p)
    if p.suffix.lower() == ".toml":
        data = read_toml(p, kind=sniffed)
        fmt = data.get("format")
        if isinstance(fmt, str):
            return fmt
        if "scenario" in data:
            return "hexwar-scenario"
        raise ValidationError(
            [Problem(str(p), "", "unknown TOML file: expected a [scenario] table or a format key")]
        )
    data = read_json(p, kind=sniffed)
    if isinstance(data, dict) and isinstance(data.get("format"), str):
        return str(data["format"])
    problems = [Problem(str(p), "format", f"missing; expected one of {sorted(VALIDATORS)}")]
    version = data.get("schema_version") if isinstance(data, dict) else None
    if isinstance(version, int) and not isinstance(version, bool):
        newest = max(CURRENT.values())
        if version > newest:
            problems.append(
                Problem(
                    str(p),
                    "schema_version",
                    f"{version} is newer than this hexwar reads (at most "
                    f"{', '.join(f'{k} {v}' for k, v in sorted(CURRENT.items()))}): "
                    "a newer hexwar wrote it",
                )
            )
    raise ValidationError(problems)


# Kinds stored as TOML; every other kind is JSON.
TOML_KINDS = frozenset({"hexwar-scenario", "hexwar-cards", "hexwar-campaign-cards", "hexwar-deck"})


def validate_file(path: str, scenario_paths: tuple[str, ...] = ()) -> str:
    """Validate ``path`` fully; return its kind.

    Args:
        path: the file.
        scenario_paths: scenario files a save may be replayed against (given on the command
            line; a save's own folder and the shipped scenarios are always allowed).

    Raises:
        ValidationError: with every problem found (a kind whose syntax does not match the
            file's extension, e.g. a ``.json`` file saying ``"format": "hexwar-scenario"``, is
            one problem naming both).
    """
    kind = detect_kind(path)
    v = VALIDATORS.get(kind)
    if v is None:
        raise ValidationError(
            [Problem(path, "format", f"unknown kind {kind!r}; expected one of {sorted(VALIDATORS)}")]
        )
    is_toml = Path(path).suffix.lower() == ".toml"
    if (kind in TOML_KINDS) != is_toml:
        want, have = ("TOML (.toml)", "JSON") if kind in TOML_KINDS else ("JSON (.json)", "TOML")
        raise ValidationError([Problem(path, "format", f"{kind} files are {want}, but this file is {have}")])
    if isinstance(v, str):
        mod, attr = v.split(":")
        try:
            v = getattr(importlib.import_module(mod), attr)
        except (ImportError, AttributeError):
            raise ValidationError(
                [Problem(path, "format", f"{kind} files are not supported by this hexwar yet")]
            ) from None
    assert callable(v)
    with compiled_docs.bypassed():  # the file itself, not the compiled form of shipped bytes
        if kind == "hexwar-save":
            v(path, scenario_paths)  # type: ignore[call-arg]
        else:
            v(path)
    return kind
