"""Line scenarios, deck files and the CLI for line games (R11.1)."""

from __future__ import annotations

import json

import pytest
from lines_helpers import act

from hexwar.cli import main
from hexwar.cli.lines import parse_seats_ai
from hexwar.errors import HexwarError, ValidationError
from hexwar.game.scenario import load_scenario, parse_scenario
from hexwar.lines.commands import Commit
from hexwar.lines.scenario import deck_problems, load_deck
from hexwar.lines.state import check_invariants
from hexwar.paths import content_dir

LINE_SCENARIOS = ("lines", "lines-4p", "lines_ponyri", "lines_prokhorovka", "lines_kharkov", "lines_bukrin")


def run(capsys, *args):
    rc = main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.parametrize("name", LINE_SCENARIOS)
def test_shipped_line_scenarios_validate_and_start(name, capsys):
    rc, out, _ = run(capsys, "validate", str(content_dir("scenarios") / f"{name}.toml"))
    assert rc == 0, out
    sc = load_scenario(name)
    st = sc.new_game()
    assert check_invariants(st) == []
    for side in ("german", "soviet"):  # starting units are not paid from the Reserves budget
        for seat in st.seats_of(side):
            cost = sum(
                __import__("hexwar.lines.rules", fromlist=["card"]).card(c).cost
                for c in st.reserves[seat] + st.hand_units[seat]
            )
            assert sc.sides[side].minimum <= cost <= sc.sides[side].budget, (name, seat, cost)


def test_at_least_four_own_line_scenarios_in_scenario_card_form():
    own = [n for n in LINE_SCENARIOS if n.startswith("lines_")]
    assert len(own) >= 4
    for n in own:
        sc = load_scenario(n)
        text = sc.description
        for part in ("Setup:", "Reserves:", "Special rules:", "Win:"):
            assert part in text, (n, part)
        assert sc.special_rules


def test_a_scenario_restriction_keeps_aircraft_out_before_its_turn():
    sc = load_scenario("lines_ponyri")
    st = sc.new_game(seed=1)
    while st.phase == "setup":
        st.apply(st.legal_commands()[0])
    assert any(c.startswith("ev_order_227") for c in st.events_in_play)
    air = [
        c
        for c in st.hand_units["german"]
        if __import__("hexwar.lines.rules", fromlist=["card"]).card(c).unit_type == "aircraft"
    ]
    if air:
        p = st.check(
            Commit(
                "german",
                air[0],
                None,
                crew=next((c for c in st.hand_units["german"] if c.startswith("de_pilot")), None),
            )
        )
        assert p is not None and ("turn 2" in p or "not your turn" in p or "turn to act" in p)


def test_the_line_loader_reports_every_problem_with_its_field():
    text = """format = "hexwar-scenario"
schema_version = 1
mode = "lines"
[scenario]
id = "bad one"
players = 3
[sides.german]
pool = ["su_t34_76"]
[[sides.german.units]]
card = "de_pz_iv_g"
line = "rear"
crew = "de_tank_crew_regular"
[sides.soviet]
budget = 10
minimum = 50
"""
    with pytest.raises(ValidationError) as e:
        parse_scenario(text)
    where = {p.where for p in e.value.problems}
    assert {
        "scenario.id",
        "scenario.players",
        "sides.german.pool[0]",
        "sides.german.units[0].line",
        "sides.soviet.minimum",
        "scenario.name",
    } <= where


def test_a_scenario_of_an_unknown_mode_is_refused():
    with pytest.raises(ValidationError, match="mode"):
        parse_scenario('mode = "chess"\n[scenario]\nid = "x"\n')


def test_deck_files_are_checked_for_side_points_and_warn_about_missing_crews(tmp_path):
    side, cards, warnings = load_deck(content_dir("scenarios").parent / "decks" / "german_kursk_panzers.toml")
    assert side == "german" and warnings == []
    errors, warnings = deck_problems("german", ["de_tiger_i", "de_grenadiers", "su_rifles"], (80, 100))
    assert "su_rifles is a soviet card, not german" in errors
    assert any("costs 33 points" in e for e in errors)
    assert warnings == ["Tiger I needs tank crew but the deck has none (000 tip)"]
    bad = tmp_path / "d.toml"
    bad.write_text('format = "hexwar-deck"\n[deck]\nside = "italian"\ncards = ["de_nope"]\n')
    with pytest.raises(ValidationError) as e:
        load_deck(bad)
    assert {p.where for p in e.value.problems} == {"deck.side", "deck.cards"}


def test_ai_seat_names_and_side_names():
    seats4 = ("german-front", "german-support", "soviet-front", "soviet-support")
    assert parse_seats_ai("soviet-front,soviet-support", seats4) == {
        "soviet-front": "standard",
        "soviet-support": "standard",
    }
    assert parse_seats_ai("german=random", seats4) == {"german-front": "random", "german-support": "random"}
    assert parse_seats_ai("none", seats4) == {}
    assert parse_seats_ai(None, ("german", "soviet")) == {"german": "standard", "soviet": "standard"}
    with pytest.raises(HexwarError, match="unknown seat"):
        parse_seats_ai("german-front", ("german", "soviet"))


