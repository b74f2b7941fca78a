"""A level's own balance section (issue 31): a run of a few scenarios replaces their rows and
keeps the others', every row traced to the run that played it; issue 31's figures summarised
from the kept games (R10.2 objective decisions, R1.2 seeded games)."""

from __future__ import annotations

import json

import pytest

from hexwar.errors import HexwarError
from hexwar.search.level_docs import (
    level_json_path,
    merge_level_games,
    objective_summary,
    render_level_section,
    write_level_docs,
)


def game(
    scenario,
    index,
    winner="german",
    reason="turn limit",
    turn=8,
    score=(10, 5),
    objective_points=None,
    held=None,
):
    """One game as ``--json`` prints it (``GameRecord`` fields)."""
    return {
        "scenario": scenario,
        "variant": "default",
        "index": index,
        "seed": 1000 + index,
        "winner": winner,
        "reason": reason,
        "turn": turn,
        "score": {"german": score[0], "soviet": score[1]},
        "objective_points": objective_points or {},
        "commands": 10,
        "seconds": 1.0,
        "points_by_type": {},
        "held": held or {},
    }


RUN1 = {
    "command": "hexwar balance a b --ai-level hard",
    "commit": "aaaaaaa",
    "wall_seconds": 100.0,
    "on": "this process",
}
RUN2 = {
    "command": "hexwar balance b --ai-level hard",
    "commit": "bbbbbbb",
    "wall_seconds": 20.0,
    "on": "this process",
}


def test_json_file_sits_beside_the_kinds():
    assert level_json_path("docs/balance.json", "hard") == "docs/balance-hard.json"
    assert level_json_path("docs/lines-balance.json", "easy") == "docs/lines-balance-easy.json"


def test_a_run_replaces_its_rows_and_keeps_the_others():
    first = merge_level_games(None, [game("a", 0), game("a", 1), game("b", 0), game("b", 1)], RUN1)
    assert [r["rows"] for r in first["runs"]] == [[["a", "default"], ["b", "default"]]]
    second = merge_level_games(first, [game("b", 0, winner="soviet")], RUN2)
    # a's two games kept, b's two old games gone, the new one in b's place
    assert [(g["scenario"], g["index"], g["winner"]) for g in second["games"]] == [
        ("a", 0, "german"),
        ("a", 1, "german"),
        ("b", 0, "soviet"),
    ]
    assert [(r["commit"], r["rows"], r["games"]) for r in second["runs"]] == [
        ("aaaaaaa", [["a", "default"]], 4),
        ("bbbbbbb", [["b", "default"]], 1),
    ]
    # a run that replaces every row of the first drops it from the footer
    third = merge_level_games(second, [game("a", 0)], RUN2)
    assert [r["commit"] for r in third["runs"]] == ["bbbbbbb", "bbbbbbb"]
    assert [r["rows"] for r in third["runs"]] == [[["b", "default"]], [["a", "default"]]]
    # a new scenario comes after the kept ones
    fourth = merge_level_games(third, [game("c", 0)], RUN1)
    assert [g["scenario"] for g in fourth["games"]] == ["a", "b", "c"]


def test_summary_counts_issue_31_figures_by_hand():
    from hexwar.balance import GameRecord

    def rec(g):
        return GameRecord(**g)

    # scenario x: 10 games; 2 hold victories and 1 game whose objective points turned a Soviet
    # lead (5 to 10) into a German win: 3 of 10 decided = 30%, so it counts; German wins 6/10
    x = [game("x", i) for i in range(7)]
    x[0]["winner"] = x[1]["winner"] = "soviet"
    x[0]["reason"] = x[1]["reason"] = "objectives"
    x[2].update(score={"german": 5, "soviet": 10}, objective_points={"german": 20, "soviet": 0})
    x += [game("x", 7 + i, winner="soviet", score=(1, 9)) for i in range(3)]
    # scenario y: 4 games, all German by victory points, short (median 3 turns): not decided,
    # no hold, too short, German 4/4 (interval 51-100% overlaps 35-65%, the Soviets' 0-49% too)
    y = [game("y", i, reason="points", turn=3) for i in range(4)]
    text = objective_summary([rec(g) for g in x + y])
    assert text == (
        "Over 2 scenarios (14 games): the objectives decided at least 30% of games in 1; a hold "
        "victory came in 1; median length at least 5 turns in 1; both sides' 95% intervals overlap "
        "35-65% in 2 (German wins 9/14, 64%)."
    )
    # one more German win by points in y: German 5/5 (57-100%) and the Soviets 0/5 (0-43%) both
    # still overlap; ten German wins of ten do not (72-100%)
    z = [game("z", i, reason="points") for i in range(10)]
    assert "35-65% in 0 (German wins 10/10" in objective_summary([rec(g) for g in z])
    assert objective_summary([rec(g) for g in z]).startswith("Over 1 scenario (10 games):")


