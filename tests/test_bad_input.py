"""Bad input found by a fresh user's adversarial pass (round 2): each gets a one-line error that
names the file, field or hex and what was expected, a non-zero exit, no traceback, and the file
it was given is left as it was.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hexwar.cli import main

DATA = Path(__file__).parent / "data"
LEGACY = DATA / "legacy_e9c3826"


def run(capsys, *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


# -- hexwar migrate reads a file as strictly as every loader does ----------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("[" * 100_000 + "]" * 100_000, "JSON nested too deeply"),
        ('{"format": "hexwar-save", "seed": ' + "9" * 5000 + "}", "a number is too long"),
        ('{"format": "hexwar-map", "width": 10, "width": 12}', "duplicate key 'width' in one JSON object"),
    ],
    ids=["deep", "huge-number", "duplicate-key"],
)
def test_migrate_names_the_file_and_the_problem_of_hostile_json_and_writes_nothing(
    tmp_path, capsys, text, message
):
    f = tmp_path / "hostile.json"
    f.write_text(text)
    rc, out, err = run(capsys, "migrate", str(f), "--in-place")
    assert rc == 2
    assert f"- {f}: {message}" in err
    assert "Traceback" not in out + err
    assert f.read_text() == text


def test_migrate_applies_the_map_file_size_limit_like_every_loader(tmp_path, capsys):
    d = json.loads((DATA / "game_tiny_map.json").read_text())
    d["name"] = "x" * (8 * 1024 * 1024 + 1)
    f = tmp_path / "big.json"
    f.write_text(json.dumps(d))
    out_file = tmp_path / "upgraded.json"
    rc, _, err = run(capsys, "migrate", str(f), "--out", str(out_file))
    assert rc == 2
    assert "the map file limit is 8 MB" in err
    assert not out_file.exists()


def test_migrate_refuses_a_save_whose_commands_hexwar_would_refuse_and_leaves_it_unchanged(tmp_path, capsys):
    # before: the save schema leaves each command's fields to hexwar, so migrate wrote "ok" and
    # upgraded a save with a command no hexwar knows; `hexwar validate` refused the same file
    d = json.loads((LEGACY / "save_skirmish_s2.json").read_text())
    d["commands"][1] = {"cmd": "rm_rf", "side": "german"}
    f = tmp_path / "edited.json"
    f.write_text(json.dumps(d))
    before = f.read_bytes()
    rc, out, err = run(capsys, "migrate", str(f), "--in-place")
    assert rc == 2
    assert (
        f"- {f}: commands[1]: unknown command 'rm_rf'; expected one of ['build_deck', 'choose_hand'," in err
    )
    assert f.read_bytes() == before


def test_migrate_still_upgrades_a_good_round1_save_that_then_replays(tmp_path, capsys):
    work = tmp_path / "legacy"
    work.mkdir()
    shutil.copy(LEGACY / "save_skirmish_s2.json", work)
    shutil.copy(LEGACY / "skirmish.toml", work)
    shutil.copytree(LEGACY / "maps", work / "maps")
    save = work / "save_skirmish_s2.json"
    rc, out, _ = run(capsys, "migrate", str(save), "--in-place")
    assert rc == 0 and out == f"ok   {save} (save): 1 -> 2; wrote {save}\n"
    assert main(["replay", str(save), "--verify"]) == 0


# -- hexwar import tiled: hostile .tmj and tilesets --------------------------------------------------


def _exported_tmj(tmp_path: Path) -> tuple[Path, dict]:
    tmj = tmp_path / "tiny.tmj"
    assert main(["export", "tiled", str(DATA / "game_tiny_map.json"), "--out", str(tmj)]) == 0
    return tmj, json.loads(tmj.read_text())


@pytest.mark.parametrize(
    "text, message",
    [
        ("[" * 100_000 + "]" * 100_000, "JSON nested too deeply"),
        ('{"type": "map", "width": ' + "9" * 5000 + "}", "a number is too long"),
    ],
    ids=["deep", "huge-number"],
)
def test_import_tiled_names_a_hostile_tmj_and_writes_no_map(tmp_path, capsys, text, message):
    f = tmp_path / "hostile.tmj"
    f.write_text(text)
    out_map = tmp_path / "out.json"
    rc, out, err = run(capsys, "import", "tiled", str(f), "--out", str(out_map))
    assert rc == 2
    assert f"- {f}: {message}" in err
    assert "Traceback" not in out + err
    assert not out_map.exists()


def test_import_tiled_names_a_hostile_external_tileset(tmp_path, capsys):
    tmj, d = _exported_tmj(tmp_path)
    capsys.readouterr()
    (tmp_path / "deep.tsj").write_text("[" * 100_000 + "]" * 100_000)
    d["tilesets"] = [{"firstgid": 1, "source": "deep.tsj"}]
    tmj.write_text(json.dumps(d))
    rc, _, err = run(capsys, "import", "tiled", str(tmj), "--out", str(tmp_path / "o.json"))
    assert rc == 2
    assert f"- {tmp_path / 'deep.tsj'}: JSON nested too deeply" in err


def test_import_tiled_opens_no_external_tileset_that_is_not_a_tsx_or_tsj_file(tmp_path, capsys):
    # before: "source": "/etc/hostname" was opened and parsed as XML ("bad XML: syntax error")
    tmj, d = _exported_tmj(tmp_path)
    capsys.readouterr()
    d["tilesets"] = [{"firstgid": 1, "source": "/etc/hostname"}]
    tmj.write_text(json.dumps(d))
    rc, _, err = run(capsys, "import", "tiled", str(tmj), "--out", str(tmp_path / "o.json"))
    assert rc == 2
    assert (
        f"- {tmj}: tileset '/etc/hostname': expected an external tileset file ending in .tsx or .tsj" in err
    )


@pytest.mark.parametrize("coord", ["NaN", "Infinity"])
def test_import_tiled_refuses_an_object_at_nan_or_infinity_naming_the_object(tmp_path, capsys, coord):
    tmj, d = _exported_tmj(tmp_path)
    capsys.readouterr()
    d["layers"][-1]["objects"] = [{"id": 7, "type": "deploy", "x": 1.0, "y": 1.0}]
    tmj.write_text(json.dumps(d).replace('"x": 1.0', f'"x": {coord}'))
    rc, out, err = run(capsys, "import", "tiled", str(tmj), "--out", str(tmp_path / "o.json"))
    assert rc == 2
    assert f"- {tmj}: object layer 'features' object 7: x, y, width and height must be finite numbers" in err
    assert "Traceback" not in out + err


def test_render_of_a_deeply_nested_json_file_names_it(tmp_path, capsys):
    f = tmp_path / "deep.json"
    f.write_text("[" * 100_000 + "]" * 100_000)
    rc, out, err = run(capsys, "render", str(f), "--out", str(tmp_path / "x.png"))
    assert rc == 2
    assert f"- {f}: JSON nested too deeply" in err
    assert not (tmp_path / "x.png").exists()


# -- hexwar serve --tokens never replaces a file that is not a tokens file -------------------------


@pytest.mark.parametrize(
    "content, message",
    [
        (
            "my notes, not JSON\n",
            "bad JSON: Expecting value; not a hexwar tokens file, so it is not replaced",
        ),
        ("[1, 2]\n", 'expected {"GAME": {"seat": "TOKEN"}} as hexwar serve writes it; it is not replaced'),
        ('{"g": {"german": 5}}\n', 'expected {"GAME": {"seat": "TOKEN"}} as hexwar serve writes it'),
    ],
    ids=["text", "json-list", "wrong-shape"],
)
def test_serve_refuses_a_tokens_file_that_it_did_not_write_before_making_any_game(
    tmp_path, capsys, content, message
):
    # before: a text file was silently replaced by the tokens (lost), a JSON list crashed with
    # AttributeError after the games were made (their tokens printed nowhere)
    notes = tmp_path / "notes.txt"
    notes.write_text(content)
    games = tmp_path / "games"
    rc, out, err = run(
        capsys, "serve", "skirmish", "--games", str(games), "--tokens", str(notes), "--port", "0"
    )
    assert rc == 2
    assert err.startswith(f"hexwar: --tokens {notes}: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in out + err
    assert notes.read_text() == content
    assert not games.exists()


# -- the command line: files that are not what the command expects ---------------------------------


def test_lines_balance_write_to_a_missing_file_is_named_before_any_game(tmp_path, capsys):
    # before: every game was played, then FileNotFoundError came out as a traceback
    target = tmp_path / "nope" / "lines.md"
    rc, out, err = run(capsys, "lines", "balance", "lines", "--games", "1", "--write", str(target))
    assert rc == 2
    assert err == f"hexwar: 1 problem found:\n  - {target}: file not found\n"
    assert "German" not in out + err  # no game was played


def test_lines_balance_write_to_a_file_without_the_markers_changes_nothing(tmp_path, capsys):
    f = tmp_path / "notes.md"
    f.write_text("my notes\n")
    rc, _, err = run(capsys, "lines", "balance", "lines", "--games", "1", "--write", str(f))
    assert rc == 2
    assert err.startswith(f"hexwar: {f}: no balance section (expected the markers")
    assert f.read_text() == "my notes\n"


def test_replay_of_a_folder_says_it_is_a_folder_not_a_shipped_scenario(tmp_path, capsys):
    rc, _, err = run(capsys, "replay", str(tmp_path), "--verify")
    assert rc == 2
    assert err == f"hexwar: {str(tmp_path)!r}: is a folder; expected a save file (.json)\n"


def test_replay_of_a_device_says_it_is_not_a_regular_file(capsys):
    rc, _, err = run(capsys, "replay", "/dev/null")
    assert rc == 2
    assert err == "hexwar: '/dev/null': is not a regular file; expected a save file (.json)\n"


def test_campaign_of_a_missing_save_says_there_is_no_such_file(tmp_path, capsys):
    rc, _, err = run(capsys, "campaign", str(tmp_path / "war.json"), "--headless")
    assert rc == 2
    assert err == f"hexwar: {tmp_path / 'war.json'}: no such file; expected a campaign save (.json)\n"


def test_serve_names_tls_files_that_are_no_certificate_before_making_any_game(tmp_path, capsys):
    bogus = tmp_path / "cert.pem"
    bogus.write_text("not a certificate\n")
    games = tmp_path / "games"
    rc, _, err = run(
        capsys, "serve", "skirmish", "--games", str(games), "--port", "0", "--certfile", str(bogus)
    )
    assert rc == 2
    assert err == (
        f"hexwar: --certfile {bogus}: expected a PEM certificate and its private key (in --keyfile or "
        "the same file); TLS refused them ([SSL] PEM lib)\n"
    )
    assert not games.exists()


# -- scenarios: a hold victory after the turn limit could never be checked (R10.2) -----------------


def test_a_hold_victory_after_the_turn_limit_is_refused_naming_the_field(tmp_path, capsys):
    shutil.copy(DATA / "game_tiny_map.json", tmp_path)
    text = (DATA / "game_tiny.toml").read_text()  # turns = 3, one objective
    f = tmp_path / "hold.toml"
    f.write_text(text + '\n[victory.hold]\nside = "german"\nturn = 4\n')
    rc, out, _ = run(capsys, "validate", str(f))
    assert rc == 1
    assert out == (
        f"FAIL {f}\n  - {f}: victory.hold.turn: expected an integer 1..3, got 4\n1 of 1 file(s) have problems\n"
    )
    f.write_text(text + '\n[victory.hold]\nside = "german"\nturn = 3\n')
    assert run(capsys, "validate", str(f))[0] == 0


# -- the server: a second hello on a game connection ---------------------------------------------


def test_a_second_hello_on_a_game_connection_is_refused_as_a_repeat_and_the_seat_keeps_playing(tmp_path):
    # before: the reply said "'hello' is a lobby message; send it on path /", and the lobby says
    # it is not one: a client author had no way to tell what was wrong
    import asyncio

    import websockets

    from hexwar.net.server import GameServer, serve_forever

    srv = GameServer(tmp_path / "g")
    gid, toks = srv.create_game("skirmish", seed=3)

    async def session() -> tuple[dict, dict]:
        stop = asyncio.Event()
        ports: list[int] = []
        task = asyncio.create_task(
            serve_forever(srv, "127.0.0.1", 0, None, None, ready=ports.append, stop=stop)
        )
        while not ports:
            await asyncio.sleep(0.01)

        async def next_of(ws, kind: str) -> dict:
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if m["type"] == kind:
                    return m

        async with websockets.connect(f"ws://127.0.0.1:{ports[0]}/{gid}") as ws:
            await ws.send(
                json.dumps({"type": "hello", "protocol": 1, "seat": "german", "token": toks["german"]})
            )
            await next_of(ws, "welcome")
            await ws.send(
                json.dumps({"type": "hello", "protocol": 1, "seat": "soviet", "token": toks["soviet"]})
            )
            err = await next_of(ws, "error")
            await ws.send(json.dumps({"type": "ping", "id": 5}))
            pong = await next_of(ws, "pong")
        stop.set()
        await task
        return err, pong

    err, pong = asyncio.run(session())
    assert err["code"] == "protocol"
    assert err["message"] == (
        f"this connection already said hello and holds the german seat of game {gid}; "
        "open another connection for another seat"
    )
    assert pong["id"] == 5


# -- typed numbers: a 5000-digit number or a superscript digit is asked again, never a traceback --

HOSTILE_NUMBERS = ["9" * 5000, "\u00b2", "\u0663"]  # 5000 digits; superscript two; Arabic-Indic three


def test_terminal_player_asks_again_for_a_5000_digit_or_non_ascii_number(monkeypatch, capsys):
    # before: "9" * 5000 hit Python's 4300-digit limit in int() and "²" passed isdigit() and
    # then failed int(): both ended the game with a traceback
    import click

    from hexwar.cli.game import TerminalPlayer
    from hexwar.game.scenario import load_scenario

    st = load_scenario(DATA / "game_tiny.toml").new_game(seed=3)
    st = _NumberedOptions(st)  # numbered options (the setup reads cards instead, setup_choice)
    side = st.to_act
    cmds = st.legal_commands(side)
    answers = iter([*HOSTILE_NUMBERS, "odds " + "9" * 5000, "1"])
    monkeypatch.setattr(click, "prompt", lambda text, **kw: next(answers))
    assert TerminalPlayer(side).choose(st) == cmds[1]
    out = capsys.readouterr().out
    assert out.count(f"enter a number 0..{len(cmds) - 1}") == 4


def test_campaign_terminal_player_asks_again_for_a_5000_digit_or_non_ascii_number(capsys):
    from hexwar.campaign.headless import TerminalCampaignPlayer
    from hexwar.campaign.state import new_campaign

    st, _ = new_campaign(seed=3)
    me = st.to_act
    cmds = st.legal_commands(me)
    answers = iter([*HOSTILE_NUMBERS, "0"])
    player = TerminalCampaignPlayer(me, prompt=lambda text: next(answers))
    assert player.choose(st) == cmds[0]
    assert capsys.readouterr().out.count(f"enter a number 0..{len(cmds) - 1}, or q to quit") == 3


def test_odds_with_a_5000_digit_weapon_number_says_there_is_no_such_weapon(capsys):
    rc, _, err = run(capsys, "odds", "Tiger I", "9" * 5000, "T-34/76 (1943)")
    assert rc == 2
    assert err == (
        "hexwar: Tiger I has no weapon " + "9" * 80 + "... (5000 characters): "
        "1. 8.8 cm KwK 36 L/56, 2. MG 34s (coaxial and hull)\n"
    )


def test_a_generated_map_with_a_5000_digit_seed_is_refused_with_the_expected_form(capsys):
    rc, _, err = run(capsys, "play", "standard", "--headless", "--map", "generated:" + "9" * 5000)
    assert rc == 2
    assert err.startswith("hexwar: --map 'generated:9999") and err.endswith(
        "... (5010 characters): expected generated:SEED[:STYLE][:WxH], e.g. generated:7:river:30x24\n"
    )


def test_tiled_objective_points_and_fire_turns_of_5000_digits_are_named_problems(tmp_path, capsys):
    tmj, d = _exported_tmj(tmp_path)
    capsys.readouterr()
    d["layers"][-1]["objects"] = [
        {
            "id": 3,
            "type": "objective",
            "x": 100.0,
            "y": 100.0,
            "point": True,
            "properties": [{"name": "points", "type": "string", "value": "9" * 5000}],
        },
    ]
    tmj.write_text(json.dumps(d))
    rc, out, err = run(capsys, "import", "tiled", str(tmj), "--out", str(tmp_path / "o.json"))
    assert rc == 2
    assert "points '" + "9" * 78 in err and "(5000 characters); expected an integer 0..1000" in err
    assert "Traceback" not in out + err


def test_new_map_dialog_says_a_superscript_width_is_no_whole_number():
    # before: "²" passed isdigit() and the dialog showed Python's "invalid literal for int()"
    from hexwar.editor.panes import parse_new_map
    from hexwar.model.maps import MAX_MAP_SIDE
    from hexwar.model.terrain import default_terrain

    for typed in ("\u00b2", "9" * 5000):
        with pytest.raises(ValueError) as exc:
            parse_new_map(default_terrain(), "Steppe", typed, "20", "clear")
        assert str(exc.value) == f"width: expected a whole number of hexes, 1..{MAX_MAP_SIDE}"


def test_a_frame_with_a_5000_digit_number_is_bad_json_without_pythons_advice():
    from hexwar.net.protocol import ProtocolError, parse_client_message

    with pytest.raises(ProtocolError) as exc:
        parse_client_message('{"type": "ping", "id": ' + "9" * 5000 + "}")
    assert exc.value.code == "bad_json"
    assert exc.value.message == (
        "not JSON: Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits"
    )


@pytest.mark.parametrize("value", ["9" * 300, "x" + "9" * 5000])
def test_sim_refuses_a_huge_count_with_the_value_cut_short(capsys, value):
    rc, out, err = run(
        capsys, "sim", "artillery", "standard", "--target", "P11", "--side", "german", "--trials", value
    )
    assert rc == 2 and not out
    assert "--trials" in err and "expected a whole number 1..100,000,000" in err
    assert f"({len(value)} characters)" in err and len(err) < 300


# -- a value the model refused is named as the file held it, not as the check saw it left out -----


@pytest.mark.parametrize("label", ["A", "D-1", "D0000000000000000000008"])
def test_a_starting_unit_on_a_malformed_hex_label_is_refused_naming_the_label_given(tmp_path, capsys, label):
    # before: "sides.german.units[0].hex: expected a hex label like 'D07', got None": the lenient
    # reader had left the bad label out and the semantic check reported the gap it left
    shutil.copy(DATA / "game_tiny_map.json", tmp_path)
    text = (DATA / "game_tiny.toml").read_text()
    first = text.index('hex = "', text.index("[[sides.german.units]]"))
    old = text[first : text.index("\n", first)]
    f = tmp_path / "badhex.toml"
    f.write_text(text.replace(old, f'hex = "{label}"', 1))
    rc, out, err = run(capsys, "validate", str(f))
    assert (rc, err) == (1, "")
    assert out == (
        f"FAIL {f}\n  - {f}: sides.german.units[0].hex: expected a hex label like 'D07', got \"{label}\"\n"
        "1 of 1 file(s) have problems\n"
    )


# -- a truncated war: the JSON problem, not "not a campaign save" -----------------------------------


def test_campaign_of_a_truncated_save_says_where_the_json_breaks_and_leaves_the_file(tmp_path, capsys):
    # before: "war.json: not a hexwar campaign save": a war cut short by a full disk looked like
    # some other file, and the line where it ends was never said (hexwar replay said it)
    from hexwar.campaign.options import CampaignOptions
    from hexwar.campaign.save import write_campaign_save
    from hexwar.campaign.state import new_campaign

    st, _ = new_campaign(7, CampaignOptions())
    f = tmp_path / "war.json"
    write_campaign_save(st, f, {"german": "hard", "soviet": "hard"})
    text = f.read_text()
    cut = text[: text.index('"options"')]
    f.write_text(cut)
    rc, out, err = run(capsys, "campaign", str(f), "--headless")
    line = cut.count("\n") + 1
    assert (rc, out) == (2, "")
    assert err.startswith(f"hexwar: 1 problem found:\n  - {f}: line {line} column "), err
    assert "bad JSON" in err and "not a hexwar campaign save" not in err
    assert f.read_text() == cut
    f.write_text('{"format": "hexwar-save"}')  # JSON, but a game's save: said so, as before
    rc, _, err = run(capsys, "campaign", str(f), "--headless")
    assert (rc, err) == (2, f'hexwar: {f}: not a hexwar campaign save ("format": "hexwar-campaign-save")\n')


# -- a lone surrogate escape in a JSON file --------------------------------------------------------


def test_a_save_with_a_lone_surrogate_escape_is_refused_at_its_line_and_column(tmp_path, capsys):
    # before: "commands[0]: expected a command object with "cmd" and "side" (lines: "seat"), got
    # "\ud800"": the model read the broken key as the whole command's problem
    f = tmp_path / "game.json"
    second = ' "commands": [{"cmd": "end_phase", "side": "german", "\\ud800": 1}]}\n'
    f.write_text('{"format": "hexwar-save", "schema_version": 2,\n' + second)
    col = second.index("\\") + 1
    rc, out, err = run(capsys, "replay", str(f), "--verify")
    assert rc == 2
    assert (out + err).count(
        f"{f}: line 2 column {col}: bad JSON: \\ud800 is half of a UTF-16 surrogate pair without the other half"
        ": no character (a file of text cannot hold it)"
    ) == 1, out + err
    rc, out, err = run(capsys, "validate", str(f))  # before: a UnicodeEncodeError traceback on stdout
    assert (rc, err) == (1, "") and f"{f}: line 2 column {col}: bad JSON: \\ud800 is half" in out
    f.write_text('{"a": "\\ud83d\\ude00 \\\\ud800"}')  # a pair is a character; "\\\\ud800" is text
    from hexwar.fileio import read_json

    assert read_json(f) == {"a": "\U0001f600 \\ud800"}


class _NumberedOptions:
    """A game whose side to act has five numbered options (Discard), each its own menu line."""

    def __init__(self, st):
        self.turn, self.phase, self.variants, self.to_act = st.turn, "draw", (), st.to_act

    def legal_commands(self, side):
        from hexwar.game.commands import Discard

        return [Discard(side, f"su_rifles#{i}") for i in range(1, 6)]


# -- a JSON file cut short -------------------------------------------------------------------------


def test_a_json_file_cut_short_says_so_and_an_error_inside_it_does_not(tmp_path, capsys):
    # a truncated save read "bad JSON: Unterminated string starting at" (json's message names the
    # place in its line/column fields; the sentence stopped at "at") and nothing said the file
    # was cut (fresh7)
    from hexwar.errors import ValidationError
    from hexwar.fileio import loads_json

    def message(text: str) -> str:
        with pytest.raises(ValidationError) as exc:
            loads_json(text, "f.json")
        (p,) = exc.value.problems
        return f"{p.where}: {p.message}"

    cut = "; the file ends before its JSON does (cut short?)"
    assert message('{"seed": 7, "name": "sky') == f"line 1 column 21: bad JSON: Unterminated string{cut}"
    assert message('{"commands": [1, 2\n') == f"line 2 column 1: bad JSON: Expecting ',' delimiter{cut}"
    assert (
        message('{"a": 1,}') == "line 1 column 9: bad JSON: Expecting property name enclosed in double quotes"
    )
    assert message('{"a": "b\nc"}') == "line 1 column 9: bad JSON: Invalid control character"
    assert message('{"a": 1} x') == "line 1 column 10: bad JSON: Extra data"
    f = tmp_path / "game.json"
    text = '{"format": "hexwar-save", "schema_version": 2, "commands": [{"cmd": "end_ph'
    f.write_text(text)
    rc, out, err = run(capsys, "replay", str(f), "--verify")
    assert (rc, out) == (2, "")
    col = text.index('"end_ph') + 1
    assert (
        err == f"hexwar: 1 problem found:\n  - {f}: line 1 column {col}: bad JSON: Unterminated string{cut}\n"
    )


# -- schema_version as the file writes it ----------------------------------------------------------


def test_a_bad_schema_version_is_shown_as_the_file_writes_it(tmp_path, capsys):
    # fresh7: "expected an integer 1..2, got True" (Python's repr of a JSON true), "got None"
    # for a save with no schema_version at all, and "1..1" for a scenario
    save = json.dumps({"format": "hexwar-save", "commands": []})
    cases = {
        "nosv.json": (save, "missing; expected an integer 1..2"),
        "true.json": (
            save.replace('"commands"', '"schema_version": true, "commands"'),
            "expected an integer 1..2, got true",
        ),
        "float.json": (
            save.replace('"commands"', '"schema_version": 1.0, "commands"'),
            "expected an integer 1..2, got 1.0",
        ),
        "text.json": (
            save.replace('"commands"', '"schema_version": "2", "commands"'),
            'expected an integer 1..2, got "2"',
        ),
    }
    scenario = (Path(__file__).parent.parent / "scenarios" / "skirmish.toml").read_text()
    cases["sc.toml"] = (
        scenario.replace("schema_version = 1\n", "schema_version = true\n"),
        "expected 1, got true",
    )
    for name, (text, said) in cases.items():
        f = tmp_path / name
        f.write_text(text)
        rc, out, err = run(capsys, "validate", str(f))
        assert rc == 1 and f"  - {f}: schema_version: {said}\n" in out, (name, out, err)


# -- a field the model refuses is reported once ----------------------------------------------------


def test_a_command_with_a_wrong_side_is_one_problem_not_also_missing(tmp_path, capsys):
    """A save whose command names a side that is none (``"side": "finnish"``) is one problem
    at ``commands[N].side``: the lenient read (:func:`hexwar.model.filemodel.read_lenient`) left
    the wrong value out and its next round reported the same field again as "missing". A
    command that really lacks its side still says so (R1.2: a save replays only as written)."""
    save = tmp_path / "game.json"
    rc, _, err = run(
        capsys, "play", "skirmish", "--headless", "--seed", "3", "--turns", "1", "--save", str(save)
    )
    assert rc == 0, err
    data = json.loads(save.read_text())
    data["commands"][5]["side"] = "finnish"
    data["commands"][7] = {"cmd": "end_phase"}
    save.write_text(json.dumps(data))
    rc, out, err = run(capsys, "replay", str(save), "--verify")
    text = out + err
    assert rc == 2 and "2 problems found" in text, text
    assert (
        text.count("commands[5]") == 1
        and 'commands[5].side: expected a side: german or soviet, got "finnish"' in text
    )
    assert text.count("commands[7]") == 1 and f"{save}: commands[7].side: missing" in text, text
