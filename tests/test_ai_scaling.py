"""Issue 35: the computer player's work bounded by what matters, not by the map's area, with
the same answers as the whole-map computations it replaces.

* a unit's reach (R5.3) searched in the window its movement points can cover equals the
  whole-map search (costs, order and predecessors);
* the vectorized neighbour table and adjacency mask equal the hex-by-hex definitions (R2.1);
* :func:`hexwar.model.los.visibility_near` equals whole-map visibility within its radius (R3);
* the commitment's deploy hexes as arrays equal the listing of ``Commit`` commands (R5.2);
* the standard player with every window (near sight, reach window, score window, per-group
  commitment) plays the same seeded game as with whole-map arrays and the listing-based
  commitment choice, on a generated map big enough for every window to be smaller than it.
"""

from __future__ import annotations

import numpy as np
import pytest

from hexwar.game import ai_standard, movement, ruleset
from hexwar.game.actions import commit as commit_action
from hexwar.game.ai import make_player
from hexwar.game.commands import Commit, Recrew
from hexwar.game.onmap import scenario_on_map
from hexwar.game.scenario import load_scenario
from hexwar.game.state import Phase, card_of, other_side
from hexwar.mapgen import generate
from hexwar.model.hexgrid import DIRECTIONS, Hex
from hexwar.model.los import BLOCKED, near_window, visibility_near, visibility_with_hindrances
from hexwar.paths import content_dir


def _hex_distance(h: Hex, height: int, width: int) -> np.ndarray:
    out = np.zeros((height, width), dtype=np.int64)
    for row in range(height):
        for col in range(width):
            out[row, col] = h.distance(Hex.from_offset(col, row))
    return out


def test_the_neighbour_table_is_the_hex_by_hex_one():
    for height, width in [(1, 1), (1, 5), (5, 1), (2, 3), (7, 8), (11, 13)]:
        src, dst = [], []
        for row in range(height):
            for col in range(width):
                h = Hex.from_offset(col, row)
                for dq, dr in DIRECTIONS.values():
                    c2, r2 = Hex(h.q + dq, h.r + dr).offset
                    if 0 <= c2 < width and 0 <= r2 < height:
                        src.append(row * width + col)
                        dst.append(r2 * width + c2)
        s, d = movement.neighbor_table(height, width)
        assert s.tolist() == src and d.tolist() == dst, (height, width)


def test_the_adjacency_mask_marks_exactly_the_neighbours_of_occupied_hexes():
    rng = np.random.default_rng(35)
    for height, width in [(1, 1), (1, 6), (6, 1), (2, 3), (7, 8), (12, 9)]:
        for trial in range(10):
            occ = rng.random((height, width)) < 0.2
            want = np.zeros((height, width), dtype=bool)
            for row, col in zip(*np.nonzero(occ), strict=True):
                for n in Hex.from_offset(int(col), int(row)).neighbors():
                    c, r = n.offset
                    if 0 <= c < width and 0 <= r < height:
                        want[r, c] = True
            assert np.array_equal(movement.adjacent_mask(occ), want), (height, width, trial)


