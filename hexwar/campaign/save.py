"""Campaign saves and replays: hexwar's approach (seed + commands + state hashes) for a war.

A campaign save is JSON (``"format": "hexwar-campaign-save"``, ``schema_version`` 1)::

    {
      "format": "hexwar-campaign-save", "schema_version": 1,
      "seed": 7, "options": {"advanced": false, "events": 1, ...},
      "players": {"german": "standard", "soviet": "human"},          # bound by final.header_hash
      "commands": [{"cmd": "choose_tactics", "side": "german", "tactics": [...]}, ...],
      "checkpoints": [{"year": 1941, "commands": 30, "hash": "<state hash>"}, ...],
      "games": [{"year": 1943, "battle": 2, "game": "war.1943-2.json", "hash": "..."}, ...],
      "final": {"year": 1943, "battle": 4, "phase": "place", "commands": 97, "hash": "...",
                "commands_hash": "...", "log_hash": "...", "winner": null, "result": "",
                "header_hash": "<sha256 of seed, options and players>"}
    }

``games`` lists the hex (or line) games that fought battles (``--battles hex|lines``), saved
beside the campaign; their results are :class:`~hexwar.campaign.commands.BattleResult`
commands in the log, so the war replays without them, and ``verify`` replays each game save
too (:func:`hexwar.game.save.load_game`) and checks its winner and final hash.

Writing is atomic (:func:`hexwar.fileio.atomic_write_text`). Loading replays every command
through :meth:`CampaignState.apply` from :func:`new_campaign` with the same seed and options
and checks every checkpoint (all of them, none missing or extra), every field of ``final``
(winner and result included), the command log's and the event log's hashes and the header hash
(seed, options, players); the ``games`` list must name bare files in the save's own folder
(issue 33). The first difference raises :class:`hexwar.game.save.ReplayError` (the same error as a hex save).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import HexwarError, Problem, ValidationError, clip
from ..fileio import LIMITS, atomic_write_text, dump_json, read_json
from ..game.save import ReplayError
from .commands import BattleResult, Command, CommandFormatError, IllegalCommand, command_from_json
from .events import log_lines
from .options import CampaignOptions
from .state import CampaignState, new_campaign

__all__ = [
    "CAMPAIGN_SAVE_FORMAT",
    "CampaignSave",
    "save_data",
    "write_campaign_save",
    "read_campaign_save",
    "replay_campaign",
    "load_campaign",
    "validate_campaign_save_file",
    "commands_hash",
    "log_hash",
    "header_hash",
    "ReplayError",
]

CAMPAIGN_SAVE_FORMAT = "hexwar-campaign-save"
SCHEMA_VERSION = 1
MAX_SAVE_BYTES = LIMITS[CAMPAIGN_SAVE_FORMAT][0]  # the one set of limits (hexwar.fileio.LIMITS)
MAX_COMMANDS = 100_000


@dataclass
class CampaignSave:
    """A parsed campaign save (see the module text for the fields)."""

    seed: int
    options: CampaignOptions
    commands: list[Command]
    checkpoints: list[tuple[int, int, str]] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    final_hash: str = ""
    commands_hash: str = ""
    log_hash: str = ""
    players: dict[str, str] = field(default_factory=dict)
    winner: str | None = None
    path: str = "<memory>"
    final: dict[str, Any] = field(default_factory=dict)  # the saved "final" object as read
    header_hash: str = ""


def commands_hash(commands: list[Command]) -> str:
    """SHA-256 of a command log as canonical JSON."""
    text = json.dumps([c.to_json() for c in commands], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def log_hash(st: CampaignState) -> str:
    """SHA-256 of the war's event log as JSON lines (every random draw included, R1.2)."""
    return hashlib.sha256(log_lines(st.log).encode()).hexdigest()


