"""Hardening round 3 (issue 33): the gaps outside audits found in saves and files, each closed.

* campaign saves bind every recorded value like the hex and line saves do (``final.winner``,
  checkpoints, command and log hashes) and open a battle's game save only in their own folder;
* ``--verify`` binds ``rules_revision``, ``players`` and ``scenario.id``/``name`` in every save mode
  (``final.header_hash``);
* no traceback for a campaign command whose ``cmd`` is a list or object, nor for a TOML date or
  time in a scenario field;
* the lock file ``.NAME.lock`` is never followed through a planted symbolic link.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from hexwar.cli import main
from hexwar.errors import HexwarError
from hexwar.fileio import FileLock, atomic_write_text

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


# -- campaign saves ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def war_save(tmp_path_factory) -> Path:
    """A whole computer-vs-computer war (seed 3, cards battles), saved once for the module."""
    folder = tmp_path_factory.mktemp("war")
    save = folder / "war.json"
    rc = main(
        ["campaign", "--headless", "--ai", "german,soviet", "--seed", "3", "--save", str(save), "--json"]
    )
    assert rc == 0
    return save


def _tampered(war_save: Path, tmp_path: Path, change) -> Path:
    data = json.loads(war_save.read_text())
    change(data)
    out = tmp_path / "tampered.json"
    out.write_text(json.dumps(data, indent=2))
    return out


def _other_side(side):
    return {"german": "soviet", "soviet": "german", None: "german"}[side]


CAMPAIGN_TAMPERS = {
    "winner_changed": lambda d: d["final"].__setitem__("winner", _other_side(d["final"]["winner"])),
    "winner_nulled": lambda d: d["final"].__setitem__("winner", None),
    "result_changed": lambda d: d["final"].__setitem__("result", "a walkover"),
    "checkpoints_emptied": lambda d: d.__setitem__("checkpoints", []),
    "checkpoints_removed": lambda d: d.pop("checkpoints"),
    "one_checkpoint_dropped": lambda d: d["checkpoints"].pop(),
    "commands_hash_emptied": lambda d: d["final"].__setitem__("commands_hash", ""),
    "log_hash_emptied": lambda d: d["final"].__setitem__("log_hash", ""),
    "log_hash_removed": lambda d: d["final"].pop("log_hash"),
    "everything_emptied": lambda d: (
        d.__setitem__("checkpoints", []),
        d["final"].__setitem__("commands_hash", ""),
        d["final"].__setitem__("log_hash", ""),
    ),
    "players_changed": lambda d: d["players"].__setitem__("german", "human"),
    "header_hash_emptied": lambda d: d["final"].__setitem__("header_hash", ""),
    "year_changed": lambda d: d["final"].__setitem__("year", d["final"]["year"] + 1),
    "unknown_final_field": lambda d: d["final"].__setitem__("note", "x"),
}


def test_an_untampered_war_save_verifies(war_save, capsys):
    assert main(["replay", str(war_save), "--verify"]) == 0
    assert "replays exactly" in capsys.readouterr().out
    assert json.loads(war_save.read_text())["final"]["winner"] in ("german", "soviet")


@pytest.mark.parametrize("name", sorted(CAMPAIGN_TAMPERS))
def test_a_tampered_war_save_fails_verify_like_hex_and_line_saves(war_save, tmp_path, capsys, name):
    """Issue 33: before it, a changed final.winner and emptied checkpoints/hashes verified."""
    bad = _tampered(war_save, tmp_path, CAMPAIGN_TAMPERS[name])
    rc = main(["replay", str(bad), "--verify"])
    out = capsys.readouterr()
    assert rc != 0, out.out
    assert "replays exactly" not in out.out
    assert "Traceback" not in out.out + out.err
    assert main(["validate", str(bad)]) != 0


@pytest.mark.parametrize("game", ["/etc/passwd", "../outside.json", "sub/war.1943-1.json", ".hidden.json"])
def test_a_war_battle_game_path_outside_the_save_folder_is_refused(war_save, tmp_path, capsys, game):
    """The hex saves' rule (the save's own folder) applies to a war's battle_result.game too:
    the path is refused before any file is opened."""
    (tmp_path.parent / "outside.json").write_text("{}")  # exists: refused for where it is

    def plant(d):
        d["commands"].insert(0, {"cmd": "battle_result", "side": "umpire", "winner": "german", "game": game})

    bad = _tampered(war_save, tmp_path, plant)
    assert main(["replay", str(bad), "--verify"]) == 2
    err = capsys.readouterr().err
    assert "commands[0].game" in err and "folder" in err
    assert main(["validate", str(bad)]) != 0


@pytest.mark.parametrize("cmd", [["place_battle_card"], {"a": 1}, 7, None])
def test_a_campaign_command_whose_cmd_is_not_text_is_a_clear_error(war_save, tmp_path, capsys, cmd):
    bad = _tampered(war_save, tmp_path, lambda d: d["commands"][0].__setitem__("cmd", cmd))
    for argv in (["validate", str(bad)], ["replay", str(bad), "--verify"]):
        rc = main(argv)  # an uncaught TypeError (unhashable list) would raise here
        out = capsys.readouterr()
        assert rc != 0
        assert "commands[0]" in out.out + out.err and "cmd" in out.out + out.err
    cont = tmp_path / "cont.json"
    shutil.copy(bad, cont)
    rc = main(["campaign", str(cont), "--headless", "--ai", "german,soviet"])
    out = capsys.readouterr()
    assert rc == 2 and "commands[0].cmd" in out.err


# -- hex and line saves: the header fields --------------------------------------------------
@pytest.fixture(scope="module")
def game_saves(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("games")
    out = {}
    for mode, scen, extra in (
        ("hex", "skirmish", ["--turns", "1"]),
        ("lines", "lines", ["--turns", "2"]),
    ):
        save = folder / f"{mode}.json"
        rc = main(
            ["play", scen, "--headless", "--ai", "german,soviet", "--seed", "5", "--save", str(save), *extra]
        )
        assert rc == 0
        out[mode] = save
    return out


HEADER_TAMPERS = {
    "rules_revision": lambda d: d.__setitem__("rules_revision", 1 if d.get("rules_revision", 1) != 1 else 2),
    "players": lambda d: d["players"].__setitem__("soviet", "human"),
    "scenario_id": lambda d: d["scenario"].__setitem__("id", d["scenario"]["id"] + "x"),
    "scenario_name": lambda d: d["scenario"].__setitem__("name", "Another name"),
}


@pytest.mark.parametrize("mode", ["hex", "lines"])
@pytest.mark.parametrize("field", sorted(HEADER_TAMPERS))
def test_verify_binds_rules_revision_players_and_the_scenario_reference(
    game_saves, tmp_path, capsys, mode, field
):
    """Issue 33: these fields are outside every replayed hash; final.header_hash binds them."""
    save = game_saves[mode]
    assert main(["replay", str(save), "--verify"]) == 0
    assert "predates final.header_hash" not in capsys.readouterr().out
    data = json.loads(save.read_text())
    HEADER_TAMPERS[field](data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    # the scenario is found by its shipped name either way: only the header hash can catch this
    rc = main(
        [
            "replay",
            str(bad),
            "--verify",
            "--scenario",
            str(SCENARIOS / f"{'skirmish' if mode == 'hex' else 'lines'}.toml"),
        ]
    )
    out = capsys.readouterr().out
    assert rc == 1, out
    assert "header_hash" in out


def test_a_save_written_before_header_hashes_still_verifies_and_says_so(tmp_path, capsys):
    legacy = ROOT / "tests" / "data" / "legacy_e9c3826"
    for f in legacy.iterdir():
        (shutil.copytree if f.is_dir() else shutil.copy)(f, tmp_path / f.name)
    assert main(["replay", str(tmp_path / "save_skirmish_s2.json"), "--verify"]) == 0
    assert "predates final.header_hash" in capsys.readouterr().out


# -- TOML dates and times ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "scen,line,new,field",
    [
        ("skirmish", "turns = 8", "turns = 1979-05-27T07:32:00Z", "scenario.turns"),
        ("skirmish", "seed = 1943", "seed = 07:32:00", "scenario.seed"),
        ("skirmish", 'id = "skirmish"', "id = 1979-05-27", "scenario.id"),
        ("lines", "turns = 30", "turns = 1979-05-27 07:32:00", "scenario.turns"),
    ],
)
def test_a_toml_date_in_a_scenario_field_is_a_clear_error_naming_file_and_field(
    tmp_path, capsys, scen, line, new, field
):
    text = (SCENARIOS / f"{scen}.toml").read_text()
    assert line in text
    if scen == "skirmish":  # its map beside it
        text = text.replace('map = "steppe_village"', f'map = "{ROOT / "maps" / "steppe_village.json"}"')
    p = tmp_path / "dated.toml"
    p.write_text(text.replace(line, new, 1))
    for argv in (
        ["validate", str(p)],
        ["play", str(p), "--headless", "--ai", "german,soviet"],
        ["render", str(p), "--out", str(tmp_path / "x.png")],
    ):
        rc = main(argv)  # json.dumps of a datetime raised TypeError here before
        out = capsys.readouterr()
        assert rc != 0
        msg = out.out + out.err
        assert str(p) in msg and field in msg and "date or time" in msg, (argv, msg)


# -- the lock file -----------------------------------------------------------------------------
def test_the_lock_file_is_never_followed_through_a_planted_symlink(tmp_path):
    """Issue 33: whoever can create files in the save folder planted .NAME.lock -> a victim
    file; hexwar opened it with O_CREAT|O_RDWR, truncated it and wrote its pid there."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    folder = tmp_path / "shared"
    folder.mkdir()
    (folder / ".game.json.lock").symlink_to(victim)
    with pytest.raises(HexwarError, match="symbolic link"):
        atomic_write_text(folder / "game.json", "{}\n")
    with pytest.raises(HexwarError, match="symbolic link"):
        FileLock(folder / "game.json").acquire()
    assert victim.read_text() == "precious\n"
    assert not (folder / "game.json").exists()
    # a dangling link (to a file that does not exist yet) is not created through either
    (folder / ".g2.json.lock").symlink_to(tmp_path / "new-victim")
    with pytest.raises(HexwarError, match="symbolic link"):
        atomic_write_text(folder / "g2.json", "{}\n")
    assert not (tmp_path / "new-victim").exists()


