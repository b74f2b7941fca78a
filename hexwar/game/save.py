"""Saves and replays (DESIGN: a replay is scenario + seed + command list through the same code).

A save file is JSON (``"format": "hexwar-save"``, ``schema_version`` 2, ``hexwar schema save``; version 1 files
are upgraded on load, and a save without ``scenario.map`` is still written as version 1)::

    {
      "format": "hexwar-save", "schema_version": 1,
      "scenario": {"id": "skirmish", "name": "scenarios/skirmish.toml" (as given),
                   "path": "/abs/path/skirmish.toml", "hash": "<sha256 of scenario + map>"},
      "seed": 1943, "variants": ["classic"], "rules_revision": 2,
      "players": {"german": "standard", "soviet": "human"},     # bound by final.header_hash
      "commands": [{"cmd": "choose_hand", "side": "german", ...}, ...],
      "checkpoints": [{"turn": 1, "commands": 41, "hash": "<state hash>"}, ...],
      "final": {"turn": 3, "phase": "movement", "commands": 97, "hash": "<state hash>",
                "commands_hash": "<sha256 of the command log>",
                "log_hash": "<sha256 of the event log, rolls included>", "result": null,
                "header_hash": "<sha256 of mode, scenario id/name/map, seed, variants,
                                rules_revision, players, setup>"}
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
import re
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import HexwarError, Problem, ValidationError, clip
from ..fileio import LIMITS, FileLock, atomic_write_text, dump_json, read_json
from ..formats import save_file  # the save's models are made when a save is read (issue 35)
from ..formats.migrate import upgrade
from ..model.documents import merge_problems, read_lenient
from ..paths import content_dir
from ..rules.combat import RULES_REVISION
from .commands import SIDES, Command, CommandFormatError, IllegalCommand, command_from_json
from .events import log_lines
from .limits import HARD_TURN_CAP, MAX_GAME_COMMANDS
from .modes import mode_hook
from .onmap import scenario_on_map
from .scenario import Scenario, load_scenario
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
    "parse_save",
    "replay",
    "load_game",
    "commands_hash",
    "log_hash",
    "header_hash",
    "validate_save_file",
]

SAVE_FORMAT = "hexwar-save"
SAVE_SCHEMA_VERSION = 2  # issue 19: 2 adds the optional scenario.map; saves without it are written as 1
MAX_SAVE_BYTES = LIMITS["hexwar-save"][0]  # the one set of limits (hexwar.fileio.LIMITS)
MAX_COMMANDS = MAX_GAME_COMMANDS  # the engine ends every game before its log grows past this (R12.4)
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


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
        final_phase: the phase after the last command.
        scenario_map: the map the game was played on instead of the scenario's (``"generated:..."`` or
            ``"file:NAME.json"``), or ``""``.
        result: the result as saved (JSON), or ``None``.
        path: the save file read.
        header_hash: ``final.header_hash`` (:func:`header_hash`), or ``""`` in a save written
            before issue 33 (its header fields are then not bound: ``replay`` says so).
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
    final_phase: str = ""
    scenario_map: str = ""
    mode: str = "hex"
    setup: dict[str, Any] = field(default_factory=dict)
    rules_revision: int = 1
    header_hash: str = ""


def _mode_commands(mode: str) -> Any:
    """R11.1: the command parser of a game mode (``"hex"``, ``"lines"``)."""
    return command_from_json if mode == "hex" else mode_hook(mode, "command")


def _mode_seats(mode: str) -> tuple[str, ...]:
    return SIDES if mode == "hex" else tuple(mode_hook(mode, "seats"))


def commands_hash(commands: list[Command]) -> str:
    """SHA-256 of a command log as canonical JSON (detects any change to the log)."""
    text = json.dumps([c.to_json() for c in commands], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def log_hash(state: GameState) -> str:
    """SHA-256 of the game's event log as JSON lines (every roll included, R1.2)."""
    return hashlib.sha256(log_lines(state.log).encode()).hexdigest()


