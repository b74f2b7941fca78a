"""``hexwar odds ATTACKER WEAPON TARGET``: the exact outcome distribution of one attack (R6).

ATTACKER and TARGET are unit card ids or names (``de_tiger_i``, ``"T-70"``); WEAPON is a
weapon number on the attacker's card (1-based), a weapon name or id, or two of them joined by
``+`` or ``,`` (``1+2``). Crewed units get a regular crew unless ``--crew`` /
``--target-crew`` say otherwise; ``--defense-mod`` is the terrain part of the target's
Defense (R6.7), as the map would give it, or ``--hex HEX`` reads it off a map.

``--artillery SCENARIO:SIDE`` fires that scenario's off-board artillery weapon (R9.1) instead of
a unit's: then only TARGET is given (``hexwar odds "Tiger I" --artillery kharkov:soviet --hex
N02``), and ``--hex`` is a hex of the scenario's map (the target standing there, R9.4).
"""

from __future__ import annotations

import re
from typing import Any

import click

from ..errors import HexwarError, clip, small_uint
from ..rules.cards import QUALITIES, VARIANTS, CardSet, UnitCard, card_id_of, default_cards
from ..rules.combat import AttackOrders, DefenseContext, effective_defense, rate_of_fire, to_hit_modifiers
from ..rules.odds import attack_odds
from ..rules.units import UnitState, new_unit
from . import echo_json

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
        if part.isascii() and part.isdigit():
            i = (small_uint(part) or 10**9) - 1  # a 5000-digit number is just no such weapon
            if not 0 <= i < len(card.weapons):
                raise HexwarError(f"{card.name} has no weapon {clip(part, quote=False)}: {listing}")
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


def _unit(
    cards: CardSet,
    name: str,
    quality: str,
    uid_n: int,
    units: dict[str, UnitState],
    endurance: int | None = None,
) -> UnitState:
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


def _artillery(spec: str) -> tuple[object, str, object]:
    """``SCENARIO:SIDE`` -> (scenario, side, the mission weapon as the game fires it, R9.1)."""
    from ..game.resolution import _artillery_weapon
    from ..game.scenario import load_scenario

    name, colon, side = spec.rpartition(":")
    side = side.strip().lower()
    if not colon or not name:
        raise HexwarError(f"--artillery {spec[:60]!r}: expected SCENARIO:SIDE such as kharkov:soviet")
    scen = load_scenario(name)
    if side not in scen.sides:
        raise HexwarError(f"--artillery: unknown side {side[:20]!r}; expected one of {sorted(scen.sides)}")
    art = scen.sides[side].artillery
    if art is None:
        raise HexwarError(f"--artillery: {side} has no off-board artillery in {scen.id} (R9.1)")
    return scen, side, _artillery_weapon(side, art.weapon)


