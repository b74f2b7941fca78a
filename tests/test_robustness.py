"""Bad input everywhere: every broken file, argument or command gives a clear error naming the
file, field or hex (never a traceback, never a hang) and changes or loses nothing.

Found by trying hexwar as a new user; each test is the smallest reproduction of one bug.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from hexwar.cli import main
from hexwar.errors import ValidationError
from hexwar.fileio import atomic_write_text, read_json, read_toml

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *args: str) -> tuple[int, str, str]:
    """Run the CLI in-process; return (exit status, stdout, stderr)."""
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


# -- reading files (hexwar.fileio) ------------------------------------------------------------
def test_json_with_a_5000_digit_number_is_a_clear_error(tmp_path):
    p = tmp_path / "big.json"
    p.write_text('{"format": "hexwar-map", "width": ' + "9" * 5000 + "}")
    with pytest.raises(ValidationError) as exc:
        read_json(p)
    msg = str(exc.value.problems[0])
    assert "big.json" in msg and "number" in msg


def test_toml_with_a_5000_digit_number_is_a_clear_error(tmp_path):
    p = tmp_path / "big.toml"
    p.write_text("turns = " + "9" * 5000 + "\n")
    with pytest.raises(ValidationError) as exc:
        read_toml(p)
    msg = str(exc.value.problems[0])
    assert "big.toml" in msg and "number" in msg


def test_toml_nested_too_deeply_is_a_clear_error(tmp_path):
    p = tmp_path / "deep.toml"
    p.write_text("a = " + "[" * 100_000 + "\n")
    with pytest.raises(ValidationError) as exc:
        read_toml(p)
    assert "deep.toml" in str(exc.value.problems[0]) and "nested" in str(exc.value.problems[0])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path):
    p = tmp_path / "pipe.json"
    os.mkfifo(p)
    with pytest.raises(ValidationError) as exc:
        read_json(p)  # used to block forever in open()
    assert "not a regular file" in str(exc.value.problems[0])


def test_validate_cli_reports_huge_numbers_without_a_traceback(tmp_path, capsys):
    p = tmp_path / "big.json"
    p.write_text('{"format": "hexwar-map", "width": ' + "9" * 5000 + "}")
    rc, out, _ = run(capsys, "validate", str(p))
    assert rc == 1 and "FAIL" in out and "big.json" in out


@pytest.mark.skipif(sys.platform.startswith("win"), reason="POSIX file modes")
def test_atomic_write_makes_files_readable_like_open_does(tmp_path):
    old = os.umask(0o022)
    try:
        p = tmp_path / "new.txt"
        atomic_write_text(p, "x")
        assert stat.S_IMODE(p.stat().st_mode) == 0o644  # mkstemp alone gives 0o600
        q = tmp_path / "kept.txt"
        q.write_text("old")
        q.chmod(0o664)
        atomic_write_text(q, "new")
        assert stat.S_IMODE(q.stat().st_mode) == 0o664 and q.read_text() == "new"
    finally:
        os.umask(old)


# -- hexwar validate ---------------------------------------------------------------------------
def test_validate_takes_folders_and_checks_every_file_inside(tmp_path, capsys):
    # `hexwar validate maps/* scenarios/*` meets the folder scenarios/maps/: it used to stop the
    # whole command with a usage error before checking any file.
    good = tmp_path / "maps" / "good.json"
    good.parent.mkdir()
    good.write_text((ROOT / "maps" / "steppe_village.json").read_text())
    (tmp_path / "maps" / "sub").mkdir()
    (tmp_path / "maps" / "sub" / "broken.json").write_text("{")
    (tmp_path / "maps" / "notes.txt").write_text("not a hexwar file")
    rc, out, _ = run(capsys, "validate", str(tmp_path / "maps"), str(ROOT / "maps" / "kharkov.json"))
    assert rc == 1
    assert f"ok   {good}" in out and "kharkov.json" in out
    assert f"FAIL {tmp_path / 'maps' / 'sub' / 'broken.json'}" in out and "notes.txt" not in out
    assert "1 of 3 file(s) have problems" in out


def test_validate_an_empty_folder_is_a_problem(tmp_path, capsys):
    rc, out, _ = run(capsys, "validate", str(tmp_path))
    assert rc == 1 and str(tmp_path) in out and "no .json or .toml files" in out


def test_validate_names_a_scenario_written_as_json(tmp_path, capsys):
    p = tmp_path / "sc.json"
    p.write_text('{"format": "hexwar-scenario"}')
    rc, out, _ = run(capsys, "validate", str(p))
    assert rc == 1 and "hexwar-scenario files are TOML" in out and "bad TOML" not in out


def test_validate_names_a_map_written_as_toml(tmp_path, capsys):
    p = tmp_path / "m.toml"
    p.write_text('format = "hexwar-map"\n')
    rc, out, _ = run(capsys, "validate", str(p))
    assert rc == 1 and "hexwar-map files are JSON" in out and "bad JSON" not in out


# -- the game engine's commands, from Python ----------------------------------------------------
def _game_at(phase: str):
    sys.path.insert(0, str(ROOT / "tests"))
    from game_helpers import advance_to

    from hexwar.game.scenario import find_scenario, load_scenario

    st = load_scenario(find_scenario("skirmish")).new_game(seed=5)
    advance_to(st, phase, "german")
    return st


@pytest.mark.parametrize(
    "make",
    [
        lambda C, H: C.Commit("german", "de_grenadiers#1", "A01"),  # a label, not a Hex
        lambda C, H: C.Move("german", "de_grenadiers#3", ("F09",)),  # labels in the path
        lambda C, H: C.Move("german", "de_grenadiers#3", H("F09")),  # a Hex, not a path
        lambda C, H: C.Move("german", 3, (H("F09"),)),  # a number as unit id
        lambda C, H: C.Declare("german", "de_grenadiers#3", "su_rifles#3", (True,)),  # bool weapon index
        lambda C, H: C.Declare("german", "de_grenadiers#3", "su_rifles#3", 0),  # int, not a tuple
        lambda C, H: C.Declare("german", "de_grenadiers#3", "su_rifles#3", (0,), at_crew="yes"),
        lambda C, H: C.Resolve("german", "1"),
        lambda C, H: C.EndPhase(["german"]),
    ],
)
def test_mistyped_command_fields_are_refused_with_the_field_named(make):
    from hexwar.game import commands as C
    from hexwar.game.commands import IllegalCommand
    from hexwar.game.state import Phase
    from hexwar.model.hexgrid import Hex

    st = _game_at(Phase.COMMITMENT)
    cmd = make(C, Hex.from_label)
    before, n_log, n_rolls = st.state_hash(), len(st.log), len(st.dice.log)
    with pytest.raises(IllegalCommand) as exc:
        st.apply(cmd)  # used to raise AttributeError / TypeError, or accept True as weapon 1
    assert "expected" in exc.value.reason
    assert st.check(cmd) == exc.value.reason
    assert (st.state_hash(), len(st.log), len(st.dice.log)) == (before, n_log, n_rolls)


# -- the readable game log ---------------------------------------------------------------------
def test_the_wreck_roll_is_shown_with_the_wreck_not_before_the_attack_that_makes_it():
    # The engine rolls the wreck counter while it applies the combat result, so the roll sat in
    # the batch before the attack's own lines ("roll: wreck counter for T-34 ..." printed above
    # "PaK 40 attacks T-34").
    from hexwar.game.events import Event
    from hexwar.game.headless import readable

    roll = Event(
        "roll",
        "wreck counter for T-34/76 (soviet): choice of 6, took #2",
        {"purpose": "wreck counter for T-34/76 (soviet)", "dice": "choice of 6"},
    )
    batch = [
        roll,
        Event("attack", "PaK 40 attacks T-34/76", {}),
        Event("destroyed", "T-34/76 is destroyed", {}),
        Event("wreck_placed", "T-34/76 burns out in M12: wreck su-2", {}),
        Event("crew_fate", "Tank crew captured", {}),
    ]
    assert [e.kind for e in readable(batch)] == ["attack", "destroyed", "roll", "wreck_placed", "crew_fate"]
    assert [e.kind for e in readable([roll])] == ["roll"]  # no wreck event in the batch: kept


# -- image outputs never land on other files ---------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ["render", "steppe_village", "--out"],
        ["render", "skirmish", "--screen", "play", "--out"],
        ["edit", "steppe_village", "--screenshot"],
    ],
)
def test_a_png_is_never_written_over_a_file_of_another_kind(tmp_path, capsys, args):
    # `hexwar render skirmish --out scenarios/skirmish.toml` used to replace the scenario with a PNG
    precious = tmp_path / "skirmish.toml"
    precious.write_text("[scenario]\n")
    rc, _, err = run(capsys, *args, str(precious))
    assert rc == 2 and ".png" in err and precious.read_text() == "[scenario]\n"


def test_a_size_with_thousands_of_digits_is_a_clear_error(capsys, tmp_path):
    rc, _, err = run(
        capsys, "render", "steppe_village", "--size", "1x" + "9" * 5000, "--out", str(tmp_path / "x.png")
    )
    assert rc == 2 and "--size" in err and len(err) < 300  # was a ValueError traceback
