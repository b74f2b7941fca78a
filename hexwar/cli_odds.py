"""``hexwar odds ATTACKER WEAPON TARGET``: the exact outcome distribution of one attack (R6).

ATTACKER and TARGET are unit card ids or names (``de_tiger_i``, ``"T-70"``); WEAPON is a
weapon number on the attacker's card (1-based), a weapon name or id, or two of them joined by
``+`` or ``,`` (``1+2``). Crewed units get a regular crew unless ``--crew`` /
``--target-crew`` say otherwise; ``--defense-mod`` is the terrain part of the target's
Defense (R6.7), as the map would give it.
"""

from __future__ import annotations

import re

import click

from .cli import echo_json
from .errors import HexwarError
from .rules.cards import QUALITIES, VARIANTS, CardSet, UnitCard, card_id_of, default_cards
from .rules.combat import AttackOrders, DefenseContext, effective_defense, rate_of_fire, to_hit_modifiers
from .rules.odds import attack_odds
from .rules.units import UnitState, new_unit

__all__ = ["odds", "parse_weapons"]


def parse_weapons(card: UnitCard, text: str) -> tuple[int, ...]:
    """Weapon indexes (0-based) from ``"1"``, ``"1+2"``, ``"MG 34"``, ``"kwk36,mg34_tank"``.

    Raises:
        HexwarError: naming the text and the card's weapons when something does not match.
    """
    out: list[int] = []
    listing = ", ".join(f"{i + 1}. {w.name}" for i, w in enumerate(card.weapons))
    for part in (p.strip() for p in re.split(r"[+,]", text)):
        if not part:
            continue
        if part.isdigit():
            i = int(part) - 1
            if not 0 <= i < len(card.weapons):
                raise HexwarError(f"{card.name} has no weapon {part}: {listing}")
            out.append(i)
            continue
        key = part.lower()
        hits = [i for i, w in enumerate(card.weapons) if key in (w.id.lower(), w.name.lower())]
        if not hits:
            hits = [i for i, w in enumerate(card.weapons) if key in w.name.lower() or key in w.id.lower()]
        if len(hits) != 1:
            what = "matches no" if not hits else "matches more than one"
            raise HexwarError(f"{part!r} {what} weapon of {card.name}: {listing}")
        out.append(hits[0])
    if not out:
        raise HexwarError(f"no weapon given; {card.name} has {listing}")
    return tuple(out)


def _unit(cards: CardSet, name: str, quality: str, uid_n: int, units: dict[str, UnitState],
          endurance: int | None = None) -> UnitState:
    card = cards.find_unit(name)
    crew_uid = None
    if card.needs_crew:
        crew = cards.crew_card(card.side, card.crew, quality)
        crew_uid = f"{crew.id}#{uid_n}"
        units[crew_uid] = new_unit(cards, crew_uid)
    if endurance is not None and not 1 <= endurance <= card.endurance_full:
        raise HexwarError(f"--endurance {endurance}: {card.name} has Endurance 1..{card.endurance_full}")
    u = new_unit(cards, f"{card.id}#{uid_n}", crew=crew_uid, endurance=endurance)
    units[u.uid] = u
    return u


def _pct(p: float) -> str:
    return f"{100 * p:6.2f}%"


@click.command()
@click.argument("attacker")
@click.argument("weapon")
@click.argument("target")
@click.option("--defense-mod", "defense_mod", type=click.IntRange(-20, 20), default=0, show_default=True,
              help="Terrain Defense modifier of the target's hex (R6.7; e.g. +2 woods, -2 burning).")
@click.option("--hindrances", type=click.IntRange(0, 10), default=0, show_default=True,
              help="Hindrance hexes on the line of sight (-1 each to hit, R6.3).")
@click.option("--crew", type=click.Choice(QUALITIES), default="regular", show_default=True,
              help="Quality of the attacker's crew (green -1, veteran +1 to hit).")
@click.option("--target-crew", "target_crew", type=click.Choice(QUALITIES), default="regular", show_default=True,
              help="Quality of the target's crew (veterans ignore some Damage effects).")
@click.option("--endurance", type=int, default=None, help="The target's Current Endurance (default Full).")
@click.option("--damage-card", "damage_card", default=None,
              help="A Damage card the target already holds (e.g. dmg05): no further card, 19-20 destroys.")
@click.option("--variant", type=click.Choice(VARIANTS), default="standard", show_default=True,
              help="standard (000) or classic (001: 2-3 friendly fire, 19-20 destroys).")