@click.command()
@click.argument("names", nargs=-1, metavar="ATTACKER WEAPON TARGET")
@click.option(
    "--artillery",
    "artillery",
    default=None,
    metavar="SCENARIO:SIDE",
    help="Fire the scenario's off-board artillery weapon (R9.1) at TARGET instead of a unit.",
)
@click.option(
    "--hex",
    "hex_label",
    default=None,
    metavar="HEX",
    help="The target's hex on the map of --artillery's scenario or of --map: its terrain Defense (R6.7).",
)
@click.option("--map", "map_name", default=None, metavar="MAP_OR_SCENARIO", help="The map for --hex.")
@click.option(
    "--defense-mod",
    "defense_mod",
    type=click.IntRange(-20, 20),
    default=0,
    show_default=True,
    help="Terrain Defense modifier of the target's hex (R6.7; e.g. +2 woods, -2 burning).",
)
@click.option(
    "--hindrances",
    type=click.IntRange(0, 10),
    default=0,
    show_default=True,
    help="Hindrance hexes on the line of sight (-1 each to hit, R6.3).",
)
@click.option(
    "--crew",
    type=click.Choice(QUALITIES),
    default="regular",
    show_default=True,
    help="Quality of the attacker's crew (green -1, veteran +1 to hit).",
)
@click.option(
    "--target-crew",
    "target_crew",
    type=click.Choice(QUALITIES),
    default="regular",
    show_default=True,
    help="Quality of the target's crew (veterans ignore some Damage effects).",
)
@click.option("--endurance", type=int, default=None, help="The target's Current Endurance (default Full).")
@click.option(
    "--damage-card",
    "damage_card",
    default=None,
    help="A Damage card the target already holds (e.g. dmg05): no further card, 19-20 destroys.",
)
@click.option(
    "--variant",
    type=click.Choice(VARIANTS),
    default="standard",
    show_default=True,
    help="standard (000) or classic (001: 2-3 friendly fire, 19-20 destroys).",
)
@click.option("--bonus", is_flag=True, help="Discard a Command card for +1 on every to-hit roll (R1.3).")
@click.option(
    "--card", "command_cards", multiple=True, help="A Command card played on the attack (e.g. aimed_fire)."
)
@click.option("--indirect", is_flag=True, help="Indirect fire (rear-line units, an SPG's 1st weapon).")
@click.option("--json", "as_json", is_flag=True, help="Print the distribution as JSON.")
def odds(
    names: tuple[str, ...],
    artillery: str | None,
    hex_label: str | None,
    map_name: str | None,
    defense_mod: int,
    hindrances: int,
    crew: str,
    target_crew: str,
    endurance: int | None,
    damage_card: str | None,
    variant: str,
    bonus: bool,
    command_cards: tuple[str, ...],
    indirect: bool,
    as_json: bool,
) -> None:
    """Exact odds of ATTACKER firing WEAPON at TARGET: miss, no effect, damaged, Damage card, destroyed.

    With --artillery SCENARIO:SIDE only TARGET is given: the odds of one artillery attack on it (R9.4).
    """
    cards = default_cards()
    units: dict[str, UnitState] = {}
    want = 1 if artillery else 3
    if len(names) != want:
        raise click.UsageError(
            "with --artillery give only TARGET"
            if artillery
            else "expected ATTACKER WEAPON TARGET (or TARGET --artillery SCENARIO:SIDE)"
        )
    bmap = None
    if artillery:
        scen, art_side, art_weapon = _artillery(artillery)
        bmap = scen.battlemap  # type: ignore[attr-defined]
    if map_name:
        from .basic import load_map_or_scenario

        bmap = load_map_or_scenario(map_name)[0]
    if hex_label is not None:
        from ..rules.terrain_effects import defense_class, terrain_defense_modifier

        h = _hex_on_map(bmap, hex_label)
    if artillery:
        assert bmap is not None
        t = _unit(cards, names[0], target_crew, 2, units, endurance)
        tcard = cards.unit(t.card)
        if hex_label is not None:
            defense_mod = terrain_defense_modifier(bmap, h, defense_class(tcard.unit_type))
        _artillery_odds(
            cards,
            art_weapon,
            art_side,
            scen,
            t,
            units,
            defense_mod,
            variant,
            as_json,
            h.label if hex_label is not None else None,
        )
        return
    attacker, weapon, target = names
    a = _unit(cards, attacker, crew, 1, units)
    t = _unit(cards, target, target_crew, 2, units, endurance)
    if hex_label is not None and bmap is not None:
        defense_mod = terrain_defense_modifier(bmap, h, defense_class(cards.unit(t.card).unit_type))
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
    o = attack_odds(
        cards, a, t, orders, ctx, units=units, variant=variant, bonus_to_hit="all" if bonus else ()
    )
    weapons = [acard.weapons[i] for i in orders.weapons]
    mods = to_hit_modifiers(cards, a, t, ctx, units, (), played) + ([("command card", 1)] if bonus else [])
    defense, parts = effective_defense(cards, t, ctx, units)
    fires = [
        {
            "weapon": w.name,
            "rolls": rate_of_fire(cards, a, w, units, (), played),
            "attack_value": w.attack_value(tcard.target_type),
            "damage_index": w.damage_index,
        }
        for w in weapons
    ]
    if as_json:
        echo_json(
            {
                "attacker": acard.id,
                "target": tcard.id,
                "variant": variant,
                "weapons": fires,
                "to_hit_modifiers": [[n, v] for n, v in mods],
                "defense": defense,
                "target_endurance": t.endurance,
                **o.to_json(),
            }
        )
        return

    _echo_attack(acard, tcard, crew, target_crew, t, fires, defense, parts, mods, o, variant)


def _hex_on_map(bmap: Any, hex_label: str) -> Any:
    """The ``--hex`` label as a hex of ``bmap``.

    Raises:
        click.UsageError: when no map was given; HexwarError: for a bad label or a hex off the map.
    """
    if bmap is None:
        raise click.UsageError("--hex needs a map: give --artillery SCENARIO:SIDE or --map MAP_OR_SCENARIO")
    from ..model.hexgrid import Hex, HexLabelError

    try:
        h = Hex.from_label(hex_label)
    except HexLabelError as exc:
        raise HexwarError(f"--hex: {exc}") from None
    if not bmap.in_bounds(h):
        raise HexwarError(f"--hex: {h.label} is off the {bmap.width}x{bmap.height} map")
    return h


