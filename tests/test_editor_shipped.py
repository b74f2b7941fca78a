"""The editor never rewrites hexwar's shipped maps and scenarios from a user's folder (fresh7:
``hexwar edit kharkov`` then Ctrl+S in any folder rewrote ``maps/kharkov.json``, the map every
Kharkov scenario plays on and ``tools/build_maps.py`` makes): Ctrl+S on a shipped file opens
Save As in the working folder, and the document model refuses a write into a shipped folder
that lies outside the working folder; a checkout worked on from its own root still saves."""

from __future__ import annotations

import pytest

from hexwar.editor.model import EditorDocument
from hexwar.errors import HexwarError
from hexwar.paths import content_dir, shipped_folder_of


@pytest.fixture
def shipped():
    m = content_dir("maps") / "kharkov.json"
    s = content_dir("scenarios") / "kharkov.toml"
    before = {p: p.read_bytes() for p in (m, s)}
    yield m, s
    changed = [p for p, data in before.items() if p.read_bytes() != data]
    for p in changed:  # put back (a planted fault must not leave the checkout changed)
        p.write_bytes(before[p])
    assert changed == [], f"rewritten: {changed}"  # the shipped files are exactly as they were


def test_a_shipped_map_is_not_overwritten_from_another_folder(shipped, tmp_path, monkeypatch):
    m, s = shipped
    monkeypatch.chdir(tmp_path)
    assert shipped_folder_of(m) == "maps" and shipped_folder_of(s) == "scenarios"
    assert shipped_folder_of(tmp_path / "kharkov.json") is None
    doc = EditorDocument.open(m)
    with pytest.raises(
        HexwarError, match=r"^kharkov.json is one of hexwar's shipped maps \(.*\): use Save As"
    ):
        doc.save()
    assert doc.save(tmp_path / "kharkov.json") == tmp_path / "kharkov.json"  # Save As a copy
    assert (tmp_path / "kharkov.json").read_bytes() == m.read_bytes()
    sc = EditorDocument.open(s)  # a shipped scenario: its copy saves (its map unchanged, not written)
    assert sc.save(tmp_path / "mine.toml") == tmp_path / "mine.toml"
    # worked on from the checkout (or the install) that holds the folders: their own files
    assert shipped_folder_of(m, cwd=content_dir("maps").parent) is None


def test_ctrl_s_on_a_shipped_map_opens_save_as_in_the_working_folder(shipped, tmp_path, monkeypatch):
    from hexwar.render import backend

    try:
        backend.configure(True)
        from hexwar.editor.window import EditorWindow
    except Exception as exc:  # pragma: no cover - no EGL on this machine
        pytest.skip(f"headless pyglet unavailable: {exc}")
    m, _ = shipped
    monkeypatch.chdir(tmp_path)
    win = EditorWindow(EditorDocument.open(m), width=900, height=600, visible=False, schedule=False)
    try:
        assert win.save() is False  # Ctrl+S
        assert win.modal == "saveas" and win.modal_text == str(tmp_path / "kharkov.json")
        win._saveas_confirm()  # Enter
        assert win.doc.path == tmp_path / "kharkov.json" and (tmp_path / "kharkov.json").is_file()
        assert win.save() is True  # now the user's own file: Ctrl+S saves it
    finally:
        win.autosaver.discard()
        win.close()
