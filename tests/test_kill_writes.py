"""kill -9 during every kind of write (issue 33): a game save, a war save, the editor's map and
scenario pair, a Tiled import, a migration and the network server's save.

A forked writer alternates between two versions A and B of the file(s) through hexwar's own
writing path (:mod:`hexwar.fileio`: temp file, fsync, rename; the editor's pair with its
journal) until it is killed with SIGKILL at a random moment. Then:

* no torn or lost file: after the normal recovery a reader does (:func:`recover_group`), every
  target holds exactly A or exactly B (a pair: both A or both B);
* no litter: the only leftovers are hexwar's own recoverable ones (``.NAME.XXXXXXXX.tmp``,
  ``.NAME.lock``, ``.NAME.pair``), and the next write of the file removes them all.

Default: a few kills of each kind; ``-m slow``: 100 of each (``HEXWAR_KILLS`` overrides).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
OWN_LITTER = re.compile(r"^\.(.+)\.([a-z0-9_]{8}\.tmp|lock|pair)$")

Writer = Callable[[int], None]  # write version i % 2


def _game_writers(folder: Path) -> tuple[Writer, list[Path]]:
    from hexwar.game.ai import make_player
    from hexwar.game.save import write_save
    from hexwar.game.scenario import load_scenario

    st = load_scenario(DATA / "game_tiny.toml").new_game(seed=2)
    ps = {s: make_player("random", s, 2) for s in ("german", "soviet")}
    for _ in range(6):
        st.apply(ps[st.to_act].choose(st))
    a = st
    b = load_scenario(DATA / "game_tiny.toml").new_game(seed=5)
    target = folder / "game.json"
    return (lambda i: write_save((a, b)[i % 2], target, {"german": "human"})), [target]


def _war_writers(folder: Path) -> tuple[Writer, list[Path]]:
    from hexwar.campaign.save import write_campaign_save
    from hexwar.campaign.state import new_campaign

    a, _ = new_campaign(1)
    b, _ = new_campaign(2)
    target = folder / "war.json"
    return (lambda i: write_campaign_save((a, b)[i % 2], target)), [target]


def _editor_writers(folder: Path) -> tuple[Writer, list[Path]]:
    from hexwar.editor.model import EditorDocument

    shutil.copy(DATA / "game_tiny.toml", folder / "tiny.toml")
    shutil.copy(DATA / "game_tiny_map.json", folder / "game_tiny_map.json")
    docs = [EditorDocument.open(folder / "tiny.toml") for _ in range(2)]
    for doc, name in zip(docs, ("Alpha", "Bravo"), strict=True):  # two versions of the pair
        doc.map.name = name
        doc.scenario = doc.scenario.with_settings(name=f"Tiny {name}")
    target = folder / "tiny.toml"
    paths = [p for p, _ in docs[0].file_texts(target)]
    assert len(paths) == 2, "the editor writes the map and the scenario as one group"
    return (lambda i: docs[i % 2].save(target)), paths


def _import_writers(folder: Path) -> tuple[Writer, list[Path]]:
    from hexwar.formats.tiled import import_tiled

    shutil.copy(DATA / "tiled" / "town.tsx", folder / "town.tsx")
    shutil.copy(DATA / "tiled" / "town.tsj", folder / "town.tsj")
    shutil.copy(DATA / "tiled" / "odd_csv.tmx", folder / "a.tmx")
    shutil.copy(DATA / "tiled" / "even_zlib.tmj", folder / "b.tmj")
    maps = [import_tiled(folder / "a.tmx").map, import_tiled(folder / "b.tmj").map]
    target = folder / "imported.json"
    return (lambda i: maps[i % 2].save(target)), [target]


def _migrate_writers(folder: Path) -> tuple[Writer, list[Path]]:
    """``hexwar migrate --in-place`` of a round-1 save: A is the old file, B the upgraded one."""
    from hexwar.formats.migrate import migrate_file

    legacy = DATA / "legacy_e9c3826"
    for f in ("skirmish.toml", "save_skirmish_s2.json"):
        shutil.copy(legacy / f, folder / f)
    shutil.copytree(legacy / "maps", folder / "maps")
    target = folder / "save_skirmish_s2.json"
    old = target.read_bytes()

    def write(i: int) -> None:
        if i % 2 == 0:
            migrate_file(target)  # upgrades in place (atomic), B
        else:
            from hexwar.fileio import atomic_write_bytes

            atomic_write_bytes(target, old)  # back to A for the next migration

    return write, [target]


def _server_writers(folder: Path) -> tuple[Writer, list[Path]]:
    from hexwar.net.modes import mode_adapter

    adapter = mode_adapter("hex")  # the server's writer: Room saves go through adapter.save
    sc = str(DATA / "game_tiny.toml")
    games = [adapter.new_game(sc, False, 1), adapter.new_game(sc, False, 2)]
    target = folder / "room.save.json"
    return (lambda i: adapter.save(games[i % 2], target)), [target]


KINDS: dict[str, Callable[[Path], tuple[Writer, list[Path]]]] = {
    "game": _game_writers,
    "war": _war_writers,
    "editor": _editor_writers,
    "import": _import_writers,
    "migrate": _migrate_writers,
    "server": _server_writers,
}


def _versions(write: Writer, paths: list[Path]) -> list[tuple[bytes, ...]]:
    """The two versions as written (write B, read; write A, read: A is left in place)."""
    out = []
    for i in (1, 0):
        write(i)
        out.append(tuple(p.read_bytes() for p in paths))
    return out


def _kill_once(write: Writer, rng: random.Random, max_delay: float) -> None:
    pid = os.fork()
    if pid == 0:  # the writer: alternate until killed
        try:
            i = 1
            while True:
                write(i)
                i += 1
        finally:
            os._exit(1)
    time.sleep(rng.uniform(0.0, max_delay))
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def _kills(kind: str, n: int, folder: Path, seed: int) -> int:
    from hexwar.fileio import recover_group

    folder.mkdir()
    write, paths = KINDS[kind](folder)
    versions = _versions(write, paths)
    assert versions[0] != versions[1], "the two versions must differ"
    before = set(os.listdir(folder))
    t0 = time.perf_counter()
    write(1)
    write(0)
    one = (time.perf_counter() - t0) / 2  # one write's time: kills land across a few of them
    rng = random.Random(seed)
    torn_or_lost = []
    caught = 0  # kills that left a writer's own leftovers: it died inside a write
    for k in range(n):
        _kill_once(write, rng, max(0.002, 3 * one))
        recover_group(paths[0])  # what any reader of the file does first
        now = tuple(p.read_bytes() if p.exists() else None for p in paths)
        if now not in versions:
            torn_or_lost.append(f"{kind} kill {k} (seed {seed}): {[len(x or b'') for x in now]} bytes")
        litter = set(os.listdir(folder)) - before
        assert all(OWN_LITTER.match(x) for x in litter), f"{kind}: foreign litter {sorted(litter)}"
        caught += bool(litter)
    assert not torn_or_lost, "\n".join(torn_or_lost[:5])
    write(0)  # the next normal write cleans up every leftover of the killed writers
    assert set(os.listdir(folder)) == before, (
        f"{kind}: litter after a write: {set(os.listdir(folder)) ^ before}"
    )
    assert tuple(p.read_bytes() for p in paths) == versions[1]
    return caught


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_kill_9_during_a_write_leaves_no_torn_or_lost_file_and_no_litter(kind, tmp_path):
    _kills(kind, int(os.environ.get("HEXWAR_KILLS_DEFAULT", "2")), tmp_path / kind, 33)  # asserts inside


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_kill_9_100_times_during_each_kind_of_write(kind, tmp_path, capsys):
    n = int(os.environ.get("HEXWAR_KILLS", "100"))
    caught = _kills(kind, n, tmp_path / kind, 1033)
    assert caught > 0, "no kill landed inside a write: the test proved nothing"
    with capsys.disabled():
        print(
            f"\nkill -9 during {kind} writes: {n} kills ({caught} inside a write), 0 torn or lost files, "
            "no litter after the next write"
        )
