"""The replay viewer's model (issue 36): any save of the three games (hex, lines, campaign)
replayed once through the engine, step by step, with each step's log lines, each roll's exact
odds before it was rolled and each declaration's expected victory points
(:mod:`hexwar.game.luck`), and the game's state at any step, forward or back.

No GL here: :mod:`hexwar.ui.replay_window` draws it, ``hexwar replay SAVE --luck`` prints it and
the tests drive it directly.

The state at step ``i`` (after the first ``i`` commands) is the engine's own: a cursor state
moves forward by applying the next commands; stepping back builds the game afresh and applies
the first ``i`` commands again (R1.2: the seeded dice live in the state, so re-applying
reproduces every roll; game states hold generators and are not copied). A test checks the
state hashes against the engine's ``replay(until=i)``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import HexwarError
from ..game.luck import RollLuck, SideLuck, luck_of_roll, summarize

__all__ = ["ReplayModel", "Step", "load_replay"]


@dataclass
class Step:
    """One command of the save and what it did.

    Attributes:
        index: 0-based command index.
        side: who issued it (``german`` / ``soviet``; ``umpire`` for automatic ones).
        text: the command in words.
        log: the readable log lines of its events (rolls included).
        rolls: its rolls with their odds (:class:`~hexwar.game.luck.RollLuck`).
        expected_vp: for a declaration, its exact expected VP for the declaring side.
        vp_scored: VP the side scored while it was applied (resolutions), else 0.
    """

    index: int
    side: str
    text: str
    log: list[str] = field(default_factory=list)
    rolls: list[RollLuck] = field(default_factory=list)
    expected_vp: float | None = None
    vp_scored: int = 0


def _side_of(cmd: Any) -> str:
    side = getattr(cmd, "side", None)
    if side:
        return str(side)
    seat = getattr(cmd, "seat", None)
    if seat:
        return str(seat).split("-")[0]
    return "umpire"


def _cmd_text(cmd: Any) -> str:
    d = cmd.to_json() if hasattr(cmd, "to_json") else {"cmd": type(cmd).__name__}
    name = str(d.pop("cmd", type(cmd).__name__)).replace("_", " ")
    who = d.pop("side", None) or d.pop("seat", None)
    rest = ", ".join(f"{k} {v}" for k, v in d.items() if v not in (None, (), [], "", False))
    return f"{who}: {name}" + (f" ({rest})" if rest else "")


class ReplayModel:
    """A save replayed for viewing (see the module text).

    Args:
        mode: ``"hex"``, ``"lines"`` or ``"campaign"``.
        fresh: ``() -> state``: a new game before its first command (called once per replay
            and again for each step back).
        commands: the save's commands in order.
        sides: the sides in display order.
        path: the save's path (for titles).

    Attributes:
        steps: one :class:`Step` per command.
        final: the state after every command.

    Raises:
        HexwarError: when a command is refused on replay (naming its index).
    """

    def __init__(
        self, mode: str, fresh: Callable[[], Any], commands: list[Any], sides: tuple[str, ...], path: str = ""
    ) -> None:
        self.mode = mode
        self.commands = list(commands)
        self.sides = sides
        self.path = path
        self.steps: list[Step] = []
        self._fresh = fresh
        st = fresh()
        always, never = self._specials(st)
        expected: dict[str, float] = {s: 0.0 for s in sides}
        scored: dict[str, int] = {s: 0 for s in sides}
        for i, cmd in enumerate(self.commands):
            side = _side_of(cmd)
            step = Step(i, side, _cmd_text(cmd))
            step.expected_vp = self._expected_vp(st, cmd)
            before = dict(getattr(st, "vp", {}) or {})
            try:
                events = st.apply(cmd)
            except Exception as exc:  # noqa: BLE001 - any refusal: name the command
                raise HexwarError(
                    f"{path or 'save'}: command {i + 1} ({step.text}) is refused on replay: {exc}"
                ) from None
            after = dict(getattr(st, "vp", {}) or {})
            if getattr(cmd, "name", "") in ("resolve", "resolve_close_assault") or "resolve" in step.text:
                step.vp_scored = int(after.get(side, 0)) - int(before.get(side, 0))
            for e in events:
                step.log.append(self._event_text(st, e))
                roll = getattr(e, "roll", None)
                if getattr(e, "kind", "") == "roll" and roll is not None:
                    try:
                        step.rolls.append(luck_of_roll(roll, i, side, always, never))
                    except ValueError:
                        pass  # a shuffle: no natural value to be lucky with
            if step.expected_vp is not None and side in expected:
                expected[side] += step.expected_vp
            if side in scored:
                scored[side] += step.vp_scored
            self.steps.append(step)
        self.final = st
        self._cursor: tuple[int, Any] | None = None

    # -- odds -----------------------------------------------------------------------------------
    def _specials(self, st: Any) -> tuple[frozenset[int], frozenset[int]]:
        """The natural to-hit sums that always hit (R6.4) and, in the classic variant, the
        friendly-fire ones that never hit the target (the hex and line games' card rules)."""
        if self.mode == "campaign":
            return frozenset(), frozenset()
        from ..rules.cards import default_cards

        r = default_cards().rules
        classic = "classic" in tuple(getattr(st, "variants", ()) or ())
        return frozenset(r.special), frozenset(r.friendly_fire) if classic else frozenset()

    def _expected_vp(self, st: Any, cmd: Any) -> float | None:
        """The exact expected VP of a declaration, asked of the state just before it."""
        if getattr(cmd, "name", "") != "declare":
            return None
        try:
            if self.mode == "hex":
                from ..game.odds import declare_odds

                o = declare_odds(st, cmd.attacker, cmd.target, tuple(cmd.weapons), cmd.at_crew)
            elif self.mode == "lines":
                from ..lines.odds import declare_odds as lines_odds

                o = lines_odds(st, cmd.unit, cmd.target, tuple(cmd.weapons), cmd.at_crew)
            else:
                return None
        except (HexwarError, ValueError, KeyError):
            return None
        return None if o is None else float(o.expected_vp)

    def _event_text(self, st: Any, e: Any) -> str:
        text = getattr(e, "text", None)
        if isinstance(text, str) and text:
            return text
        if self.mode == "campaign":
            from ..campaign.events import describe

            try:
                return str(describe(e, st.cards, None))
            except Exception:  # noqa: BLE001 - fall back to the event's own words
                pass
        return str(e)

    # -- stepping -------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.commands)

    def state_at(self, i: int) -> Any:
        """The game after the first ``i`` commands (0 <= i <= len). The viewer's cursor state
        is returned: read it, never change it (the next call may move it on).

        Raises:
            IndexError: for ``i`` outside 0..len.
        """
        if not 0 <= i <= len(self.commands):
            raise IndexError(f"step {i} outside 0..{len(self.commands)}")
        if i == len(self.commands):
            return self.final
        if self._cursor is None or self._cursor[0] > i:
            self._cursor = (0, self._fresh())
        at, st = self._cursor
        for cmd in self.commands[at:i]:
            st.apply(cmd)
        self._cursor = (i, st)
        return st

    def log_until(self, i: int) -> list[tuple[int, str]]:
        """``(step, line)`` of every log line of the first ``i`` commands, in order."""
        return [(s.index, ln) for s in self.steps[:i] for ln in s.log]

    def luck(self, until: int | None = None) -> dict[str, SideLuck]:
        """Each side's :class:`~hexwar.game.luck.SideLuck` over the first ``until`` commands
        (default all); VP comparisons only where the game has attack odds (hex, lines)."""
        steps = self.steps if until is None else self.steps[:until]
        rolls = [r for s in steps for r in s.rolls]
        if self.mode == "campaign":
            return summarize(rolls, self.sides)
        exp = {s: 0.0 for s in self.sides}
        act = {s: 0 for s in self.sides}
        for st in steps:
            if st.side in exp:
                exp[st.side] += st.expected_vp or 0.0
                act[st.side] += st.vp_scored
        return summarize(rolls, self.sides, exp, act)


def _format_of(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError) as exc:
        raise HexwarError(f"{path}: cannot read the save ({exc})") from None
    return str(data.get("format", "")) if isinstance(data, dict) else ""


def load_replay(path: str | Path, scenario_paths: tuple[str, ...] = ()) -> ReplayModel:
    """Read any save of the three games and replay it for viewing.

    Raises:
        HexwarError: naming the file when it is missing, malformed or does not replay.
    """
    path = str(path)
    if not Path(path).is_file():
        raise HexwarError(f"{path}: no such save file")
    if _format_of(path) == "hexwar-campaign-save":
        from ..campaign.save import read_campaign_save
        from ..campaign.state import new_campaign

        sv = read_campaign_save(path)
        return ReplayModel(
            "campaign",
            lambda: new_campaign(sv.seed, sv.options)[0],
            list(sv.commands),
            ("german", "soviet"),
            path,
        )
    from ..game.save import read_save, replay

    sf = read_save(path)

    def fresh() -> Any:
        return replay(sf, verify=False, until=0, scenario_paths=scenario_paths)

    mode = str(getattr(fresh(), "mode", "hex"))
    sides = ("german", "soviet")
    return ReplayModel(mode if mode in ("hex", "lines") else "hex", fresh, list(sf.commands), sides, path)