def _echo_attack(
    acard: UnitCard,
    tcard: UnitCard,
    crew: str,
    target_crew: str,
    t: UnitState,
    fires: list[dict[str, Any]],
    defense: int,
    parts: list[tuple[str, int]],
    mods: list[tuple[str, int]],
    o: Any,
    variant: str,
) -> None:
    """Print ``hexwar odds`` as text: the shots, the target's Defense and modifiers (R6.3,
    R6.7), then the chance of each outcome (R6.5, R6.6) and the expected victory points."""

    def crew_txt(c: UnitCard, q: str) -> str:
        return f" [{q} crew]" if c.needs_crew else ""

    shots = "; ".join(
        f"{f['weapon']} ({f['rolls']} roll{'s' if f['rolls'] > 1 else ''}, needs {f['attack_value']}, "
        f"DI {f['damage_index']})"
        for f in fires
    )
    click.echo(f"{acard.name}{crew_txt(acard, crew)} fires {shots}")
    click.echo(
        f"  at {tcard.name}{crew_txt(tcard, target_crew)}: Defense {defense} "
        f"({', '.join(f'{n} {v:+d}' for n, v in parts)}), Endurance {t.endurance} / Half {tcard.endurance_half}"
        + (f", holding {t.damage_card}" if t.damage_card else "")
    )
    if mods:
        click.echo("  to-hit modifiers: " + ", ".join(f"{n} {v:+d}" for n, v in mods))
    click.echo(f"  {variant} rules, full Damage deck")
    click.echo(f"miss          {_pct(o.miss)}")
    click.echo(f"no effect     {_pct(o.no_effect)}")
    click.echo(f"damaged       {_pct(o.damaged)}")
    click.echo(f"Damage card   {_pct(o.damage_card)}")
    crew_line = (
        (
            f"   (crew survives {_pct(o.crew_survives).strip()}, captured {_pct(o.crew_captured).strip()}, "
            f"destroyed {_pct(o.crew_destroyed).strip()})"
        )
        if tcard.needs_crew
        else ""
    )
    click.echo(f"destroyed     {_pct(o.destroyed)}{crew_line}")
    if variant == "classic":
        click.echo(f"friendly-fire rolls expected: {o.friendly_fire:.3f}")
    click.echo(
        f"expected victory points {o.expected_vp:.2f}; expected Endurance lost {o.expected_damage:.2f}"
    )


def _artillery_odds(
    cards: CardSet,
    weapon: object,
    side: str,
    scen: object,
    t: UnitState,
    units: dict[str, UnitState],
    defense_mod: int,
    variant: str,
    as_json: bool,
    hex_label: str | None,
) -> None:
    """Print the exact odds of one off-board artillery attack on ``t`` (R9.4 through R6)."""
    from ..rules.odds import weapon_odds

    tcard = cards.unit(t.card)
    av = weapon.attack_value(tcard.target_type)  # type: ignore[attr-defined]
    if av is None:
        raise HexwarError(f"{weapon.name} cannot affect a {tcard.target_type} ({tcard.name})")  # type: ignore[attr-defined]
    ctx = DefenseContext(terrain=defense_mod, hindrances=0)
    o = weapon_odds(cards, weapon, t, ctx, units=units, variant=variant)  # type: ignore[arg-type]
    defense, parts = effective_defense(cards, t, ctx, units)
    where = f" in {hex_label}" if hex_label else ""
    if as_json:
        echo_json(
            {
                "artillery": {
                    "scenario": scen.id,  # type: ignore[attr-defined]
                    "side": side,
                    "weapon": weapon.name,  # type: ignore[attr-defined]
                    "attack_value": av,
                    "damage_index": weapon.damage_index,  # type: ignore[attr-defined]
                    "rate_of_fire": weapon.rate_of_fire,  # type: ignore[attr-defined]
                },
                "target": tcard.id,  # type: ignore[attr-defined]
                "hex": hex_label,
                "variant": variant,
                "defense": defense,
                "target_endurance": t.endurance,
                **o.to_json(),
            }
        )
        return
    click.echo(
        f"{side.capitalize()} off-board artillery of {scen.id}: {weapon.name} "  # type: ignore[attr-defined]
        f"(needs {av}, DI {weapon.damage_index}, {weapon.rate_of_fire} roll(s)), one strike landing on the "  # type: ignore[attr-defined]
        f"target's hex (R9.4)"
    )
    click.echo(
        f"  at {tcard.name}{where}: Defense {defense} ({', '.join(f'{n} {v:+d}' for n, v in parts)}), "
        f"Endurance {t.endurance} / Half {tcard.endurance_half}"
    )
    click.echo(
        f"  {variant} rules, full Damage deck; where a strike lands: hexwar sim artillery / sim scenario"
    )
    for label, p in (
        ("miss", o.miss),
        ("no effect", o.no_effect),
        ("damaged", o.damaged),
        ("Damage card", o.damage_card),
        ("destroyed", o.destroyed),
    ):
        click.echo(f"{label:<14}{_pct(p)}")
    if tcard.needs_crew:
        click.echo(
            f"  crew: survives {_pct(o.crew_survives).strip()}, captured {_pct(o.crew_captured).strip()}, "
            f"destroyed {_pct(o.crew_destroyed).strip()}"
        )