def header_hash(
    mode: str,
    scenario: dict[str, Any],
    seed: int,
    variants: list[str] | tuple[str, ...],
    rules_revision: int,
    players: dict[str, str],
    setup: dict[str, Any],
) -> str:
    """SHA-256 (canonical JSON) of the save's fields that no replayed hash covers but that
    ``--verify`` must bind (issue 33): the mode, ``scenario.id``, ``.name`` and ``.map``, the
    seed, variants, ``rules_revision`` (it selects the combat rules), ``players`` and ``setup``.

    Args:
        mode: ``"hex"`` or another game mode (R11.1).
        scenario: the save's ``scenario`` object (``path`` and ``hash`` are ignored: the path
            may move with the file, the content hash is checked on its own).
        seed, variants, rules_revision, players, setup: as written in the save.
    """
    doc = {
        "mode": mode,
        "scenario": {k: scenario.get(k, "") for k in ("id", "name", "map")},
        "seed": seed,
        "variants": list(variants),
        "rules_revision": rules_revision,
        "players": players,
        "setup": setup,
    }
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _save_header_hash(save: SaveFile) -> str:
    ref = {"id": save.scenario_id, "name": save.scenario_name, "map": save.scenario_map}
    return header_hash(
        save.mode, ref, save.seed, save.variants, save.rules_revision, save.players, save.setup
    )


def save_data(state: GameState, players: dict[str, str] | None = None) -> dict[str, Any]:
    """The save document of ``state`` (JSON-ready): scenario reference and hash, seed,
    variants, command log, per-turn checkpoints and the final state hash."""
    sc = state.scenario
    name = getattr(state, "mode", "hex")
    mode: dict[str, Any] = {"mode": name} if name != "hex" else {}  # R11.1: a game mode's saves say so
    setup = state.scenario.setup_json() if hasattr(state.scenario, "setup_json") else {}
    if setup:  # choices made when the game started that the scenario file does not hold (--deck)
        mode["setup"] = setup
    ref = {
        "id": sc.id,
        "name": sc.reference,
        "path": str(sc.path.resolve()) if sc.path is not None else "",
        "hash": sc.content_hash,
    }
    if getattr(sc, "map_spec", ""):  # issue 19: played on a generated map (schema 2)
        ref["map"] = sc.map_spec
    revision = getattr(state, "rules_revision", 1)  # modes without combat revisions: 1
    players = dict(players or {})
    return {
        "format": SAVE_FORMAT,
        "schema_version": SAVE_SCHEMA_VERSION if getattr(sc, "map_spec", "") else 1,
        **mode,
        "scenario": ref,
        "seed": state.seed,
        "variants": list(state.variants),
        "rules_revision": revision,
        "players": players,
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
            "header_hash": header_hash(
                name, ref, state.seed, list(state.variants), revision, players, mode.get("setup", {})
            ),
        },
    }


def write_save(state: GameState, path: str | os.PathLike[str], players: dict[str, str] | None = None) -> None:
    """Write ``state``'s save to ``path`` atomically.

    Raises:
        HexwarError: naming the path when it cannot be written.
    """
    atomic_write_text(path, dump_json(save_data(state, players)))