def test_a_reach_searched_in_its_window_equals_the_whole_map_search():
    rng = np.random.default_rng(7)
    windowed = 0
    for trial in range(30):
        height, width = int(rng.integers(70, 130)), int(rng.integers(70, 130))
        cost = rng.choice([1.0, 1.0, 2.0, 3.0, np.inf], size=(height, width))
        road = rng.random((height, width)) < 0.3
        road_cost = np.where(np.isfinite(cost), 0.5, np.inf) if trial % 2 else cost.copy()
        passable = rng.random((height, width)) < 0.9
        if trial % 3 == 0:  # open ground, or one road everywhere: reaches as far as the bound allows
            cost = np.ones((height, width))
            road = np.full((height, width), trial % 2 == 1)
            road_cost = np.full((height, width), 0.5)
            passable = np.ones((height, width), dtype=bool)
        for _ in range(4):
            col, row = int(rng.integers(0, width)), int(rng.integers(0, height))
            mp = float(rng.choice([1, 2, 4, 6, 9.5]))
            start = Hex.from_offset(col, row)
            got = movement.reachable(cost, passable, start, mp, road_cost, road)
            windowed += movement.reach_window(cost, start, mp, road_cost) is not None
            idx, dist, pred = movement._dijkstra(cost, passable, col, row, mp, road_cost, road, 1.0)
            want = {
                Hex.from_offset(i % width, i // width): d
                for i, d in zip(idx.tolist(), dist.tolist(), strict=True)
            }
            where = f"trial {trial} start {start.label} mp {mp}"
            assert list(got.cost.items()) == list(want.items()), where
            assert np.array_equal(got.predecessors, pred), where
            for h in list(want)[:: max(1, len(want) // 5)]:
                path = got.path(h)
                assert len(path) == 0 or path[-1] == h
    assert windowed == 120  # every case above used a window


@pytest.mark.parametrize("style,width", [("village", 100), ("steppe", 101)])
def test_visibility_near_a_viewer_equals_the_whole_map_answer_within_its_radius(style, width):
    m = generate(width, 90, 4, style)
    rng = np.random.default_rng(3)
    wreck = sorted(m.rules.wrecks)[0]
    for _ in range(40):  # wrecks with the LOS symbol put something in the way (R3.5)
        m.add_wreck(Hex.from_offset(int(rng.integers(0, width)), int(rng.integers(0, 90))), wreck)
    viewers = [Hex.from_offset(width - 1, 45), Hex.from_offset(0, 0), Hex.from_offset(width - 2, 89)]
    for _ in range(10):  # the map's corners and right edge (odd width: the window pushed left), then anywhere
        viewer = (
            viewers.pop()
            if viewers
            else Hex.from_offset(int(rng.integers(0, width)), int(rng.integers(0, 90)))
        )
        radius = int(rng.choice([2, 8, 16, 24]))
        (r0, r1, c0, c1), status, cnt = visibility_near(m, viewer, radius)
        assert (r0, r1, c0, c1) == near_window(90, width, viewer, radius) and c0 % 2 == 0
        full, full_cnt = visibility_with_hindrances(m, viewer)
        d = _hex_distance(viewer, 90, width)
        assert (d[r0:r1, c0:c1] <= radius).sum() == (d <= radius).sum()  # the window holds them all
        near = d[r0:r1, c0:c1] <= radius
        where = f"{style} viewer {viewer.label} radius {radius}"
        assert np.array_equal(status, np.where(near, full[r0:r1, c0:c1], BLOCKED)), where
        assert np.array_equal(cnt, np.where(near, full_cnt[r0:r1, c0:c1], 0)), where


def _standard_on(size: str, seed: int = 1):
    sc = load_scenario(content_dir("scenarios") / "standard.toml")
    return scenario_on_map(sc, f"generated:{seed}:village:{size}")


def test_the_deploy_hexes_as_arrays_are_the_hexes_of_the_commit_listing():
    sc = _standard_on("60x40")
    g = sc.new_game(seed=2)
    players = {s: make_player("standard", s, 2) for s in ("german", "soviet")}
    checked = 0
    while not g.over and g.turn <= 3:
        if g.phase == Phase.COMMITMENT:
            side = g.to_act
            listed: dict[tuple[str, str | None, str | None], list[Hex]] = {}
            for c in g.legal_commands(side):
                if isinstance(c, Commit) and c.hex is not None:
                    listed.setdefault((c.unit, c.crew, c.carry), []).append(c.hex)
            deploy = g.scenario.sides[side].deploy
            for cid, inst, crew, carry in commit_action.card_groups(g, side):
                if ruleset.is_aircraft(cid):
                    continue
                pos, cols, rows = commit_action.open_hexes(g, side, cid, carry)
                assert [deploy[k] for k in pos.tolist()] == listed.get((inst, crew, carry), [])
                assert [Hex.from_offset(c, r) for c, r in zip(cols.tolist(), rows.tolist(), strict=True)] == [
                    deploy[k] for k in pos.tolist()
                ]
                checked += 1
        g.apply(players[g.to_act].choose(g))
    assert checked > 5


def _listing_commitment(self, state):
    """The standard player's commitment choice as it was before issue 35: rate every legal
    command of the full listing (the reference the per-group arrays must equal)."""
    side = self.side
    legal = state.legal_commands(side)
    recrew = [c for c in legal if isinstance(c, Recrew)]
    if recrew:
        return recrew[0]
    commits = [c for c in legal if isinstance(c, Commit)]
    mine = self._ground(state, side)
    enemy_ground = self._ground(state, other_side(side))
    need = (
        self._strength(state, other_side(side)) + ai_standard.COMMIT_MARGIN - self._strength(state, side) > 0
        or len(mine) < ai_standard.MIN_ON_MAP
    )
    if commits:
        air = [c for c in commits if c.hex is None]
        if air and enemy_ground:
            return max(air, key=lambda c: (ruleset.cost(c.unit), c.unit))
        ground = [c for c in commits if c.hex is not None]
        if ground and need:
            best_unit = max({c.unit for c in ground}, key=lambda u: (ruleset.cost(u), u))
            opts = [c for c in ground if c.unit == best_unit]
            scores = self._hex_scores(state, card_of(best_unit), None)

            def rate(c):
                col, row = c.hex.offset
                crew_q = ruleset.cost(c.crew) if c.crew else 0
                return (float(scores[row, col]) + 0.01 * crew_q, c.crew or "", c.hex.label)

            return max(opts, key=rate)
    return self._play_cards(state, "commitment", legal)


def _play(sc, seed: int, turns: int) -> list[str]:
    g = sc.new_game(seed=seed)
    players = {s: make_player("standard", s, seed) for s in ("german", "soviet")}
    log = []
    while not g.over and g.turn <= turns:
        cmd = players[g.to_act].choose(g)
        log.append(repr(cmd))
        g.apply(cmd)
    return log


def test_the_windowed_player_plays_the_same_game_as_the_whole_map_one(monkeypatch):
    sc = _standard_on("150x120", seed=3)  # 18,000 hexes: every window is smaller than the map
    assert near_window(120, 150, Hex.from_offset(75, 60), 40) != (0, 120, 0, 150)
    windowed = _play(sc, 5, 4)
    whole_scores = ai_standard.StandardPlayer._hex_scores

    def scores_whole(self, state, cid, here, win=None):
        full = whole_scores(self, state, cid, here, None)
        return full if win is None else full[win[0] : win[1], win[2] : win[3]]

    monkeypatch.setattr(ai_standard, "near_window", lambda h, w, viewer, radius: (0, h, 0, w))
    monkeypatch.setattr(movement, "reach_window", lambda *a, **k: None)
    monkeypatch.setattr(ai_standard.StandardPlayer, "_hex_scores", scores_whole)
    monkeypatch.setattr(ai_standard.StandardPlayer, "_commitment", _listing_commitment)
    whole = _play(sc, 5, 4)
    assert sum(c.startswith("Move(") for c in whole) >= 5 and sum(c.startswith("Commit(") for c in whole) >= 5
    assert windowed == whole


def _scores_at(players, g):
    """Every own unit's windowed scores over its reach, and each side's exposure map."""
    out = []
    for side, p in players.items():
        out.append(p._threat_arrays(g)["exposure"].copy())
        for _, u in sorted(g.units.items()):
            if u.side != side or u.hex is None or u.crewing is not None:
                continue
            col, row = u.hex.offset
            win = (max(0, row - 9), row + 10, max(0, col - 9), col + 10)
            out.append(p._hex_scores(g, u.card, u.hex, win))
        out.append(repr(p.choose(g)) if g.to_act == side else "")
    return out


def test_scores_near_enemies_in_windows_equal_the_whole_map_scores(monkeypatch):
    """Units within each other's weapon ranges on a 150x120 map (R6.1 ranges up to 40 hexes):
    exposure, engagement and the pull towards enemies read through the windows equal the
    whole-map arrays, and so does the decision."""
    from game_helpers import place

    sc = _standard_on("150x120", seed=3)
    g = sc.new_game(seed=4)
    players = {s: make_player("standard", s, 4) for s in ("german", "soviet")}
    while not (g.turn >= 2 and g.phase == Phase.MOVEMENT and g.to_act == "german"):
        g.apply(players[g.to_act].choose(g))
    at = lambda c, r: Hex.from_offset(c, r).label  # noqa: E731
    place(g, "de_hummel", at(60, 50), crew="de_artillery_crew_regular")
    place(g, "de_panther_d", at(66, 55), crew="de_tank_crew_green")
    place(g, "de_grenadiers", at(68, 57))
    place(g, "su_ml20", at(100, 70), crew="su_artillery_crew_regular")
    place(g, "su_t34_76", at(75, 60), crew="su_tank_crew_green")
    place(g, "su_rifles", at(72, 52))
    windowed = _scores_at(players, g)
    monkeypatch.setattr(ai_standard, "near_window", lambda h, w, viewer, radius: (0, h, 0, w))
    g.cache.clear()
    players = {s: make_player("standard", s, 4) for s in ("german", "soviet")}
    whole = _scores_at(players, g)
    assert len(windowed) == len(whole) and len(windowed) > 10
    for a, b in zip(windowed, whole, strict=True):
        assert a == b if isinstance(a, str) else np.array_equal(a, b)
