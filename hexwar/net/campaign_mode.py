"""The Eastern Front campaign (R11.2, 002) on the game server: mode ``"campaign"`` (R12.5).

A side's view of a war (R12.1) as JSON, the events it may see, and a
:class:`~hexwar.campaign.state.CampaignState` rebuilt from a view so that the terminal's list
of legal commands and the computer player (:class:`CampaignViewPlayer`) decide from the view
only. Battles are decided by the cards (002, ``battles = "cards"``); a war whose battles are
fought as hex or line games (``battles=hex|lines``) needs an umpire seat and is not hosted.

Hidden from the other side (and from a spectator):

* the cards in the face-down slots (battle and tactic card) until they are revealed; while a
  side's battle card lies face down its battle hand is shown *with* that card, as the cards it
  has not yet revealed (showing the hand without it would tell which card lies there);
* its tactic cards until both sides have chosen (only their number), its campaign cards not
  yet declared (their number), the event pile's order (its contents are the event cards
  neither in play nor discarded), the war's seed and generator.

"Hands" in this view (``data["hands"]``) are a side's secret cards: its slots, tactic cards,
unused campaign cards. A spectator's ``hands`` is always empty.

>>> st = CampaignMode().new_game("campaign", False, 5)
>>> v = campaign_view(st, None)
>>> v.data["hands"], v.data["mode"], v.data["slots"]
({}, 'campaign', {'german': None, 'soviet': None})
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import TYPE_CHECKING, Any

from ..errors import HexwarError
from ..game.view import HIDDEN_CARD, View
from .mode_base import ModeBase

if TYPE_CHECKING:  # pragma: no cover
    from ..campaign.cards import CampaignCards
    from ..campaign.state import CampaignState

__all__ = [
    "CAMPAIGN_VIEW_VERSION",
    "PRESETS",
    "campaign_view",
    "campaign_event_for",
    "campaign_state_from_view",
    "CampaignViewPlayer",
    "CampaignMode",
    "cards_hash",
]

CAMPAIGN_VIEW_VERSION = 1
_SIDES = ("german", "soviet")
#: the wars the server can start: name -> rule options (CampaignOptions fields)
PRESETS: dict[str, dict[str, Any]] = {"campaign": {}, "campaign-advanced": {"advanced": True}}


@cache
def cards_hash() -> str:
    """SHA-256 of the package's campaign card files (client and server must hold the same cards)."""
    from ..campaign.cards import DATA_DIR

    h = hashlib.sha256()
    for p in sorted(DATA_DIR.glob("*.toml")):
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def _other(side: str) -> str:
    return "soviet" if side == "german" else "german"


def campaign_event_for(ev: Any, side: str | None, cards: CampaignCards) -> dict[str, Any]:
    """The JSON of campaign event ``ev`` as ``side`` (``None``: a spectator) may see it (R12.1).

    Returns:
        ``{"kind", "text", "data"}``: the other side's face-down card left out of a
        ``card_placed``; the order of an event pile shuffle left out of a ``random_draw``.
    """
    from ..campaign.events import describe, event_to_json

    d = event_to_json(ev)
    kind = d.pop("kind")
    text = describe(ev, cards, viewer=side if side is not None else "spectator")
    if kind == "card_placed" and d.get("side") != side:
        d["card"] = None
        if d.get("what") == "none":
            d["what"] = "tactic_decided"
    elif kind == "random_draw" and "event" in str(d.get("purpose", "")):
        d["result"] = []
        text = f"the event pile is shuffled ({d.get('options')} cards)"
    return {"kind": kind, "text": text, "data": d}


