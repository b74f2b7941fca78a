"""What a network client must hold locally before it plays: the scenario whose content hash is
the server's (R12.5), and the error that ends a client for good.

Both the client (:mod:`hexwar.net.client`) and the mode adapters (:mod:`hexwar.net.mode_base`,
:mod:`hexwar.net.campaign_mode`) use them, so they live below both (issue 34: no import loop
between the client and the modes).
"""

from __future__ import annotations

from typing import Any

from ..errors import HexwarError

__all__ = ["FatalClientError", "load_scenario_for"]


class FatalClientError(HexwarError):
    """The server refused this client for good (wrong token, no such game, wrong scenario)."""


def load_scenario_for(info: dict[str, Any], extra: str | None = None) -> Any:
    """The local scenario matching the server's ``{"id", "content_hash", "reference"}``.

    Args:
        info: the welcome's ``scenario``.
        extra: a scenario file to try first (``hexwar join --scenario FILE`` for a scenario
            that is not shipped).

    Raises:
        FatalClientError: when no installed scenario has that content hash.
    """
    from ..game.scenario import find_scenario, load_scenario

    for name in dict.fromkeys([extra or "", str(info.get("reference") or ""), str(info.get("id") or "")]):
        if not name:
            continue
        try:
            sc = load_scenario(find_scenario(name))
        except HexwarError:
            continue
        if sc.content_hash == info.get("content_hash"):
            return sc
    raise FatalClientError(
        f"the server plays scenario {info.get('id')!r} (content {str(info.get('content_hash'))[:12]}...), "
        "which is not installed here in the same version"
    )
