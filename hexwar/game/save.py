"""Saves and replays (DESIGN: a replay is scenario + seed + command list through the same code).

A save file is JSON (``"format": "hexwar-save"``, ``schema_version`` 1)::

    {
      "format": "hexwar-save", "schema_version": 1,
      "scenario": {"id": "skirmish", "name": "scenarios/skirmish.toml" (as given),
                   "path": "/abs/path/skirmish.toml", "hash": "<sha256 of scenario + map>"},
      "seed": 1943, "variants": ["classic"], "rules_revision": 2,
      "players": {"german": "standard", "soviet": "human"},     # informational
      "commands": [{"cmd": "choose_hand", "side": "german", ...}, ...],
      "checkpoints": [{"turn": 1, "commands": 41, "hash": "<state hash>"}, ...],
      "final": {"turn": 3, "phase": "movement", "commands": 97, "hash": "<state hash>",
                "commands_hash": "<sha256 of the command log>",
                "log_hash": "<sha256 of the event log, rolls included>", "result": null}
    }

Writing is atomic (:func:`hexwar.fileio.atomic_write_text`). Loading a save replays every
command through :meth:`GameState.apply <hexwar.game.state.GameState.apply>` from a fresh game
of the same scenario, seed and variants, and checks the state hash at every checkpoint (one per
End Turn) and at the end, and the hashes of the command log and of the whole event log (every
roll): a changed scenario, a tampered command log (even one that reorders commands into the
same position) or an engine that no longer plays the same way is reported (:class:`ReplayError`) with the first command or turn
where the replay went astray - never silently accepted.

:class:`Autosaver` writes the save after every End Turn (and at the end of the game).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import HexwarError, Problem, ValidationError
from ..fileio import atomic_write_text, dump_json, read_json
from ..rules.combat import RULES_REVISION
from .commands import SIDES, Command, CommandFormatError, IllegalCommand, command_from_json
from .events import log_lines
from .scenario import KNOWN_VARIANTS, Scenario, load_scenario
from .state import GameState

__all__ = [
    "SAVE_FORMAT",
    "SAVE_SCHEMA_VERSION",
    "ReplayError",
    "SaveFile",
    "Autosaver",
    "save_data",
    "write_save",
    "read_save",
    "replay",
    "load_game",
    "commands_hash",
    "log_hash",
    "validate_save_file",
]

SAVE_FORMAT = "hexwar-save"
SAVE_SCHEMA_VERSION = 1
MAX_SAVE_BYTES = 16 * 1024 * 1024
MAX_COMMANDS = 200_000


class ReplayError(HexwarError):
    """A save does not replay to the state it recorded.

    Attributes:
        index: the 0-based index of the offending command, or ``None`` (final hash).
        turn: the turn of the first checkpoint that failed, if any.
    """

    def __init__(self, message: str, index: int | None = None, turn: int | None = None):
        super().__init__(message)
        self.index = index
        self.turn = turn


@dataclass
class SaveFile:
    """A parsed save.

    Attributes:
        scenario_id: the scenario's id.
        scenario_name: the scenario reference as given when the game started.
        scenario_path: the absolute scenario path when saved.
        scenario_hash: :attr:`Scenario.content_hash` when saved.
        seed: the game's seed.
        variants: rule variants.
        players: who played each side (informational).
        commands: the command log.
        checkpoints: ``(turn, command count, state hash)`` after each End Turn.
        final_hash: state hash after the last command.
        final_turn: turn after the last command.
        commands_hash: :func:`commands_hash` of the log when saved.
        log_hash: :func:`log_hash` of the game's event log when saved.
        rules_revision: the combat rules revision the game was played with (1 for saves
            that do not record one: the migration of round-1 saves, docs/rules.md).
        result: the result as saved (JSON), or ``None``.
        path: the save file read.
    """

    scenario_id: str
    scenario_name: str
    scenario_path: str
    scenario_hash: str
    seed: int
    variants: tuple[str, ...]
    commands: list[Command]
    checkpoints: list[tuple[int, int, str]] = field(default_factory=list)
    final_hash: str = ""
    final_turn: int = 0
    players: dict[str, str] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    path: str = "<memory>"
    commands_hash: str = ""
    log_hash: str = ""
    rules_revision: int = 1


def commands_hash(commands: list[Command]) -> str:
    """SHA-256 of a command log as canonical JSON (detects any change to the log)."""
    text = json.dumps([c.to_json() for c in commands], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def log_hash(state: GameState) -> str:
    """SHA-256 of the game's event log as JSON lines (every roll included, R1.2)."""
    return hashlib.sha256(log_lines(state.log).encode()).hexdigest()


