"""Each game mode's commands and view keys as the network protocol carries them (R12.5, R11).

A command travels as ``command.command`` of a client's ``command`` message and as each entry of
the ``legal`` list the server sends: as the mode writes it in saves (``to_json`` of the command
classes of :mod:`hexwar.game.commands`, :mod:`hexwar.lines.commands`,
:mod:`hexwar.campaign.commands`; ``tests/test_net_protocol_models.py`` checks the models declare
exactly their fields). :data:`MODE_COMMANDS` holds one strict model per command of each mode,
:data:`MODE_VIEWS` the keys every view of a mode has. :mod:`hexwar.formats.protocol_file` puts
them in ``hexwar schema protocol`` (``$defs.MODE_command``, ``$defs.MODE_view``) and
docs/protocol.md's tables are generated from them. The mode's own ``command_from_json`` and
the rules check a command's values after the protocol's envelope (:class:`GameCommand
<hexwar.formats.protocol_file.GameCommand>`).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, create_model

from ..model.filemodel import FileModel

__all__ = ["MODES", "Side", "Mode", "COMMAND_FIELDS", "MODE_COMMANDS", "MODE_VIEWS"]

MODES = ("hex", "lines", "campaign")  # R11: the protocol carries the game mode

Side = Annotated[Literal["german", "soviet"], Field(description='a seat: "german" or "soviet"')]
Mode = Annotated[
    Literal["hex", "lines", "campaign"],
    Field(
        description='the game mode (R11): "hex" (the hex game), "lines" (the Spearpoint card game on '
        'lines, 2-player line scenarios) or "campaign" (the Eastern Front campaign)'
    ),
]


# -- each mode's commands and view -----------------------------------------------------------------
_ID = (str, "an id")
_IDS = (list[str], "a list of ids")
_MAYBE_ID = (str | None, "an id, or null")
_HEX = (str | None, "a hex label (C05), or null")
_NUMBERS = (list[int], "a list of weapon indexes (integers)")
#: mode -> cmd -> {field: (type, description, required)}; the seat field is the mode's own
_HEX_FIELDS: dict[str, dict[str, tuple[Any, str, bool]]] = {
    "build_deck": {"cards": (list[str], "unit card ids of the side's pool, repeats allowed", True)},
    "choose_hand": {"cards": (list[str], "unit ids from the side's own Reserves", True)},
    "target_artillery": {
        "hex": (str | None, "a hex label, or null: no mission", True),
        "bonus_card": (*_MAYBE_ID, True),
    },
    "commit": {
        "unit": (*_ID, True),
        "hex": (str | None, "a hex label, or null for aircraft", True),
        "crew": (*_MAYBE_ID, True),
        "carry": (*_MAYBE_ID, True),
    },
    "recrew": {"crew": (*_ID, True), "unit": (*_ID, True)},
    "move_crew": {"crew": (*_ID, True), "unit": (*_ID, True)},
    "move": {"unit": (*_ID, True), "path": (list[str], "a list of hex labels, without the start hex", True)},
    "tow": {"unit": (*_ID, True), "hex": (*_HEX, True)},
    "drop_tow": {"unit": (*_ID, True)},
    "declare": {
        "attacker": (*_ID, True),
        "target": (*_ID, True),
        "weapons": (*_NUMBERS, True),
        "at_crew": (bool, "true: the attack is on the crew", True),
    },
    "declare_close_assault": {"attackers": (*_IDS, True), "target": (*_ID, True)},
    "declare_building_attack": {
        "attacker": (*_ID, True),
        "hex": (*_HEX, True),
        "weapon": (int, "a weapon index", True),
    },
    "resolve": {
        "attack": (int, "the attack's number", True),
        "bonus_card": (*_MAYBE_ID, True),
        "bonus_rolls": (*_IDS, False),
        "bonus_cards": (*_IDS, False),
    },
    "draw": {
        "extra": (list[str], 'the extra cards\' sources: "command" / "reserves"', True),
        "initiative_card": (*_MAYBE_ID, False),
        "fire_units": (*_IDS, False),
        "fire_cards": (*_IDS, False),
    },
    "discard": {"card": (*_ID, True)},
    "use_command_card": {"card": (*_ID, True), "unit": (*_MAYBE_ID, True)},
    "end_phase": {},
    "undo": {},
}
_LINES_FIELDS: dict[str, dict[str, tuple[Any, str, bool]]] = {
    "choose_hand": {"cards": (*_IDS, True)},
    "commit": {
        "unit": (*_ID, True),
        "line": (str | None, '"front" / "rear", or null for aircraft', True),
        "crew": (*_MAYBE_ID, True),
        "infantry": (*_MAYBE_ID, True),
    },
    "recrew": {"unit": (*_ID, True), "crew": (*_ID, True)},
    "move_line": {"unit": (*_ID, True)},
    "move_crew": {"crew": (*_ID, True), "unit": (*_ID, True)},
    "declare": {
        "unit": (*_ID, True),
        "target": (*_ID, True),
        "weapons": (*_NUMBERS, True),
        "at_crew": (bool, "true: the attack is on the crew", True),
    },
    "declare_close_assault": {"units": (*_IDS, True), "target": (*_ID, True)},
    "resolve": {
        "number": (int, "the attack's number", True),
        "bonus": (*_MAYBE_ID, True),
        "bonus_rolls": (*_IDS, False),
        "bonus_cards": (*_IDS, False),
    },
    "use_card": {"card": (*_ID, True), "unit": (*_MAYBE_ID, True)},
    "draw": {"extra": (list[str], 'the extra cards\' sources: "command" / "reserves"', True)},
    "discard": {"card": (*_ID, True)},
    "end_phase": {},
}
_CAMPAIGN_FIELDS: dict[str, dict[str, tuple[Any, str, bool]]] = {
    "choose_tactics": {"tactics": (list[str], "a list of tactic card ids", True)},
    "declare_campaign_card": {"card": (*_ID, True)},
    "pass_campaign_card": {},
    "place_battle_card": {"card": (*_ID, True)},
    "place_tactic_card": {"tactic": (str | None, "a tactic card id, or null: none", True)},
    "swap_event": {"event": (str, "an event card id", True)},
    "keep_events": {},
    "battle_result": {
        "winner": (str | None, "the battle's winner, or null", True),
        "game": (str, "the battle's game file", True),
        "game_hash": (str, "the battle game's state hash", True),
        "scenario": (str, "the battle's scenario", True),
    },
}
#: mode -> cmd -> when it is played (the command model's description)
_PHASES = {
    "hex": {
        "build_deck": "setup, before choose_hand (a point-budget deck only)",
        "choose_hand": "setup",
        "target_artillery": "artillery phase",
        "commit": "commitment phase",
        "recrew": "commitment phase",
        "move_crew": "commitment phase (001)",
        "move": "movement phase",
        "tow": "movement phase",
        "drop_tow": "movement phase",
        "declare": "declaration phase",
        "declare_close_assault": "declaration phase",
        "declare_building_attack": "declaration phase",
        "resolve": "resolution phase",
        "draw": "draw phase",
        "discard": "draw phase",
        "use_command_card": "the phase the card names",
        "end_phase": "any phase: passes to the other side, or on to the next phase",
        "undo": "the side's last commit, move or declaration of the phase (R12.3)",
    },
    "lines": {
        "choose_hand": "setup",
        "commit": "commitment phase",
        "recrew": "commitment phase",
        "move_line": "commitment phase",
        "move_crew": "commitment phase",
        "declare": "declaration phase",
        "declare_close_assault": "declaration phase",
        "resolve": "resolution phase",
        "use_card": "the phase the card names",
        "draw": "draw phase",
        "discard": "draw phase",
        "end_phase": "any phase",
    },
    "campaign": {
        "choose_tactics": "choose_tactics phase (each year)",
        "declare_campaign_card": "campaign phase (advanced game)",
        "pass_campaign_card": "campaign phase (advanced game)",
        "place_battle_card": "place phase",
        "place_tactic_card": "place phase",
        "swap_event": "swap phase",
        "keep_events": "swap phase",
        "battle_result": "battle phase (battles=hex|lines only)",
    },
}
#: mode -> (the seat field, cmd -> fields): the commands as each mode writes them in saves
COMMAND_FIELDS = {
    "hex": ("side", _HEX_FIELDS),
    "lines": ("seat", _LINES_FIELDS),
    "campaign": ("side", _CAMPAIGN_FIELDS),
}


def _camel(*parts: str) -> str:
    return "".join(w.capitalize() for p in parts for w in re.split(r"[_-]", p))


def _command_models(mode: str) -> dict[str, type[FileModel]]:
    seat_key, table = COMMAND_FIELDS[mode]
    out: dict[str, type[FileModel]] = {}
    for cmd, fields in table.items():
        spec: dict[str, Any] = {
            "cmd": (Literal[cmd], Field(description=f'"{cmd}"')),
            seat_key: (Side, Field(description='the seat issuing it: "german" or "soviet"')),
        }
        for name, (typ, desc, required) in fields.items():
            spec[name] = (typ, Field(description=desc) if required else Field(None, description=desc))
        out[cmd] = create_model(  # type: ignore[call-overload]
            _camel(mode, cmd, "command"),
            __base__=FileModel,
            __doc__=f"The {mode} command {cmd!r}: {_PHASES[mode][cmd]}.",
            **spec,
        )
    return out


#: mode -> cmd -> the command's model (strict; ``to_json`` of the mode's command classes fits it)
MODE_COMMANDS: dict[str, dict[str, type[FileModel]]] = {m: _command_models(m) for m in MODES}

_VIEW_KEYS = {
    "hex": (
        "artillery_calls artillery_left attacks command_discard commands damage_deck damage_discard "
        "decks done drawn event_turns events_in_play fog hand_sizes hands initiative kills last_known "
        "map objectives overrun pending phase removed reserves resolve_turn result scenario "
        "scenario_hash side to_act turn units variants version vp"
    ),
    "lines": (
        "attacks collapse command_discard commands damage_deck damage_discard decks done drawn "
        "event_turns events_in_play hand_sizes hands hidden hidden_count kills lines moved order "
        "overrun pending phase removed reserves resolve_turn result scenario scenario_hash seats "
        "side targets to_act turn units variants version vp"
    ),
    "campaign": (
        "battle battle_hands campaign_declared campaign_order campaign_unused campaign_used "
        "cards_hash commands event_pile events_discard events_in_play hands history initiative "
        "options pending phase piles promoted ranks result side slots stalemates swapper "
        "tactic_decided tactic_slots tactics_chosen tactics_discard tactics_hand to_act version "
        "winner wins year year_cards years_aside years_unclaimed"
    ),
}


class _View(FileModel):
    model_config = ConfigDict(extra="allow")


#: mode -> the keys every view of that mode has (``view.mode`` names the mode)
MODE_VIEWS: dict[str, type[FileModel]] = {
    m: create_model(  # type: ignore[call-overload]
        _camel(m, "view"),
        __base__=_View,
        __doc__=f"The view of a {m} game (welcome/snapshot view; see docs/protocol.md 'The view').",
        mode=(Literal[m], Field(description=f'"{m}"')),
        **{k: (Any, Field(description=f"the view's {k}")) for k in _VIEW_KEYS[m].split()},
    )
    for m in MODES
}
