"""The save parser before issue 34 moved its shape checks to the typed model (main at d7a4f01),
kept as a frozen test oracle for tests/test_save_model_equivalence.py. Not used by hexwar."""

# ruff: noqa
from __future__ import annotations

from typing import Any

from hexwar.errors import Problem, ValidationError, clip
from hexwar.formats.migrate import upgrade
from hexwar.formats.schema import merge_problems, schema_problems
from hexwar.game.commands import Command, CommandFormatError
from hexwar.game.limits import HARD_TURN_CAP
from hexwar.game.modes import known_modes
from hexwar.game.save import (
    _HEX64,
    MAX_COMMANDS,
    SAVE_FORMAT,
    SAVE_SCHEMA_VERSION,
    SaveFile,
    _is_int,
    _mode_commands,
    _mode_seats,
)
from hexwar.game.scenario import KNOWN_VARIANTS
from hexwar.rules.combat import RULES_REVISION


def old_parse_save(data: Any, src: str) -> SaveFile:
    problems: list[Problem] = []

    def bad(where: str, msg: str) -> None:
        problems.append(Problem(src, where, msg))

    if not isinstance(data, dict):
        raise ValidationError([Problem(src, "", f'expected a JSON object with "format": "{SAVE_FORMAT}"')])
    # issue 19: upgrade older versions in memory, then the JSON Schema (hexwar schema save) checks
    # the structure; the checks below add the bookkeeping the schema cannot say.
    structural: list[Problem] = []
    if data.get("format") == SAVE_FORMAT:
        try:
            data, _ = upgrade(data, "save", src)
        except ValidationError as exc:
            structural += exc.problems
            data = dict(data, schema_version=SAVE_SCHEMA_VERSION)
    structural += schema_problems(data, "save", src)
    if data.get("format") != SAVE_FORMAT:
        bad("format", f'expected "{SAVE_FORMAT}", got {data.get("format")!r}')
    mode = data.get("mode", "hex")
    if mode not in known_modes():
        bad("mode", f"expected one of {list(known_modes())}, got {clip(mode)}")
        mode = "hex"
    parse_command = _mode_commands(mode)
    setup = data.get("setup", {})
    if not isinstance(setup, dict):
        bad("setup", "expected an object")
        setup = {}
    sc = data.get("scenario")
    sid = sname = spath = shash = smap = ""
    if not isinstance(sc, dict):
        bad("scenario", "expected {id, name, path, hash}")
    else:
        for k in ("id", "name", "path", "hash"):
            if not isinstance(sc.get(k), str):
                bad(f"scenario.{k}", "expected text")
        sid, sname, spath, shash = (str(sc.get(k, "")) for k in ("id", "name", "path", "hash"))
        smap = sc["map"] if isinstance(sc.get("map"), str) else ""
        if not _HEX64.match(shash):
            bad("scenario.hash", f"expected a 64-digit SHA-256 hex digest, got {clip(shash)}")
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        bad("seed", f"expected an integer >= 0, got {clip(seed)}")
        seed = 0
    variants = data.get("variants", [])
    if not isinstance(variants, list) or any(v not in KNOWN_VARIANTS for v in variants):
        bad("variants", f"expected a list of rule variants from {KNOWN_VARIANTS}")
        variants = []
    players = data.get("players", {})
    if not isinstance(players, dict) or any(
        k not in _mode_seats(mode) or not isinstance(v, str) for k, v in players.items()
    ):
        bad("players", f"expected {{seat: name}} for seats of {_mode_seats(mode)}")
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
                commands.append(parse_command(c, f"commands[{i}]"))
            except CommandFormatError as exc:
                bad(f"commands[{i}]", str(exc).split(": ", 1)[-1])
    n_cmds = len(cmds_raw) if isinstance(cmds_raw, list) else 0
    checkpoints: list[tuple[int, int, str]] = []
    cps = data.get("checkpoints")
    if not isinstance(cps, list):
        bad("checkpoints", "missing: expected a list of {turn, commands, hash}, one per End Turn")
        cps = []
    for i, cp in enumerate(cps):
        cw = f"checkpoints[{i}]"
        if not isinstance(cp, dict) or set(cp) != {"turn", "commands", "hash"}:
            bad(cw, "expected exactly {turn: int, commands: int, hash: text}")
            continue
        t, n, h = cp["turn"], cp["commands"], cp["hash"]
        if not _is_int(t) or not 1 <= t <= HARD_TURN_CAP:
            bad(f"{cw}.turn", f"expected a turn 1..{HARD_TURN_CAP}, got {clip(t)}")
        elif not _is_int(n) or not 1 <= n <= n_cmds:
            bad(f"{cw}.commands", f"expected a command count 1..{n_cmds} (the log's length), got {clip(n)}")
        elif not isinstance(h, str) or not _HEX64.match(h):
            bad(f"{cw}.hash", f"expected a 64-digit SHA-256 hex digest, got {clip(h)}")
        elif checkpoints and (t <= checkpoints[-1][0] or n <= checkpoints[-1][1]):
            bad(
                cw,
                f"turn {t} at command {n} does not follow the previous checkpoint (turn {checkpoints[-1][0]} "
                f"at command {checkpoints[-1][1]}): checkpoints must be in order",
            )
        else:
            checkpoints.append((t, n, h))
    final = data.get("final")
    fhash, fturn, fphase, result, chash, lhash = "", 0, "", None, "", ""
    if not isinstance(final, dict):
        bad("final", "missing: expected {turn, phase, commands, hash, commands_hash, log_hash, result}")
    else:
        known_f = {"turn", "phase", "commands", "hash", "commands_hash", "log_hash", "result", "header_hash"}
        for k in final:
            if k not in known_f:
                bad(f"final.{clip(k, quote=False)}", f"unknown field; expected one of {sorted(known_f)}")
        for k in ("hash", "commands_hash", "log_hash"):
            v = final.get(k)
            if not isinstance(v, str) or not _HEX64.match(v):
                bad(
                    f"final.{k}",
                    f"{'missing' if v in (None, '') else 'got ' + clip(v)}: expected a 64-digit "
                    "SHA-256 hex digest (a save without it cannot be verified)",
                )
        hh = final.get("header_hash", "")  # absent only in saves written before issue 33
        if not isinstance(hh, str) or ("header_hash" in final and not _HEX64.match(hh)):
            bad("final.header_hash", f"got {clip(hh)}: expected a 64-digit SHA-256 hex digest")
            hh = ""
        fhash = str(final.get("hash", ""))
        chash = str(final.get("commands_hash", ""))
        lhash = str(final.get("log_hash", ""))
        ft = final.get("turn")
        if isinstance(ft, int) and not isinstance(ft, bool) and 0 <= ft <= HARD_TURN_CAP + 1:
            fturn = ft
        else:
            bad("final.turn", f"expected a turn 0..{HARD_TURN_CAP + 1}, got {clip(ft)}")
        fp = final.get("phase")
        if not isinstance(fp, str) or not fp:
            bad("final.phase", f"expected the phase name, got {clip(fp)}")
        else:
            fphase = fp
        fr = final.get("result")
        if fr is not None and not isinstance(fr, dict):
            bad("final.result", f"expected null or the result object, got {clip(fr)}")
        result = fr if isinstance(fr, dict) else None
        fc = final.get("commands")
        if not _is_int(fc) or (isinstance(cmds_raw, list) and fc != n_cmds):
            bad("final.commands", f"says {clip(fc)} commands but the log holds {n_cmds}")
    # migration: saves written before rules revisions were recorded replay with revision 1
    # (docs/rules.md "Rules revisions")
    revision = data.get("rules_revision", 1)
    if not _is_int(revision) or not 1 <= revision <= RULES_REVISION:
        bad("rules_revision", f"expected a rules revision 1..{RULES_REVISION}, got {clip(revision)}")
        revision = 1
    problems = merge_problems(structural, problems)
    if problems:
        raise ValidationError(problems)
    return SaveFile(
        sid,
        sname,
        spath,
        shash,
        int(seed),
        tuple(variants),
        commands,
        checkpoints,
        fhash,
        fturn,
        dict(players),
        result,
        src,
        chash,
        lhash,
        fphase,
        smap,
        str(mode),
        dict(setup),
        revision,
        str(hh) if isinstance(final, dict) else "",
    )