def save_data(state: GameState, players: dict[str, str] | None = None) -> dict[str, Any]:
    """The save document of ``state`` (JSON-ready): scenario reference and hash, seed,
    variants, command log, per-turn checkpoints and the final state hash."""
    sc = state.scenario
    return {
        "format": SAVE_FORMAT,
        "schema_version": SAVE_SCHEMA_VERSION,
        "scenario": {
            "id": sc.id,
            "name": sc.reference,
            "path": str(sc.path.resolve()) if sc.path is not None else "",
            "hash": sc.content_hash,
        },
        "seed": state.seed,
        "variants": list(state.variants),
        "rules_revision": state.rules_revision,
        "players": dict(players or {}),
        "commands": [c.to_json() for c in state.commands],
        "checkpoints": [{"turn": t, "commands": n, "hash": h} for t, n, h in state.checkpoints],
        "final": {
            "turn": state.turn,
            "phase": state.phase,
            "commands": len(state.commands),
            "hash": state.state_hash(),
            "commands_hash": commands_hash(state.commands),
            "log_hash": log_hash(state),
            "result": state.result.to_json() if state.result else None,
        },
    }


def write_save(state: GameState, path: str | os.PathLike[str], players: dict[str, str] | None = None) -> None:
    """Write ``state``'s save to ``path`` atomically.

    Raises:
        HexwarError: naming the path when it cannot be written.
    """
    atomic_write_text(path, dump_json(save_data(state, players)))


