"""The campaign save parser before issue 34 gave the campaign save its model (hexwar/campaign/save.py
at 83fb709), kept as a frozen test oracle for tests/test_campaign_save_model_equivalence.py."""

# ruff: noqa
from __future__ import annotations

from typing import Any

from hexwar.campaign.commands import BattleResult, Command, CommandFormatError, command_from_json
from hexwar.campaign.save import (
    _FINAL_FIELDS,
    _HEX64,
    CAMPAIGN_SAVE_FORMAT,
    MAX_COMMANDS,
    SCHEMA_VERSION,
    CampaignSave,
    _is_int,
    _plain_name,
)
from hexwar.campaign.options import CampaignOptions
from hexwar.errors import HexwarError, Problem, ValidationError, clip


def old_parse(data: Any, src: str) -> CampaignSave:
    problems: list[Problem] = []

    def bad(where: str, msg: str) -> None:
        problems.append(Problem(src, where, msg))

    if not isinstance(data, dict):
        raise ValidationError(
            [Problem(src, "", f'expected a JSON object with "format": "{CAMPAIGN_SAVE_FORMAT}"')]
        )
    if data.get("format") != CAMPAIGN_SAVE_FORMAT:
        bad("format", f'expected "{CAMPAIGN_SAVE_FORMAT}", got {data.get("format")!r}')
    if data.get("schema_version") != SCHEMA_VERSION:
        bad("schema_version", f"expected {SCHEMA_VERSION}, got {data.get('schema_version')!r}")
    known = {
        "format",
        "schema_version",
        "seed",
        "options",
        "players",
        "commands",
        "checkpoints",
        "games",
        "final",
    }
    for k in data:
        if k not in known:
            bad(str(k), f"unknown field; expected one of {sorted(known)}")
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        bad("seed", f"expected an integer >= 0, got {seed!r}")
        seed = 0
    try:
        options = CampaignOptions.from_json(data.get("options", {}))
    except HexwarError as exc:
        bad("options", str(exc))
        options = CampaignOptions()
    cmds: list[Command] = []
    raw = data.get("commands")
    if not isinstance(raw, list) or len(raw) > MAX_COMMANDS:
        bad("commands", f"expected a list of at most {MAX_COMMANDS} commands")
        raw = []
    for i, c in enumerate(raw):
        try:
            cmds.append(command_from_json(c, f"commands[{i}]"))
        except CommandFormatError as exc:
            bad(f"commands[{i}]", str(exc))
    for i, c in enumerate(cmds):  # issue 33: a battle's game save lies in the war save's folder
        if isinstance(c, BattleResult) and c.game and not _plain_name(c.game):
            bad(
                f"commands[{i}].game",
                f"expected the file name of a game save in the campaign save's folder, got {clip(c.game)}",
            )
    cps: list[tuple[int, int, str]] = []
    raw_cps = data.get("checkpoints")
    if not isinstance(raw_cps, list):
        bad("checkpoints", "missing: expected a list of {year, commands, hash}, one per finished year")
        raw_cps = []
    for i, cp in enumerate(raw_cps):
        if not (
            isinstance(cp, dict)
            and set(cp) == {"year", "commands", "hash"}
            and _is_int(cp.get("year"))
            and _is_int(cp.get("commands"))
            and isinstance(cp.get("hash"), str)
            and _HEX64.match(cp["hash"])
        ):
            bad(f"checkpoints[{i}]", "expected exactly {year: int, commands: int, hash: SHA-256 hex digest}")
            continue
        cps.append((cp["year"], cp["commands"], cp["hash"]))
    games = data.get("games", [])
    if not isinstance(games, list) or not all(
        isinstance(g, dict) and isinstance(g.get("game"), str) and _plain_name(g["game"]) for g in games
    ):
        bad("games", "expected a list of {year, battle, game, hash}, each game a file in the save's folder")
        games = []
    final = data.get("final")
    if not isinstance(final, dict):
        bad("final", "missing: expected {" + ", ".join(_FINAL_FIELDS) + "}")
        final = {}
    for k in final:
        if k not in _FINAL_FIELDS:
            bad(f"final.{clip(k, quote=False)}", f"unknown field; expected one of {list(_FINAL_FIELDS)}")
    for k in ("hash", "commands_hash", "log_hash", "header_hash"):
        v = final.get(k) if final else None
        if final and (not isinstance(v, str) or not _HEX64.match(v)):
            bad(
                f"final.{k}",
                f"{'missing' if v in (None, '') else 'got ' + clip(v)}: expected a 64-digit SHA-256 hex "
                "digest (a save without it cannot be verified)",
            )
    if final and "winner" not in final:
        bad("final.winner", 'missing: expected "german", "soviet" or null')
    players = data.get("players") or {}
    if not isinstance(players, dict):
        bad("players", "expected an object side -> player name")
        players = {}
    if problems:
        raise ValidationError(problems)
    return CampaignSave(
        int(seed),
        options,
        cmds,
        cps,
        list(games),
        str(final.get("hash", "")),
        str(final.get("commands_hash", "")),
        str(final.get("log_hash", "")),
        {str(k): str(v) for k, v in players.items()},
        final.get("winner"),
        src,
        dict(final),
        str(final.get("header_hash", "")),
    )
