"""Fog of war at setup (R12.1, R12.2): the other side's starting placements are seen only in sight.

Issue 29 follow-up. The fog tests in tests/test_fog.py and tests/test_net_secrecy.py use a small map
on which every starting unit is in sight, so they could not catch a game that shows every
placement at setup. Here a shipped scenario with a big map (``prokhorovka``, 44x32 hexes) is played
with the ``fog`` variant; some Soviet starting units there stand out of every German unit's line of
sight. Sight is computed independently of :mod:`hexwar.game.sight`: a hex is seen when some German
ground unit on the map (not a crew riding it) has LOS, clear or hindered, to it by pairwise
:func:`hexwar.model.los.line_of_sight`, or stands on or next to it (R3.1, R12.2).
"""

from __future__ import annotations

import json

import pytest

from hexwar.game.scenario import find_scenario, load_scenario
from hexwar.game.view import events_for, seat_events, view
from hexwar.model.los import line_of_sight

SEEDS = (1, 7, 20231)


@pytest.fixture(scope="module")
def prokhorovka():
    return load_scenario(find_scenario("prokhorovka"))


def _seen_by_los(g, side):
    """Unit ids of the other side standing on a hex that a ground unit of ``side`` sees (pairwise LOS)."""
    bm = g.battlemap
    own = [u for u in g.units.values() if u.side == side]
    assert own and all(u.hex is not None and not u.aloft for u in own)  # all start on the map
    observers = {u.hex for u in own if u.crewing is None}
    out = set()
    for uid, u in g.units.items():
        if u.side == side:
            continue
        assert u.hex is not None and not u.aloft
        if any(o.distance(u.hex) <= 1 or line_of_sight(bm, o, u.hex).visible for o in observers):
            out.add(uid)
    return out


def _named(log):
    """Unit ids named in ``place`` events of a view's log (the unit and the crew riding it)."""
    out = set()
    for e in log:
        if e["kind"] == "place":
            out.add(e["data"]["unit"])
            if e["data"].get("crew"):
                out.add(e["data"]["crew"])
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_a_side_sees_the_other_sides_starting_units_only_where_its_units_have_los(prokhorovka, seed):
    g = prokhorovka.new_game(seed, variants=("fog",))
    german = {uid for uid, u in g.units.items() if u.side == "german"}
    soviet = set(g.units) - german
    seen = _seen_by_los(g, "german")
    hidden = soviet - seen
    # not vacuous: on this map some Soviet starts are out of every German unit's sight
    assert hidden, f"seed {seed}: every Soviet start is in German sight; the test proves nothing"
    assert seen, f"seed {seed}: no Soviet start in German sight"

    v = view(g, "german")
    # the German seat's setup log names its own starts and exactly the Soviet starts it sees
    assert _named(v.log) == german | seen, f"seed {seed}: named {sorted(_named(v.log) - german - seen)}"
    # its view's units: its own and the Soviet units it sees, no more
    assert {u["uid"] for u in v.data["units"]} == german | seen, f"seed {seed}"
    # the hidden placements are not named anywhere in what the seat receives (data or log)
    blob = json.dumps(v.data) + json.dumps(v.log)
    for uid in sorted(hidden):
        assert uid not in blob, f"seed {seed}: hidden Soviet start {uid} named in the German view"
    # the same log through the per-command path a network seat and a local window use
    assert events_for(g, "german", 0) == v.log, f"seed {seed}"
    local = seat_events(g, list(g.log), "german")
    assert not any(
        e.kind == "place" and (e.data.get("unit") in hidden or e.data.get("crew") in hidden) for e in local
    ), f"seed {seed}: a hidden Soviet start reaches the German window's log"
    # the Soviet seat sees all its own placements
    assert soviet <= _named(view(g, "soviet").log), f"seed {seed}"


@pytest.mark.parametrize("seed", SEEDS[:1])
def test_the_soviet_seat_sees_german_starts_only_where_its_units_have_los(prokhorovka, seed):
    g = prokhorovka.new_game(seed, variants=("fog",))
    soviet = {uid for uid, u in g.units.items() if u.side == "soviet"}
    german = set(g.units) - soviet
    seen = _seen_by_los(g, "soviet")
    v = view(g, "soviet")
    assert _named(v.log) == soviet | seen, f"seed {seed}"
    assert {u["uid"] for u in v.data["units"]} == soviet | seen, f"seed {seed}"
    blob = json.dumps(v.data) + json.dumps(v.log)
    assert not [uid for uid in german - seen if uid in blob], f"seed {seed}"


def test_without_fog_every_start_is_named(prokhorovka):
    g = prokhorovka.new_game(SEEDS[0], variants=())
    for side in ("german", "soviet"):
        v = view(g, side)
        assert _named(v.log) == set(g.units)
        assert {u["uid"] for u in v.data["units"]} == set(g.units)
