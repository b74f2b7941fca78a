"""The play window on a network seat: ``hexwar join ws://HOST:PORT/GAME --seat S --token T``.

The window is the ordinary :class:`~hexwar.ui.play_window.PlayWindow` shown on a game rebuilt
from the seat's view (:func:`hexwar.game.view.state_from_view`): it never holds the full game.
A :class:`~hexwar.net.client.SeatClient` runs on its own asyncio loop in a thread; each view it
receives is handed to the window's timer through a queue. The person's commands are checked
against the view (the same rules code) and sent to the server, which alone applies them and
rolls the dice; the opponent is remote, so the controller never plays it. While the other
side is to act the status line says "waiting for the Soviet player".
"""

from __future__ import annotations

import asyncio
import queue
import threading
from typing import Any

from ..errors import HexwarError

__all__ = [
    "RemoteSide",
    "NetLink",
    "run_window",
    "attach",
    "attach_table",
    "LoggedLine",
    "campaign_controller",
]


class RemoteSide:
    """Stands for the seat played elsewhere (never asked to choose)."""

    name = "remote"

    def __init__(self, side: str):
        self.side = side

    def choose(self, state: Any) -> Any:
        """Never called: the remote seat's commands come from the server.

        Raises:
            HexwarError: always.
        """
        raise HexwarError(f"the {self.side} seat is played over the network")


class NetLink:
    """The client thread and the queue of views between it and the window.

    Args:
        client: the :class:`~hexwar.net.client.SeatClient` (no policy: the person decides).
    """

    def __init__(self, client: Any):
        self.client = client
        self.views: queue.Queue[tuple[dict[str, Any], list[dict[str, Any]]]] = queue.Queue()
        self.loop = asyncio.new_event_loop()
        self.error: BaseException | None = None
        self._sent = 0
        client.on_change = self._changed
        self.thread = threading.Thread(target=self._run, name="hexwar-net", daemon=True)

    def _changed(self, client: Any) -> None:
        new = client.log[self._sent :] if self._sent <= len(client.log) else list(client.log)
        self._sent = len(client.log)
        self.views.put((client.view, list(new)))

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self.client.run())
        except BaseException as exc:  # reported on the window's status line
            self.error = exc

    def start(self) -> None:
        """Start the client thread."""
        self.thread.start()

    def send(self, cmd: Any) -> None:
        """Send one command from the window's thread."""
        asyncio.run_coroutine_threadsafe(self.client.send_command(cmd), self.loop)


def attach(window: Any, link: NetLink, seat: str, schedule: bool = False) -> None:
    """Make ``window`` (a PlayWindow on a view state) play ``seat`` through ``link``.

    Its controller sends the person's commands to the server instead of applying them, never
    plays the other seat, and takes each new view from the link on every timer tick
    (``schedule``: on pyglet's clock, in place of the window's own timer).
    """
    from ..game.events import event_from_json
    from ..game.view import state_from_view
    from ..ui.view_cache import EpochCache

    ctl = window.controller
    scenario = ctl.state.scenario

    def issue(cmd: Any) -> Any:
        why = ctl.state.check(cmd)
        if why is not None:
            ctl.say(why, error=True)
            return None
        if ctl.state.to_act != seat:
            ctl.say("not your turn", error=True)
            return None
        link.send(cmd)
        ctl.say("sent to the server...")
        return []

    ctl.issue = issue
    ctl.computer_to_act = lambda: False
    plain_tick = window.tick

    def tick(dt: float = 0.0) -> None:
        changed = False
        while True:
            try:
                data, events = link.views.get_nowait()
            except queue.Empty:
                break
            st = state_from_view(data, scenario)
            st.cache["epoch"] = 1_000_000 + int(
                data.get("commands", 0)
            )  # a new view: the screen's caches move on
            ctl.state = st
            ctl.views = EpochCache(st)  # the screen's caches follow the new view
            ctl._record([event_from_json(e) for e in events])
            to_act = data.get("to_act")
            if data.get("result"):
                ctl.say("game over")
            elif to_act not in (None, seat):
                ctl.say(f"waiting for the {to_act.capitalize()} player")
            else:
                ctl.say("your turn")
            changed = True
        if link.error is not None:
            ctl.say(f"network: {link.error}", error=True)
            link.error = None
            changed = True
        if changed:
            window.refresh()
        plain_tick(dt)

    window.tick = tick
    if schedule:
        import pyglet

        pyglet.clock.unschedule(plain_tick)
        pyglet.clock.schedule_interval(tick, 1 / 30)