def campaign_view(st: CampaignState, side: str | None, log_from: int = 0) -> View:
    """The view of a war for ``side`` (``None``: a spectator) (R12.1; see the module docstring).

    Args:
        st: the full war.
        side: ``"german"``, ``"soviet"`` or ``None``.
        log_from: the first log index to include.

    Returns:
        a :class:`~hexwar.game.view.View`; ``data`` holds :meth:`CampaignState.view
        <hexwar.campaign.state.CampaignState.view>`'s keys (``hands`` renamed
        ``battle_hands``, hiding the face-down card as above) plus ``version``, ``mode``,
        ``side``, ``options``, ``cards_hash``, ``to_act`` (one side), ``pending``,
        ``tactics_chosen``, ``tactic_decided``, ``campaign_order``, ``events_discard``,
        ``years_aside``, ``swapper``, ``stalemates``, ``promoted``, ``hands`` (own secrets),
        ``result`` and ``commands``.

    Raises:
        HexwarError: for an unknown side.
    """
    if side is not None and side not in _SIDES:
        raise HexwarError(f"unknown side {side!r}; expected one of {_SIDES} or None for a spectator")
    base = st.view(side)
    battle_hands = {}
    tactics_hand: dict[str, Any] = {}
    for s in _SIDES:  # the other side's unrevealed cards include its face-down ones (CampaignState.view)
        battle_hands[s] = base["hands"][s]
        tactics_hand[s] = base["tactics_hand"][s]
    data = {k: v for k, v in base.items() if k not in ("hands", "to_act", "result", "tactics_hand")}
    data.update(
        {
            "version": CAMPAIGN_VIEW_VERSION,
            "mode": "campaign",
            "side": side,
            "options": st.options.to_json(),
            "cards_hash": cards_hash(),
            "to_act": st.to_act,
            "pending": st.pending(),
            "battle_hands": battle_hands,
            "tactics_hand": tactics_hand,
            "tactics_chosen": dict(st.tactics_chosen),
            "tactic_decided": dict(st.tactic_decided),
            "campaign_order": list(st.campaign_order),
            "events_discard": list(st.events_discard),
            "years_aside": list(st.years_aside),
            "swapper": st.swapper,
            "stalemates": [list(p) for p in st.stalemates],
            "promoted": dict(st.promoted),
            "hands": (
                {
                    side: {
                        "battle_slot": st.slots[side],
                        "tactic_slot": st.tactic_slots[side],
                        "tactics": list(st.tactics_hand[side]),
                        "tactics_aside": list(st.tactics_aside[side]),
                        "campaign": list(st.campaign_unused[side]),
                    }
                }
                if side is not None
                else {}
            ),
            "result": (
                {"winner": st.winner, "reason": st.result_reason, "turn": st.year} if st.over else None
            ),
            "commands": len(st.commands),
        }
    )
    log = [campaign_event_for(st.log[i], side, st.cards) for i in range(log_from, len(st.log))]
    return View(side, data, log)