def test_a_fifo_planted_as_the_lock_file_is_refused_without_blocking(tmp_path):
    lock = tmp_path / ".game.json.lock"
    os.mkfifo(lock)
    with pytest.raises(HexwarError, match="not a regular file"):
        atomic_write_text(tmp_path / "game.json", "{}\n")


# -- Tiled maps --------------------------------------------------------------------------------
TILED = ROOT / "tests" / "data" / "tiled"


def _tmx(folder: Path, source: str | None = None, terrain_csv: str | None = None) -> Path:
    text = (TILED / "odd_csv.tmx").read_text()
    if source is not None:
        text = text.replace('source="town.tsx"', f'source="{source}"')
    if terrain_csv is not None:
        text = text.replace("1,2147483650,3,1,\n268435458,1,10,1610612747,\n1,1,4026531843,2", terrain_csv)
    p = folder / "map.tmx"
    p.write_text(text)
    return p


def test_the_untouched_tiled_map_still_imports_with_its_external_tileset(tmp_path):
    from hexwar.formats.tiled import import_tiled

    shutil.copy(TILED / "town.tsx", tmp_path / "town.tsx")
    sub = tmp_path / "sets"
    sub.mkdir()
    shutil.copy(TILED / "town.tsx", sub / "town.tsx")
    assert import_tiled(_tmx(tmp_path)).map.width == 4
    assert import_tiled(_tmx(tmp_path, "sets/town.tsx")).map.width == 4  # a folder inside: allowed


