"""Issue 13 item 1: *validate ok* implies *play --turns 1 and render work*.

Property test over mutated scenarios (a seeded generator; the failing seed and mutation are
printed): every mutated scenario either fails validation with problems that name the file and
a field, or it validates and then a game of it starts and plays (a cheap check for each:
setup and a stretch of turn 1 with the random computer player), and a sample goes through the
real ``hexwar play --headless --turns 1`` and ``hexwar render`` (headless). The default run is
500 mutations; ``-m slow`` runs 3,000 with a larger real sample.
"""

from __future__ import annotations

import copy
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from game_helpers import DATA

from hexwar.cli import main
from hexwar.errors import ValidationError
from hexwar.game import ruleset
from hexwar.game.ai import make_player
from hexwar.game.scenario_file import ScenarioFile

ROOT = Path(__file__).resolve().parent.parent
BASES = [DATA / "game_tiny.toml", DATA / "game_small.toml", ROOT / "scenarios" / "skirmish.toml"]
MAPS = [DATA / "game_tiny_map.json", DATA / "game_small_map.json"]


def all_ids() -> list[str]:
    c = ruleset.cards()
    return sorted(set(c.units) | {e for e in ruleset.event_ids()})


def label(rng: random.Random) -> str:
    col = rng.choice(["A", "B", "C", "D", "H", "J", "K", "N", "Z", "AA"])
    return f"{col}{rng.choice([0, 1, 2, 5, 8, 9, 10, 12, 99]):02d}"


def mutate(data: dict, rng: random.Random, ids: list[str]) -> tuple[dict, list[str]]:
    """1-3 random changes to a scenario document; returns it and what was done."""
    d = copy.deepcopy(data)
    sc = d.setdefault("scenario", {})
    done: list[str] = []
    sides = d.get("sides", {})
    for _ in range(rng.randint(1, 3)):
        side = rng.choice(["german", "soviet"])
        t = sides.setdefault(side, {})
        k = rng.randrange(22)
        if k == 0:
            ev = list(sc.get("events", [])) or ["ev_low_cloud"]
            sc["events"] = ev + [rng.choice(ev)]
            done.append("duplicate event")
        elif k == 1:
            sc["events"] = list(sc.get("events", [])) + [rng.choice(ids)]
            done.append("add event-or-card id")
        elif k == 2:
            sc["turns"] = rng.choice([-1, 0, 1, 3, 200, 201])
            done.append(f"turns {sc['turns']}")
        elif k == 3:
            sc["overrun"] = rng.choice([True, False])
            done.append(f"overrun {sc['overrun']}")
        elif k == 4:
            sc["victory_points"] = rng.choice([0, 1, 5, 30, 51, 400, 10_000, 10_001])
            done.append(f"vp {sc['victory_points']}")
        elif k == 5 and isinstance(t.get("reserves"), list):
            t["reserves"] = t["reserves"] + [rng.choice(ids)]
            done.append(f"{side} reserves + id")
        elif k == 6 and isinstance(t.get("reserves"), list) and t["reserves"]:
            t["reserves"] = t["reserves"][: rng.randrange(len(t["reserves"]))]
            done.append(f"{side} reserves cut")
        elif k == 7:
            t.pop("reserves", None)
            t.pop("hand", None)
            t["budget"] = rng.choice([70, 80, 90, 100, 110])
            if rng.random() < 0.5:
                t["pool"] = rng.sample(ids, 6)
            done.append(f"{side} budget {t['budget']}")
        elif k == 8:
            res = [c for c in t.get("reserves", []) if isinstance(c, str)]
            t["hand"] = (
                rng.sample(res, min(len(res), rng.randint(0, 5)))
                if res and rng.random() < 0.7
                else [rng.choice(ids)]
            )
            done.append(f"{side} hand {len(t['hand'])}")
        elif k == 9:
            t["hand_size"] = rng.randint(-1, 8)
            done.append(f"{side} hand_size {t['hand_size']}")
        elif k == 10:
            t["command_cards"] = rng.randint(-1, 6)
            done.append(f"{side} command_cards {t['command_cards']}")
        elif k == 11:
            u = {"card": rng.choice(ids), "hex": label(rng)}
            if rng.random() < 0.5:
                u["crew"] = rng.choice(ids)
            t["units"] = list(t.get("units", [])) + [u]
            done.append(f"{side} unit {u}")
        elif k == 12 and t.get("units"):
            t["units"] = t["units"][1:]
            done.append(f"{side} unit removed")
        elif k == 13:
            t["deploy"] = [f"{label(rng)}:{label(rng)}"] if rng.random() < 0.5 else [label(rng)]
            done.append(f"{side} deploy {t['deploy']}")
        elif k == 14:
            o = {"hex": label(rng), "points": rng.choice([0, 5, 10, 1001])}
            if rng.random() < 0.5:
                o["holder"] = rng.choice(["german", "soviet", "finnish"])
            d["objectives"] = list(d.get("objectives", [])) + [o]
            done.append(f"objective {o}")
        elif k == 15:
            d["victory"] = {
                "hold": {"side": rng.choice(["german", "soviet", "x"]), "turn": rng.choice([0, 1, 3, 300])}
            }
            done.append(f"hold {d['victory']}")
        elif k == 16:
            art = {
                "missions": rng.choice([-1, 0, 1, 3, 101]),
                "per_turn": rng.choice([0, 1, 2, 11]),
                "weapon": {
                    "name": "x",
                    "damage_index": rng.choice([-1, 0, 5, 31]),
                    "attack": {
                        rng.choice(["infantry", "vehicle", "gun", "aircraft"]): rng.choice([1, 2, 12, 26])
                    },
                },
            }
            if rng.random() < 0.5:
                art["hit_on"] = rng.choice([0, 1, 4, 7, 8])
            t["artillery"] = art
            done.append(f"{side} artillery {art}")
        elif k == 17:
            sc["rules"] = rng.sample(["classic", "burnout", "standard", "quantum"], rng.randint(0, 2))
            done.append(f"rules {sc['rules']}")
        elif k == 18:
            t["initiative"] = rng.choice([-10, -1, 0, 3, 10])
            done.append(f"{side} initiative {t['initiative']}")
        elif k == 19:
            sc["override_reserves"] = rng.choice([True, False])
            done.append(f"override_reserves {sc['override_reserves']}")
        elif k == 20:
            sc["guns_move"] = rng.choice([True, False])
            done.append(f"guns_move {sc['guns_move']}")
        else:
            key = rng.choice(["format", "schema_version", "objectives", "victory", "sides"])
            d.pop(key, None)
            done.append(f"drop {key}")
    return d, done


