"""The card-table controller: selection, declaring with exact odds, the Command-card bonus
offer, hot-seat hiding and computer seats, for the lines screen (no GL here; the window paints
what this decides). Every change to the game is a command through :meth:`LinesState.apply`.

Keys follow the hex play screen (:mod:`hexwar.ui.input_map`): Space / E end the phase, Enter
confirms, R resolves, 1 / 2 / 3 toggle weapons, B toggles the Command-card bonus, P plays the
selected Command card, Delete discards, Tab cycles your units, H / F1 help, Esc cancels,
PageUp / PageDown scroll the log, Ctrl+Q quits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import HexwarError
from .commands import (
    ChooseHand,
    Commit,
    Declare,
    DeclareCloseAssault,
    Discard,
    Draw,
    EndPhase,
    LinesCommand,
    MoveLine,
    Recrew,
    Resolve,
    UseCommandCard,
    side_of_seat,
)
from .rules import card, cards
from .state import Phase
from .view import SeatView, odds_text, seat_log_text, seat_view

if TYPE_CHECKING:  # pragma: no cover
    from .state import LinesState

__all__ = ["TableController", "SHORTCUTS", "TABLE_KEYS", "readable_events"]

#: (keys, what) for the help overlay, in the hex screen's style.
SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("Click", "select a card in hand, a unit, a target"),
    ("Space / E", "end the phase"),
    ("Enter", "commit the selected card / declare on the selected target"),
    ("R", "resolve the selected (or first) attack"),
    ("1 / 2 / 3", "toggle the attacker's 1st / 2nd / 3rd weapon (up to two fire, R6.1)"),
    ("C", "fire at the target gun's crew (infantry at a Frontline gun)"),
    ("A", "Close Assault the target vehicle with 3+ Frontline infantry"),
    ("V", "next way: the crew / line of a commitment, the sources of a draw"),
    ("Command card + unit", "play the selected Command card on that unit"),
    ("L", "move the selected SPG to the other line (Commitment)"),
    ("Crew card + unit", "Commitment: a crew card in hand, then your crewless unit: recrew it"),
    ("B", "offer a Command card for +1 on the next roll (R1.3)"),
    ("P", "play the selected Command card"),
    ("Delete", "discard the selected card (Draw Phase limits)"),
    ("Tab", "next unit of yours (Declaration: one that may still declare)"),
    ("[ / ]", "previous / next card in hand (setup: the Reserves card under the cursor)"),
    ("S", "setup: pick / drop the Reserves card under the cursor"),
    ("T", "next legal target of the selected unit (or of the selected Command card)"),
    ("PageUp / PageDown", "scroll the log"),
    ("H / F1", "this help"),
    ("Esc", "cancel the selection (never quits)"),
    ("N", "game over: a new game, with a new seed"),
    ("Ctrl+Q", "quit (asks while the game goes on; it is autosaved)"),
)

_A = {c: ord(c.lower()) for c in "ABCEHLNPQRSTV"}
#: key code (pyglet's) -> intent
TABLE_KEYS: dict[int, str] = {
    0xFF1B: "cancel",
    0x20: "end_phase",
    _A["E"]: "end_phase",
    0xFF0D: "confirm",
    0xFF8D: "confirm",
    _A["R"]: "resolve",
    ord("1"): "weapon_1",
    ord("2"): "weapon_2",
    ord("3"): "weapon_3",
    _A["B"]: "bonus",
    _A["P"]: "play_card",
    0xFFFF: "discard_card",
    0xFF08: "discard_card",
    0xFF09: "next_unit",
    _A["H"]: "help",
    0xFFBE: "help",
    0xFF55: "log_older",
    0xFF56: "log_newer",
    _A["Q"]: "quit_if_over",
    _A["C"]: "at_crew",
    _A["L"]: "move_line",
    _A["A"]: "close_assault",
    _A["V"]: "next_choice",
    0x5B: "card_prev",
    0x5D: "card_next",
    _A["S"]: "pick_card",
    _A["T"]: "next_target",
    _A["N"]: "new_game",
}


#: how many events after a roll :func:`readable_events` looks for the one that shows it
LOOK_AHEAD = 40


def readable_events(events: list[Any]) -> list[Any]:
    """``events`` without the dice rolls a later event already shows (a to-hit roll inside its
    ``to_hit`` event, an Intensity roll inside its ``damage`` event: the event carries the roll
    as ``data["roll"]`` or names its purpose), as the headless game's readable log
    (:func:`hexwar.game.headless.readable`, which the lines layer does not import): the
    window's log showed each to-hit roll twice and the Intensity roll before the attack
    (fresh-user pass 2, item 7). The save and the JSON log keep every event."""
    out: list[Any] = []
    for i, e in enumerate(events):
        if getattr(e, "kind", "") == "roll":
            data = getattr(e, "data", None) or {}
            purpose = str(data.get("purpose", ""))
            # the event showing a roll follows it within its action: a bounded look ahead keeps
            # a log scrolled far back linear (the view is built every frame)
            later = [x for x in events[i + 1 : i + 1 + LOOK_AHEAD] if getattr(x, "kind", "") != "roll"]
            if any(purpose and purpose in str(x.text) for x in later):
                continue
            if any((getattr(x, "data", None) or {}).get("roll") == data for x in later):
                continue
        out.append(e)
    return out


@dataclass
class TableController:
    """Decisions of the card-table screen.

    Args:
        state: the game.
        ai: computer players by seat (seats not in it are played here, hot-seat).

    Attributes:
        viewer: the seat whose hand is shown (the human seat to act; hot-seat hides the others).
        selected: the selected card or unit id.
        target: the selected target (a declaration in the making).
        weapons: weapons chosen for it.
        at_crew: fire at the target gun's crew.
        bonus: a Command card offered for +1 on the next resolution.
        message: the last refusal or hint.
        help: the help overlay is shown.
        log_offset: lines scrolled back in the log.
        picks: setup (000): the Reserves cards picked for the starting hand so far.
        choice: which of the legal ways is taken by Enter / Space when there are several (the
            crew and line of a commitment, the sources of the draw); V cycles it.
        passing: hot-seat: the seat the screen is being handed to (hands hidden until it
            confirms with :meth:`take_seat`), or ``None``.
        max_turns: the turn cap of ``hexwar play --turns N`` (turns complete), or ``None``:
            past it nobody acts any more and the game stays unfinished, as in the terminal
            game (its save goes on from there).
        watching: the number of the attack just resolved (R6.2), shown to the person (its
            arrow, and the prompt while the computer is to act next) until :meth:`go_on` or
            the next command; the window holds the computer's next decision meanwhile, so
            every resolution is seen one by one (fresh-user pass, item 7: one click on
            Resolve showed the computer's next resolution in the same moment).
        watching_ai: :attr:`watching` is a computer seat's resolution: it is held (:meth:`held`)
            whoever acts next, so a person who acts after it sees it too, and the hot-seat
            hand-over screen waits for it (fresh-user pass 2, item 3: with the computer first
            its resolutions went by unnamed, in 4-player behind the hand-over screen).
        watch_text: what the resolution being watched did, for the prompt (``"german
            resolved attack #3: ..."``, or why it was void, R6.2).
        last_ai: the last command a computer seat made (:meth:`step_ai`), or ``None``.
        on_new_game: ``() -> Any``, set by the window: once the game is over, N (or the New
            game button) goes back to the start page with a new seed; ``None``: no new game.
    """

    state: LinesState
    ai: dict[str, Any] = field(default_factory=dict)
    viewer: str | None = None
    selected: str | None = None
    target: str | None = None
    weapons: tuple[int, ...] = ()
    at_crew: bool = False
    bonus: str | None = None
    message: str = ""
    help: bool = False
    log_offset: int = 0
    picks: list[str] = field(default_factory=list)
    passing: str | None = None
    choice: int = 0
    max_turns: int | None = None
    card_cursor: int | None = None
    watching: int | None = None
    watching_ai: bool = False
    watch_text: str = ""
    last_ai: Any = None
    on_new_game: Any = None

    def __post_init__(self) -> None:
        self._follow()
        self.passing = None  # the first seat to act needs no hand-over

    # -- whose table ------------------------------------------------------------------
    def human_to_act(self) -> bool:
        """A person (not a computer seat) must act now."""
        return self.state.to_act is not None and self.state.to_act not in self.ai

    def humans(self) -> list[str]:
        """The seats played at this screen (not by the computer)."""
        return [s for s in self.state.seats if s not in self.ai]

    def _follow(self) -> None:
        """Hot-seat: show the hand of the human seat to act; keep the last one otherwise. When
        the screen goes from one person's seat to another's, hands stay hidden behind the
        hand-over screen (:attr:`passing`) until the next person takes the seat; while a
        computer's resolution is shown (:attr:`watching_ai`) the screen waits (:meth:`go_on`)."""
        if self.watching_ai and self.watching is not None and not self.state.over:
            return
        if self.human_to_act():
            nxt = self.state.to_act
            if self.viewer is not None and nxt != self.viewer and len(self.humans()) > 1:
                self.passing = nxt
            self.viewer = nxt
        elif self.viewer is None:
            humans = self.humans()
            self.viewer = humans[0] if humans else None
        if self.state.over:
            self.passing = None

    def stopped(self) -> bool:
        """True once the turn cap (``hexwar play --turns N``) is passed: nobody acts any more."""
        return self.max_turns is not None and not self.state.over and self.state.turn > self.max_turns

    def take_seat(self) -> None:
        """Hot-seat: the next person is at the screen; show their hand."""
        self.passing = None

    def shown_seat(self) -> str | None:
        """The seat whose hand may be shown now (``None`` behind the hand-over screen)."""
        return None if self.passing else self.viewer

    def prompt(self) -> str:
        """What the person at the screen can do now, for the phase (shown on the table)."""
        st = self.state
        if st.over:
            again = " N (New game) starts another with a new seed;" if self.on_new_game is not None else ""
            return f"Game over: {st.result}.{again} Q or Ctrl+Q quits."
        if self.stopped():
            return (
                f"Stopped after turn {self.max_turns} (--turns); the game is unfinished. Q or Ctrl+Q quits."
            )
        seat = st.to_act
        if seat is None:
            return ""
        if self.passing:
            return f"Hand the screen to {self.passing}: Enter (or a click) when {self.passing} is looking."
        if self.held():  # the next decision (the computer's, or the person's) waits for it
            return f"{self.watch_text} (every roll in the log). Space or Next goes on."
        if seat in self.ai:
            return f"Waiting for {seat} to act ({st.phase} phase)..."  # the computer, or a player elsewhere
        ph = st.phase
        if ph == Phase.SETUP:
            from .actions.choose_hand import hand_size

            n = hand_size(st, seat)
            return (
                f"Setup: click {n} cards of your Reserves deck for your starting hand "
                f"({len(self.picks)} of {n} picked), then Enter."
            )
        if ph == Phase.COMMITMENT:
            if self.commit_options():
                return f"Commitment: {self.choice_text()}; or click your Frontline / Rear Line row."
            return (
                "Commitment: click a unit card in hand, Enter commits it with its crew (an SPG: click a line); "
                "crew card + crewless unit recrews; L moves an SPG; P plays a Command card; Space ends."
            )
        if ph == Phase.DECLARATION:
            if self.selected in st.units and self.target:
                return (
                    "Declaration: 1 / 2 / 3 toggle weapons; C fires at a gun's crew; A Close Assaults with 3+ "
                    "infantry; Enter declares on the target; Esc cancels."
                )
            return "Declaration: click one of your units, then an enemy target; Space ends the phase."
        if ph == Phase.RESOLUTION:
            mine = [n for n, a in sorted(st.attacks.items()) if a.seat == seat and not a.resolved]
            why = self.void_why(mine[0]) if mine else None
            if why is not None:
                return (
                    f"Resolution: your attack #{mine[0]} is void ({why}; R6.2): "
                    "R (or Space) turns it back, no roll."
                )
            nxt = f"attack #{mine[0]}" if mine else "your next attack"
            return (
                f"Resolution: R (or Space) resolves {nxt}; B first offers a Command card for +1 on its roll."
            )
        if ph == Phase.DRAW:
            if seat not in st.drawn:
                return f"Draw: {self.choice_text()}."
            return (
                "Draw: over the hand limits (5 Command / 7 unit)? select a card, Delete discards it; "
                "Space ends the phase."
            )
        return f"{ph} phase: Space ends it."

    def view(self) -> SeatView:
        """What the viewer may see (other hands as counts), its log as the headless game's
        readable log (:func:`readable_events`)."""
        from dataclasses import replace

        seat = self.shown_seat()
        v = seat_view(self.state, seat, log_lines=1)
        events = readable_events(self.state.log[-(60 + self.log_offset) :])
        return replace(v, log=tuple(seat_log_text(e, seat) for e in events))

    # -- acting -----------------------------------------------------------------------
    def issue(self, cmd: LinesCommand) -> bool:
        """Apply ``cmd``; on a refusal keep the reason in :attr:`message`."""
        if self.stopped():
            self.message = f"Stopped after turn {self.max_turns} (--turns): no more commands."
            return False
        p = self.state.check(cmd)
        if p:
            self.message = p
            return False
        self._watch(cmd)
        self.state.apply(cmd)
        self.message = ""
        self.watching = cmd.number if isinstance(cmd, Resolve) else None  # shown before the computer goes on
        self.watching_ai = False
        self.selected = self.target = None
        self.weapons = ()
        self.at_crew = False
        self.choice = 0
        self._follow()
        return True

    def step_ai(self) -> bool:
        """Let the computer seat to act make one decision; False when a person must act."""
        seat = self.state.to_act
        if seat is None or seat not in self.ai or self.stopped():
            return False
        cmd = self.ai[seat].choose(self.state)
        self._watch(cmd)
        self.state.apply(cmd)
        self.last_ai = cmd
        self.watching = cmd.number if isinstance(cmd, Resolve) else None
        self.watching_ai = self.watching is not None
        self._follow()
        return True

    def _watch(self, cmd: LinesCommand) -> None:
        """Before ``cmd`` is applied: what a resolution will be shown as (:attr:`watch_text`;
        a void attack says so and why, R6.2)."""
        if not isinstance(cmd, Resolve) or cmd.number not in self.state.attacks:
            return
        a = self.state.attacks[cmd.number]
        who = " + ".join(card(u).name for u in a.attackers)
        what = f"{who} at {card(a.target).name}"
        why = self.void_why(a.number)
        if why is None:
            self.watch_text = f"{a.seat} resolved attack #{a.number}: {what}"
        else:
            self.watch_text = f"{a.seat}'s attack #{a.number} ({what}) was void: {why} (R6.2, no roll)"

    def void_why(self, number: int) -> str | None:
        """Why declared attack ``number`` is void now (R6.2: its attacker or target gone, the
        cards no longer allowing it), with card names for ids; ``None`` when it is not void
        (or there is no such attack)."""
        from .actions.resolve import void_reason

        a = self.state.attacks.get(number)
        if a is None or a.resolved:
            return None
        why = void_reason(self.state, a)
        if why is None:
            return None
        for u in (*a.attackers, a.target):  # ids to names
            why = why.replace(u, card(u).name)
        return why

    def resolution_note(self) -> str:
        """The side panel's words in the Resolution Phase when there are no odds to show: the
        person's next attack is void (R6.2: resolved without a roll, no Command card spent on
        it; docs/rules.md "A void attack": it stays its owner's choice, so R turns it back), or
        no attack of theirs is left (fresh-user pass 2, item 4: the panel said "no attack of
        yours left" while the prompt asked for R on a void one)."""
        st = self.state
        seat = st.to_act
        mine = [n for n, a in sorted(st.attacks.items()) if a.seat == seat and not a.resolved]
        if not mine:
            return "no attack of yours left to resolve"
        why = self.void_why(mine[0])
        if why is not None:
            return f"attack #{mine[0]} is void: {why} (R6.2); R turns it back, no roll"
        return f"attack #{mine[0]}: no odds to show"

    def held(self) -> bool:
        """A resolution is being shown and the next decision waits for it (:meth:`go_on`, or
        the window's :data:`~hexwar.ui.lines_screen.RESOLVE_PAUSE`): a computer's, whoever
        acts next, or the person's own while a computer acts next (R6.2; fresh-user pass 2,
        item 3)."""
        if self.watching is None or self.state.over or self.stopped() or self.passing:
            return False
        return self.watching_ai or (self.state.to_act is not None and not self.human_to_act())

    def go_on(self) -> None:
        """Space / Next after a resolution: stop showing it (:attr:`watching`); a person's seat
        to act next is handed over only now (hot-seat)."""
        self.watching = None
        self.watching_ai = False
        self._follow()

    def run_ai(self, limit: int = 10_000) -> int:
        """Computer seats act until a person must (or the game ends); returns the commands made."""
        n = 0
        while n < limit and self.step_ai():
            n += 1
        return n

    # -- clicks -----------------------------------------------------------------------
    def click(self, item: str) -> None:
        """A click on a card in hand or a unit on the table."""
        st = self.state
        seat = st.to_act
        if seat is None or not self.human_to_act() or self.held():
            return
        if self.passing:
            self.take_seat()
            return
        if st.phase == Phase.SETUP and item in st.reserves.get(seat, []):
            from .actions.choose_hand import hand_size

            if item in self.picks:
                self.picks.remove(item)
            elif len(self.picks) < hand_size(st, seat):
                self.picks.append(item)
            return
        mine = (
            item in st.hand_units.get(seat, [])
            or item in st.hand_commands.get(seat, [])
            or (item in st.units and st.units[item].seat == seat)
        )
        if (
            st.phase == Phase.COMMITMENT
            and self.selected in st.hand_units.get(seat, [])
            and item in st.units
            and st.units[item].seat == seat
        ):  # a crew card onto a crewless unit of yours (000)
            if self.issue(Recrew(seat, item, self.selected)):
                return
        if self.selected in st.hand_commands.get(seat, []) and item in st.units:  # a Command card on a unit
            plays = [
                c
                for c in st.legal_commands()
                if isinstance(c, UseCommandCard) and c.card == self.selected and c.unit == item
            ]
            if plays:
                self.issue(plays[0])
                return
        if st.phase == Phase.DECLARATION and self.selected in st.units and not mine and item in st.units:
            self.target = item
            ws = self._default_weapons(self.selected, item)
            self.weapons = ws
            return
        if mine:
            self.selected = item
            self.target = None
            self.weapons = ()
            self.choice = 0

    def _default_weapons(self, unit: str, target: str) -> tuple[int, ...]:
        cmds = [
            c
            for c in self.state.legal_commands()
            if isinstance(c, Declare) and c.unit == unit and c.target == target and not c.at_crew
        ]
        if not cmds:
            return ()
        return max(cmds, key=lambda c: len(c.weapons)).weapons

    def toggle_weapon(self, i: int) -> None:
        """Key 1 / 2 / 3 (or its button): add or drop the selected attacker's ``i``-th weapon
        (0-based). Any of the unit's weapons may be chosen, up to the rules' ``max_weapons``
        (R6.1: two) at once: a third is refused with a message (fresh-user pass 2, item 5:
        only the first two were ever offered)."""
        if self.selected not in self.state.units:
            return
        n = len(card(self.selected).weapons)
        if not 0 <= i < n:
            self.message = f"{card(self.selected).name} has {n} weapon{'s' if n != 1 else ''}"
            return
        most = cards().rules.max_weapons
        if i not in self.weapons and len(self.weapons) >= most:
            self.message = f"an attack fires at most {most} weapons (R6.1): drop one first"
            return
        ws = set(self.weapons)
        ws ^= {i}
        self.weapons = tuple(sorted(ws))

    def odds(self) -> str:
        """The exact odds of the declaration being made (the odds panel), or ``""``."""
        if self.state.phase != Phase.DECLARATION or not self.selected or not self.target or not self.weapons:
            return ""
        return odds_text(self.state, self.selected, self.target, self.weapons, self.at_crew)

    def attack_odds(self) -> Any:
        """The exact odds (an :class:`~hexwar.rules.odds.AttackOdds`, R6) of the declaration
        being made, for the odds bars; ``None`` outside the Declaration phase, without an
        attacker, target and weapon, or when the declaration is not possible (:meth:`odds`
        then says why)."""
        if self.state.phase != Phase.DECLARATION or not self.selected or not self.target or not self.weapons:
            return None
        from ..rules.combat import CombatError
        from .odds import declare_odds

        try:
            return declare_odds(self.state, self.selected, self.target, self.weapons, self.at_crew)
        except CombatError:
            return None

    def resolution_odds(self) -> tuple[int, Any] | None:
        """The exact odds (R6) of the attack R resolves now (the acting person's first
        unresolved one, R6.2), with its Command cards and the offered +1 bonus (R1.3; a Close
        Assault's odds without it): ``(attack number, AttackOdds)``; ``None`` outside the
        Resolution Phase, for a computer seat, with no attack left, or for a void attack (a
        unit of it is gone). The hex window shows exact odds before acting; this is the card
        table's (fresh-user pass, item 9)."""
        st = self.state
        seat = st.to_act
        if st.phase != Phase.RESOLUTION or seat is None or not self.human_to_act():
            return None
        mine = [n for n, a in sorted(st.attacks.items()) if a.seat == seat and not a.resolved]
        if not mine:
            return None
        a = st.attacks[mine[0]]
        from ..rules.combat import CombatError
        from .odds import close_assault_line_odds, declare_odds

        try:
            if a.close_assault:
                return a.number, close_assault_line_odds(st, tuple(a.attackers), a.target)
            odds = declare_odds(
                st,
                a.attackers[0],
                a.target,
                tuple(a.weapons),
                a.at_crew,
                tuple(a.command_cards),
                bool(self.bonus),
            )
        except (CombatError, KeyError):
            return None
        return a.number, odds

    def close_assault_choice(self) -> DeclareCloseAssault | None:
        """The Close Assault A would declare now (the selected infantry and every other
        Frontline infantry that may join, on the target vehicle; 000), or ``None``."""
        st = self.state
        if st.phase != Phase.DECLARATION or self.target is None or st.to_act is None:
            return None
        cas = [
            c
            for c in st.legal_commands()
            if isinstance(c, DeclareCloseAssault) and c.target == self.target and self.selected in c.units
        ]
        return max(cas, key=lambda c: (len(c.units), c.units)) if cas else None

    def close_assault_odds(self) -> Any:
        """The exact odds (R6) of the Close Assault A would declare now
        (:meth:`close_assault_choice`), or ``None`` (fresh-user pass, item 9)."""
        c = self.close_assault_choice()
        if c is None:
            return None
        from ..rules.combat import CombatError
        from .odds import close_assault_line_odds

        try:
            return close_assault_line_odds(self.state, c.units, c.target)
        except (CombatError, KeyError):
            return None

    def confirm(self) -> bool:
        """Enter: commit the selected hand card (with the first fitting crew / infantry) or
        declare on the selected target."""
        st = self.state
        seat = st.to_act
        if self.passing:
            self.take_seat()
            return True
        if seat is not None and st.phase == Phase.SETUP:
            ok = self.issue(ChooseHand(seat, tuple(self.picks)))
            if ok:  # the Reserves cursor does not carry over onto the new hand
                self.picks, self.card_cursor = [], None
            return ok
        if seat is None or self.selected is None:
            self.message = "select a card or a unit first"
            return False
        if st.phase == Phase.COMMITMENT and self.selected in st.hand_units[seat]:
            opts = [c for c in st.legal_commands() if isinstance(c, Commit) and c.unit == self.selected]
            if not opts:
                c = card(self.selected)
                line = {"frontline": "front", "rear": "rear", "frontline_or_rear": "front"}.get(c.line)
                why = st.check(Commit(seat, self.selected, line, None, None)) if not c.is_crew else None
                self.message = f"{c.name} cannot be committed now" + (
                    f": {why}" if why else (": a crew commits with a unit it can crew" if c.is_crew else "")
                )
                return False
            return self.issue(opts[self.choice % len(opts)])
        if st.phase == Phase.DECLARATION and self.target is not None:
            return self.issue(Declare(seat, self.selected, self.target, self.weapons, self.at_crew))
        if st.phase == Phase.DECLARATION:
            cas = [
                c
                for c in st.legal_commands()
                if isinstance(c, DeclareCloseAssault) and self.selected in c.units
            ]
            if cas and self.target is not None:
                return self.issue(cas[0])
        self.message = "nothing to confirm"
        return False

    def commit_to(self, line: str) -> bool:
        """A click on one of your lines (``front`` / ``rear``) with a unit card selected in the
        Commitment Phase: commit it to that line (an SPG's choice, 000), with the first fitting
        crew / infantry."""
        st = self.state
        seat = st.to_act
        if seat is None or not self.human_to_act() or self.passing or st.phase != Phase.COMMITMENT:
            return False
        if self.selected not in st.hand_units.get(seat, []):
            return False
        opts = [
            c
            for c in st.legal_commands()
            if isinstance(c, Commit) and c.unit == self.selected and c.line == line
        ]
        if not opts:
            where = "the Frontline" if line == "front" else "the Rear Line"
            self.message = f"{card(self.selected).name} cannot be committed to {where} now"
            return False
        return self.issue(opts[0])

    def commit_options(self) -> list[Commit]:
        """The legal commitments of the selected hand card (crew, halftrack infantry, line)."""
        st = self.state
        if (
            st.phase != Phase.COMMITMENT
            or st.to_act is None
            or self.selected not in st.hand_units.get(st.to_act, [])
        ):
            return []
        return [c for c in st.legal_commands() if isinstance(c, Commit) and c.unit == self.selected]

    def draw_options(self) -> list[Draw]:
        """The legal draws (the two sources after the Command card, R5.5)."""
        st = self.state
        if st.phase != Phase.DRAW or st.to_act is None or st.to_act in st.drawn:
            return []
        return [c for c in st.legal_commands() if isinstance(c, Draw)]

    def _default_draw(self, draws: list[Draw]) -> int:
        """The draw suggested by the hand: Reserves when short of unit cards, Command cards when full."""
        st = self.state
        units = len(st.hand_units[st.to_act]) if st.to_act else 0
        return 0 if units >= 5 else len(draws) - 1 if units <= 2 else len(draws) // 2

    def choice_text(self) -> str:
        """What Enter (commit) / Space (draw) will do with the current :attr:`choice`, or ``""``."""

        def crew(c: Commit) -> str:
            parts = []
            if c.crew:
                parts.append(f"with {card(c.crew).name}")
            if c.infantry:
                parts.append(f"carrying {card(c.infantry).name}")
            where = {"front": "to the Frontline", "rear": "to the Rear Line", None: "aloft"}[c.line]
            return " ".join(parts + [where])

        opts = self.commit_options()
        if opts:
            c = opts[self.choice % len(opts)]
            more = f" (V: next of {len(opts)} ways)" if len(opts) > 1 else ""
            return f"Enter commits {card(c.unit).name} {crew(c)}{more}"
        draws = self.draw_options()
        if draws:
            d = draws[(self._default_draw(draws) + self.choice) % len(draws)]
            more = f" (V: next of {len(draws)} ways)" if len(draws) > 1 else ""
            n_cmd = 1 + d.extra.count("command")  # R5.5: the Command card every draw takes, then the sources
            n_res = d.extra.count("reserves")
            res = f" + {n_res} Reserves" if n_res else ""
            return f"Space draws {n_cmd} Command{res}{more}"
        return ""

    def next_choice(self) -> str:
        """V: the next way of committing the selected card / of drawing."""
        self.choice += 1
        self.message = self.choice_text()
        return self.message

    def close_assault(self) -> bool:
        """A: Close Assault the target vehicle with the selected infantry and the other Frontline
        infantry that may join (000: 3 or more)."""
        st = self.state
        seat = st.to_act
        if seat is None or st.phase != Phase.DECLARATION or self.target is None:
            self.message = "select your infantry and an enemy Frontline vehicle first"
            return False
        ca = self.close_assault_choice()
        if ca is None:
            self.message = "a Close Assault needs 3 or more of your Frontline infantry on a Frontline vehicle"
            return False
        return self.issue(ca)

    def toggle_at_crew(self) -> None:
        """C: the declaration fires at the target gun's crew instead of the gun (infantry at a
        Frontline gun, 000), with the weapons that may."""
        if self.target is None or self.selected not in self.state.units:
            self.message = "select your unit and an enemy gun first"
            return
        want = not self.at_crew
        cmds = [
            c
            for c in self.state.legal_commands()
            if isinstance(c, Declare)
            and c.unit == self.selected
            and c.target == self.target
            and c.at_crew == want
        ]
        if not cmds:
            self.message = "that target has no crew this unit may fire at" if want else ""
            return
        self.at_crew = want
        self.weapons = max(cmds, key=lambda c: len(c.weapons)).weapons
        self.message = "firing at the gun's crew" if want else ""

    def move_line(self) -> bool:
        """L: move the selected SPG of yours to the other line (Commitment, 000)."""
        seat = self.state.to_act
        if seat is None or self.selected not in self.state.units:
            self.message = "select your SPG in play first"
            return False
        return self.issue(MoveLine(seat, self.selected))

    def offer_bonus(self) -> str:
        """B: cycle the Command card offered for +1 on the next roll (R1.3); shown before rolling."""
        seat = self.state.to_act
        hand = sorted(self.state.hand_commands.get(seat, [])) if seat else []
        if not hand:
            self.bonus = None
            self.message = "no Command card to discard for +1"
            return self.message
        i = hand.index(self.bonus) + 1 if self.bonus in hand else 0
        self.bonus = hand[i] if i < len(hand) else None
        self.message = (
            f"+1 on the first to-hit roll: discard {cards().command_or_event(self.bonus).title}"
            if self.bonus
            else "no Command-card bonus"
        )
        return self.message

    def resolve(self, number: int | None = None) -> bool:
        """R: resolve attack ``number`` (default the first of yours), with the offered bonus."""
        seat = self.state.to_act
        if seat is None or self.state.phase != Phase.RESOLUTION:
            self.message = "attacks are resolved in the Resolution phase"
            return False
        mine = [n for n, a in sorted(self.state.attacks.items()) if a.seat == seat and not a.resolved]
        n = number if number is not None else (mine[0] if mine else None)
        if n is None:
            return False
        bonus = None if self.void_why(n) is not None else self.bonus  # no card spent on a void one
        ok = self.issue(Resolve(seat, n, bonus))
        self.bonus = None
        return ok

    def end_phase(self) -> bool:
        """Space / E: end the phase; in the Draw Phase draw first (one Command card + the two
        sources chosen by the hand's needs), then end."""
        st = self.state
        seat = st.to_act
        if seat is None:
            return False
        if st.phase == Phase.DRAW and seat not in st.drawn:
            draws = self.draw_options()
            if draws:
                pick = draws[(self._default_draw(draws) + self.choice) % len(draws)]
                self.choice = 0
                return self.issue(pick)
        if st.phase == Phase.RESOLUTION:
            return self.resolve()
        return self.issue(EndPhase(seat))

    def play_card(self) -> bool:
        """P: play the selected Command card (on the selected unit when it needs one)."""
        seat = self.state.to_act
        if seat is None or self.selected is None:
            return False
        opts = [
            c
            for c in self.state.legal_commands()
            if isinstance(c, UseCommandCard) and c.card == self.selected
        ]
        if not opts:
            self.message = "that card cannot be played now"
            return False
        return self.issue(opts[0])

    def discard(self) -> bool:
        """Delete: discard the selected card (Draw Phase, over the limits)."""
        seat = self.state.to_act
        if seat is None or self.selected is None:
            return False
        return self.issue(Discard(seat, self.selected))

    def unit_choices(self) -> list[str]:
        """The units Tab steps through: the acting seat's units in play (not the crews riding
        them); in the Declaration Phase only those that may still declare (R6.1: a legal
        declaration or Close Assault; none when none may), so Tab never lands on a unit that has
        declared (after each declaration the selection is cleared: Tab from the first unit
        again reached only the one that had just declared; fresh-user pass, item 6)."""
        st = self.state
        seat = st.to_act
        mine = sorted(u for u, x in st.units.items() if x.seat == seat and x.crewing is None)
        if st.phase == Phase.DECLARATION and mine:
            can = set()
            for c in st.legal_commands():
                if isinstance(c, Declare):
                    can.add(c.unit)
                elif isinstance(c, DeclareCloseAssault):
                    can.update(c.units)
            # none may declare any more: none (Tab selected a unit that had declared; pass 2, item 8)
            return [u for u in mine if u in can]
        return mine

    def next_unit(self) -> str | None:
        """Tab: select the next of :meth:`unit_choices` (your units in play)."""
        mine = self.unit_choices()
        if not mine:
            if self.state.phase == Phase.DECLARATION:
                self.message = "none of your units may declare now (R6.1): Space ends the phase"
            return None
        i = (mine.index(self.selected) + 1) % len(mine) if self.selected in mine else 0
        self.selected, self.target, self.weapons = mine[i], None, ()
        self.at_crew = False
        return self.selected

    def hand_choices(self) -> list[str]:
        """The cards ``[`` / ``]`` step through: in setup the Reserves to pick the starting hand
        from, else the hand's unit cards then its Command cards (the acting seat's)."""
        st, seat = self.state, self.state.to_act
        if seat is None or not self.human_to_act() or self.passing:
            return []
        if st.phase == Phase.SETUP:
            return sorted(st.reserves.get(seat, []))  # in the order the setup picker shows them
        return list(st.hand_units.get(seat, [])) + list(st.hand_commands.get(seat, []))

    def step_card(self, step: int) -> str | None:
        """``[`` / ``]``: move the hand cursor by ``step`` and select that card (in setup only
        the cursor moves; S picks). Returns the card under the cursor or None."""
        cards_ = self.hand_choices()
        if not cards_:
            self.card_cursor = None
            return None
        i = 0 if self.card_cursor is None else max(0, min(len(cards_) - 1, self.card_cursor + step))
        if abs(step) == 1 and self.card_cursor is not None:
            i = (self.card_cursor + step) % len(cards_)  # [ / ] wrap around; a page step stops at the ends
        if self.card_cursor is None and step < 0:
            i = len(cards_) - 1
        self.card_cursor = i
        if self.state.phase != Phase.SETUP:
            self.click(cards_[i])
        return cards_[i]

    def pick_card(self) -> None:
        """S in setup: pick (or drop) the Reserves card under the hand cursor (as a click)."""
        cards_ = self.hand_choices()
        if self.card_cursor is not None and self.card_cursor < len(cards_):
            self.click(cards_[self.card_cursor])

    def target_choices(self) -> list[str]:
        """The units T steps through, only legal ones: with a Command card selected the units
        it may be played on now (R4.3); in the Declaration Phase with one of your units
        selected the targets it may declare on (R6.1: a legal declaration, or a Close Assault
        it may join); else none (T once cycled through every enemy unit, illegal targets too;
        fresh-user pass, item 5)."""
        st, seat = self.state, self.state.to_act
        if seat is None or self.selected is None:
            return []
        legal = st.legal_commands()
        if self.selected in st.hand_commands.get(seat, []):
            return sorted(
                {
                    c.unit
                    for c in legal
                    if isinstance(c, UseCommandCard) and c.card == self.selected and c.unit
                }
            )
        if st.phase != Phase.DECLARATION or self.selected not in st.units:
            return []
        out = {c.target for c in legal if isinstance(c, Declare) and c.unit == self.selected}
        out |= {c.target for c in legal if isinstance(c, DeclareCloseAssault) and self.selected in c.units}
        return sorted(out)

    def next_target(self) -> str | None:
        """T: target the next unit of :meth:`target_choices` (as a click on it); with none,
        :attr:`message` says why."""
        ts = self.target_choices()
        if not ts:
            st = self.state
            if self.selected in st.units and st.phase == Phase.DECLARATION:
                self.message = f"{card(self.selected).name} has no legal target now"
            else:
                self.message = "select your unit (Tab) or a Command card first; T then picks its targets"
            return None
        i = (ts.index(self.target) + 1) % len(ts) if self.target in ts else 0
        self.click(ts[i])
        return ts[i]

    def focus_text(self) -> str:
        """The focused items in plain words (the window title carries them for screen readers):
        the selected card or unit and the target, by name."""

        def name(x: str | None) -> str:
            if x is None:
                return ""
            try:
                return str(card(x).name)  # a unit card (in hand or an instance in play)
            except Exception:  # noqa: BLE001 - a Command or Event card
                try:
                    return str(cards().command_or_event(x).title)
                except Exception:  # noqa: BLE001
                    return str(x)

        cur = self.hand_choices()
        parts = []
        if self.state.phase == Phase.SETUP and self.card_cursor is not None and self.card_cursor < len(cur):
            c = cur[self.card_cursor]
            parts.append(f"{name(c)} ({'picked' if c in self.picks else 'not picked'})")
        if self.selected:
            parts.append(f"selected {name(self.selected)}")
        if self.target:
            parts.append(f"target {name(self.target)}")
        return ", ".join(parts)

    def key(self, intent: str) -> None:
        """Run a key's intent (see :data:`TABLE_KEYS`)."""
        act = {
            "cancel": self.cancel,
            "end_phase": self.end_phase,
            "confirm": self.confirm,
            "resolve": self.resolve,
            "weapon_1": lambda: self.toggle_weapon(0),
            "weapon_2": lambda: self.toggle_weapon(1),
            "weapon_3": lambda: self.toggle_weapon(2),
            "bonus": self.offer_bonus,
            "play_card": self.play_card,
            "discard_card": self.discard,
            "next_unit": self.next_unit,
            "help": self.toggle_help,
            "at_crew": self.toggle_at_crew,
            "move_line": self.move_line,
            "close_assault": self.close_assault,
            "next_choice": self.next_choice,
            "card_prev": lambda: self.step_card(-1),
            "card_next": lambda: self.step_card(1),
            "pick_card": self.pick_card,
            "next_target": self.next_target,
            "log_older": lambda: self.scroll(10),
            "log_newer": lambda: self.scroll(-10),
            "new_game": self.new_game,
        }.get(intent)
        if act is None:
            raise HexwarError(f"unknown card-table intent {intent!r}")
        if intent == "new_game":
            act()
            return
        if self.passing and intent not in ("confirm", "help", "cancel", "log_older", "log_newer"):
            return  # behind the hand-over screen nothing acts for the next seat
        if (self.held() or not self.human_to_act()) and intent not in (
            "help",
            "cancel",
            "log_older",
            "log_newer",
        ):
            # a person never acts for a computer seat (R resolved the computer's attacks);
            # Space / Enter / R go on from the resolution being shown
            if self.held() and intent in ("end_phase", "confirm", "resolve"):
                self.go_on()
            return
        act()

    def new_game(self) -> bool:
        """N once the game is over: :attr:`on_new_game` (the start page with a new seed).
        Returns whether it ran."""
        if not self.state.over or self.on_new_game is None:
            return False
        self.on_new_game()
        return True

    def cancel(self) -> None:
        """Esc: drop the selection (or close the help); an offered +1 bonus is withdrawn too
        (R1.3: the card stays in hand; fresh-user pass 2, item 8)."""
        if self.help:
            self.help = False
            return
        if self.bonus is not None:
            self.message = f"bonus withdrawn: {cards().command_or_event(self.bonus).title} stays in your hand"
            self.bonus = None
        self.selected = self.target = None
        self.weapons = ()

    def toggle_help(self) -> None:
        """H / F1."""
        self.help = not self.help

    def scroll(self, n: int) -> None:
        """PageUp / PageDown."""
        self.log_offset = max(0, min(len(self.state.log), self.log_offset + n))

    def side(self) -> str | None:
        """The viewer's side."""
        return side_of_seat(self.viewer) if self.viewer else None