@pytest.mark.parametrize("kind", ["parent", "absolute", "symlink_out"])
def test_a_tiled_external_tileset_outside_the_maps_folder_is_never_opened(tmp_path, kind):
    """Issue 33: the tileset was opened anywhere on disk (and its path quoted raw)."""
    from hexwar.formats.tiled import import_tiled

    folder = tmp_path / "maps"
    folder.mkdir()
    outside = tmp_path / "town.tsx"
    shutil.copy(TILED / "town.tsx", outside)  # a real, readable tileset: refused for where it is
    source = {"parent": "../town.tsx", "absolute": str(outside), "symlink_out": "link.tsx"}[kind]
    if kind == "symlink_out":
        (folder / "link.tsx").symlink_to(outside)
    with pytest.raises(HexwarError) as exc:
        import_tiled(_tmx(folder, source))
    assert "must lie in the map's folder" in str(exc.value)


def test_a_tiled_tileset_source_with_control_characters_is_quoted_escaped(tmp_path):
    from hexwar.formats.tiled import import_tiled

    data = json.loads((TILED / "even_zlib.tmj").read_text())  # XML cannot hold them; JSON can
    shutil.copy(TILED / "town.tsj", tmp_path / "town.tsj")
    data["tilesets"].append({"firstgid": 100, "source": "../\x1b]0;owned\x07.tsj"})
    p = tmp_path / "m.tmj"
    p.write_text(json.dumps(data))
    with pytest.raises(HexwarError) as exc:
        import_tiled(p)
    msg = str(exc.value)
    assert "\x1b" not in msg and "\x07" not in msg and "\\x1b" in msg


