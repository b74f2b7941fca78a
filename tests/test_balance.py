"""``hexwar balance`` and sweeps on Dask (issue 20): seeds, counting, identical results wherever they ran.

The Dask tests use one real :class:`distributed.LocalCluster` (2 worker processes with nannies)
shared by the module; ``--cluster tcp://...`` connects to its scheduler exactly as to a
scheduler on another machine. Every game is short (the skirmish scenario cut to a turn or two
with ``--max-turns``); each Dask test has a timeout so a stuck cluster fails instead of hanging.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from hexwar import balance as bal
from hexwar.cli import main

ROOT = Path(__file__).resolve().parent.parent
AI = {"german": "standard", "soviet": "standard"}


def run_cli(capsys, *args):
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def skirmish():
    return bal.load_scenario_source("skirmish")


# -- counting (worked by hand) -----------------------------------------------------------------
def test_wilson_interval_worked_by_hand():
    # p = 0.5, n = 200: centre 0.5, half-width 1.96 sqrt(0.25/200 + 1.96^2/160000) / (1 + 1.96^2/200)
    lo, hi = bal.wilson(100, 200)
    assert lo == pytest.approx(0.431360, abs=1e-6) and hi == pytest.approx(0.568640, abs=1e-6)
    lo, hi = bal.wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(3.8416 / 13.8416, abs=1e-12)  # k = 0: 2 z^2 / (2 (n + z^2))
    assert bal.wilson(0, 0) == (0.0, 1.0)


def test_tally_counts_draws_in_the_denominator_and_errors_apart():
    G = bal.GameRecord
    recs = [
        G("x", "default", 0, 11, "german", "points", 3),
        G("x", "default", 1, 12, "soviet", "turn limit", 10),
        G("x", "default", 2, 13, None, "turn limit", 10),
        G("x", "default", 3, 14, "german", "overrun", 6),
        G("x", "default", 4, 15, None, "error", error="boom"),
        G("x", "burnout", 0, 99, "soviet", "points", 4),
    ]
    t, tb = bal.tally(recs)
    assert (t.games, t.wins, t.draws, t.errors) == (4, {"german": 2, "soviet": 1}, 1, 1)
    assert t.rate("german")[0] == 0.5 and t.rate("soviet")[0] == 0.25 and t.rate("draw")[0] == 0.25
    assert t.mean_turns == pytest.approx(29 / 4) and t.median_turns == 8.0  # turns 3, 6, 10, 10
    assert t.ended == {"turn limit": 2, "overrun": 1, "points": 1}
    assert t.balanced() is False  # Soviet 25% is outside 35-65%
    assert (t.first_index, t.last_index) == (0, 4)
    assert (tb.name, tb.games, tb.wins["soviet"]) == ("x (burnout)", 1, 1)
    table = bal.markdown_table([t, tb])
    assert (
        "| x | 4 (#0-4) | 2: 50.0% (" in table
        and "| turn limit 2, overrun 1, points 1 | 7.2 / 8 | NO | 1 |" in table
    )
    assert "| x (burnout) | 1 (#0-0) |" in table


def test_game_seeds_depend_only_on_scenario_variant_and_game_number():
    seeds = {
        bal.game_seed(s, v, i)
        for s in ("kharkov", "ponyri")
        for v in ("default", "burnout")
        for i in range(500)
    }
    assert len(seeds) == 2000 and all(0 <= s < 2**63 for s in seeds)
    ss = np.random.SeedSequence(
        int.from_bytes(__import__("hashlib").sha256(b"kharkov\x00default").digest(), "little"), spawn_key=(7,)
    )
    assert bal.game_seed("kharkov", "default", 7) == int(ss.generate_state(1, np.uint64)[0]) >> 1
    stem, sc = skirmish()
    a = bal.plan_games(bal.game_kind("scenario"), [(stem, sc)], [None], 10, 0, AI, 5)
    b = bal.plan_games(
        bal.game_kind("scenario"), [(stem, sc)], [None], 4, 6, AI, 5
    )  # --seed-start 6 continues
    assert [g.seed for g in a[6:]] == [g.seed for g in b] and [g.index for g in b] == [6, 7, 8, 9]


def test_a_balance_row_is_the_game_hexwar_play_plays_with_its_seed(capsys, tmp_path):
    out_csv = tmp_path / "b.csv"
    rc, out, _ = run_cli(
        capsys, "balance", "skirmish", "--games", "2", "--max-turns", "1", "--csv", str(out_csv)
    )
    assert (
        rc == 0
        and "| skirmish | 2 (#0-1) |" in out
        and "reproduce: hexwar balance skirmish --games 2 --max-turns 1" in out
    )
    rows = list(csv.DictReader(io.StringIO(out_csv.read_text())))
    assert [int(r["seed"]) for r in rows] == [bal.game_seed("skirmish", "default", i) for i in range(2)]
    for r in rows:
        rc, out, _ = run_cli(
            capsys,
            "play",
            "skirmish",
            "--headless",
            "--ai",
            "german,soviet",
            "--seed",
            r["seed"],
            "--turns",
            "1",
            "--json",
        )
        game = json.loads(out)["result"]
        assert (game["reason"], game["turn"], game["score"]["german"], game["score"]["soviet"]) == (
            r["reason"],
            int(r["turn"]),
            int(r["score_german"]),
            int(r["score_soviet"]),
        )


def test_a_game_that_raises_is_an_error_row_with_its_seed_and_message():
    stem, sc = skirmish()
    specs = bal.plan_games(bal.game_kind("scenario"), [(stem, sc)], [None], 3, 0, AI, 1)
    broken = dataclasses.replace(
        specs[1], source=dataclasses.replace(sc, sides={}), source_key="broken skirmish"
    )
    run = bal.run_balance([specs[0], broken, specs[2]], cluster="none", quiet=True)
    assert [r.reason == "error" for r in run.records] == [False, True, False]
    err = run.records[1]
    assert (err.seed, err.index, err.error) == (specs[1].seed, 1, "KeyError: 'german'")
    text = bal.records_csv(run.records)
    assert f"skirmish,default,1,{specs[1].seed},,error,0,,,,,0,KeyError: 'german'" in text.splitlines()
    (t,) = bal.tally(run.records)
    assert (t.games, t.errors) == (2, 1)


def test_a_chunk_that_fails_as_a_whole_becomes_error_rows_for_each_game():
    stem, sc = skirmish()
    specs = bal.plan_games(bal.game_kind("scenario"), [(stem, sc)], [None], 2, 0, AI, 1)
    recs = bal.failed_chunk(specs, "KilledWorker: worker died 3 times")
    assert [(r.seed, r.reason, r.error) for r in recs] == [
        (s.seed, "error", "chunk failed: KilledWorker: worker died 3 times") for s in specs
    ]


def test_bad_options_are_one_clear_message(capsys, monkeypatch):
    rc, _, err = run_cli(capsys, "balance", "skirmish", "--cluster", "yarn")
    assert rc == 2 and "--cluster 'yarn': expected none, local or a scheduler address" in err
    rc, _, err = run_cli(capsys, "balance", "skirmish", "--ai", "german=clever")
    assert rc == 2 and "--ai 'german=clever'" in err
    rc, _, err = run_cli(capsys, "balance", "skirmish", "--rules", "winter")
    assert rc == 2 and "unknown rule variant 'winter'" in err
    rc, _, err = run_cli(capsys, "balance", "nowhere-scenario")
    assert rc == 2 and "nowhere-scenario" in err
    rc, _, err = run_cli(capsys, "balance", "skirmish", "--kind", "chess")
    assert rc == 2 and "unknown game kind" in err and "scenario" in err
    monkeypatch.setattr("hexwar.cluster.CONNECT_TIMEOUT", 1.0)
    rc, _, err = run_cli(capsys, "balance", "skirmish", "--games", "1", "--cluster", "tcp://127.0.0.1:9")
    assert rc == 2 and "cannot reach a Dask scheduler" in err


DOC = """# intro\n\n<!-- balance:begin -->\nold table\n<!-- balance:end -->\n\nkept text\n
<!-- lines-balance:begin -->\nold lines\n<!-- lines-balance:end -->\n"""


def test_update_docs_rewrites_only_the_kind_table_and_its_json(capsys, monkeypatch, tmp_path):
    doc = tmp_path / "scenarios.md"
    doc.write_text(DOC)
    kind = dataclasses.replace(bal.GAME_KINDS["scenario"], doc=str(doc), json=str(tmp_path / "balance.json"))
    monkeypatch.setitem(bal.GAME_KINDS, "scenario", kind)
    rc, _, _ = run_cli(capsys, "balance", "skirmish", "--games", "3", "--max-turns", "1", "--update-docs")
    assert rc == 0
    text = doc.read_text()
    head, table = text.split("<!-- balance:begin -->\n")
    assert head == "# intro\n\n" and "old table" not in text and "| skirmish | 3 (#0-2) |" in table
    assert "Reproduce: `hexwar balance skirmish --games 3 --max-turns 1`" in table
    assert text.endswith("kept text\n\n<!-- lines-balance:begin -->\nold lines\n<!-- lines-balance:end -->\n")
    data = json.loads((tmp_path / "balance.json").read_text())
    assert data["games_per_scenario"] == 3 and len(data["games"]) == 3 and data["table"][0]["games"] == 3
    # another game kind (the hook for lines and campaign games) writes its own table, between its own markers
    lines = dataclasses.replace(kind, name="lines", marker="lines-balance", json=str(tmp_path / "lines.json"))
    monkeypatch.setitem(bal.GAME_KINDS, "lines", lines)
    rc, _, _ = run_cli(
        capsys, "balance", "skirmish", "--kind", "lines", "--games", "2", "--max-turns", "1", "--update-docs"
    )
    new = doc.read_text()
    assert rc == 0 and new.startswith(text.split("<!-- lines-balance:begin -->")[0])
    assert "old lines" not in new and "--kind lines --games 2" in new
    doc.write_text("no markers here")
    rc, _, err = run_cli(capsys, "balance", "skirmish", "--games", "1", "--max-turns", "1", "--update-docs")
    assert rc == 2 and "has no <!-- balance:begin --> ... <!-- balance:end --> markers" in err
    assert doc.read_text() == "no markers here"


def test_one_level_on_both_sides_writes_its_own_section_and_keeps_the_standard_table(
    capsys, monkeypatch, tmp_path
):
    """Issue 31: `--ai-level easy --update-docs` (one level, not the standard player, on both
    sides; hard against hard likewise) writes between `level-easy` markers; the standard
    players' table and its JSON file stay as they were."""
    doc = tmp_path / "scenarios.md"
    doc.write_text(DOC + "\n<!-- level-easy:begin -->\nold easy\n<!-- level-easy:end -->\n")
    before = doc.read_text()
    kind = dataclasses.replace(bal.GAME_KINDS["scenario"], doc=str(doc), json=str(tmp_path / "balance.json"))
    monkeypatch.setitem(bal.GAME_KINDS, "scenario", kind)
    easy = ["--max-turns", "1", "--ai-level", "easy", "--update-docs"]
    rc, _, _ = run_cli(capsys, "balance", "skirmish", "--games", "2", *easy)
    assert rc == 0
    text = doc.read_text()
    assert text.split("<!-- level-easy:begin -->")[0] == before.split("<!-- level-easy:begin -->")[0]
    section = text.split("<!-- level-easy:begin -->")[1]
    assert "old easy" not in section and "| skirmish | 2 (#0-1) |" in section
    assert "--ai-level german=easy,soviet=easy" in section
    assert not (tmp_path / "balance.json").exists()
    # the level's own JSON file keeps every game; a run of another scenario adds its row and
    # keeps skirmish's, each row's run named in the footer
    kept = json.loads((tmp_path / "balance-easy.json").read_text())
    assert [g["scenario"] for g in kept["games"]] == ["skirmish", "skirmish"]
    rc, _, _ = run_cli(capsys, "balance", "standard", "--games", "1", *easy)
    assert rc == 0
    section = doc.read_text().split("<!-- level-easy:begin -->")[1]
    assert "| skirmish | 2 (#0-1) |" in section and "| standard | 1 (#0-0) |" in section
    assert "rows: skirmish)" in section and "rows: standard)" in section
    kept = json.loads((tmp_path / "balance-easy.json").read_text())
    assert [g["scenario"] for g in kept["games"]] == ["skirmish", "skirmish", "standard"]