def cheap_play(scenario, seed: int) -> None:
    """Set a game up and play its first 15 commands of turn 1 (random players)."""
    g = scenario.new_game()
    players = {s: make_player("random", s, seed) for s in ("german", "soviet")}
    for _ in range(15):
        if g.over or g.turn > 1:
            break
        g.apply(players[g.to_act].choose(g))


def run_mutations(n: int, real_play: int, real_render: int, tmp_path: Path, seed0: int) -> dict:
    for m in MAPS:
        shutil.copy(m, tmp_path / m.name)
    ids = all_ids()
    bases = []
    for b in BASES:
        text = b.read_text()
        if b.parent == ROOT / "scenarios":
            text = text.replace('map = "steppe_village.json"', 'map = "steppe_village"')
        bases.append((ScenarioFile.from_text(text).data, text))
    stats = {"ok": 0, "refused": 0, "played": 0, "rendered": 0}
    for i in range(n):
        seed = seed0 + i
        rng = random.Random(seed)
        base, base_text = rng.choice(bases)
        data, done = mutate(base, rng, ids)
        path = tmp_path / f"m{i}.toml"
        why = f"seed {seed}: {done}"
        try:
            sf = ScenarioFile.from_dict(data, path, base_text=base_text)  # as the editor writes it
            sc = sf.validate()
        except ValidationError as exc:
            stats["refused"] += 1
            assert exc.problems and all(p.file == str(path) for p in exc.problems), why
            continue
        stats["ok"] += 1
        try:
            cheap_play(sc, seed)
        except Exception as exc:  # pragma: no cover - a failure prints the seed
            raise AssertionError(
                f"{why}: validated, but playing it fails: {type(exc).__name__}: {exc}"
            ) from exc
        if stats["played"] < real_play or stats["rendered"] < real_render:
            path.write_text(sf.to_text())
            if stats["played"] < real_play:
                rc = main(["play", str(path), "--headless", "--turns", "1", "--json"])
                assert rc == 0, f"{why}: validated, but `hexwar play --turns 1` exits {rc}"
                stats["played"] += 1
            elif stats["rendered"] < real_render:
                out = tmp_path / f"m{i}.png"
                r = subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "hexwar.cli",
                        "render",
                        str(path),
                        "--out",
                        str(out),
                        "--size",
                        "240x160",
                    ],
                    capture_output=True,
                    text=True,
                    timeout=120,
                )
                assert r.returncode == 0 and out.is_file(), (
                    f"{why}: validated, but render fails: {r.stderr[-400:]}"
                )
                stats["rendered"] += 1
    return stats


def test_every_mutated_scenario_that_validates_also_plays_and_renders(tmp_path, capsys):
    stats = run_mutations(500, real_play=8, real_render=2, tmp_path=tmp_path, seed0=0)
    capsys.readouterr()
    # the mutations reach both outcomes often enough to mean something
    assert stats["ok"] >= 100 and stats["refused"] >= 100, stats
    assert stats["played"] == 8 and stats["rendered"] == 2, stats


@pytest.mark.slow
def test_many_more_mutated_scenarios_validate_only_when_they_play(tmp_path, capsys):
    stats = run_mutations(3000, real_play=60, real_render=10, tmp_path=tmp_path, seed0=100_000)
    capsys.readouterr()
    assert stats["ok"] >= 600 and stats["refused"] >= 600, stats


def test_the_audit_case_duplicate_low_cloud_is_refused_naming_file_and_field(tmp_path, capsys):
    for m in MAPS:
        shutil.copy(m, tmp_path / m.name)
    text = (
        (DATA / "game_tiny.toml")
        .read_text()
        .replace('events = ["ev_morning_mist", "ev_order_227"]', 'events = ["ev_low_cloud", "ev_low_cloud"]')
    )
    p = tmp_path / "twice.toml"
    p.write_text(text)
    rc = main(["validate", str(p)])
    out = capsys.readouterr().out
    assert rc == 1 and f"{p}: scenario.events[1]: Event 'ev_low_cloud' is already chosen" in out
    assert main(["play", str(p), "--headless", "--turns", "1"]) == 2
    assert "scenario.events[1]" in capsys.readouterr().err


def test_validation_runs_the_setup_code_itself(monkeypatch, tmp_path):
    """One code path: a setup failure that no field check knows about still fails validation."""
    import hexwar.game.setup as setup

    def broken(*a, **k):
        raise setup.SetupError("sides.german.reserves", "no deck today")

    monkeypatch.setattr(setup, "build_budget_deck", broken)
    text = (ROOT / "scenarios" / "standard.toml").read_text()
    with pytest.raises(ValidationError) as exc:
        ScenarioFile.from_text(text, ROOT / "scenarios" / "standard.toml").validate()
    (p,) = exc.value.problems
    assert p.where == "sides.german.reserves" and "setting up a game fails: no deck today" in p.message
    json.dumps(str(p))
