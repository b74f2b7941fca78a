"""``hexwar selftest`` (issue 13 item 14): the shipped conformance cases run, print expected and
actual, and fail when the build or the data disagree."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources

import hexwar.selftest as st
from hexwar.cli import main


def run(capsys, *args):
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def test_the_cases_are_package_data_and_cover_what_the_issue_lists():
    for suite in st.SUITES:
        assert resources.files("hexwar").joinpath("data", "selftest", f"{suite}.toml").is_file()
    los = " ".join(c["name"] for c in st.load_cases("los"))
    for word in (
        "hexside",
        "vertex",
        "hill",
        "wreck",
        "fire",
        "rubble",
        "level",
        "equal height",
        "both sides",
    ):
        assert word in los, word
    rules = [c for c in st.load_cases("rules")]
    kinds = {c["kind"] for c in rules}
    assert kinds == {"artillery", "building", "fire_spread", "fire_damage", "combat"}
    assert any(c["name"].startswith("003: a Soviet die of 2") for c in rules)
    assert sum(c["name"].startswith("000") for c in rules) >= 3


def test_pyproject_ships_the_case_files():
    text = st.__file__.rsplit("/hexwar/", 1)[0] + "/pyproject.toml"
    assert '"data/**/*.toml"' in open(text).read()


def test_selftest_passes_and_prints_expected_and_actual_for_each_case(capsys):
    rc, out, _ = run(capsys, "selftest")
    assert rc == 0
    n_los = len(st.load_cases("los"))
    lines = out.splitlines()
    assert lines[-1].endswith("checks passed") and "FAILED" not in lines[-1]
    oks = [ln for ln in lines if ln.startswith("ok   ")]
    # each LOS case four ways (forward, reverse, shifted twin unless marked, shapely reference)
    assert len([ln for ln in oks if ln.startswith("ok   los:")]) >= 3 * n_los
    assert (
        any("[reverse]" in ln for ln in oks)
        and any("[shifted]" in ln for ln in oks)
        and any("[exact]" in ln for ln in oks)
    )
    i = next(i for i, ln in enumerate(lines) if "003: a Soviet die of 2" in ln)
    assert lines[i + 1].split() == [
        "expected",
        "accuracy_roll=2,",
        "hit_on=4,",
        "hit=False,",
        "drift=2,",
        "direction=1,",
        "landing=D05",
    ]
    assert lines[i + 2].split()[0] == "actual" and lines[i + 2].split()[1:] == lines[i + 1].split()[1:]


def test_suites_and_json(capsys):
    rc, out, _ = run(capsys, "selftest", "--rules", "--json")
    d = json.loads(out)
    assert rc == 0 and d["ok"] and {c["suite"] for c in d["cases"]} == {"rules"}
    assert len(d["cases"]) == len(st.load_cases("rules")) == d["passed"]
    rc, out, _ = run(capsys, "selftest", "--los", "--json")
    assert {c["suite"] for c in json.loads(out)["cases"]} == {"los"}


def test_a_wrong_expectation_fails_with_exit_1_and_shows_both(monkeypatch, capsys):
    real = st.load_cases

    def tampered(suite):
        cases = real(suite)
        if suite == "rules":
            cases[0]["expect"]["landing"] = "D04"
        return cases

    monkeypatch.setattr(st, "load_cases", tampered)
    rc, out, _ = run(capsys, "selftest", "--rules")
    assert rc == 1 and "1 FAILED" in out.splitlines()[-1]
    i = next(i for i, ln in enumerate(out.splitlines()) if ln.startswith("FAIL"))
    assert "landing=D04" in out.splitlines()[i + 1] and "landing=D05" in out.splitlines()[i + 2]


def test_changed_terrain_data_is_caught(monkeypatch):
    """A user who makes woods transparent sees the LOS cases that depend on it fail."""
    import dataclasses

    import hexwar.model.maps as maps
    from hexwar.model import terrain

    base = terrain.default_terrain()
    changed = tuple(dataclasses.replace(t, los="clear") if t.key == "woods" else t for t in base.types)
    fake = terrain.RulesTerrain(changed, base.wrecks)
    monkeypatch.setattr(maps, "default_terrain", lambda: fake)
    results = st.run_selftest(("los",))
    bad = {r.name for r in results if not r.ok}
    assert "hexside A03-C03, woods on both sides: blocked (R3.3)" in bad
    assert not any("wreck" in n for n in bad)  # cases without woods still pass


def test_the_installed_command_runs_as_a_process():
    r = subprocess.run(
        [sys.executable, "-m", "hexwar.cli", "selftest", "--rules"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0 and "checks passed" in r.stdout