def run_window(
    url: str,
    seat: str | None,
    token: str | None,
    ssl_context: Any = None,
    give_up: float = 600.0,
    scenario_file: str | None = None,
    timeout: float = 30.0,
) -> int:
    """Open the play window for ``seat`` of the network game at ``url`` (``hexwar join``).

    Raises:
        NoDisplayError: when there is no display (its message offers ``--headless``).
        HexwarError: when no view arrives within ``timeout`` seconds.
    """
    import time

    from ..render import backend

    backend.require_display()
    from .client import SeatClient

    assert seat is not None
    client = SeatClient(
        url,
        seat,
        token,
        policy=None,
        out=lambda s: None,
        give_up=give_up,
        ssl_context=ssl_context,
        scenario_file=scenario_file,
    )
    link = NetLink(client)
    link.start()
    deadline = time.monotonic() + timeout
    first = None
    while first is None and time.monotonic() < deadline:
        if link.error is not None:
            raise HexwarError(str(link.error))
        try:
            first = link.views.get(timeout=0.1)
        except queue.Empty:
            continue
    if first is None:
        raise HexwarError(f"no answer from {url} within {timeout:g} s")
    import pyglet

    other = "soviet" if seat == "german" else "german"
    if client.mode == "lines":  # the card table (R11.1) on a network seat
        from ..ui.lines_screen import LinesWindow

        table = LinesWindow(client.adapter.rebuild(first[0], client.scenario), {other: RemoteSide(other)})
        link.views.put(first)  # the table takes it (with its log lines) on its first poll
        attach_table(table, link, seat, schedule=True)
        pyglet.app.run()
        return 0
    if client.mode == "campaign":  # the campaign screen (R11.2) on a network seat
        from ..ui.campaign_screen import CampaignWindow

        link.views.put(first)
        win = CampaignWindow(campaign_controller(link, seat))
        win.set_visible(True)
        pyglet.app.run()
        return 0
    if client.mode != "hex":
        raise HexwarError(
            f"{url} is a {client.mode} game, which this client cannot show in a window; "
            "join it with --headless (the terminal) or --ai (the computer)"
        )

    from ..game.view import state_from_view
    from ..ui.play_window import PlayWindow

    state = state_from_view(first[0], client.scenario)
    win = PlayWindow(state, ai={other: RemoteSide(other)})
    attach(win, link, seat, schedule=True)
    win.set_visible(True)
    pyglet.app.run()
    return 0


class LoggedLine:
    """A log line of a view (``{"kind", "text", "data"}``) where a screen expects a game event."""

    def __init__(self, j: dict[str, Any]):
        self.kind = str(j.get("kind", ""))
        self.text = str(j.get("text", ""))
        self.data = j.get("data", {})