def _parse_save(data: Any, src: str) -> SaveFile:
    problems: list[Problem] = []

    def bad(where: str, msg: str) -> None:
        problems.append(Problem(src, where, msg))

    if not isinstance(data, dict):
        raise ValidationError([Problem(src, "", f"expected a JSON object with \"format\": \"{SAVE_FORMAT}\"")])
    if data.get("format") != SAVE_FORMAT:
        bad("format", f"expected \"{SAVE_FORMAT}\", got {data.get('format')!r}")
    if data.get("schema_version") != SAVE_SCHEMA_VERSION:
        bad("schema_version", f"expected {SAVE_SCHEMA_VERSION}, got {data.get('schema_version')!r}")
    known = {"format", "schema_version", "scenario", "seed", "variants", "rules_revision", "players", "commands",
             "checkpoints", "final"}
    for k in data:
        if k not in known:
            bad(str(k), f"unknown field; expected one of {sorted(known)}")
    sc = data.get("scenario")
    sid = sname = spath = shash = ""
    if not isinstance(sc, dict):
        bad("scenario", "expected {id, name, path, hash}")
    else:
        for k in ("id", "name", "path", "hash"):
            if not isinstance(sc.get(k), str):
                bad(f"scenario.{k}", "expected text")
        sid, sname, spath, shash = (str(sc.get(k, "")) for k in ("id", "name", "path", "hash"))
        if shash and len(shash) != 64:
            bad("scenario.hash", "expected a 64-digit SHA-256 hex digest")
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        bad("seed", f"expected an integer >= 0, got {seed!r}")
        seed = 0
    variants = data.get("variants", [])
    if not isinstance(variants, list) or any(v not in KNOWN_VARIANTS for v in variants):
        bad("variants", f"expected a list of rule variants from {KNOWN_VARIANTS}")
        variants = []
    players = data.get("players", {})
    if not isinstance(players, dict) or any(k not in SIDES or not isinstance(v, str) for k, v in players.items()):
        bad("players", "expected {\"german\": name, \"soviet\": name}")
        players = {}
    cmds_raw = data.get("commands")
    commands: list[Command] = []
    if not isinstance(cmds_raw, list):
        bad("commands", "expected a list of commands")
    elif len(cmds_raw) > MAX_COMMANDS:
        bad("commands", f"{len(cmds_raw)} commands; at most {MAX_COMMANDS} expected")
    else:
        for i, c in enumerate(cmds_raw):
            try:
                commands.append(command_from_json(c, f"commands[{i}]"))
            except CommandFormatError as exc:
                bad(f"commands[{i}]", str(exc).split(": ", 1)[-1])
    checkpoints: list[tuple[int, int, str]] = []
    cps = data.get("checkpoints", [])
    if not isinstance(cps, list):
        bad("checkpoints", "expected a list of {turn, commands, hash}")
        cps = []
    for i, cp in enumerate(cps):
        if (not isinstance(cp, dict) or not isinstance(cp.get("turn"), int) or not isinstance(cp.get("commands"), int)
                or not isinstance(cp.get("hash"), str)):
            bad(f"checkpoints[{i}]", "expected {turn: int, commands: int, hash: text}")
            continue
        checkpoints.append((cp["turn"], cp["commands"], cp["hash"]))
    final = data.get("final")
    fhash, fturn, result, chash, lhash = "", 0, None, "", ""
    if not isinstance(final, dict) or not isinstance(final.get("hash"), str):
        bad("final", "expected {turn, phase, commands, hash, result}")
    else:
        fhash = final["hash"]
        fturn = final.get("turn", 0) if isinstance(final.get("turn"), int) else 0
        result = final.get("result") if isinstance(final.get("result"), dict) else None
        chash = final.get("commands_hash", "") if isinstance(final.get("commands_hash", ""), str) else ""
        lhash = final.get("log_hash", "") if isinstance(final.get("log_hash", ""), str) else ""
        if isinstance(cmds_raw, list) and final.get("commands") not in (None, len(cmds_raw)):
            bad("final.commands", f"says {final.get('commands')} commands but the log holds {len(cmds_raw)}")
    # migration: saves written before rules revisions were recorded replay with revision 1
    # (docs/rules.md "Rules revisions")
    revision = data.get("rules_revision", 1)
    if not isinstance(revision, int) or isinstance(revision, bool) or not 1 <= revision <= RULES_REVISION:
        bad("rules_revision", f"expected a rules revision 1..{RULES_REVISION}, got {str(revision)[:80]!r}")
        revision = 1
    if problems:
        raise ValidationError(problems)
    return SaveFile(sid, sname, spath, shash, int(seed), tuple(variants), commands, checkpoints, fhash, fturn,
                    dict(players), result, src, chash, lhash, revision)


def read_save(path: str | os.PathLike[str]) -> SaveFile:
    """Read and check the form of a save file (no replay).

    Raises:
        ValidationError: listing every problem of form.
    """
    data = read_json(path, max_bytes=MAX_SAVE_BYTES)
    return _parse_save(data, str(path))


def _find_scenario_for(save: SaveFile) -> Scenario:
    cands: list[str] = []
    if save.scenario_path:
        cands.append(save.scenario_path)
    if save.path != "<memory>" and save.scenario_path:
        cands.append(str(Path(save.path).parent / Path(save.scenario_path).name))
    if save.scenario_name:
        cands.append(save.scenario_name)
    for c in cands:
        try:
            sc = load_scenario(c)
        except HexwarError:
            continue
        if sc.content_hash == save.scenario_hash:
            return sc
    if cands:
        try:
            sc = load_scenario(cands[0])
        except HexwarError as exc:
            raise ReplayError(f"{save.path}: the scenario {save.scenario_name or save.scenario_id!r} cannot be loaded: {exc}") from None
        raise ReplayError(f"{save.path}: the scenario {save.scenario_name!r} has changed since the game was saved "
                          f"(hash {sc.content_hash[:12]}... differs from the saved {save.scenario_hash[:12]}...)")
    raise ReplayError(f"{save.path}: the save names no scenario")


