"""The person at the terminal reads its side's view of the log, as a network seat does (R12.1,
R12.2: the one view function, :func:`hexwar.game.view.event_for`, decides each line).

Found by playing ``hexwar play standard --headless --ai soviet --fog``: the terminal printed
the game's seed and every Soviet Reserves pool draw ("soviet Reserves deck card from the pool
(100 points left): choice of 17, took #4"), i.e. the whole Soviet Reserves deck, which R12.2
hides like a hand; the network seat's view of the same game hides both.
"""

from __future__ import annotations

from click.testing import CliRunner

from hexwar.cli import cli
from hexwar.game.scenario import find_scenario, load_scenario


def _terminal(*extra: str) -> str:
    r = CliRunner().invoke(
        cli, ["play", "standard", "--headless", "--ai", "soviet", "--seed", "11", *extra], input="q\n"
    )
    return r.output


def test_the_terminal_hides_the_other_sides_reserves_draws_and_the_seed_under_fog():
    out = _terminal("--fog")
    st = load_scenario(find_scenario("standard")).new_game(11, variants=("fog",))
    draws = [e.text for e in st.log if e.kind == "roll" and "Reserves deck card from the pool" in e.text]
    soviet = [t for t in draws if t.startswith("soviet ")]
    german = [t for t in draws if t.startswith("german ")]
    assert soviet and german  # the standard scenario draws both decks from pools (R10)
    for t in soviet:
        assert t not in out, f"seed 11: the terminal shows the Soviet draw {t!r}"
    assert out.count("soviet draws a card for its Reserves deck") == len(soviet)
    for t in german:  # the person's own draws stay
        assert f"roll: {t}" in out
    assert "seed 11" not in out and "seed hidden" in out


def test_without_fog_the_terminal_still_hides_the_seed():
    out = _terminal()
    assert "seed 11" not in out and "seed hidden" in out


def test_a_hot_seat_at_the_terminal_prints_the_log_both_players_may_read():
    # fresh7: with `--ai none` the terminal printed the seed and both sides' pool draws (each
    # side's whole random Reserves deck) before either player chose a hand; the hot-seat
    # window's shared log shows neither (docs/play.md)
    out = _terminal("--ai", "none")
    st = load_scenario(find_scenario("standard")).new_game(11)
    draws = [e.text for e in st.log if e.kind == "roll" and "Reserves deck card from the pool" in e.text]
    assert any(t.startswith("german ") for t in draws) and any(t.startswith("soviet ") for t in draws)
    for t in draws:
        assert t not in out, f"seed 11: the hot-seat terminal shows the draw {t!r}"
    for side in ("german", "soviet"):
        n = sum(t.startswith(f"{side} ") for t in draws)
        assert out.count(f"{side} draws a card for its Reserves deck") == n
    assert "seed 11" not in out and "seed hidden" in out