def header_hash(seed: int, options: dict[str, Any], players: dict[str, str]) -> str:
    """SHA-256 of the fields outside the replayed state that ``--verify`` must still bind
    (issue 33): the seed, the options as saved and ``players``. Canonical JSON.

    Args:
        seed: the war's seed.
        options: :meth:`CampaignOptions.to_json` of the war.
        players: side -> player name as saved.
    """
    text = json.dumps(
        {"seed": seed, "options": options, "players": players}, sort_keys=True, separators=(",", ":")
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _games(st: CampaignState) -> list[dict[str, Any]]:
    return [
        {
            "year": h.year,
            "battle": h.number,
            "game": h.game,
            "hash": next(
                (c.game_hash for c in st.commands if isinstance(c, BattleResult) and c.game == h.game), ""
            ),
        }
        for h in st.history
        if h.game
    ]


def save_data(st: CampaignState, players: dict[str, str] | None = None) -> dict[str, Any]:
    """The save document of ``st`` (JSON-ready)."""
    players = dict(players or {})
    return {
        "format": CAMPAIGN_SAVE_FORMAT,
        "schema_version": SCHEMA_VERSION,
        "seed": st.seed,
        "options": st.options.to_json(),
        "players": players,
        "commands": [c.to_json() for c in st.commands],
        "checkpoints": [{"year": y, "commands": n, "hash": h} for y, n, h in st.checkpoints],
        "games": _games(st),
        "final": {
            "year": st.year,
            "battle": st.battle,
            "phase": st.phase,
            "commands": len(st.commands),
            "hash": st.state_hash(),
            "commands_hash": commands_hash(st.commands),
            "log_hash": log_hash(st),
            "winner": st.winner,
            "result": st.result_reason,
            "header_hash": header_hash(st.seed, st.options.to_json(), players),
        },
    }


def write_campaign_save(
    st: CampaignState, path: str | os.PathLike[str], players: dict[str, str] | None = None
) -> None:
    """Write ``st``'s save to ``path`` atomically.

    Raises:
        HexwarError: naming the path when it cannot be written.
    """
    atomic_write_text(path, dump_json(save_data(st, players)))


def _parse(data: Any, src: str) -> CampaignSave:
    """The campaign save's form: its typed model (:mod:`hexwar.formats.campaign_save_file`, issue
    34) checks fields and types; then the options' values, each command's fields, the battles'
    game files and the final bookkeeping (R11.2). Every problem is reported at once.

    Raises:
        ValidationError: listing every problem of form.
    """
    from ..formats.campaign_save_file import CampaignSaveFile
    from ..model.filemodel import read_lenient

    if not isinstance(data, dict):
        raise ValidationError(
            [Problem(src, "", f'expected a JSON object with "format": "{CAMPAIGN_SAVE_FORMAT}"')]
        )
    read = read_lenient(CampaignSaveFile, data, src)
    doc = read.value
    if doc is None:
        raise ValidationError(read.problems)
    problems: list[Problem] = []

    def bad(where: str, msg: str) -> None:
        problems.append(Problem(src, where, msg))

    try:
        options = CampaignOptions.from_json(doc.options)
    except HexwarError as exc:
        bad("options", str(exc))
        options = CampaignOptions()
    cmds: list[Command] = []
    for i, raw in enumerate(doc.commands):
        try:
            cmds.append(command_from_json(raw, f"commands[{i}]"))
        except CommandFormatError as exc:
            bad(f"commands[{i}]", str(exc))
    for i, c in enumerate(cmds):  # issue 33: a battle's game save lies in the war save's folder
        if isinstance(c, BattleResult) and c.game and not _plain_name(c.game):
            bad(
                f"commands[{i}].game",
                f"expected the file name of a game save in the campaign save's folder, got {clip(c.game)}",
            )
    raw_final: dict[str, Any] = data["final"] if isinstance(data.get("final"), dict) else {}
    final = {k: getattr(doc.final, k) for k in raw_final if k in doc.final.model_fields_set}  # file order
    for k in ("hash", "commands_hash", "log_hash", "header_hash"):
        v = final.get(k)
        if not isinstance(v, str) or not _HEX64.match(v):
            bad(
                f"final.{k}",
                f"{'missing' if v in (None, '') else 'got ' + clip(v)}: expected a 64-digit SHA-256 hex "
                "digest (a save without it cannot be verified)",
            )
    if "winner" not in final:
        bad("final.winner", 'missing: expected "german", "soviet" or null')
    problems = read.problems + read.semantic(problems)
    if problems:
        raise ValidationError(problems)
    return CampaignSave(
        doc.seed,
        options,
        cmds,
        [(cp.year, cp.commands, cp.hash) for cp in doc.checkpoints],
        list(data.get("games", [])),  # as read (the model accepted them)
        str(final.get("hash", "")),
        str(final.get("commands_hash", "")),
        str(final.get("log_hash", "")),
        {str(k): str(v) for k, v in (doc.players or {}).items()},
        final.get("winner"),
        src,
        final,
        str(final.get("header_hash", "")),
    )


_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_PLAIN = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$")
_FINAL_FIELDS = (
    "year",
    "battle",
    "phase",
    "commands",
    "hash",
    "commands_hash",
    "log_hash",
    "winner",
    "result",
    "header_hash",
)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _plain_name(name: str) -> bool:
    """A bare file name (no folder, not hidden, no ``..``): a battle's game save must lie in the
    campaign save's own folder, the rule the hex saves' scenario references follow (issue 33)."""
    return bool(_PLAIN.match(name)) and ".." not in name


def read_campaign_save(path: str | os.PathLike[str]) -> CampaignSave:
    """Read and check the form of a campaign save (no replay).

    Raises:
        ValidationError: listing every problem of form.
    """
    return _parse(read_json(path, max_bytes=MAX_SAVE_BYTES), str(path))


def _verify_game(save: CampaignSave, cmd: BattleResult, i: int) -> None:
    from ..game.save import load_game

    if not cmd.game:
        return
    base = (Path(save.path).parent if save.path != "<memory>" else Path(".")).resolve()
    gpath = base / cmd.game
    if not _plain_name(cmd.game) or gpath.resolve().parent != base:
        raise ReplayError(
            f"{save.path}: command {i}: the battle's game save {clip(cmd.game)} lies outside the campaign "
            "save's folder, so it is not opened",
            index=i,
        )
    if not gpath.exists():
        raise ReplayError(f"{save.path}: command {i}: the battle's game save {gpath} is missing", index=i)
    game = load_game(gpath)  # replays and verifies the hex game itself
    if cmd.game_hash and game.state_hash() != cmd.game_hash:
        raise ReplayError(
            f"{save.path}: command {i}: the game save {gpath} is not the game that fought the battle "
            "(its final hash differs)",
            index=i,
        )
    won = game.result.winner if game.result else None
    if won != cmd.winner:
        raise ReplayError(
            f"{save.path}: command {i}: the game {gpath} was won by {won or 'nobody'}, "
            f"but the campaign records {cmd.winner or 'a draw'}",
            index=i,
        )


def replay_campaign(save: CampaignSave, verify: bool = True, verify_games: bool = True) -> CampaignState:
    """Replay a campaign save from a fresh war and (by default) verify every hash.

    Args:
        save: the parsed save.
        verify: check checkpoints, the final state hash and the log hashes.
        verify_games: also replay and check each battle's game save (``--battles hex``).

    Raises:
        ReplayError: naming the first refused command, diverging year or differing hash.
    """
    st, _ = new_campaign(save.seed, save.options)
    cps = {n: (y, h) for y, n, h in save.checkpoints}
    if verify:
        _verify_header(save)
    for i, cmd in enumerate(save.commands):
        try:
            st.apply(cmd)
        except IllegalCommand as exc:
            raise ReplayError(
                f"{save.path}: command {i} ({cmd}) is refused on replay: {exc.reason}; "
                "the command log is corrupt or belongs to another war",
                index=i,
            ) from None
        if verify and isinstance(cmd, BattleResult) and verify_games:
            _verify_game(save, cmd, i)
        if verify and (i + 1) in cps:
            y, h = cps[i + 1]
            if st.state_hash() != h:
                raise ReplayError(
                    f"{save.path}: the replay diverges by the end of {y} (state hash after command {i} "
                    "differs from the saved checkpoint)",
                    index=i,
                    turn=y,
                )
    if verify:
        if st.state_hash() != save.final_hash:
            raise ReplayError(
                f"{save.path}: the replayed final state differs from the saved one (hash "
                f"{st.state_hash()[:12]}... vs {save.final_hash[:12]}...)"
            )
        if commands_hash(st.commands) != save.commands_hash:
            raise ReplayError(
                f"{save.path}: the command log differs from the one saved (edited after saving)"
            )
        if log_hash(st) != save.log_hash:
            raise ReplayError(
                f"{save.path}: the replayed war's log differs from the saved one (log hash "
                f"{log_hash(st)[:12]}... vs {save.log_hash[:12]}...)"
            )
        _verify_bookkeeping(save, st)
    return st


def _verify_header(save: CampaignSave) -> None:
    """The fields no replayed hash covers (seed, options, players) against ``final.header_hash``."""
    if header_hash(save.seed, save.options.to_json(), save.players) != save.header_hash:
        raise ReplayError(
            f"{save.path}: the save's seed, options or players differ from the ones saved "
            "(final.header_hash does not match): the file was edited after saving"
        )


def _verify_bookkeeping(save: CampaignSave, st: CampaignState) -> None:
    """Every other recorded value against the replay (issue 33): the checkpoints (all of them,
    none extra), the battle games and each field of ``final`` (winner, result, year, ...)."""
    if list(save.checkpoints) != list(st.checkpoints):
        k = next(
            (i for i, (a, b) in enumerate(zip(save.checkpoints, st.checkpoints, strict=False)) if a != b),
            min(len(save.checkpoints), len(st.checkpoints)),
        )
        raise ReplayError(
            f"{save.path}: checkpoints[{k}] differs from the replay's ({len(st.checkpoints)} finished years "
            f"replayed, {len(save.checkpoints)} checkpoints saved): checkpoints were removed or edited"
        )
    if save.games != _games(st):
        raise ReplayError(
            f"{save.path}: games differs from the battles the replay fought (edited after saving)"
        )
    want = save_data(st, save.players)["final"]
    for name in _FINAL_FIELDS:
        if save.final.get(name) != want[name]:
            raise ReplayError(
                f"{save.path}: final.{name} says {clip(save.final.get(name))}, but the replay gives "
                f"{clip(want[name])}"
            )


def load_campaign(path: str | os.PathLike[str], verify: bool = True) -> CampaignState:
    """Read a campaign save, replay it and verify it (to continue the war).

    Raises:
        ValidationError: when the file is malformed.
        ReplayError: when it does not replay to the saved state.
    """
    return replay_campaign(read_campaign_save(path), verify=verify)


def validate_campaign_save_file(path: str) -> None:
    """``hexwar validate`` for a campaign save: its form, then a full verified replay.

    Raises:
        ValidationError: with every problem of form, or the replay's error as one problem.
    """
    save = read_campaign_save(path)
    try:
        replay_campaign(save)
    except ReplayError as exc:
        raise ValidationError([Problem(str(path), "", str(exc))]) from None
