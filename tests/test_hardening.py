"""Issue 13 (hardening), items 2-9 and 12: every gap the audit found, closed with a test each.

Item 1 (validate sees what play sees) is tests/test_validate_play.py; item 8's SIGKILL pair
test is tests/test_crash_pairs.py; item 14 (selftest) is tests/test_selftest.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from game_helpers import DATA

import hexwar.fileio as fio
from hexwar.cli import main
from hexwar.errors import HexwarError, ValidationError
from hexwar.game import limits, ruleset
from hexwar.game.ai import make_player
from hexwar.game.commands import Move
from hexwar.game.headless import play
from hexwar.game.save import MAX_COMMANDS, ReplayError, load_game, read_save, write_save
from hexwar.game.scenario import load_scenario, parse_scenario
from hexwar.game.scenario_file import ScenarioFile
from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap

ROOT = Path(__file__).resolve().parent.parent
LEGACY = DATA / "legacy_e9c3826"


def run(capsys, *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def tiny_copy(folder: Path) -> Path:
    """game_tiny.toml and its map copied into ``folder`` (a save there finds its scenario)."""
    folder.mkdir(parents=True, exist_ok=True)
    for f in ("game_tiny.toml", "game_tiny_map.json"):
        shutil.copy(DATA / f, folder / f)
    return folder / "game_tiny.toml"


def ai_players(seed: int) -> dict:
    return {s: make_player("standard", s, seed) for s in ("german", "soviet")}


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory) -> dict:
    """A two-turn AI game of game_tiny saved beside its scenario: the save document."""
    folder = tmp_path_factory.mktemp("saved")
    sc = load_scenario(tiny_copy(folder))
    run_ = play(sc, ai_players(5), seed=5, max_turns=2)
    path = folder / "g.json"
    write_save(run_.state, path)
    return {"folder": folder, "path": path, "data": json.loads(path.read_text()), "state": run_.state}


def tampered(saved_game: dict, name: str, change) -> Path:
    d = json.loads(json.dumps(saved_game["data"]))
    change(d)
    p = saved_game["folder"] / f"{name}.json"
    p.write_text(json.dumps(d))
    return p


# -- item 2: every game ends (R12.4) -------------------------------------------------------------
ENDLESS = """
[scenario]
id = "endless"
name = "Endless"
map = "game_tiny_map.json"
turns = 0
overrun = false
override_reserves = true
[sides.german]
deploy = ["A01:B02"]
reserves = ["de_grenadiers"]
[sides.soviet]
deploy = ["J01"]
reserves = ["su_rifles"]
"""


def test_scenario_without_turn_limit_or_overrun_is_refused_naming_the_fields(tmp_path):
    tiny_copy(tmp_path)
    with pytest.raises(ValidationError) as exc:
        parse_scenario(ENDLESS, tmp_path / "e.toml")
    (p,) = exc.value.problems
    assert p.where == "scenario.turns" and "scenario.overrun = false" in p.message and "R12.4" in p.message


def test_scenario_without_turn_limit_and_unreachable_points_is_refused(tmp_path):
    tiny_copy(tmp_path)
    # Overrun on, but 51 points out of reach: grenadiers and rifles captured give at most 2 x cost
    text = ENDLESS.replace("overrun = false", "overrun = true")
    with pytest.raises(ValidationError) as exc:
        parse_scenario(text, tmp_path / "e.toml")
    (p,) = exc.value.problems
    g = 2 * ruleset.cost("su_rifles")
    assert p.where == "scenario.turns" and "victory_points = 51" in p.message and f"German {g}" in p.message
    ok = text.replace('name = "Endless"', f'name = "Endless"\nvictory_points = {g}')
    assert parse_scenario(ok, tmp_path / "e.toml").turns == 0  # reachable now: accepted


def test_hard_turn_cap_ends_the_game_as_a_logged_draw(monkeypatch, tmp_path):
    import hexwar.game.victory as victory

    monkeypatch.setattr(victory, "HARD_TURN_CAP", 2)
    sc = load_scenario(tiny_copy(tmp_path))  # its own turn limit is 3
    st = play(sc, ai_players(3), seed=3).state  # seed 3: nobody reaches 30 points in two turns
    assert st.result.reason == "turn cap" and st.result.winner is None and st.result.turn == 2
    assert any(e.kind == "victory" and "hard turn cap (2 turns, R12.4)" in e.text for e in st.log)
    write_save(st, tmp_path / "cap.json")
    assert load_game(tmp_path / "cap.json").result.reason == "turn cap"  # replays to the same end


def test_the_hard_turn_cap_is_written_into_the_rules_doc():
    text = (ROOT / "docs" / "rules.md").read_text()
    assert f"hard turn cap of {limits.HARD_TURN_CAP} turns" in text
    assert f"{limits.MAX_GAME_COMMANDS:,} commands" in text


def test_command_cap_ends_the_game_and_the_loader_accepts_every_capped_save(monkeypatch, tmp_path):
    monkeypatch.setattr(limits, "MAX_GAME_COMMANDS", 25)
    sc = load_scenario(tiny_copy(tmp_path))
    st = play(sc, ai_players(4), seed=4).state
    assert st.result.reason == "command cap" and st.result.winner is None and len(st.commands) == 25
    write_save(st, tmp_path / "capped.json")
    assert load_game(tmp_path / "capped.json").state_hash() == st.state_hash()
    assert MAX_COMMANDS == limits.MAX_GAME_COMMANDS == 60_000 or MAX_COMMANDS >= 60_000
    # the largest command JSON seen times the cap stays under the save size limit
    biggest = max(
        len(json.dumps(c, indent=2))
        for f in LEGACY.glob("save_*.json")
        for c in json.loads(f.read_text())["commands"]
    )
    assert biggest * 4 * MAX_COMMANDS < fio.LIMITS["hexwar-save"][0]


# -- item 3: a save cannot open arbitrary files --------------------------------------------------
def test_save_naming_etc_shadow_is_refused_before_any_file_is_opened(saved_game, monkeypatch):
    p = tampered(saved_game, "shadow", lambda d: d["scenario"].update(path="/etc/shadow", name="x", id="y"))
    opened: list[str] = []
    import hexwar.game.scenario as scm
    import hexwar.game.scenario_file as sfm

    real = fio.read_text
    for mod in (scm, sfm):
        monkeypatch.setattr(
            mod, "read_text", lambda path, *a, **k: opened.append(str(path)) or real(path, *a, **k)
        )
    with pytest.raises(ReplayError) as exc:
        load_game(p)
    assert "/etc/shadow" in str(exc.value) and "not opened" in str(exc.value)
    assert all("shadow" not in o for o in opened)


def test_a_valid_scenario_outside_the_allowed_places_is_used_only_when_given(saved_game, tmp_path):
    elsewhere = tiny_copy(tmp_path / "elsewhere")
    saves = tmp_path / "saves"
    saves.mkdir()
    d = json.loads(json.dumps(saved_game["data"]))
    d["scenario"]["path"] = str(elsewhere)
    (saves / "g.json").write_text(json.dumps(d))
    with pytest.raises(ReplayError, match="not found in the save's folder"):
        load_game(saves / "g.json")
    assert (
        load_game(saves / "g.json", scenario_paths=(str(elsewhere),)).state_hash()
        == saved_game["state"].state_hash()
    )


def test_legacy_saves_find_their_scenarios_in_their_own_folder(capsys, tmp_path):
    copy = tmp_path / "legacy"
    shutil.copytree(LEGACY, copy)  # the recorded absolute paths now point outside the allowed places
    for f in sorted(copy.glob("save_*.json")):
        assert not Path(json.loads(f.read_text())["scenario"]["path"]).is_relative_to(copy)
        rc, out, _ = run(capsys, "replay", str(f), "--verify")
        assert rc == 0 and "replays exactly" in out, out


# -- item 4: replay --verify checks everything or says it cannot ----------------------------------
TAMPERINGS = {
    "checkpoints_deleted": lambda d: d.__setitem__("checkpoints", []),
    "checkpoints_missing": lambda d: d.pop("checkpoints"),
    "one_checkpoint_deleted": lambda d: d["checkpoints"].pop(0),
    "checkpoint_index_minus_one": lambda d: d["checkpoints"][0].__setitem__("commands", -1),
    "checkpoint_index_huge": lambda d: d["checkpoints"][-1].__setitem__("commands", 10**9),
    "checkpoint_turn_minus_99": lambda d: d["checkpoints"][0].__setitem__("turn", -99),
    "checkpoint_moved": lambda d: d["checkpoints"][0].__setitem__(
        "commands", d["checkpoints"][0]["commands"] - 1
    ),
    "commands_hash_blank": lambda d: d["final"].__setitem__("commands_hash", ""),
    "log_hash_blank": lambda d: d["final"].__setitem__("log_hash", ""),
    "log_hash_missing": lambda d: d["final"].pop("log_hash"),
    "final_turn_minus_99": lambda d: d["final"].__setitem__("turn", -99),
    "final_turn_wrong": lambda d: d["final"].__setitem__("turn", d["final"]["turn"] + 1),
    "final_phase_wrong": lambda d: d["final"].__setitem__(
        "phase", "draw" if d["final"]["phase"] != "draw" else "movement"
    ),
    "final_result_invented": lambda d: d["final"].__setitem__("result", {"winner": "german"}),
    "scenario_hash_blank": lambda d: d["scenario"].__setitem__("hash", ""),
}


@pytest.mark.parametrize("name", sorted(TAMPERINGS))
def test_replay_verify_refuses_tampered_bookkeeping(saved_game, name, capsys):
    p = tampered(saved_game, name, TAMPERINGS[name])
    rc, out, err = run(capsys, "replay", str(p), "--verify")
    assert rc in (1, 2) and "replays exactly" not in out, (name, out, err)
    assert (out + err).strip(), name


def test_replay_verify_refuses_duplicate_keys_in_a_save(saved_game, capsys):
    text = json.dumps(saved_game["data"])
    p = saved_game["folder"] / "dup.json"
    p.write_text(text.replace('"seed": 5,', '"seed": 5, "seed": 5,', 1))
    rc, out, err = run(capsys, "replay", str(p), "--verify")
    assert rc == 2 and "replays exactly" not in out and "duplicate key 'seed'" in err


def test_duplicate_keys_are_refused_in_maps_too(tmp_path, capsys):
    m = BattleMap.new(3, 3)
    text = m.to_text().replace('"width": 3,', '"width": 3, "width": 4,', 1)
    assert '"width": 4' in text
    (tmp_path / "m.json").write_text(text)
    with pytest.raises(ValidationError, match="duplicate key 'width'"):
        BattleMap.load(tmp_path / "m.json")
    rc, out, _ = run(capsys, "validate", str(tmp_path / "m.json"))
    assert rc == 1 and "duplicate key 'width'" in out


def test_the_untampered_save_still_replays_exactly(saved_game, capsys):
    rc, out, _ = run(capsys, "replay", str(saved_game["path"]), "--verify")
    assert rc == 0 and "replays exactly" in out


# -- item 5: continuing a save ---------------------------------------------------------------------
def test_continuing_plays_n_more_turns_and_writes_back_to_the_save(tmp_path, capsys):
    scen = tiny_copy(tmp_path)
    save = tmp_path / "g.json"
    rc, _, _ = run(
        capsys, "play", str(scen), "--headless", "--seed", "8", "--turns", "1", "--save", str(save), "--json"
    )
    assert rc == 0
    before = read_save(save)
    assert before.final_turn == 2 and before.result is None  # stopped after turn 1
    rc, out, _ = run(
        capsys, "play", str(save), "--headless", "--turns", "1", "--json"
    )  # no --save: write back
    assert rc == 0
    after = read_save(save)
    assert len(after.commands) > len(before.commands)
    assert after.final_turn == 3 or after.result is not None  # one more turn (or the game ended in it)
    assert [c.to_json() for c in after.commands[: len(before.commands)]] == [
        c.to_json() for c in before.commands
    ]


def test_continuing_with_save_other_forks_and_leaves_the_original(tmp_path, capsys):
    scen = tiny_copy(tmp_path)
    save, fork = tmp_path / "g.json", tmp_path / "fork.json"
    run(capsys, "play", str(scen), "--headless", "--seed", "8", "--turns", "1", "--save", str(save), "--json")
    original = save.read_bytes()
    rc, _, _ = run(capsys, "play", str(save), "--headless", "--turns", "1", "--save", str(fork), "--json")
    assert rc == 0 and save.read_bytes() == original
    assert len(read_save(fork).commands) > len(read_save(save).commands)


def test_continuing_a_corrupt_save_names_the_file_once(tmp_path, capsys):
    """A save whose command log is refused on replay (R12.3) is named once in the message, not
    ``cannot continue F: F: ...`` (hexwar.errors.cannot)."""
    scen = tiny_copy(tmp_path)
    save = tmp_path / "g.json"
    run(capsys, "play", str(scen), "--headless", "--seed", "8", "--turns", "1", "--save", str(save), "--json")
    data = json.loads(save.read_text())
    data["commands"][2] = data["commands"][1]  # one side's command given twice: refused on replay
    save.write_text(json.dumps(data))
    rc, _, err = run(capsys, "play", str(save), "--headless", "--turns", "1")
    assert rc == 2 and f"cannot continue {save}: command 2" in err, err
    assert err.count(str(save)) == 1, err


def test_play_help_says_turns_means_more_turns_when_continuing(capsys):
    rc, out, _ = run(capsys, "play", "--help")
    assert rc == 0 and "MORE turns" in out and "written back" in " ".join(out.split())


# -- item 6: shipped names everywhere --------------------------------------------------------------
def test_validate_takes_shipped_scenario_and_map_names(capsys):
    rc, out, _ = run(capsys, "validate", "kharkov", "steppe_village")
    assert rc == 0 and "kharkov.toml (hexwar-scenario)" in out and "steppe_village.json (hexwar-map)" in out


def test_replay_of_a_shipped_name_explains_instead_of_file_not_found(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, _, err = run(capsys, "replay", "kharkov")
    assert rc == 2 and "shipped scenario, not a saved game" in err and "file not found" not in err


def test_replay_takes_a_save_name_without_its_suffix(saved_game, capsys, monkeypatch):
    monkeypatch.chdir(saved_game["folder"])
    rc, out, _ = run(capsys, "replay", "g", "--verify")
    assert rc == 0 and "replays exactly" in out


# -- item 7: one set of size limits ---------------------------------------------------------------
def sparse(path: Path, head: str, size: int) -> Path:
    with path.open("wb") as fh:
        fh.write(head.encode())
        fh.truncate(size)
    return path


def test_a_70_mb_save_reports_the_save_limit_in_play_and_validate(tmp_path, capsys):
    p = sparse(tmp_path / "big.json", '{"format": "hexwar-save", "schema_version": 1, ', 70 * 1024 * 1024)
    rc, out, err = run(capsys, "play", str(p), "--headless")
    assert rc == 2 and "the save file limit is 64 MB" in err, err
    rc, out, _ = run(capsys, "validate", str(p))
    assert rc == 1 and "the save file limit is 64 MB" in out


def test_maps_and_scenarios_report_their_own_limits(tmp_path, capsys):
    m = sparse(tmp_path / "big_map.json", '{"format": "hexwar-map", ', 9 * 1024 * 1024)
    rc, out, _ = run(capsys, "validate", str(m))
    assert rc == 1 and "the map file limit is 8 MB" in out
    s = sparse(tmp_path / "big.toml", '[scenario]\nid = "x"\n', 2 * 1024 * 1024)
    rc, out, _ = run(capsys, "validate", str(s))
    assert rc == 1 and "the scenario file limit is 1 MB" in out
    with pytest.raises(ValidationError, match="the map file limit is 8 MB"):
        BattleMap.load(m)


# -- item 8: no litter, no silent loss -------------------------------------------------------------
def test_next_write_removes_this_programs_stale_temp_files_only(tmp_path):
    target = tmp_path / "g.json"
    stale = [tmp_path / ".g.json.abcd1234.tmp", tmp_path / ".g.json.zz_9y8x7.tmp"]
    keep = [
        tmp_path / ".other.json.abcd1234.tmp",
        tmp_path / ".g.json.backup",
        tmp_path / "g.json.abcd1234.tmp",
    ]
    for p in stale + keep:
        p.write_text("x")
    fio.atomic_write_text(target, "{}\n")
    assert not any(p.exists() for p in stale) and all(p.exists() for p in keep)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([p.name for p in keep] + ["g.json"])


HOLD_LOCK = textwrap.dedent("""
    import sys, time
    from hexwar.game.save import Autosaver
    saver = Autosaver(sys.argv[1])
    print("LOCKED", flush=True)
    time.sleep(30)
