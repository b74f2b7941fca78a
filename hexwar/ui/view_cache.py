"""Derived views of the play screen (legal commands, reach, targets, odds), cached per game
epoch: every command bumps ``state.cache["epoch"]`` and every map change ``battlemap.version``,
so a cached value is never shown after the game or the map changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..game.state import GameState

__all__ = ["EpochCache"]


class EpochCache:
    """A small cache keyed by ``(key, epoch)``.

    Args:
        state: the game whose epoch keys the entries.
        limit: entries kept before the cache is emptied (bounded memory).
    """

    def __init__(self, state: GameState, limit: int = 256) -> None:
        self.state, self.limit = state, limit
        self._data: dict[Any, Any] = {}

    def epoch(self) -> tuple[int, int]:
        """``(command epoch, map version)`` of the game now."""
        return (self.state.cache.get("epoch", 0), self.state.battlemap.version)

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        """The value for ``key`` at the current epoch, made by ``make()`` when missing."""
        k = (key, self.epoch())
        if k not in self._data:
            if len(self._data) > self.limit:
                self._data.clear()
            self._data[k] = make()
        return self._data[k]
