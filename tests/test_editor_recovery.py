"""Editor autosave, crash recovery and crash-safe saving (issue 8).

A real subprocess edits a map, autosaves (on an injected clock), edits more, and is killed
with SIGKILL: the recovery file must restore every edit up to the last autosave and none
after. A save killed between writing and renaming, or in the middle of writing, must leave the
previous file exactly as it was.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from hexwar.editor import commands as C
from hexwar.editor.model import EditorDocument
from hexwar.editor.recovery import Autosaver, find_recoveries
from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap

H = Hex.from_label


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_autosave_waits_for_the_interval_and_only_when_dirty(tmp_path):
    doc = EditorDocument.new(5, 4)
    clock = FakeClock()
    auto = Autosaver(doc, clock=clock, interval=60, folder=tmp_path)
    assert auto.tick() is None  # clean: nothing to save
    doc.execute(C.paint_terrain([H("A01")], "woods"))
    clock.t += 59
    assert auto.tick() is None  # not yet a minute
    clock.t += 1
    p = auto.tick()
    assert p is not None and p.exists()
    clock.t += 120
    assert auto.tick() is None  # no change since the autosave
    doc.undo()  # back to the (never saved, empty) start: clean again -> file removed
    assert auto.tick() is None and not p.exists()


def test_recovery_removed_on_save_and_found_only_for_its_document(tmp_path):
    rec = tmp_path / "rec"
    m = tmp_path / "a.json"
    BattleMap.new(4, 4).save(m)
    doc = EditorDocument.open(m)
    clock = FakeClock()
    auto = Autosaver(doc, clock=clock, interval=60, folder=rec)
    doc.execute(C.paint_terrain([H("B02")], "woods"))
    p = auto.write_now()
    assert p.exists()
    # our own (live) process's file is not offered
    assert find_recoveries(m, rec) == []
    doc.save()
    assert not p.exists()


CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from hexwar.editor import commands as C
    from hexwar.editor.model import EditorDocument
    from hexwar.editor.recovery import Autosaver
    from hexwar.model.hexgrid import Hex

    path, rec = Path(sys.argv[1]), Path(sys.argv[2])
    doc = EditorDocument.open(path)
    t = [0.0]
    auto = Autosaver(doc, clock=lambda: t[0], interval=60, folder=rec)
    doc.execute(C.paint_terrain(Hex.from_label("C03").spiral(1), "woods"))
    doc.execute(C.place_wreck(Hex.from_label("A01"), "su-2"))
    t[0] += 61
    auto.tick()                     # autosave: both edits
    doc.execute(C.change_level([Hex.from_label("E04")], 3))   # after the autosave: lost
    t[0] += 10
    auto.tick()                     # too early: no autosave
    print("READY", flush=True)
    time.sleep(60)
    """
)


def test_crash_leaves_recovery_with_every_edit_up_to_last_autosave(tmp_path):
    src = tmp_path / "m.json"
    BattleMap.new(6, 5).save(src)
    original = src.read_text()
    rec = tmp_path / "rec"
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(src), str(rec)], stdout=subprocess.PIPE, text=True
    )
    try:
        line = proc.stdout.readline()
        assert line.strip() == "READY"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert src.read_text() == original  # the document itself was never touched
    found = find_recoveries(src, rec)
    assert len(found) == 1
    doc = found[0].load()
    assert doc.dirty and doc.path is not None and doc.path.resolve() == src.resolve()
    expect = BattleMap.new(6, 5)
    for h in H("C03").spiral(1):
        expect.set_terrain(h, "woods")
    expect.add_wreck(H("A01"), "su-2")
    assert doc.map.to_text() == expect.to_text()  # the level change after the autosave is absent
    doc.save()  # saving the recovered document writes the original file
    assert BattleMap.load(src).to_text() == expect.to_text()
    found[0].discard()
    assert find_recoveries(src, rec) == []