def replay(save: SaveFile, scenario: Scenario | None = None, verify: bool = True,
           until: int | None = None) -> GameState:
    """Replay a save's commands from a fresh game and (by default) verify every hash.

    Args:
        save: the parsed save.
        scenario: the scenario to use; default: found from the save's reference (its hash
            must match).
        verify: check the checkpoint and final state hashes.
        until: replay only the first ``until`` commands (no final-hash check then).

    Returns:
        the replayed game.

    Raises:
        ReplayError: naming the first command refused, the first checkpoint whose hash
            differs, or a final hash that differs.
    """
    sc = scenario or _find_scenario_for(save)
    if verify and sc.content_hash != save.scenario_hash:
        raise ReplayError(f"{save.path}: the scenario differs from the one saved (hash mismatch)")
    state = sc.new_game(seed=save.seed, variants=save.variants)
    state.rules_revision = save.rules_revision  # before any command: setup rolls no combat
    cps = {n: (t, h) for t, n, h in save.checkpoints}
    n = len(save.commands) if until is None else min(until, len(save.commands))
    for i, cmd in enumerate(save.commands[:n]):
        try:
            state.apply(cmd)
        except IllegalCommand as exc:
            raise ReplayError(f"{save.path}: command {i} ({cmd}) is refused on replay: {exc.reason}; "
                              f"the command log is corrupt or belongs to another game", index=i) from None
        if verify and (i + 1) in cps:
            t, h = cps[i + 1]
            if state.state_hash() != h:
                raise ReplayError(f"{save.path}: the replay diverges by the end of turn {t} (state hash after command "
                                  f"{i} differs from the saved checkpoint)", index=i, turn=t)
    if verify and until is None:
        if state.state_hash() != save.final_hash:
            raise ReplayError(f"{save.path}: the replayed final state differs from the saved one (hash "
                              f"{state.state_hash()[:12]}... vs {save.final_hash[:12]}...)")
        if save.commands_hash and commands_hash(save.commands) != save.commands_hash:
            raise ReplayError(f"{save.path}: the command log differs from the one saved (its hash does not match): "
                              "it was edited after the game was saved")
        if save.log_hash and log_hash(state) != save.log_hash:
            raise ReplayError(f"{save.path}: the replayed game log differs from the saved game's (log hash "
                              f"{log_hash(state)[:12]}... vs {save.log_hash[:12]}...): the commands were altered")
    return state


def load_game(path: str | os.PathLike[str], verify: bool = True) -> GameState:
    """Load a save: read it, replay it through the same code and verify its hashes.

    Raises:
        ValidationError: when the file is malformed.
        ReplayError: when it does not replay to the saved state.
    """
    return replay(read_save(path), verify=verify)


def validate_save_file(path: str) -> None:
    """Validate a save fully (form, then replay and hashes); registered in VALIDATORS.

    Raises:
        ValidationError: listing every problem.
    """
    save = read_save(path)
    try:
        replay(save)
    except ReplayError as exc:
        raise ValidationError([Problem(path, f"commands[{exc.index}]" if exc.index is not None else "final",
                                       str(exc).split(": ", 1)[-1])]) from None


class Autosaver:
    """Writes a game's save after every End Turn and when the game ends.

    Call :meth:`after` with the events of each applied command (the headless runner and the
    window do).

    Args:
        path: the save file.
        players: who plays each side (written into the save).
    """

    def __init__(self, path: str | os.PathLike[str], players: dict[str, str] | None = None):
        self.path = Path(path)
        self.players = dict(players or {})
        self.writes = 0

    def after(self, state: GameState, events: list[Any]) -> bool:
        """Save if ``events`` include an End Turn or the game's end; returns whether it wrote."""
        if any(getattr(e, "kind", "") in ("end_turn", "victory") for e in events):
            write_save(state, self.path, self.players)
            self.writes += 1
            return True
        return False