def campaign_state_from_view(data: dict[str, Any], cards: CampaignCards) -> CampaignState:
    """A :class:`~hexwar.campaign.state.CampaignState` holding exactly what a campaign view says.

    The other side's unrevealed battle cards are its hand (its slot empty), its tactic cards
    likewise once public (else none), its unused campaign cards placeholders, the event pile
    the undealt event cards in sorted order, the generator a dummy: for the rules code to read
    (legal commands, odds), never to be applied to.

    Raises:
        HexwarError: when the card definitions differ from the server's or the data is malformed.
    """
    import numpy as np

    from ..campaign.options import CampaignOptions
    from ..campaign.state import BattleRecord, CampaignState

    if data.get("cards_hash") != cards_hash():
        raise HexwarError(
            "the server's campaign cards differ from the ones installed here (cards hash "
            f"{str(data.get('cards_hash'))[:12]}... vs {cards_hash()[:12]}...)"
        )
    try:
        side = data["side"]
        own = data["hands"].get(side, {}) if side is not None else {}

        def mine_or(s: str, key: str, other: Any) -> Any:
            return own[key] if s == side else other

        tactics_hand = {
            s: (
                list(own["tactics"])
                if s == side
                else list(data["tactics_hand"][s])
                if isinstance(data["tactics_hand"][s], list)
                else []
            )
            for s in _SIDES
        }
        campaign_unused = {
            s: (
                list(own["campaign"])
                if s == side
                else [f"{HIDDEN_CARD}_campaign_{s}#{i + 1}" for i in range(int(data["campaign_unused"][s]))]
                if isinstance(data["campaign_unused"][s], int)
                else list(data["campaign_unused"][s])
            )
            for s in _SIDES
        }
        out_of_pile = set(data["events_in_play"]) | set(data["events_discard"])
        hist = []
        for h in data["history"]:
            h = dict(h)
            h["campaign"] = tuple(h["campaign"]) if h.get("campaign") else None
            hist.append(BattleRecord(**h))
        res = data["result"]
        st = CampaignState(
            seed=0,
            options=CampaignOptions.from_json(data["options"]),
            cards=cards,
            rng=np.random.default_rng(0),
            year=int(data["year"]),
            battle=int(data["battle"]),
            phase=data["phase"],
            initiative=data["initiative"],
            ranks=dict(data["ranks"]),
            wins=dict(data["wins"]),
            promoted=dict(data["promoted"]),
            hands={s: list(data["battle_hands"][s]) for s in _SIDES},
            slots={s: mine_or(s, "battle_slot", None) for s in _SIDES},
            tactic_slots={s: mine_or(s, "tactic_slot", None) for s in _SIDES},
            tactic_decided=dict(data["tactic_decided"]),
            piles={s: [list(p) for p in data["piles"][s]] for s in _SIDES},
            stalemates=[list(p) for p in data["stalemates"]],
            tactics_aside={s: mine_or(s, "tactics_aside", []) for s in _SIDES},
            tactics_hand=tactics_hand,
            tactics_discard={s: list(data["tactics_discard"][s]) for s in _SIDES},
            tactics_chosen=dict(data["tactics_chosen"]),
            campaign_unused=campaign_unused,
            campaign_used={s: list(data["campaign_used"][s]) for s in _SIDES},
            campaign_declared=tuple(data["campaign_declared"]) if data["campaign_declared"] else None,  # type: ignore[arg-type]
            campaign_order=list(data["campaign_order"]),
            event_pile=sorted(e for e in cards.events if e not in out_of_pile),
            events_in_play=list(data["events_in_play"]),
            events_discard=list(data["events_discard"]),
            year_cards={s: list(data["year_cards"][s]) for s in _SIDES},
            years_unclaimed=list(data["years_unclaimed"]),
            years_aside=list(data["years_aside"]),
            swapper=data["swapper"],
            history=hist,
            winner=res["winner"] if res else None,
            result_reason=res["reason"] if res else "",
        )
        if st.phase == "over" and res is None:
            raise ValueError("phase over without a result")
        return st
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise HexwarError(f"malformed campaign view data: {type(exc).__name__}: {exc}") from None


class CampaignViewPlayer:
    """A campaign computer player that decides from its side's view only (R12.1).

    Args:
        inner: the player (:func:`hexwar.campaign.ai.make_player`), with ``choose(state)``.
    """

    def __init__(self, inner: Any):
        self.inner = inner
        self.side = inner.side
        self.name = inner.name

    def choose_from_view(self, data: dict[str, Any], cards: CampaignCards) -> Any:
        """The inner player's command on the war rebuilt from view ``data``."""
        return self.inner.choose(campaign_state_from_view(data, cards))

    def choose(self, st: CampaignState) -> Any:
        """Decide for ``st`` through this side's view of it."""
        return self.choose_from_view(campaign_view(st, self.side).data, st.cards)


