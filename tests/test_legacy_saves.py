"""Saves written by round-1 main (e9c3826, tests/data/legacy_e9c3826/) still replay exactly.

Issue 14 changes the shape of the game and rules modules, never their outcome: every legacy save
must replay through ``hexwar replay FILE --verify`` and through :func:`hexwar.game.save.load_game`
to the same per-turn checkpoint hashes, the same final state hash and the same event-log hash
(every roll, R1.2, and every event's kind, text and data as written to the log). Re-saving the
replayed game must give the same save document (the save JSON format is unchanged).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hexwar.cli import main
from hexwar.game.save import load_game, log_hash, read_save, save_data

LEGACY = Path(__file__).parent / "data" / "legacy_e9c3826"
SAVES = sorted(LEGACY.glob("save_*.json"))


def test_the_legacy_saves_cover_six_scenarios_and_every_rule_variant():
    assert len(SAVES) == 6
    variants = {v for p in SAVES for v in json.loads(p.read_text())["variants"]}
    assert variants == {"classic", "burnout"}


@pytest.mark.parametrize("path", SAVES, ids=lambda p: p.stem)
def test_legacy_save_replays_to_the_saved_hashes_through_the_api(path):
    saved = json.loads(path.read_text())
    sf = read_save(path)
    state = load_game(path)  # verify=True: checkpoints, final, commands and log hashes
    assert state.state_hash() == saved["final"]["hash"]
    assert log_hash(state) == saved["final"]["log_hash"]
    assert [list(c) for c in state.checkpoints] == [
        [c["turn"], c["commands"], c["hash"]] for c in saved["checkpoints"]
    ]
    assert len(state.commands) == len(sf.commands) == saved["final"]["commands"]
    again = save_data(state, saved["players"])
    for key in ("format", "schema_version", "seed", "variants", "players", "commands", "checkpoints"):
        assert again[key] == saved[key], key
    # issue 33: saves written now add final.header_hash; every field the legacy save has is the same
    assert {k: v for k, v in again["final"].items() if k != "header_hash"} == saved["final"]


@pytest.mark.parametrize("path", SAVES, ids=lambda p: p.stem)
def test_legacy_save_replays_with_verify_through_the_cli(path, tmp_path, capsys):
    # a copy elsewhere: the scenario is found beside the save (its saved absolute path is another machine's)
    for f in LEGACY.iterdir():
        if f.is_dir():
            shutil.copytree(f, tmp_path / f.name)
        else:
            shutil.copy(f, tmp_path / f.name)
    rc = main(["replay", str(tmp_path / path.name), "--verify"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert "replays exactly" in out.out


def test_a_legacy_save_with_one_changed_die_is_caught(tmp_path, capsys):
    saved = json.loads((LEGACY / "save_standard_s1.json").read_text())
    saved["seed"] += 1  # other dice from the first roll on
    for f in LEGACY.iterdir():
        if f.is_dir():
            shutil.copytree(f, tmp_path / f.name)
        elif f.suffix == ".toml" or f.is_dir():
            shutil.copy(f, tmp_path / f.name)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(saved))
    rc = main(["replay", str(bad), "--verify"])
    assert rc == 1
