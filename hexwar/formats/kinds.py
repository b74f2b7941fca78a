"""The file kinds ``hexwar schema KIND`` prints (issue 34), in a module of their own.

A list with no imports, so that the command line can offer the kinds as its choices without
building any model at start-up; :mod:`hexwar.formats.schema` generates each kind's schema.
"""

from __future__ import annotations

__all__ = ["SCHEMA_KINDS"]

SCHEMA_KINDS: tuple[str, ...] = (
    "map",
    "scenario",
    "lines",
    "save",
    "protocol",
    "cards",
    "campaign",
    "campaign-save",
    "deck",
    "terrain",
    "wrecks",
    "effects",
    "looks",
)
"""Every kind of ``hexwar schema KIND``: the hexwar file kinds and the network messages."""