def _default_sigint() -> None:
    """In the child: Ctrl+C as in a terminal, even when pytest itself runs under ``nohup ... &``
    (which leaves SIGINT ignored, and a Python started with SIGINT ignored never raises
    KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_cleanly_and_prints_what_finished(tmp_path):
    # The child's stderr is a pseudo-terminal, so it draws its real progress bar; Ctrl+C is sent
    # only once the bar says a game has finished, however long a loaded machine takes to start.
    import pty
    import re
    import select
    import termios
    import threading

    out_csv = tmp_path / "part.csv"
    master, slave = pty.openpty()
    termios.tcsetwinsize(slave, (24, 120))  # a new pseudo-terminal is 0 columns wide: tqdm would draw nothing
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hexwar.cli",
            "balance",
            "skirmish",
            "--games",
            "400",
            "--chunk",
            "1",
            "--cluster",
            "none",
            "--csv",
            str(out_csv),
        ],
        stdout=subprocess.PIPE,
        stderr=slave,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
        preexec_fn=_default_sigint,
    )
    os.close(slave)
    err_bytes = bytearray()
    first_game = threading.Event()

    def read_terminal() -> None:  # drain the terminal until the child closes it
        while True:
            try:
                ready, _, _ = select.select([master], [], [], 0.2)
                if ready:
                    chunk = os.read(master, 4096)
                    if not chunk:
                        return
                    err_bytes.extend(chunk)
                    if re.search(rb"\b[1-9]\d*/400\b", err_bytes):
                        first_game.set()
            except OSError:  # EIO: the child closed its end
                return
            if proc.poll() is not None and not ready:
                return

    reader = threading.Thread(target=read_terminal, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 300
        while not first_game.wait(timeout=0.5):
            assert proc.poll() is None and time.monotonic() < deadline, (
                f"no game finished (exit status {proc.poll()}): {bytes(err_bytes)[-600:]!r}"
            )
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=240)  # generous: a loaded 2-core machine finishes its game first
        reader.join(timeout=10)
    finally:
        proc.kill()
        os.close(master)
    err = err_bytes.decode("utf-8", "replace")
    assert proc.returncode == 130, err[-2000:]
    rows = list(csv.DictReader(io.StringIO(out_csv.read_text())))
    n = len(rows)
    assert 0 < n < 400 and f"{n} of 400 games" in out and f"interrupted: {n} of 400 games finished" in err
    assert [int(r["game"]) for r in rows] == list(range(n)) and "Traceback" not in err
    assert f"| skirmish | {n} (#0-{n - 1}) |" in out


# -- on a real Dask cluster ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def dask_cluster():
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50
    )
    client = Client(cluster, timeout=30)
    try:
        yield cluster, client
    finally:
        client.close(timeout=10)
        cluster.close(timeout=10)


def _csv(capsys, tmp_path, name, *extra):
    path = tmp_path / name
    rc, out, err = run_cli(
        capsys,
        "balance",
        "skirmish",
        "--games",
        "4",
        "--rules",
        "standard",
        "--rules",
        "burnout",
        "--max-turns",
        "2",
        "--chunk",
        "1",
        "--csv",
        str(path),
        *extra,
    )
    assert rc == 0, err
    return path.read_bytes(), out


@pytest.mark.timeout(120)
def test_csv_is_byte_identical_on_one_core_a_local_cluster_and_a_remote_scheduler(
    capsys, tmp_path, dask_cluster
):
    cluster, client = dask_cluster
    client.wait_for_workers(2, timeout=30)
    none, out = _csv(capsys, tmp_path, "none.csv", "--cluster", "none")
    assert none.count(b"\n") == 9 and "| skirmish (burnout) | 4 (#0-3) |" in out
    remote, out = _csv(capsys, tmp_path, "remote.csv", "--cluster", cluster.scheduler_address)
    assert remote == none and f"2 workers of {cluster.scheduler_address}" in out
    local, out = _csv(capsys, tmp_path, "local.csv", "--workers", "2")
    assert local == none and "on 2 local workers" in out


@pytest.mark.timeout(120)
def test_sweep_rows_are_the_same_on_one_core_and_on_a_cluster(capsys, tmp_path, dask_cluster):
    cluster, _ = dask_cluster
    args = [
        "sim",
        "sweep",
        "artillery",
        "kharkov",
        "--target",
        "P11",
        "--side",
        "german",
        "--vary",
        "hit_on=3..5",
        "--seeds",
        "0..1",
        "--trials",
        "500",
    ]
    rc, one, _ = run_cli(capsys, *args)
    rc2, many, _ = run_cli(capsys, *args, "--cluster", cluster.scheduler_address)
    assert rc in (0, None) and rc2 in (0, None) and one == many and one.count("\n") == 7
    fire = [
        "sim",
        "sweep",
        "fire",
        "kharkov",
        "--ignite",
        "P11",
        "--turns",
        "3",
        "--vary",
        "spread_bonus=4..6",
        "--seeds",
        "0..1",
        "--trials",
        "300",
    ]
    assert run_cli(capsys, *fire)[1] == run_cli(capsys, *fire, "--cluster", cluster.scheduler_address)[1]
    # places and scenario fields, with per-hex and per-area columns (issue 23)
    places = [
        "sim",
        "sweep",
        "artillery",
        "kharkov",
        "--side",
        "soviet",
        "--vary",
        "target=P11,Q11",
        "--seeds",
        "0",
        "--trials",
        "300",
        "--hex",
        "P11",
        "--area",
        "block=O10..Q12",
    ]
    one = run_cli(capsys, *places)[1]
    assert (
        one == run_cli(capsys, *places, "--cluster", cluster.scheduler_address)[1]
        and "block:p_all_gone" in one
    )
    scen = [
        "sim",
        "sweep",
        "scenario",
        "skirmish",
        "--turns",
        "1",
        "--vary",
        "ignite=N06,M06",
        "--vary",
        "sides.soviet.artillery.missions=1..2",
        "--trials",
        "4",
        "--area",
        "village",
    ]
    one = run_cli(capsys, *scen)[1]
    assert one == run_cli(capsys, *scen, "--cluster", cluster.scheduler_address)[1] and one.count("\n") == 5


@pytest.mark.timeout(180)
def test_a_worker_killed_by_pid_mid_run_loses_nothing(dask_cluster):
    cluster, client = dask_cluster
    client.wait_for_workers(2, timeout=30)
    stem, sc = skirmish()
    specs = bal.plan_games(bal.game_kind("scenario"), [(stem, sc)], [None], 16, 0, AI, 3)
    expected = bal.run_balance(specs, cluster="none", quiet=True).records
    before = client.run(os.getpid)
    killed: list[int] = []

    def kill_a_busy_worker(i, results, cl):
        if killed:
            return
        busy = [w for w, keys in cl.processing().items() if keys] or list(before)
        pid = before[busy[0]]
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    run = bal.run_balance(
        specs, cluster=cluster.scheduler_address, chunk=1, quiet=True, on_chunk=kill_a_busy_worker
    )
    assert killed and not run.interrupted
    assert [dataclasses.replace(r, seconds=0) for r in run.records] == [
        dataclasses.replace(r, seconds=0) for r in expected
    ]
    assert bal.records_csv(run.records) == bal.records_csv(expected)
    client.wait_for_workers(2, timeout=60)  # the nanny restarted it
    assert killed[0] not in client.run(os.getpid).values()


@pytest.mark.timeout(120)
def test_chunks_start_on_the_workers_in_the_order_given(dask_cluster):
    # issue 35: guided chunks fall in size so the workers finish together, which holds only if
    # Dask starts them in the order given (tasks of random keys otherwise run in any order)
    from hexwar.cluster import run_chunks

    cluster, client = dask_cluster
    client.wait_for_workers(2, timeout=30)
    n = 40
    run = run_chunks(
        lambda chunk: [(time.monotonic(), time.sleep(0.02))[0]],  # when the chunk started
        [[i] for i in range(n)],
        cluster=cluster.scheduler_address,
        workers=2,
        quiet=True,
    )
    starts = [run.results[i][0] for i in range(n)]
    late = [(i, j) for i in range(n) for j in range(i + 4, n) if starts[j] < starts[i]]
    assert not late, f"chunks started out of order (i, j with j started first): {late[:10]}"


def test_default_chunks_fall_to_single_games_at_the_end():
    from hexwar.cluster import guided

    for n, w, most in [(12, 1, 6), (12, 2, 6), (48, 2, 6), (1000, 16, 6), (5, 4, 6), (1, 1, 6)]:
        chunks = guided(list(range(n)), w, most)
        sizes = [len(c) for c in chunks]
        assert sum(chunks, []) == list(range(n)), (n, w)  # every item once, in order
        assert sizes == sorted(sizes, reverse=True) and max(sizes) <= most and sizes[-1] == 1, (n, w, sizes)
        # each chunk is at most 1/(2w) of what was left (rounded up): the others are about one
        # item from done when a worker takes the last chunk
        left = n
        for k in sizes:
            assert k <= max(1, -(-left // (2 * w))), (n, w, sizes)
            left -= k
    stem, sc = skirmish()
    specs = bal.plan_games(bal.game_kind("scenario"), [(stem, sc)], [None], 12, 0, AI, 1)
    assert bal.run_balance(specs, cluster="none", quiet=True, workers=2).chunk == 3  # guided: 3, 3, 2, 1 ...
    assert bal.run_balance(specs, cluster="none", quiet=True, chunk=5).chunk == 5


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_real_scenarios_give_the_same_table_with_one_and_two_local_workers(capsys, tmp_path):
    a, _ = _csv(capsys, tmp_path, "one.csv", "--cluster", "local", "--workers", "1")
    b, _ = _csv(capsys, tmp_path, "two.csv", "--workers", "2")
    assert a == b
    outs = []
    for extra in (["--cluster", "none"], ["--workers", "2"]):
        path = tmp_path / "k.csv"
        rc, out, _ = run_cli(
            capsys, "balance", "kharkov", "ponyri", "--games", "12", "--csv", str(path), *extra
        )
        assert rc == 0
        outs.append(path.read_bytes())
    assert outs[0] == outs[1]


@pytest.mark.parametrize("kind", ["lines", "campaign"])
def test_the_lines_and_campaign_games_are_kinds_the_balance_runner_plays(kind, capsys, tmp_path):
    from hexwar.balance import GAME_KINDS
    from hexwar.cli import main

    gk = GAME_KINDS[kind]
    stem, source = gk.function("load")(gk.defaults[0])
    out = gk.function("play")(source, 3, None, {"german": "standard", "soviet": "standard"}, 60)
    assert out.winner in ("german", "soviet", None) and set(out.score) == {"german", "soviet"}
    csv = tmp_path / f"{kind}.csv"
    assert (
        main(
            [
                "balance",
                gk.defaults[0],
                "--kind",
                kind,
                "--games",
                "2",
                "--cluster",
                "none",
                "--csv",
                str(csv),
            ]
        )
        == 0
    )
    rows = csv.read_text().splitlines()
    assert len(rows) == 3 and stem in rows[1]
