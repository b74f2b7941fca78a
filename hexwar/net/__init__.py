"""Network play (R12.5): the authoritative game server, the client, and their JSON protocol.

Layers: ``cli > net > ui`` (docs/architecture.md): :mod:`hexwar.net.server` (``hexwar serve``)
hosts games through :mod:`hexwar.net.modes` adapters over :mod:`hexwar.game`;
:mod:`hexwar.net.client` (``hexwar join``) keeps one seat's view; :mod:`hexwar.net.protocol`
checks every message against the shipped JSON Schema; :mod:`hexwar.net.window` puts the play
window on a network seat. The protocol is documented in docs/protocol.md.
"""