def _parse_save(data: Any, src: str) -> SaveFile:
    """The save's form: the typed model (:data:`hexwar.formats.save_file.SaveFile`, issue 34)
    checks fields and types; then what it cannot say: each command's own fields (by ``cmd``),
    the seats of the mode, the checkpoints' order and hashes, the final bookkeeping and the
    rules revision (R1.2, R12.4). Every problem is reported at once.

    Raises:
        ValidationError: listing every problem of form.
    """
    problems: list[Problem] = []

    def bad(where: str, msg: str) -> None:
        problems.append(Problem(src, where, msg))

    if not isinstance(data, dict):
        raise ValidationError([Problem(src, "", f'expected a JSON object with "format": "{SAVE_FORMAT}"')])
    # issue 19: upgrade older versions in memory, then the model (hexwar schema save)
    structural: list[Problem] = []
    if data.get("format") == SAVE_FORMAT:
        try:
            data, _ = upgrade(data, "save", src)
        except ValidationError as exc:
            structural += exc.problems
            data = dict(data, schema_version=SAVE_SCHEMA_VERSION)
    elif type(data.get("schema_version")) is int and 1 <= data["schema_version"] <= SAVE_SCHEMA_VERSION:
        # not a save's format (reported by the model): an older version is no second problem
        data = dict(data, schema_version=SAVE_SCHEMA_VERSION)
    read = read_lenient(save_file.SaveFile, data, src)
    structural += read.problems
    doc = read.value
    if doc is None:
        raise ValidationError(structural)
    mode = doc.mode
    parse_command = _mode_commands(mode)
    sc = doc.scenario
    if not _HEX64.match(sc.hash):
        bad("scenario.hash", f"expected a 64-digit SHA-256 hex digest, got {clip(sc.hash)}")
    if any(k not in _mode_seats(mode) for k in doc.players):
        bad("players", f"expected {{seat: name}} for seats of {_mode_seats(mode)}")
    commands: list[Command] = []
    n_cmds = len(doc.commands)
    if n_cmds > MAX_COMMANDS:
        bad("commands", f"{n_cmds} commands; at most {MAX_COMMANDS} expected")
    else:
        for i, c in enumerate(doc.commands):
            try:
                commands.append(parse_command(dict(c), f"commands[{i}]"))
            except CommandFormatError as exc:
                bad(f"commands[{i}]", str(exc).split(": ", 1)[-1])
    checkpoints = _checkpoints(doc, n_cmds, bad)
    final = doc.final
    known_f = {"turn", "phase", "commands", "hash", "commands_hash", "log_hash", "result", "header_hash"}
    for k in final:
        if k not in known_f:
            bad(f"final.{clip(k, quote=False)}", f"unknown field; expected one of {sorted(known_f)}")
    for k in ("hash", "commands_hash", "log_hash", "header_hash"):
        v: Any = final.get(k)
        if k == "header_hash" and k not in final:
            continue  # absent only in saves written before issue 33
        if not isinstance(v, str) or not _HEX64.match(v):
            bad(
                f"final.{k}",
                f"got {clip(v)}: expected a 64-digit SHA-256 hex digest"
                if k == "header_hash"
                else f"{'missing' if v in (None, '') else 'got ' + clip(v)}: expected a 64-digit "
                "SHA-256 hex digest (a save without it cannot be verified)",
            )
    fturn = final.get("turn")
    if fturn is None or fturn > HARD_TURN_CAP + 1:
        bad("final.turn", f"expected a turn 0..{HARD_TURN_CAP + 1}, got {clip(fturn)}")
    if not final.get("phase"):
        bad("final.phase", f"expected the phase name, got {clip(final.get('phase'))}")
    if final.get("commands") != n_cmds:
        bad("final.commands", f"says {clip(final.get('commands'))} commands but the log holds {n_cmds}")
    # migration: saves written before rules revisions were recorded replay with revision 1
    # (docs/rules.md "Rules revisions")
    if doc.rules_revision > RULES_REVISION:
        bad("rules_revision", f"expected a rules revision 1..{RULES_REVISION}, got {doc.rules_revision}")
    problems = merge_problems(structural, read.semantic(problems))
    if problems:
        raise ValidationError(problems)
    return SaveFile(
        sc.id,
        sc.name,
        sc.path,
        sc.hash,
        doc.seed,
        tuple(doc.variants),
        commands,
        checkpoints,
        str(final.get("hash", "")),
        int(fturn or 0),
        {str(k): v for k, v in doc.players.items()},
        final.get("result"),
        src,
        str(final.get("commands_hash", "")),
        str(final.get("log_hash", "")),
        str(final.get("phase", "")),
        sc.map or "",
        mode,
        dict(doc.setup),
        doc.rules_revision,
        str(final.get("header_hash", "")),
    )