class CampaignMode(ModeBase):
    """The campaign (R11.2) as a :class:`~hexwar.net.modes.GameMode`: one war, two sides."""

    name: str = "campaign"
    seats: tuple[str, ...] = _SIDES

    def new_game(self, scenario: str, fog: bool, seed: int) -> Any:
        """A new war: ``scenario`` names a preset (:data:`PRESETS`: ``campaign``,
        ``campaign-advanced``).

        Raises:
            HexwarError: for another name, or fog (the campaign has no map).
        """
        from ..campaign.options import CampaignOptions
        from ..campaign.state import new_campaign

        if scenario not in PRESETS:
            raise HexwarError(f"{scenario!r}: not a campaign; expected one of {sorted(PRESETS)}")
        if fog:
            raise HexwarError(
                "--fog is for the hex game; the campaign's hidden cards are hidden anyway (R12.1)"
            )
        st, _ = new_campaign(seed, CampaignOptions(**PRESETS[scenario]))
        st.net_preset = scenario  # type: ignore[attr-defined]  # the lobby's name for it
        return st

    def load(self, path: Any, scenario_paths: tuple[str, ...] = ()) -> Any:
        """The war of a campaign save (replayed and verified). Raises HexwarError."""
        from ..campaign.save import load_campaign

        st = load_campaign(path)
        st.net_preset = next(  # type: ignore[attr-defined]
            (k for k, v in PRESETS.items() if st.options.to_json() == _options(v)), "campaign"
        )
        return st

    def save(self, game: Any, path: Any) -> None:
        """Write the ordinary campaign save atomically (``hexwar campaign`` reads it)."""
        from ..campaign.save import write_campaign_save

        write_campaign_save(game, path, {s: "network" for s in self.seats})

    def apply_json(self, game: Any, seat: str, command: dict[str, Any]) -> int:
        """Check a campaign command as local play does and apply it.

        Raises:
            CommandFormatError / IllegalCommand (hex game's classes, so the server answers
            ``bad_command`` / ``not_your_seat`` / ``illegal``).
        """
        from ..campaign.commands import CommandFormatError as CFE
        from ..campaign.commands import command_from_json
        from ..game.commands import CommandFormatError

        try:
            cmd = command_from_json(command, "command")
        except CFE as exc:
            raise CommandFormatError(str(exc)) from None
        except (TypeError, ValueError) as exc:
            raise CommandFormatError(f"command: {exc}") from None
        return self._checked_apply(game, cmd, cmd.side, seat)

    def view(self, game: Any, seat: str | None, log_from: int = 0) -> View:
        """:func:`campaign_view`."""
        return campaign_view(game, seat, log_from)

    def events(self, game: Any, seat: str | None, start: int) -> list[dict[str, Any]]:
        """The events from ``start`` on as ``seat`` may see them."""
        return [campaign_event_for(game.log[i], seat, game.cards) for i in range(start, len(game.log))]

    def scenario_info(self, game: Any) -> dict[str, Any]:
        """``{"id": preset, "name", "content_hash": cards hash, "reference"}``."""
        preset = getattr(game, "net_preset", "campaign")
        return {
            "id": preset,
            "name": f"Eastern Front campaign ({', '.join(game.options.names()) or 'basic game'})",
            "content_hash": cards_hash(),
            "reference": preset,
        }

    def scenario_file(self, game: Any) -> str | None:
        """No scenario file: the cards are the package's."""
        return None

    def describe(self, game: Any) -> dict[str, Any]:
        """Lobby line: the year as ``turn``."""
        return {
            "turn": game.year,
            "phase": game.phase,
            "fog": False,
            "result": (f"{game.winner or 'nobody'} wins ({game.result_reason})" if game.over else None),
        }

    # -- the client side ---------------------------------------------------------------------
    def client_definitions(self, info: dict[str, Any], scenario_file: str | None = None) -> Any:
        """The package's campaign cards, when they are the server's.

        Raises:
            FatalClientError: when they differ.
        """
        from ..campaign.cards import default_campaign_cards
        from .local_defs import FatalClientError

        if info.get("content_hash") != cards_hash():
            raise FatalClientError("the server's campaign cards differ from the ones installed here")
        return default_campaign_cards()

    def server_defs(self, game: Any) -> Any:
        """The war's campaign cards."""
        return game.cards

    def rebuild(self, data: dict[str, Any], defs: Any) -> Any:
        """:func:`campaign_state_from_view`."""
        return campaign_state_from_view(data, defs)

    def make_player(self, seat: str, name: str, seed: int) -> CampaignViewPlayer:
        """A campaign computer player deciding from the view."""
        from ..campaign.ai import make_player

        return CampaignViewPlayer(make_player(name, seat, seed))

    def fallback(self, seat: str) -> Any:
        """Nothing sensible to fall back on: decide again."""
        return None

    def where(self, data: dict[str, Any]) -> str:
        """``"1942, battle 3, place phase"``."""
        return f"{data.get('year')}, battle {data.get('battle')}, {data.get('phase')} phase"


def _options(kw: dict[str, Any]) -> dict[str, Any]:
    from ..campaign.options import CampaignOptions

    return CampaignOptions(**kw).to_json()
