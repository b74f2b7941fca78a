"""The base of the hex game's own events: :class:`Event`, and the registry of typed kinds
(:class:`TypedEvent` subclasses with :class:`DataField` attributes, :data:`EVENT_CLASSES`).

:mod:`hexwar.game.event_kinds` defines the kinds on this base and :mod:`hexwar.game.events`
(rolls, rules events, JSON, the recorder) re-exports it and imports the kinds so they are
registered; neither imports the other back (issue 34: no import loop between the events and
their kinds).

>>> class _Demo(TypedEvent):
...     KIND = "demo-only"
...     unit = DataField[str]()
>>> sorted(_Demo.REQUIRED), fits("demo-only", {"unit": "x"}), fits("demo-only", {})
(['unit'], True, False)
>>> _ = EVENT_CLASSES.pop("demo-only")
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar, overload

__all__ = ["EVENT_CLASSES", "DataField", "Event", "TypedEvent", "event_class", "fits"]


@dataclass(frozen=True, slots=True)
class Event:
    """One thing the game itself reports (not a rules module's event, not a roll).

    Attributes:
        kind: a short machine-readable name, e.g. ``"commit"``, ``"move"``, ``"phase"``,
            ``"initiative"``, ``"victory"``.
        text: one readable line for the turn-by-turn log (hex labels, card names).
        data: JSON-ready details (unit instance ids, hex labels, numbers).
    """

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_json(self) -> dict[str, Any]:
        """The log form ``{"kind", "text", "data"}`` (same as
        :func:`hexwar.game.events.event_to_json`, which gives this very dict for an ``Event``)."""
        return {"kind": self.kind, "text": self.text, "data": self.data}

    def __str__(self) -> str:
        return self.text


T = TypeVar("T")

#: kind -> its class (filled by :class:`TypedEvent` subclasses as they are defined)
EVENT_CLASSES: dict[str, type[Event]] = {}


class DataField(Generic[T]):
    """A typed read-only attribute of an event class, read from the event's ``data[key]``.

    Args:
        key: the JSON key when it differs from the attribute's name (``"from"``).
        optional: the key may be absent (the attribute is then ``None``).
    """

    def __init__(self, key: str | None = None, *, optional: bool = False):
        self.key = key
        self.optional = optional

    def __set_name__(self, owner: type, name: str) -> None:
        if self.key is None:
            self.key = name

    @overload
    def __get__(self, obj: None, owner: type) -> DataField[T]: ...

    @overload
    def __get__(self, obj: Event, owner: type) -> T: ...

    def __get__(self, obj: Event | None, owner: type) -> T | DataField[T]:
        if obj is None:
            return self
        assert self.key is not None
        return obj.data.get(self.key) if self.optional else obj.data[self.key]  # type: ignore[no-any-return,return-value]


class TypedEvent(Event):
    """Base of the registered kinds (:mod:`hexwar.game.event_kinds`): declares ``KIND`` and the data keys (its :class:`DataField` attributes)."""

    __slots__ = ()
    KIND: ClassVar[str] = ""
    #: required and optional data keys, from the class's :class:`DataField` attributes
    REQUIRED: ClassVar[frozenset[str]] = frozenset()
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()
    #: a kind whose data is a whole other object's JSON (the result) takes any further keys
    OPEN: ClassVar[bool] = False

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        req: set[str] = set()
        opt: set[str] = set()
        for klass in reversed(cls.__mro__):
            for v in vars(klass).values():
                if isinstance(v, DataField):
                    (opt if v.optional else req).add(str(v.key))
        cls.REQUIRED, cls.OPTIONAL = frozenset(req), frozenset(opt)
        if cls.KIND:
            assert cls.KIND not in EVENT_CLASSES, f"event kind {cls.KIND!r} defined twice"
            EVENT_CLASSES[cls.KIND] = cls

    def __init__(self, text: str, data: dict[str, Any] | None = None):
        """An event of this kind with its log ``text`` and JSON-ready ``data``.

        Raises:
            TypeError: when ``data`` lacks a required key or has one the kind does not know.
        """
        data = {} if data is None else data
        problem = _misfit(type(self), data)
        if problem:
            raise TypeError(f"{type(self).__name__} ({self.KIND!r}): {problem}")
        super().__init__(self.KIND, text, data)


def _misfit(cls: type[TypedEvent], data: dict[str, Any]) -> str | None:
    missing = sorted(cls.REQUIRED - data.keys())
    extra = [] if cls.OPEN else sorted(data.keys() - cls.REQUIRED - cls.OPTIONAL)
    if missing or extra:
        return "; ".join(
            ([f"missing data {', '.join(missing)}"] if missing else [])
            + ([f"unknown data {', '.join(extra)}"] if extra else [])
        )
    return None


def event_class(kind: str) -> type[TypedEvent]:
    """The class of a registered event ``kind``.

    Raises:
        KeyError: for a kind the hex game does not report.
    """
    cls = EVENT_CLASSES[kind]
    assert issubclass(cls, TypedEvent)
    return cls


def fits(kind: str, data: dict[str, Any]) -> bool:
    """Whether ``data`` has exactly the keys of the registered ``kind`` (False for other kinds)."""
    cls = EVENT_CLASSES.get(kind)
    return cls is not None and issubclass(cls, TypedEvent) and _misfit(cls, data) is None