@pytest.mark.parametrize(
    "csv,index,value",
    [
        ("1,1,1,1,\n1,1,x1,1,\n1,1,1,1", 6, "'x1'"),
        ("1,1,1,1,\n1,1,1,1,\n1,1,1,-3", 11, "'-3'"),
        ("1,1,1,1,\n1,1,1,1,\n1,1,1,99999999999", 11, "'99999999999'"),
    ],
)
def test_a_bad_csv_layer_entry_is_named_by_index_and_value(tmp_path, csv, index, value):
    from hexwar.formats.tiled import import_tiled

    shutil.copy(TILED / "town.tsx", tmp_path / "town.tsx")
    with pytest.raises(HexwarError) as exc:
        import_tiled(_tmx(tmp_path, terrain_csv=csv))
    msg = str(exc.value)
    assert f"layer 'terrain' data[{index}]" in msg and value in msg, msg


def test_a_bad_tmj_layer_entry_is_named_by_index(tmp_path):
    from hexwar.formats.tiled import import_tiled

    data = json.loads((TILED / "even_zlib.tmj").read_text())
    lay = next(la for la in data["layers"] if la.get("type") == "tilelayer")
    lay.pop("encoding", None)
    lay.pop("compression", None)
    lay["data"] = [1] * 12
    lay["data"][5] = "\x1b[31mred"
    shutil.copy(TILED / "town.tsj", tmp_path / "town.tsj")
    p = tmp_path / "m.tmj"
    p.write_text(json.dumps(data))
    with pytest.raises(HexwarError) as exc:
        import_tiled(p)
    msg = str(exc.value)
    assert f"layer {lay['name']!r} data[5]" in msg and "\x1b" not in msg