def _checkpoints(doc: Any, n_cmds: int, bad: Any) -> list[tuple[int, int, str]]:
    """The checkpoints ``(turn, commands, hash)``: exactly those keys, a turn 1..cap, a count within
    the log, a SHA-256 hash, in order (one per End Turn)."""
    if "checkpoints" not in doc.model_fields_set:
        bad("checkpoints", "missing: expected a list of {turn, commands, hash}, one per End Turn")
    checkpoints: list[tuple[int, int, str]] = []
    for i, cp in enumerate(doc.checkpoints):
        cw = f"checkpoints[{i}]"
        t, n, h = cp["turn"], cp["commands"], cp["hash"]
        if set(cp) != {"turn", "commands", "hash"}:
            bad(cw, "expected exactly {turn: int, commands: int, hash: text}")
        elif not 1 <= t <= HARD_TURN_CAP:
            bad(f"{cw}.turn", f"expected a turn 1..{HARD_TURN_CAP}, got {clip(t)}")
        elif not 1 <= n <= n_cmds:
            bad(f"{cw}.commands", f"expected a command count 1..{n_cmds} (the log's length), got {clip(n)}")
        elif not _HEX64.match(h):
            bad(f"{cw}.hash", f"expected a 64-digit SHA-256 hex digest, got {clip(h)}")
        elif checkpoints and (t <= checkpoints[-1][0] or n <= checkpoints[-1][1]):
            bad(
                cw,
                f"turn {t} at command {n} does not follow the previous checkpoint (turn {checkpoints[-1][0]} "
                f"at command {checkpoints[-1][1]}): checkpoints must be in order",
            )
        else:
            checkpoints.append((t, n, h))
    return checkpoints


def parse_save(data: Any, src: str = "<memory>") -> SaveFile:
    """Check the form of a parsed save document (no replay), as :func:`read_save` does.

    Args:
        data: the parsed JSON document.
        src: the file name used in problems.

    Raises:
        ValidationError: listing every problem of form (schema, each command's fields,
            checkpoints and the final bookkeeping).
    """
    return _parse_save(data, src)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def read_save(path: str | os.PathLike[str]) -> SaveFile:
    """Read and check the form of a save file (no replay).

    Raises:
        ValidationError: listing every problem of form.
    """
    data = read_json(path, kind="hexwar-save")
    return _parse_save(data, str(path))


_BARE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def _inside(p: Path, root: Path) -> bool:
    return p == root or root in p.parents


def scenario_candidates(save: SaveFile, given: tuple[str, ...] = ()) -> tuple[list[Path], list[str]]:
    """Where a save's scenario may be looked for, before any file is opened (issue 13 item 3).

    Only three places are allowed: files given on the command line (``given``, e.g.
    ``hexwar replay SAVE --scenario FILE``), ``.toml`` files in the save's own folder and the
    shipped scenarios. The save's recorded ``scenario.path`` is used only when it resolves
    into one of them; its file name (and a bare ``scenario.name``) are looked up in the save's
    folder and among the shipped scenarios.

    Returns:
        ``(candidates, refused)``: existing paths to try in order, and a note per recorded
        path refused because it points elsewhere.
    """
    roots: list[Path] = []
    if save.path != "<memory>":
        roots.append(Path(save.path).resolve().parent)
    try:
        roots.append(content_dir("scenarios").resolve())
    except FileNotFoundError:
        pass
    out: list[Path] = []
    refused: list[str] = []

    def add(p: Path) -> None:
        r = p.resolve()
        if r.is_file() and r not in out:
            out.append(r)

    for g in given:
        add(Path(g))
    rec = save.scenario_path
    names: list[str] = []
    if rec:
        rp = Path(rec)
        if rp.suffix.lower() == ".toml" and _BARE_NAME.match(rp.stem):
            names.append(rp.name)
        if rp.is_absolute() and any(_inside(rp.resolve(), r) for r in roots) and rp.suffix.lower() == ".toml":
            add(rp)
        elif not any(rp.resolve() == c for c in out):
            refused.append(
                f"the recorded scenario path {clip(rec)} lies outside the save's folder and the shipped "
                "scenarios, so it is not opened"
            )
    for n in (save.scenario_name, save.scenario_id):
        if n and _BARE_NAME.match(n):
            names.append(f"{n}.toml")
    for root in roots:
        for n in names:
            add(root / n)
    return out, refused