def test_play_lines_headless_with_decks_saves_the_mode_and_replays(tmp_path, capsys):
    save = tmp_path / "g.json"
    rc, out, err = run(
        capsys,
        "play",
        "lines",
        "--headless",
        "--seed",
        "5",
        "--json",
        "--save",
        str(save),
        "--deck",
        "german=" + str(content_dir("scenarios").parent / "decks" / "german_kursk_panzers.toml"),
    )
    assert rc == 0, out + err
    res = json.loads(out)
    assert res["mode"] == "lines" and res["result"]["winner"] in ("german", "soviet")
    data = json.loads(save.read_text())
    assert data["mode"] == "lines"
    hand_and_deck = [c for c in data["commands"] if c["cmd"] == "choose_hand" and c["seat"] == "german"][0][
        "cards"
    ]
    assert all(c.startswith("de_") for c in hand_and_deck)
    rc, out, _ = run(capsys, "replay", str(save), "--verify")
    assert rc == 0 and "replays exactly" in out


def test_play_lines_4p_takes_seat_names_for_ai(capsys, monkeypatch):
    # issue 33: the starting hand is picked one card at a time, so the answers take kinds 0..3
    answers = iter([str(i % 4) for i in range(2000)])
    monkeypatch.setattr("click.prompt", lambda *a, **k: next(answers))
    rc, out, _ = run(
        capsys, "play", "lines-4p", "--headless", "--seed", "2", "--turns", "1", "--ai", "german,soviet-front"
    )
    assert rc == 0
    assert "soviet-support, turn 1" in out  # the one seat left to the terminal
    assert "german-front, turn 1" not in out


def test_play_lines_classic_rules_flag(capsys):
    rc, out, _ = run(capsys, "play", "lines", "--headless", "--seed", "9", "--rules", "classic", "--json")
    assert rc == 0 and json.loads(out)["variants"] == ["classic"]


def test_deck_of_the_wrong_side_is_refused(capsys):
    rc = main(
        [
            "play",
            "lines",
            "--headless",
            "--deck",
            "soviet=" + str(content_dir("scenarios").parent / "decks" / "german_kursk_panzers.toml"),
        ]
    )
    assert rc != 0
    assert "german deck, not for soviet" in capsys.readouterr().err


def test_a_starting_unit_commitment_by_hand_in_a_line_scenario():
    sc = load_scenario("lines_prokhorovka")
    st = sc.new_game(seed=3)
    assert st.lines["german"]["front"] == ["de_tiger_i#1"] or st.lines["german"]["front"][0].startswith(
        "de_tiger_i"
    )
    assert len(st.lines["soviet"]["front"]) == 2
    while st.phase == "setup":
        st.apply(st.legal_commands()[0])
    cmd = next(c for c in st.legal_commands() if isinstance(c, Commit))
    act(st, cmd)
    assert check_invariants(st) == []


def test_validate_warns_about_a_deck_without_crews_but_passes_it(tmp_path, capsys):
    d = tmp_path / "d.toml"
    d.write_text(
        'format = "hexwar-deck"\nschema_version = 1\n[deck]\nname = "x"\nside = "german"\n'
        'cards = ["de_tiger_i", "de_pz_iv_h", "de_grenadiers", "de_grenadiers", "de_pioniere", "de_pioniere", '
        '"de_grenadiers", "de_mg42_team"]\n'
    )
    rc, out, err = run(capsys, "validate", str(d))
    assert rc == 0, out
    assert "Tiger I needs tank crew but the deck has none (000 tip)" in err


def test_a_deck_over_the_budget_is_refused_with_this_games_limits(tmp_path, capsys, monkeypatch):
    # fresh7: a 116-point --deck read "the deck costs 116 points; expected 1..100" (the deck
    # file's own bound, before the game's 80..100 was asked)
    over = tmp_path / "over.toml"
    cards = ["de_tiger_i", "de_tank_crew_regular"] * 4 + ["de_grenadiers"] * 3
    over.write_text(
        'format = "hexwar-deck"\nschema_version = 1\n\n[deck]\nname = "over"\nside = "german"\n'
        f"cards = {json.dumps(cards)}\n"
    )
    monkeypatch.chdir(tmp_path)  # deck files open from the working folder (or the shipped decks/)
    rc = main(["play", "lines", "--headless", "--ai", "soviet", "--deck", "german=over.toml"])
    assert rc == 2
    err = capsys.readouterr().err
    assert (
        err == "hexwar: --deck german=over.toml: the deck costs 119 points; expected 80..100 (000 setup)\n"
    ), err


