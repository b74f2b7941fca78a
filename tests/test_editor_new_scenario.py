""" "New scenario on this map" (issue 32): a scenario draft from a map's deploy and objective
markers (R5.2, R10.2), in the editor model, its session, ``hexwar edit FILE.json --new-scenario``
and the editor window's button."""

from __future__ import annotations

import pytest

from hexwar.cli import main
from hexwar.editor.model import EditorDocument
from hexwar.editor.session import EditorSession
from hexwar.errors import HexwarError, ValidationError
from hexwar.game.scenario import load_scenario
from hexwar.mapgen import generate
from hexwar.model.hexgrid import Hex
from hexwar.model.maps import MapObjective

H = Hex.from_label


@pytest.fixture()
def map_file(tmp_path):
    m = generate(16, 12, 2, "village")
    m.objectives = (MapObjective(H("H06"), "Crossroads", 10),)
    p = tmp_path / "field.json"
    m.save(p)
    return m, p


def test_the_draft_takes_the_maps_deploy_zones_and_objectives_and_saves_a_valid_scenario(map_file):
    m, p = map_file
    doc = EditorDocument.open(p)
    notes = doc.new_scenario_on_map()
    assert doc.kind == "scenario" and doc.dirty and doc.path == p.with_suffix(".toml")
    assert doc.scenario.deploy_of("german") == frozenset(m.deploy["german"])
    assert doc.scenario.deploy_of("soviet") == frozenset(m.deploy["soviet"])
    assert [(o.hex, o.name, o.points) for o in doc.scenario.objectives] == [(H("H06"), "Crossroads", 10)]
    assert any("100 points" in n for n in notes) and not any("deploy" in n for n in notes)
    saved = doc.save()
    sc = load_scenario(saved)  # the game's own validator and loader
    assert sc.map_path.resolve() == p.resolve() and sc.battlemap.content_hash() == m.content_hash()
    assert set(sc.sides["german"].deploy) == set(m.deploy["german"])
    assert [o.hex for o in sc.objectives] == [H("H06")]
    st = sc.new_game(seed=1)  # and a game of it starts
    assert st.turn >= 0


def test_undo_gives_the_map_back_and_a_second_scenario_does_not_overwrite_the_first(map_file):
    m, p = map_file
    doc = EditorDocument.open(p)
    doc.new_scenario_on_map()
    doc.save()
    doc2 = EditorDocument.open(p)
    doc2.new_scenario_on_map()
    assert doc2.path == p.with_name("field-scenario.toml")
    doc2.undo()
    assert doc2.kind == "map" and doc2.path == p and not doc2.dirty
    with pytest.raises(HexwarError, match="already a scenario"):
        EditorDocument.open(p.with_suffix(".toml")).new_scenario_on_map()


def test_a_map_without_a_sides_deploy_markers_is_named_and_the_save_refused(tmp_path):
    m = generate(16, 12, 2, "village")
    m.deploy = {"german": m.deploy["german"]}
    p = tmp_path / "half.json"
    m.save(p)
    s = EditorSession(EditorDocument.open(p))
    assert s.new_scenario_on_map()
    assert s.status_error and "no soviet deploy markers" in s.status
    with pytest.raises(ValidationError, match="deploy"):
        s.doc.save()
    assert not p.with_suffix(".toml").exists()


def test_edit_new_scenario_refuses_a_scenario(tmp_path, capsys, map_file):
    m, p = map_file
    doc = EditorDocument.open(p)
    doc.new_scenario_on_map()
    doc.save()
    assert (
        main(["edit", str(p.with_suffix(".toml")), "--new-scenario", "--screenshot", str(tmp_path / "x.png")])
        == 2
    )
    assert "already a scenario" in capsys.readouterr().err


@pytest.mark.ui
def test_edit_new_scenario_opens_the_draft_and_the_window_button_starts_one(map_file, tmp_path, capsys):
    m, p = map_file
    png = tmp_path / "e.png"
    assert main(["edit", str(p), "--new-scenario", "--screenshot", str(png), "--size", "800x600"]) == 0
    err = capsys.readouterr().err
    assert "Save writes" in err and "field.toml" in err and png.stat().st_size > 1000
    from hexwar.render import backend

    backend.configure(True)
    from hexwar.editor.window import EditorWindow

    win = EditorWindow(EditorDocument.open(p), width=900, height=600, visible=False, schedule=False)
    try:
        win.on_draw()
        box = next(b for b in win._painter.widgets if b.tip == "New scenario on this map")
        box.action()  # the top bar's button
        assert win.doc.kind == "scenario" and win.doc.path == p.with_suffix(".toml")
        win.on_draw()  # a scenario: the button is gone
        assert not any(b.tip == "New scenario on this map" for b in win._painter.widgets)
    finally:
        win.autosaver.discard()
        win.close()