@click.option("--bonus", is_flag=True, help="Discard a Command card for +1 on every to-hit roll (R1.3).")
@click.option("--card", "command_cards", multiple=True, help="A Command card played on the attack (e.g. aimed_fire).")
@click.option("--indirect", is_flag=True, help="Indirect fire (rear-line units, an SPG's 1st weapon).")
@click.option("--json", "as_json", is_flag=True, help="Print the distribution as JSON.")
def odds(attacker: str, weapon: str, target: str, defense_mod: int, hindrances: int, crew: str, target_crew: str,
         endurance: int | None, damage_card: str | None, variant: str, bonus: bool, command_cards: tuple[str, ...],
         indirect: bool, as_json: bool) -> None:
    """Exact odds of ATTACKER firing WEAPON at TARGET: miss, no effect, damaged, Damage card, destroyed."""
    cards = default_cards()
    units: dict[str, UnitState] = {}
    a = _unit(cards, attacker, crew, 1, units)
    t = _unit(cards, target, target_crew, 2, units, endurance)
    if damage_card is not None:
        dc = cards.damage_card(damage_card)
        t.damage_card = f"{dc.id}#1"
        t.damage_turns = dc.side_for(cards.unit(t.card).unit_type).turns
    acard, tcard = cards.unit(a.card), cards.unit(t.card)
    for c in command_cards:
        if card_id_of(c) not in cards.command:
            raise HexwarError(f"--card: unknown Command card {c!r}; expected one of {sorted(cards.command)}")
    played = tuple(c if "#" in c else f"{c}#1" for c in command_cards)
    orders = AttackOrders(parse_weapons(acard, weapon), indirect=indirect, command_cards=played)
    ctx = DefenseContext(terrain=defense_mod, hindrances=hindrances)
    o = attack_odds(cards, a, t, orders, ctx, units=units, variant=variant, bonus_to_hit="all" if bonus else ())
    weapons = [acard.weapons[i] for i in orders.weapons]
    mods = to_hit_modifiers(cards, a, t, ctx, units, (), played) + ([("command card", 1)] if bonus else [])
    defense, parts = effective_defense(cards, t, ctx, units)
    fires = [{"weapon": w.name, "rolls": rate_of_fire(cards, a, w, units, (), played),
              "attack_value": w.attack_value(tcard.target_type), "damage_index": w.damage_index} for w in weapons]
    if as_json:
        echo_json({"attacker": acard.id, "target": tcard.id, "variant": variant, "weapons": fires,
                   "to_hit_modifiers": [[n, v] for n, v in mods], "defense": defense,
                   "target_endurance": t.endurance, **o.to_json()})
        return
    def crew_txt(c: UnitCard, q: str) -> str:
        return f" [{q} crew]" if c.needs_crew else ""

    shots = "; ".join(f"{w.name} ({n} roll{'s' if n > 1 else ''}, needs {w.attack_value(tcard.target_type)}, "
                      f"DI {w.damage_index})"
                      for w, n in ((w, rate_of_fire(cards, a, w, units, (), played)) for w in weapons))
    click.echo(f"{acard.name}{crew_txt(acard, crew)} fires {shots}")
    click.echo(f"  at {tcard.name}{crew_txt(tcard, target_crew)}: Defense {defense} "
               f"({', '.join(f'{n} {v:+d}' for n, v in parts)}), Endurance {t.endurance} / Half {tcard.endurance_half}"
               + (f", holding {t.damage_card}" if t.damage_card else ""))
    if mods:
        click.echo("  to-hit modifiers: " + ", ".join(f"{n} {v:+d}" for n, v in mods))
    click.echo(f"  {variant} rules, full Damage deck")
    click.echo(f"miss          {_pct(o.miss)}")
    click.echo(f"no effect     {_pct(o.no_effect)}")
    click.echo(f"damaged       {_pct(o.damaged)}")
    click.echo(f"Damage card   {_pct(o.damage_card)}")
    crew_line = (f"   (crew survives {_pct(o.crew_survives).strip()}, captured {_pct(o.crew_captured).strip()}, "
                 f"destroyed {_pct(o.crew_destroyed).strip()})") if tcard.needs_crew else ""
    click.echo(f"destroyed     {_pct(o.destroyed)}{crew_line}")
    if variant == "classic":
        click.echo(f"friendly-fire rolls expected: {o.friendly_fire:.3f}")
    click.echo(f"expected victory points {o.expected_vp:.2f}; expected Endurance lost {o.expected_damage:.2f}")