KILLED_SAVE = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    import hexwar.fileio as fio
    from hexwar.editor import commands as C
    from hexwar.editor.model import EditorDocument
    from hexwar.model.hexgrid import Hex

    path, where = Path(sys.argv[1]), sys.argv[2]
    doc = EditorDocument.open(path)
    doc.execute(C.paint_terrain([Hex.from_offset(c, r) for c in range(doc.map.width)
                                 for r in range(doc.map.height)], "water"))

    def hang(*a, **k):
        print("IN-SAVE", flush=True)
        time.sleep(60)

    if where == "rename":       # written and fsynced, killed before the rename
        fio.os.replace = hang
    else:                       # killed in the middle of writing (before fsync)
        fio.os.fsync = hang
    doc.save()
    """
)


@pytest.mark.parametrize("where", ["rename", "write"])
def test_killed_save_never_corrupts_previous_file(tmp_path, where):
    src = tmp_path / "m.json"
    old = BattleMap.new(30, 20)
    old.set_terrain(H("D07"), "stone_building")
    old.save(src)
    before = src.read_bytes()
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_SAVE, str(src), where], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout.readline().strip() == "IN-SAVE"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert src.read_bytes() == before
    assert BattleMap.load(src).to_text() == old.to_text()
    leftovers = [p for p in tmp_path.iterdir() if p.name != "m.json"]
    assert all(p.name.startswith(".m.json.") and p.name.endswith((".tmp", ".lock")) for p in leftovers)
    old.save(
        src
    )  # the next write of m.json removes the killed writer's temp and lock files (issue 13 item 8)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json"]


def test_failed_save_keeps_document_dirty_and_old_file(tmp_path, monkeypatch):
    import hexwar.fileio as fio

    src = tmp_path / "m.json"
    BattleMap.new(4, 4).save(src)
    before = src.read_bytes()
    doc = EditorDocument.open(src)
    doc.execute(C.paint_terrain([H("A01")], "woods"))

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fio.os, "replace", boom)
    from hexwar.errors import HexwarError

    with pytest.raises(HexwarError, match="No space"):
        doc.save()
    assert doc.dirty and src.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]  # the temp file was cleaned up


def test_untitled_recovery_is_offered_for_new_documents(tmp_path):
    rec = tmp_path / "rec"
    rec.mkdir()
    doc = EditorDocument.new(3, 3)
    doc.execute(C.paint_terrain([H("A01")], "marsh"))
    auto = Autosaver(doc, clock=FakeClock(), folder=rec)
    p = auto.write_now()
    data = json.loads(p.read_text())
    data["pid"] = _dead_pid()
    p.write_text(json.dumps(data))
    found = find_recoveries(None, rec)
    assert [r.path for r in found] == [p]
    back = found[0].load()
    assert back.path is None and back.map.terrain_at(H("A01")).key == "marsh"
    assert find_recoveries(tmp_path / "other.json", rec) == []


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    time.sleep(0.01)
    try:
        os.kill(p.pid, 0)
    except ProcessLookupError:
        return p.pid
    pytest.skip("pid reused at once")
    return -1


def test_recovery_of_scenario_documents_round_trips(tmp_path):
    from hexwar.editor.scenario_draft import ObjectiveDraft

    doc = EditorDocument.new(5, 5, scenario=True)
    doc.execute(
        C.ScenarioEdit(
            "obj",
            doc.scenario.with_objectives([ObjectiveDraft(H("C03"), "Hill", 5)]).with_deploy(
                "soviet", [H("E05"), H("E04")]
            ),
        )
    )
    auto = Autosaver(doc, clock=FakeClock(), folder=tmp_path)
    p = auto.write_now()
    data = json.loads(p.read_text())
    data["pid"] = _dead_pid()
    p.write_text(json.dumps(data))
    back = find_recoveries(None, tmp_path)[0].load()
    assert back.scenario == doc.scenario
    assert Path(p).exists()