def test_section_names_each_run_and_its_rows():
    kept = merge_level_games(None, [game("a", 0), game("b", 0)], RUN1)
    one = render_level_section(kept, ("german", "soviet"), True)
    assert "| a | 1 (#0-0) |" in one and "| b | 1 (#0-0) |" in one
    assert (
        "Reproduce: `hexwar balance a b --ai-level hard` (2 games, 100 s on this process, code at commit aaaaaaa)"
        in one
    )
    assert "rows:" not in one and "Objectives decided (R10.2):" in one and "Over 2 scenarios" in one
    two = render_level_section(
        merge_level_games(kept, [game("b", 0, winner="soviet")], RUN2), ("german", "soviet"), True
    )
    assert "Reproduce (each row from the run that played it): " in two
    assert "code at commit aaaaaaa; rows: a)" in two and "code at commit bbbbbbb; rows: b)" in two
    assert "| b | 1 (#0-0) | 0: " in two


def test_files_written_merged_and_a_broken_file_refused(tmp_path):
    doc = tmp_path / "docs" / "s.md"
    doc.parent.mkdir()
    doc.write_text("head\n<!-- level-hard:begin -->\nOLD SECTION\n<!-- level-hard:end -->\ntail\n")
    kw = {"sides": ("german", "soviet"), "scenario_kind": True}
    written = write_level_docs(tmp_path, "docs/s.md", "docs/balance.json", "hard", [game("a", 0)], RUN1, **kw)
    assert written == ("docs/s.md", "docs/balance-hard.json")
    write_level_docs(tmp_path, "docs/s.md", "docs/balance.json", "hard", [game("b", 0)], RUN2, **kw)
    data = json.loads((tmp_path / "docs" / "balance-hard.json").read_text())
    assert data["level"] == "hard" and [g["scenario"] for g in data["games"]] == ["a", "b"]
    text = doc.read_text()
    assert text.startswith("head\n") and text.endswith("tail\n") and "OLD SECTION" not in text
    assert "| a |" in text and "| b |" in text
    # a file that is not a level's games: refused by name, nothing written
    (tmp_path / "docs" / "balance-hard.json").write_text('{"games": 3}')
    with pytest.raises(HexwarError, match=r"balance-hard.json is not a level's games file"):
        write_level_docs(tmp_path, "docs/s.md", "docs/balance.json", "hard", [game("c", 0)], RUN1, **kw)
    assert doc.read_text() == text
    (tmp_path / "docs" / "balance-hard.json").write_text('{"games": [')
    with pytest.raises(HexwarError, match=r"cannot read .*balance-hard.json"):
        write_level_docs(tmp_path, "docs/s.md", "docs/balance.json", "hard", [game("c", 0)], RUN1, **kw)


def _broken(field, value):
    """A level's games file whose kept row ``a`` (not replayed by the run) has ``field`` set to
    ``value`` (``runs.KEY`` edits the run, ``games`` / ``runs`` the whole list)."""
    kept = merge_level_games(None, [game("a", 0)], RUN1)
    if field in ("games", "runs"):
        kept[field] = value
    elif field.startswith("runs."):
        kept["runs"][0][field[5:]] = value
    elif value is KeyError:
        del kept["games"][0][field]
    else:
        kept["games"][0][field] = value
    return kept


BROKEN = [
    ("games", [1], "games[0]: expected an object, got 1"),
    ("runs", [1], "runs[0]: expected an object, got 1"),
    ("runs.rows", 5, "runs[0].rows: expected a list of [scenario, variant] pairs, got 5"),
    ("runs.wall_seconds", "x", "runs[0].wall_seconds: expected a number, got 'x'"),
    ("winner", KeyError, "games[0].winner: expected a side or null, got None"),
    ("scenario", KeyError, "games[0].scenario: expected text, got None"),
    ("turn", 10**400, "games[0].turn: expected a number within +-1000000000, got 1000"),
    ("index", float("inf"), "games[0].index: expected an integer, got inf"),
    ("score", {"german": 1e300}, "games[0].score.german: expected a number within +-1000000000"),
    ("seed", -1, "games[0].seed: expected a seed 0..2**64-1, got -1"),
    ("seconds", float("nan"), "games[0].seconds: expected a number within +-1000000000, got nan"),
]


@pytest.mark.parametrize("field, value, why", BROKEN, ids=[c[0] for c in BROKEN])
def test_a_broken_kept_row_is_refused_by_name_and_nothing_written(tmp_path, field, value, why):
    """A hand-edited or damaged docs/balance-LEVEL.json (a kept row of the wrong shape, a huge
    number) is one HexwarError naming the file and the field, never a traceback out of the
    merge or the section; the document and the file stay as they were."""
    doc = tmp_path / "docs" / "s.md"
    doc.parent.mkdir()
    doc.write_text("head\n<!-- level-hard:begin -->\nOLD SECTION\n<!-- level-hard:end -->\ntail\n")
    path = tmp_path / "docs" / "balance-hard.json"
    path.write_text(json.dumps(_broken(field, value)).replace("Infinity", "1e999"))
    before = path.read_text()
    kw = {"sides": ("german", "soviet"), "scenario_kind": True}
    with pytest.raises(HexwarError) as err:  # the run plays row b: row a is kept from the file
        write_level_docs(tmp_path, "docs/s.md", "docs/balance.json", "hard", [game("b", 0)], RUN1, **kw)
    text = str(err.value)
    assert text.startswith(f"--update-docs: {path} is not a level's games file") and why in text, text
    assert "\n" not in text and len(text) < 400, text
    assert "OLD SECTION" in doc.read_text() and path.read_text() == before