""")


def test_a_second_writer_waits_briefly_then_refuses_naming_the_file(tmp_path, monkeypatch, capsys):
    save = tmp_path / "same.json"
    proc = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(save)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "LOCKED"
        monkeypatch.setattr(fio, "LOCK_WAIT_SECONDS", 0.3)
        t0 = time.monotonic()
        with pytest.raises(HexwarError) as exc:
            fio.atomic_write_text(save, "{}")
        assert time.monotonic() - t0 >= 0.3
        assert str(save) in str(exc.value) and f"pid {proc.pid}" in str(exc.value)
        assert not save.exists()
        scen = tiny_copy(tmp_path / "s")
        rc, _, err = run(capsys, "play", str(scen), "--headless", "--turns", "1", "--save", str(save))
        assert rc == 2 and "another hexwar process" in err
    finally:
        proc.kill()
        proc.wait(timeout=30)
    fio.atomic_write_text(save, "{}")  # the holder is gone: writing works again, and leaves no lock file
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["same.json"]


def test_a_finished_headless_game_releases_its_save_lock(tmp_path):
    sc = load_scenario(tiny_copy(tmp_path))
    play(sc, ai_players(2), seed=2, max_turns=1, save_path=tmp_path / "g.json")
    assert not (tmp_path / ".g.json.lock").exists()
    play(sc, ai_players(2), seed=2, max_turns=1, save_path=tmp_path / "g.json")  # no refusal


# -- item 9: messages stay short and right ----------------------------------------------------------
def test_a_100000_character_card_id_is_echoed_cut_short(tmp_path, capsys):
    tiny_copy(tmp_path)
    long_id = "x" * 100_000
    text = (
        (DATA / "game_tiny.toml")
        .read_text()
        .replace('"de_grenadiers", "de_pz_iii_m"', f'"{long_id}", "de_pz_iii_m"', 1)
    )
    (tmp_path / "long.toml").write_text(text)
    rc, out, _ = run(capsys, "validate", str(tmp_path / "long.toml"))
    assert rc == 1 and "(100000 characters)" in out
    assert max(len(line) for line in out.splitlines()) < 600


def test_an_empty_unit_id_reads_without_a_double_space(tmp_path):
    sc = load_scenario(tiny_copy(tmp_path))
    g = sc.new_game(seed=1)
    side = g.to_act
    why = g.check(Move(side=side, unit="", path=(Hex.from_label("A01"),)))
    assert why is not None and "  " not in why


def test_csv_refuses_to_overwrite_a_file_hexwar_did_not_write(tmp_path, capsys):
    m = BattleMap.new(12, 10, name="Test town")
    m.set_terrain(Hex.from_label("F05"), "wood_building")
    town = tmp_path / "town.json"
    m.save(town)
    precious = tmp_path / "notes.csv"
    precious.write_text("my own notes\n")
    args = [
        "sim",
        "fire",
        str(town),
        "--ignite",
        "F05",
        "--turns",
        "2",
        "--trials",
        "50",
        "--csv",
        str(precious),
    ]
    rc, _, err = run(capsys, *args)
    assert rc == 2 and "--force" in err and precious.read_text() == "my own notes\n"
    rc, _, _ = run(capsys, *args, "--force")
    assert rc == 0 and precious.read_text() != "my own notes\n"
    rc, _, _ = run(capsys, *args)  # hexwar wrote it: replacing it needs no --force
    assert rc == 0
    precious.write_text(precious.read_text() + "edited by hand\n")
    rc, _, err = run(capsys, *args)
    assert rc == 2 and "changed since" in err


def test_render_out_refuses_to_overwrite_a_foreign_png(tmp_path, capsys):
    foreign = tmp_path / "photo.png"
    foreign.write_bytes(b"\x89PNG\r\n\x1a\nnot ours")
    rc, _, err = run(capsys, "render", "steppe_village", "--out", str(foreign))
    assert rc == 2 and "--force" in err and foreign.read_bytes().endswith(b"not ours")


# -- item 12: setup Events and Reserves points ------------------------------------------------------
def test_an_event_drawn_during_setup_is_reshuffled_and_redrawn(tmp_path):
    tiny_copy(tmp_path)
    events = '["ev_morning_mist", "ev_order_227", "ev_low_cloud", "ev_panzer_aces"]'
    text = (
        (DATA / "game_tiny.toml")
        .read_text()
        .replace('events = ["ev_morning_mist", "ev_order_227"]', f"events = {events}")
    )
    text = text.replace('hand = ["de_grenadiers", "de_pz_iii_m", "de_tank_crew_green", "de_sdkfz_251"]\n', "")
    sc = parse_scenario(text, tmp_path / "ev.toml")
    from hexwar.game.commands import ChooseHand

    for seed in range(400):
        g = sc.new_game(seed=seed)
        while g.phase == "setup":
            side = g.to_act
            g.apply(next(c for c in g.legal_commands(side) if isinstance(c, ChooseHand)))
        redraws = [e for e in g.log if e.kind == "roll" and "at setup: reshuffle" in e.text]
        if redraws:
            break
    else:
        pytest.fail("no seed in 0..399 drew an Event during setup")
    for side in ("german", "soviet"):
        hand = g.hand_commands[side]
        assert len(hand) == sc.sides[side].command_cards and not any(ruleset.is_event(c) for c in hand)
    evs = [c for c in g.command_deck if ruleset.is_event(c)]
    assert len(evs) == 4  # every Event went back into the Command deck (000 Standard Game Setup)
    deal = next(i for i, e in enumerate(g.log) if e.kind == "deal")
    assert g.log.index(redraws[0]) < deal + 2  # reshuffled while dealing, before play


STANDARD_FIXED = """
[scenario]
id = "fixed"
name = "Fixed decks"
map = "game_tiny_map.json"
turns = 5
{extra}
[sides.german]
deploy = ["A01:B02"]
reserves = ["de_grenadiers", "de_grenadiers"]
[sides.soviet]
deploy = ["J01"]
reserves = ["su_rifles"]
"""


def test_fixed_reserves_of_a_standard_game_must_be_80_to_100_points(tmp_path):
    tiny_copy(tmp_path)
    with pytest.raises(ValidationError) as exc:
        parse_scenario(STANDARD_FIXED.format(extra=""), tmp_path / "f.toml")
    wheres = {p.where: p.message for p in exc.value.problems}
    assert set(wheres) == {"sides.german.reserves", "sides.soviet.reserves"}
    assert wheres["sides.german.reserves"].startswith(f"{2 * ruleset.cost('de_grenadiers')} points;")
    assert (
        "80-100" in wheres["sides.soviet.reserves"] and "override_reserves" in wheres["sides.soviet.reserves"]
    )
    assert parse_scenario(STANDARD_FIXED.format(extra="override_reserves = true"), tmp_path / "f.toml")


def test_scenario_games_with_starting_units_keep_their_own_deck_sizes():
    sc = load_scenario("kharkov")  # the Soviet deck is 74 points: a Scenario Game's own setup (000)
    assert sum(ruleset.cost(c) for c in sc.sides["soviet"].reserves) == 74 and sc.sides["soviet"].units


# -- the one scenario document (issue 14) -----------------------------------------------------------
def test_scenario_document_keeps_comments_and_unknown_fields_when_values_change():
    text = (ROOT / "scenarios" / "kharkov.toml").read_text()
    sf = ScenarioFile.from_text(text)
    data = sf.data
    data["scenario"]["turns"] = 11
    data["sides"]["german"]["future_field"] = "kept"
    sf2 = ScenarioFile.from_dict(data, base_text=text)
    out = sf2.to_text()
    comments = [ln for ln in text.splitlines() if ln.lstrip().startswith("#")]
    assert comments and all(c in out.splitlines() for c in comments)
    assert sf2.data["scenario"]["turns"] == 11 and sf2.data["sides"]["german"]["future_field"] == "kept"
    assert len(out.splitlines()) == len(text.splitlines()) + 1


def test_scenario_document_validates_in_memory_with_file_and_field_paths(tmp_path):
    sf = ScenarioFile.from_text((DATA / "game_tiny.toml").read_text(), tmp_path / "nowhere" / "t.toml")
    m = BattleMap.load(DATA / "game_tiny_map.json")
    assert sf.validate(battlemap=m).battlemap.width == m.width  # no map file needed beside it
    data = sf.data
    data["scenario"]["events"] = ["ev_low_cloud", "ev_low_cloud"]
    data["sides"]["german"]["units"][0]["hex"] = "Z99"
    probs = ScenarioFile.from_dict(data, tmp_path / "nowhere" / "t.toml").problems(battlemap=m)
    got = {(p.file, p.where) for p in probs}
    src = str(tmp_path / "nowhere" / "t.toml")
    assert {(src, "scenario.events[1]"), (src, "sides.german.units[0].hex")} <= got
