"""``hexwar cards``: list the unit cards (R4.1) by side, or show one card's help text.

The names and ids printed here are what ``hexwar odds`` and scenario files take.
"""

from __future__ import annotations

from typing import Any

import click

from .cli import echo_json
from .rules.cards import default_cards

__all__ = ["cards"]


@click.command()
@click.argument("name", required=False)
@click.option("--side", type=click.Choice(["german", "soviet"]), default=None, help="Only this side's cards.")
@click.option("--crews/--no-crews", default=False, show_default=True, help="Include crew cards.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def cards(name: str | None, side: str | None, crews: bool, as_json: bool) -> None:
    """List the unit cards (id, name, type, Defense, Endurance, cost, weapons), or show card NAME."""
    cs = default_cards()
    if name:
        card = cs.find_unit(name, side)  # CardError (a HexwarError) names what did not match
        if as_json:
            echo_json({"id": card.id, "name": card.name, "side": card.side, "help": card.help_text(cs)})
        else:
            click.echo(f"{card.id}  {card.name} ({card.side})")
            click.echo(card.help_text(cs))
        return
    rows: list[dict[str, Any]] = []
    for s in ([side] if side else ["german", "soviet"]):
        for u in cs.side_units(s, crews=crews):
            rows.append({"id": u.id, "name": u.name, "side": u.side, "type": u.unit_type, "defense": u.defense,
                         "endurance": [u.endurance_full, u.endurance_half], "cost": u.cost,
                         "weapons": [w.name for w in u.weapons]})
    if as_json:
        echo_json(rows)
        return
    for r in rows:
        weapons = "; ".join(f"{i}. {w}" for i, w in enumerate(r["weapons"], 1))
        click.echo(f"{r['id']:<26} {r['name']:<28} {r['type']:<15} D{r['defense']:<2} "
                   f"E{r['endurance'][0]}/{r['endurance'][1]:<3} {r['cost']:>2} VP  {weapons}")