# -- decks -------------------------------------------------------------------------------------
def test_validate_refuses_an_oversized_deck_before_parsing_it(tmp_path, capsys, monkeypatch):
    """Issue 33: validate parsed a deck of up to 64 MB before the loader's 256 KB limit."""
    import hexwar.fileio as fio

    p = tmp_path / "deck.toml"
    p.write_text(
        'format = "hexwar-deck"\nschema_version = 1\n#' + "x" * 300_000 + '\n[deck]\nside = "german"\n'
    )
    parsed: list[str] = []
    real = fio.loads_toml
    monkeypatch.setattr(fio, "loads_toml", lambda text, src="<memory>": parsed.append(src) or real(text, src))
    assert main(["validate", str(p)]) == 1
    assert "the deck file limit is 256 KB" in capsys.readouterr().out
    assert parsed == []  # refused on its size alone


# -- control characters on the terminal ----------------------------------------------------------
def test_file_strings_reach_the_terminal_with_control_characters_escaped(war_save, tmp_path):
    """A downloaded save whose keys carry ESC/BEL sequences (OSC 0 retitles the terminal)."""
    import subprocess
    import sys

    data = json.loads(war_save.read_text())
    data["\x1b]0;PWNED\x07\x1b[31m"] = 1  # an unknown field: the message names it
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data, ensure_ascii=False))
    for argv in (["validate", str(bad)], ["replay", str(bad), "--verify"]):
        out = subprocess.run(
            [sys.executable, "-m", "hexwar.cli", *argv], cwd=ROOT, capture_output=True, timeout=120
        )
        both = out.stdout + out.stderr
        assert out.returncode != 0
        assert b"PWNED" in both  # the message is there ...
        assert b"\x1b" not in both and b"\x07" not in both  # ... with its controls escaped
        assert b"\\u001b]0;PWNED\\u0007" in both


def test_the_terminal_sanitizer_keeps_json_output_parseable(capsys):
    from hexwar.errors import printable

    text = json.dumps({"name": "a\x9b31m\u202eb\x1b"}, ensure_ascii=False)
    assert json.loads(printable(text)) == {"name": "a\x9b31m\u202eb\x1b"}
    assert "\x9b" not in printable(text) and "\u202e" not in printable(text)


# -- found by the fuzz suite (tests/test_fuzz_files.py) ------------------------------------------
def test_a_zone_larger_than_any_map_is_refused_at_once():
    """A Tiled deploy zone "D01:Dnull03" (a mutant) named column DNULL: listing the rectangle
    took 24 s and millions of hexes before the map bounds were checked."""
    import time

    from hexwar.model.hexgrid import HexLabelError
    from hexwar.model.maps import zone_hexes

    t0 = time.perf_counter()
    with pytest.raises(HexLabelError, match="larger than any map"):
        zone_hexes("D01:DNULL03")
    assert time.perf_counter() - t0 < 1.0
    assert len(zone_hexes("A01:B03")) == 6


def test_a_terrain_table_whose_impassable_is_not_a_list_is_a_clear_error(tmp_path):
    from hexwar.errors import ValidationError
    from hexwar.model.terrain import load_terrain

    text = (ROOT / "hexwar" / "data" / "terrain.toml").read_text()
    p = tmp_path / "terrain.toml"
    p.write_text(text.replace('impassable = ["wheeled"]', "impassable = 1", 1))
    assert p.read_text() != text
    with pytest.raises(ValidationError) as exc:
        load_terrain(str(p))  # TypeError: argument of type 'int' is not iterable, before
    assert ".impassable" in str(exc.value) and str(p) in str(exc.value)


def test_a_line_scenario_whose_random_deck_cannot_be_built_fails_validate_not_play(tmp_path, capsys):
    """A mutant with `budget = 1` validated, then every `play` failed building the deck."""
    text = (SCENARIOS / "lines.toml").read_text()
    p = tmp_path / "tight.toml"
    p.write_text(text.replace("budget = 100\nminimum = 80", "budget = 1\nminimum = 1", 1))
    assert p.read_text() != text
    assert main(["validate", str(p)]) == 1
    out = capsys.readouterr().out
    assert "sides.german.budget" in out and "could not build a german Reserves deck of 1..1" in out