def _find_scenario_for(save: SaveFile, given: tuple[str, ...] = ()) -> Scenario:
    cands, refused = scenario_candidates(save, given)
    first: Scenario | None = None
    errors: list[str] = []
    for c in cands:
        try:
            sc = load_scenario(c)
            if save.scenario_map:  # issues 19, 32: the game was played on a generated map or map file
                folders = [Path(save.path).parent, Path(c).parent] if save.path else [Path(c).parent]
                sc = scenario_on_map(sc, save.scenario_map, folders)
        except HexwarError as exc:
            errors.append(f"{c}: {str(exc).splitlines()[-1].strip()}")
            continue
        if sc.content_hash == save.scenario_hash:
            return sc
        first = first or sc
    ref = clip(save.scenario_name or save.scenario_id)
    if first is not None:
        what = f"the scenario {ref}"
        if save.scenario_map.startswith("file:"):
            what += f" or the map {save.scenario_map[5:]} it was played on"
        raise ReplayError(
            f"{save.path}: {what} has changed since the game was saved "
            f"(hash {first.content_hash[:12]}... of {first.path} differs from the saved "
            f"{save.scenario_hash[:12]}...)"
        )
    why = "; ".join(refused + errors)
    raise ReplayError(
        f"{save.path}: the scenario {ref} was not found in the save's folder or among the shipped "
        f"scenarios{' (' + why + ')' if why else ''}; give it with --scenario FILE"
    )


def replay(
    save: SaveFile,
    scenario: Scenario | None = None,
    verify: bool = True,
    until: int | None = None,
    scenario_paths: tuple[str, ...] = (),
) -> GameState:
    """Replay a save's commands from a fresh game and (by default) verify everything.

    Verification (issue 13 item 4) checks the scenario's hash, every checkpoint (each End Turn
    of the replay must have its checkpoint in the save, at the same turn and command index,
    with the same state hash, and the save may hold no other), the final turn, phase, result
    and state hash, the command log's hash and the event log's hash.

    Args:
        save: the parsed save.
        scenario: the scenario to use; default: found from the save's reference among the
            allowed places (:func:`scenario_candidates`; its hash must match).
        verify: check everything listed above.
        until: replay only the first ``until`` commands (checkpoints up to there only).
        scenario_paths: scenario files given on the command line (allowed places).

    Returns:
        the replayed game.

    Raises:
        ReplayError: naming the first command refused, the first checkpoint that is missing
            or differs, or the final value that differs.
    """
    sc = scenario or _find_scenario_for(save, scenario_paths)
    if getattr(sc, "mode", "hex") != save.mode:
        raise ReplayError(
            f"{save.path}: a {save.mode} game cannot replay on the {getattr(sc, 'mode', 'hex')} scenario "
            f"{sc.id!r}"
        )
    if save.setup:
        try:
            sc = sc.with_setup(save.setup)  # type: ignore[attr-defined]
        except (AttributeError, HexwarError) as exc:
            raise ReplayError(f"{save.path}: setup: {exc}") from None
    if verify and sc.content_hash != save.scenario_hash:
        raise ReplayError(f"{save.path}: the scenario differs from the one saved (hash mismatch)")
    if verify and save.header_hash and _save_header_hash(save) != save.header_hash:
        raise ReplayError(
            f"{save.path}: the save's scenario id or name, seed, variants, rules_revision, players or setup "
            "differ from the ones saved (final.header_hash does not match): the file was edited after saving"
        )
    state = sc.new_game(seed=save.seed, variants=save.variants)
    if hasattr(state, "rules_revision"):
        state.rules_revision = save.rules_revision  # before any command: setup rolls no combat
    n = len(save.commands) if until is None else min(until, len(save.commands))
    for i, cmd in enumerate(save.commands[:n]):
        k = len(state.checkpoints)
        try:
            state.apply(cmd)
        except IllegalCommand as exc:
            raise ReplayError(
                f"{save.path}: command {i} ({cmd}) is refused on replay: {exc.reason}; "
                f"the command log is corrupt or belongs to another game",
                index=i,
            ) from None
        if verify and len(state.checkpoints) > k:
            t, m, h = state.checkpoints[k]
            if k >= len(save.checkpoints):
                raise ReplayError(
                    f"{save.path}: the save has no checkpoint for the End Turn of turn {t} (after command "
                    f"{i}): checkpoints were removed, so the save cannot be verified",
                    index=i,
                    turn=t,
                )
            st, sm, sh = save.checkpoints[k]
            if (st, sm) != (t, m):
                raise ReplayError(
                    f"{save.path}: checkpoints[{k}] differs from the replay: it says turn {st} after command {sm - 1}, but the replay "
                    f"ends turn {t} after command {i}",
                    index=i,
                    turn=t,
                )
            if sh != h:
                raise ReplayError(
                    f"{save.path}: the replay diverges by the end of turn {t} (state hash after command "
                    f"{i} differs from the saved checkpoint)",
                    index=i,
                    turn=t,
                )
    if not verify:
        return state
    extra = [cp for cp in save.checkpoints[len(state.checkpoints) :] if cp[1] <= n]
    if extra:
        t, m, _ = extra[0]
        raise ReplayError(
            f"{save.path}: the save has a checkpoint for turn {t} after command {m - 1} that the "
            "replay never reached",
            turn=t,
        )
    if until is None:
        if state.state_hash() != save.final_hash:
            raise ReplayError(
                f"{save.path}: the replayed final state differs from the saved one (hash "
                f"{state.state_hash()[:12]}... vs {save.final_hash[:12]}...)"
            )
        if (state.turn, str(state.phase)) != (save.final_turn, save.final_phase):
            raise ReplayError(
                f"{save.path}: final says turn {save.final_turn}, {clip(save.final_phase)} phase, but the "
                f"replay ends in turn {state.turn}, {state.phase} phase"
            )
        res = state.result.to_json() if state.result else None
        if res != save.result:
            raise ReplayError(
                f"{save.path}: final.result {clip(save.result)} differs from the replayed {clip(res)}"
            )
        if commands_hash(save.commands) != save.commands_hash:
            raise ReplayError(
                f"{save.path}: the command log differs from the one saved (its hash does not match): "
                "it was edited after the game was saved"
            )
        if log_hash(state) != save.log_hash:
            raise ReplayError(
                f"{save.path}: the replayed game log differs from the saved game's (log hash "
                f"{log_hash(state)[:12]}... vs {save.log_hash[:12]}...): the commands were altered"
            )
    return state