def attach_table(window: Any, link: NetLink, seat: str, schedule: bool = False) -> None:
    """Make ``window`` (a :class:`~hexwar.ui.lines_screen.LinesWindow` on a view state) play
    ``seat`` of a line game through ``link`` (R11.1, R12.5).

    The table's controller checks the person's command with the same rules on the state rebuilt
    from the view and sends it to the server instead of applying it; it never plays the other
    seat; each new view from the link replaces the table's state (with the log lines the seat
    may see) on :meth:`poll`, which ``schedule`` puts on pyglet's clock.
    """
    from ..lines.table import TableController

    client = link.client
    log: list[LoggedLine] = []

    class NetTable(TableController):
        """The card table of one network seat."""

        def issue(self, cmd: Any) -> bool:
            """Check ``cmd`` on the view and send it to the server (which alone applies it)."""
            why = self.state.check(cmd)
            if why:
                self.message = why
                return False
            if self.state.to_act != seat:
                self.message = "not your turn"
                return False
            link.send(cmd)
            self.message = "sent to the server..."
            self.selected = self.target = None
            self.weapons = ()
            self.at_crew = False
            return True

        def step_ai(self) -> bool:
            """The other seat is played elsewhere: never here."""
            return False

    old = window.ctl
    ctl = NetTable(old.state, ai=dict(old.ai), viewer=seat)
    window.ctl = window.view.ctl = ctl

    def poll(dt: float = 0.0) -> bool:
        changed = False
        while True:
            try:
                data, events = link.views.get_nowait()
            except queue.Empty:
                break
            log.extend(LoggedLine(e) for e in events)
            st = client.adapter.rebuild(data, client.scenario)
            st.log = list(log)
            ctl.state = st
            ctl.viewer = seat
            to_act = data.get("to_act")
            if data.get("result"):
                ctl.message = "game over"
            elif to_act not in (None, seat):
                ctl.message = f"waiting for the {to_act.capitalize()} player"
            elif ctl.message.startswith(("sent", "waiting")):
                ctl.message = "your turn"
            changed = True
        if link.error is not None:
            ctl.message = f"network: {link.error}"
            link.error = None
            changed = True
        return changed

    window.poll = poll
    if schedule:
        import pyglet

        pyglet.clock.schedule_interval(poll, 0.1)


def campaign_controller(link: NetLink, seat: str, timeout: float = 30.0) -> Any:
    """The campaign screen's controller for ``seat`` of a war played through ``link`` (R11.2, R12.5).

    Its commands are checked on the war rebuilt from the view and sent to the server (a
    second command of the same decision, the tactic card after the battle card, waits for the
    server's next view); it never plays the other side; each tick takes the new views (their
    log lines as the seat may see them). Waits up to ``timeout`` seconds for the first view.

    Raises:
        HexwarError: when no view arrives in time.
    """
    import time

    from ..ui.campaign_controller import CampaignController

    client = link.client
    deadline = time.monotonic() + timeout
    first = None
    while first is None:
        try:
            first = link.views.get(timeout=0.1)
        except queue.Empty:
            if time.monotonic() > deadline:
                raise HexwarError(f"no view of {client.url} within {timeout:g} s") from None
    other = "soviet" if seat == "german" else "german"

    class NetCampaign(CampaignController):
        """The campaign screen of one network seat."""

        sent_at: int = -1
        queued: list[Any]

        def _issue(self, cmd: Any) -> bool:
            if self.sent_at == self.commands:  # the server has not answered the last one yet
                self.queued.append(cmd)
                return True
            reason = self.state.check(cmd)
            if reason is not None:
                self.message = reason
                return False
            link.send(cmd)
            self.sent_at = self.commands
            self.message = "sent to the server..."
            return True

        def update(self) -> bool:
            """Take the new views from the link (never a computer move here)."""
            changed = False
            while True:
                try:
                    data, events = link.views.get_nowait()
                except queue.Empty:
                    break
                self.take(data, events)
                changed = True
            if link.error is not None:
                self.message = f"network: {link.error}"
                link.error = None
                changed = True
            return changed

        def take(self, data: dict[str, Any], events: list[dict[str, Any]]) -> None:
            """A new view: the rebuilt war, its log lines, the queued command if it is now due."""
            self.state = client.adapter.rebuild(data, client.scenario)
            self.commands = int(data.get("commands", 0))
            self.log.extend(str(e.get("text", "")) for e in events)
            pending = data.get("pending") or []
            if data.get("result"):
                self.message = "the war is over"
            elif seat not in pending and pending:
                self.message = f"waiting for the {str(pending[0]).capitalize()} player"
            else:
                self.message = "your turn" if not self.queued else self.message
            if self.queued and seat in pending:
                cmd = self.queued.pop(0)
                self._issue(cmd)

    ctl = NetCampaign(client.adapter.rebuild(first[0], client.scenario), ai={other: RemoteSide(other)})
    ctl.queued = []
    ctl.commands = -1
    ctl.take(*first)
    return ctl