def test_lines_deck_takes_a_shipped_name_and_refuses_a_path_outside(tmp_path, capsys, monkeypatch):
    """``--deck`` of a line game opens files as the hex game's does (resolve_deck_path): a bare
    name is a shipped deck (decks/NAME.toml), a path outside the working folder and the shipped
    decks/ is refused by name, and a missing one names where it was looked for."""
    monkeypatch.chdir(tmp_path)
    outside = tmp_path.parent / f"{tmp_path.name}_outside.toml"
    outside.write_text((content_dir("scenarios").parent / "decks" / "german_kursk_panzers.toml").read_text())
    rc = main(["play", "lines", "--headless", "--ai", "soviet", "--deck", f"german={outside}"])
    err = capsys.readouterr().err
    assert rc == 2 and "outside the folders deck files are opened from" in err, err
    rc = main(["play", "lines", "--headless", "--ai", "soviet", "--deck", "german=no_such_deck"])
    err = capsys.readouterr().err
    assert rc == 2 and "no such deck file" in err and "no_such_deck.toml" in err, err
    rc = main(
        ["play", "lines", "--headless", "--seed", "5", "--json", "--deck", "german=german_kursk_panzers"]
    )
    out, err = capsys.readouterr()
    assert rc == 0 and json.loads(out)["mode"] == "lines", err
    # the docs' `decks/NAME.toml` is a shipped deck from any working folder (it was "no such
    # deck file" outside the source checkout)
    deck = "german=decks/german_kursk_panzers.toml"
    rc = main(["play", "lines", "--headless", "--seed", "5", "--json", "--deck", deck])
    out, err = capsys.readouterr()
    assert rc == 0 and json.loads(out)["mode"] == "lines", err
    # ... and the working folder's own decks/ comes first
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "german_kursk_panzers.toml").write_text("cards = [\n")
    rc = main(["play", "lines", "--headless", "--deck", deck])
    err = capsys.readouterr().err
    assert rc == 2 and "bad TOML" in err and str(tmp_path.resolve() / "decks") in err, err


def test_lines_deck_names_a_hostile_value_once_in_one_line(tmp_path, capsys, monkeypatch):
    """fresh8: every refused ``--deck`` of a line game is one line that names the value once
    (``"--deck german=x.toml: 'x.toml': resolves to ..."`` named it twice, a link out three
    times), a 10,000-character value clipped (it was echoed whole), bad TOML as that line rather
    than a two-line problem list; ``german=A,soviet=B`` gives both seats decks, as the hex game's."""
    from hexwar.cli.lines import parse_decks

    monkeypatch.chdir(tmp_path)
    shipped = content_dir("scenarios").parent / "decks"
    outside = tmp_path.parent / f"{tmp_path.name}_out.toml"
    outside.write_text((shipped / "german_kursk_panzers.toml").read_text())
    (tmp_path / "link.toml").symlink_to(outside)
    (tmp_path / "folder.toml").mkdir()
    (tmp_path / "bad.toml").write_text("cards = [\n")
    long = "a" * 10_000
    where = f"({tmp_path.resolve()} or {shipped.resolve()}); copy the deck file into the working folder"
    cases = {
        "german=link.toml": f"resolves to {outside.resolve()}, outside the folders deck files are opened from {where}",
        f"german=../{outside.name}": f"resolves to {outside.resolve()}, outside the folders deck files are "
        f"opened from {where}",
        "german=folder.toml": "is a folder; expected a deck file such as decks/my_german.toml",
        # `decks/..` is the working folder: not the shipped decks' parent (outside both roots)
        "german=decks/..": "is a folder; expected a deck file such as decks/my_german.toml",
        "german=bad.toml": f"{tmp_path.resolve() / 'bad.toml'}: bad TOML: Invalid value (at end of document)",
        "german=nothing.toml": f"no such deck file (looked for {tmp_path.resolve() / 'nothing.toml'})",
    }
    # a value with a newline stays one line: quoted with its escapes, and the path looked for too
    rc = main(["play", "lines", "--headless", "--ai", "soviet", "--deck", "german=a\nb.toml"])
    err = capsys.readouterr().err
    nl = repr(str(tmp_path.resolve() / "a\nb.toml"))
    assert rc == 2 and err == f"hexwar: --deck 'german=a\\nb.toml': no such deck file (looked for {nl})\n", (
        err
    )
    for value, why in cases.items():
        rc = main(["play", "lines", "--headless", "--ai", "soviet", "--deck", value])
        err = capsys.readouterr().err
        assert rc == 2 and err == f"hexwar: --deck {value}: {why}\n", (value, err)
    for value in (f"german={long}", f"{long}=x.toml", long, ""):
        rc = main(["play", "lines", "--headless", "--ai", "soviet", "--deck", value])
        err = capsys.readouterr().err
        assert rc == 2 and err.count("\n") == 1 and len(err) < 400 and "Traceback" not in err, (
            len(err),
            err[:300],
        )
    budget = {"german": (80, 100), "soviet": (80, 100)}
    both = parse_decks(
        ("german=german_kursk_panzers,soviet=soviet_guards_rifle",), ("german", "soviet"), budget
    )
    assert sorted(both) == ["german", "soviet"]