def load_game(
    path: str | os.PathLike[str], verify: bool = True, scenario_paths: tuple[str, ...] = ()
) -> GameState:
    """Load a save: read it, replay it through the same code and verify its hashes.

    Args:
        path: the save file.
        verify: verify everything (:func:`replay`).
        scenario_paths: scenario files given on the command line.

    Raises:
        ValidationError: when the file is malformed.
        ReplayError: when it does not replay to the saved state.
    """
    return replay(read_save(path), verify=verify, scenario_paths=scenario_paths)


def validate_save_file(path: str, scenario_paths: tuple[str, ...] = ()) -> None:
    """Validate a save fully (form, then replay and hashes); registered in VALIDATORS.

    Args:
        path: the save.
        scenario_paths: scenario files given on the command line (:func:`scenario_candidates`).

    Raises:
        ValidationError: listing every problem.
    """
    save = read_save(path)
    try:
        replay(save, scenario_paths=scenario_paths)
    except ReplayError as exc:
        raise ValidationError(
            [
                Problem(
                    path,
                    f"commands[{exc.index}]" if exc.index is not None else "final",
                    str(exc).split(": ", 1)[-1],
                )
            ]
        ) from None


class Autosaver:
    """Writes a game's save after every End Turn and when the game ends.

    Call :meth:`after` with the events of each applied command (the headless runner and the
    window do). The saver holds the save file's advisory lock (:class:`hexwar.fileio.FileLock`)
    from its creation until :meth:`close` (or the end of the process), so a second game saving
    to the same file waits briefly and then refuses instead of overwriting this one.

    Args:
        path: the save file.
        players: who plays each side (written into the save).

    Raises:
        HexwarError: when another process holds the save file's lock.
    """

    def __init__(self, path: str | os.PathLike[str], players: dict[str, str] | None = None):
        self.path = Path(path)
        self.players = dict(players or {})
        self.writes = 0
        self._lock = FileLock(self.path, what="saved to (a game is running with that --save file)").acquire()
        self._finalizer = weakref.finalize(self, self._lock.release)

    def close(self) -> None:
        """Release the save file's lock (the saver writes nothing more)."""
        self._finalizer()

    def after(self, state: GameState, events: list[Any]) -> bool:
        """Save if ``events`` include an End Turn or the game's end; returns whether it wrote."""
        if any(getattr(e, "kind", "") in ("end_turn", "victory") for e in events):
            write_save(state, self.path, self.players)
            self.writes += 1
            return True
        return False
