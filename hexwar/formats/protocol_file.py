"""The network protocol's messages (R12.5) as typed models: one model per message type.

Every WebSocket text frame is one JSON object with a ``"type"``. :data:`ClientMessage` is the
discriminated union (on ``type``) of what a client sends (``hello``, ``command``, ``sync``,
``ping``, ``list``, ``create``); :data:`ServerMessage` of what the server sends (``welcome``,
``snapshot``, ``update``, ``seats``, ``error``, ``games``, ``created``, ``pong``). The server
validates every incoming frame by the first (:func:`hexwar.net.protocol.parse_client_message`),
the client every incoming frame by the second (:func:`hexwar.net.protocol.parse_server_message`).
The models are strict (no ``"3"`` for 3) and a client message refuses unknown fields.

Each mode's game commands (``command.command``, and each entry of ``legal``) and the keys of its
view are declared in :mod:`hexwar.formats.protocol_commands` (:data:`MODE_COMMANDS`, :data:`MODE_VIEWS`): ``hexwar schema
protocol`` prints them under ``$defs.hex_command`` ... ``$defs.campaign_view``, and
docs/protocol.md's message reference is generated from them (``tools/protocol_docs.py``). What
a model cannot say (a unit that exists, a command the rules allow now, the connection's own
seat) is the server's and the game mode's check after the model (:mod:`hexwar.net.server`, each
mode's ``command_from_json``).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Annotated, Any, Literal

import pydantic
from pydantic import ConfigDict, Field, TypeAdapter, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from ..errors import Problem
from ..model.filemodel import EXACT, SCHEMA_DIALECT, FileModel, error_details, problems_of
from .protocol_commands import COMMAND_FIELDS, MODE_COMMANDS, MODE_VIEWS, MODES, Mode, Side

__all__ = [
    "PROTOCOL_VERSION",
    "MODES",
    "CLIENT_TYPES",
    "SERVER_TYPES",
    "ERROR_CODES",
    "HELLO_HINT",
    "HelloMessage",
    "CommandMessage",
    "GameCommand",
    "SyncMessage",
    "PingMessage",
    "ListMessage",
    "CreateMessage",
    "ClientMessage",
    "WelcomeMessage",
    "SnapshotMessage",
    "UpdateMessage",
    "SeatsMessage",
    "ErrorMessage",
    "GamesMessage",
    "CreatedMessage",
    "PongMessage",
    "ServerMessage",
    "MODE_COMMANDS",
    "MODE_VIEWS",
    "CLIENT_MODELS",
    "SERVER_MODELS",
    "protocol_schema",
]

PROTOCOL_VERSION = 1
CLIENT_TYPES = ("hello", "command", "sync", "ping", "list", "create")
SERVER_TYPES = ("welcome", "snapshot", "update", "seats", "error", "games", "created", "pong")
ERROR_CODES = (
    "bad_json",
    "bad_message",
    "too_big",
    "rate",
    "protocol",
    "auth",
    "seat_taken",
    "no_game",
    "spectator",
    "not_your_seat",
    "stale",
    "bad_command",
    "illegal",
    "over",
    "limit",
    "server",
)
HELLO_HINT = 'a hello takes a seat with "seat" and "token", or watches with "watch": true'
MAX_SEQ = 1_000_000_000
MAX_COMMAND_FIELDS = 16

Json = dict[str, Any]
#: the default of a field that may be left out but is never null: the model reads it as absent
#: (``model_fields_set``, ``exclude_unset``); a client's explicit ``null`` is refused
_ABSENT: Any = None


def _seat_rule(seat: bool, token: bool, watch: bool) -> bool:
    """A hello takes a seat (``seat`` and ``token``, no ``watch``) or watches (only ``watch``)."""
    return (seat and token and not watch) or (watch and not seat and not token)


# -- client messages -------------------------------------------------------------------------------
class _Message(FileModel):
    """A protocol message: strict types, unknown fields refused."""


class HelloMessage(_Message):
    """First message on ``/GAME``: take a seat with its token, or watch."""

    model_config = ConfigDict(
        json_schema_extra={
            "oneOf": [
                {"required": ["seat", "token"], "not": {"required": ["watch"]}},
                {"required": ["watch"], "not": {"anyOf": [{"required": ["seat"]}, {"required": ["token"]}]}},
            ]
        }
    )

    type: Literal["hello"] = Field(description='"hello"')
    protocol: Annotated[Literal[1], EXACT] = Field(description="1 (the protocol version this client speaks)")
    seat: Side = Field(_ABSENT, description='the seat to take: "german" or "soviet" (with its token)')
    token: str = Field(
        _ABSENT, min_length=1, max_length=128, description="the seat's token (1-128 characters)"
    )
    watch: Literal[True] = Field(_ABSENT, description="true: watch as a spectator (no seat, no token)")
    client: str = Field(_ABSENT, max_length=64, description="the client's name (up to 64 characters)")

    @field_validator("protocol", "watch", mode="before")
    @classmethod
    def _exact_type(cls, value: Any, info: ValidationInfo) -> Any:
        """``protocol`` is the integer 1 and ``watch`` the boolean true, not ``true`` for 1 or
        ``1.0`` / ``1`` for true: a strict model's ``Literal`` alone lets Python's ``True == 1``
        through (R12.5: a wrong type is refused naming the field)."""
        if type(value) is not (int if info.field_name == "protocol" else bool):
            raise PydanticCustomError("literal_error", "not the exact JSON type")
        return value

    @model_validator(mode="after")
    def _seat_or_watch(self) -> HelloMessage:
        fields = self.model_fields_set
        if not _seat_rule("seat" in fields, "token" in fields, "watch" in fields):
            raise PydanticCustomError("value_error", HELLO_HINT)
        return self


class GameCommand(FileModel):
    """One game command as its mode writes it in saves (``command.command``, an entry of ``legal``):
    ``cmd``, the seat (``side`` in the hex game and the campaign, ``seat`` on lines, never both)
    and the command's own fields (each mode's fields: ``$defs.MODE_command``). The mode's
    ``command_from_json`` reads the fields after this model."""

    model_config = ConfigDict(
        extra="allow",
        json_schema_extra={
            "maxProperties": MAX_COMMAND_FIELDS,
            "oneOf": [
                {"required": ["side"], "not": {"required": ["seat"]}},
                {"required": ["seat"], "not": {"required": ["side"]}},
            ],
        },
    )

    cmd: str = Field(max_length=40, description="the command's name (up to 40 characters)")
    side: Side = Field(
        _ABSENT, description='the seat issuing it in the hex game and the campaign: "german" or "soviet"'
    )
    seat: Side = Field(_ABSENT, description='the seat issuing it on lines: "german" or "soviet"')

    @model_validator(mode="after")
    def _one_seat(self) -> GameCommand:
        named = {"side", "seat"} & self.model_fields_set
        if len(named) != 1:
            raise PydanticCustomError(
                "value_error",
                'a command names its seat with "side" (hex, campaign) or "seat" (lines), '
                + ("not both" if named else "and has neither"),
            )
        fields = len(self.model_fields_set | set(self.model_extra or {}))  # the set holds the extras too
        if fields > MAX_COMMAND_FIELDS:
            raise PydanticCustomError(
                "value_error", f"{fields} fields; a command has at most {MAX_COMMAND_FIELDS}"
            )
        return self


class CommandMessage(_Message):
    """One game command for the seat this connection holds; ``seq`` must equal the number of
    commands the game has applied (a stale or replayed command is refused)."""

    type: Literal["command"] = Field(description='"command"')
    seq: int = Field(
        ge=0, le=MAX_SEQ, description=f"an integer 0..{MAX_SEQ} (the number of commands the game has applied)"
    )
    command: GameCommand = Field(description="a game command: an object with cmd and side (or seat)")


class SyncMessage(_Message):
    """Ask for a fresh view snapshot (after a view hash mismatch)."""

    type: Literal["sync"] = Field(description='"sync"')


class PingMessage(_Message):
    """Keep-alive, on both paths; answered with ``pong`` (with the same ``id``)."""

    type: Literal["ping"] = Field(description='"ping"')
    id: int = Field(_ABSENT, description="an integer, sent back in the pong")


class ListMessage(_Message):
    """Lobby (path ``/``): list the games and their free seats."""

    type: Literal["list"] = Field(description='"list"')


class CreateMessage(_Message):
    """Lobby (path ``/``): create a game of a shipped scenario; the reply carries both seats' tokens."""

    type: Literal["create"] = Field(description='"create"')
    mode: Mode = Field(_ABSENT, description="the game mode; without it, the scenario's own")
    scenario: str = Field(
        pattern=r"^[A-Za-z0-9_-]{1,64}$",
        description="a shipped scenario (hex or line) or a campaign preset: 1-64 letters, digits, _ or -",
    )
    fog: bool = Field(_ABSENT, description="true: fog of war (the hex game only)")
    key: str = Field(
        _ABSENT,
        max_length=200,
        description="the host's create key (hexwar serve --create-key); without it the lobby creates no games",
    )


ClientMessage = Annotated[
    HelloMessage | CommandMessage | SyncMessage | PingMessage | ListMessage | CreateMessage,
    Field(discriminator="type"),
]
CLIENT_MODELS: dict[str, type[_Message]] = {
    "hello": HelloMessage,
    "command": CommandMessage,
    "sync": SyncMessage,
    "ping": PingMessage,
    "list": ListMessage,
    "create": CreateMessage,
}


# -- server messages -------------------------------------------------------------------------------
class _ServerMessage(FileModel):
    """A message the server sends; every one carries ``"protocol": 1``."""

    protocol: Annotated[Literal[1], EXACT] = Field(1, description="1 (the protocol version)")


class ScenarioInfo(FileModel):
    """What the game was made from: the client loads its own copy and checks the hash."""

    id: str = Field(description="the scenario's id (a campaign: its preset)")
    name: str = Field(description="its name")
    content_hash: str = Field(description="SHA-256 of its content (a campaign: of the cards)")
    reference: str = Field(description="the name it was given by (its file's stem, or the preset)")


class SeatInfo(FileModel):
    """One seat's state."""

    connected: bool = Field(description="a connection holds the seat")


class WelcomeMessage(_ServerMessage):
    """After a good ``hello`` (also after every reconnect): the seat's whole view."""

    type: Literal["welcome"] = Field(description='"welcome"')
    game: str = Field(description="the game's id")
    mode: Mode
    seat: Side | None = Field(description="the connection's seat; null for a spectator")
    scenario: ScenarioInfo = Field(description="the game's scenario")
    view: Json = Field(description="the seat's view ($defs.MODE_view)")
    log: list[Json] = Field(description="the events the seat may see: {kind, text, data}")
    view_hash: str = Field(description="SHA-256 of the view as JSON, sorted keys, no spaces")
    seq: int = Field(description="commands applied so far")
    seats: dict[str, SeatInfo] = Field(description="per seat: connected or not")
    waiting_for: Side | None = Field(description="the seat to act when nobody holds it, else null")
    legal: list[GameCommand] = Field(
        _ABSENT, description="every command the seat may send now (only to the seat to act, only then)"
    )


class SnapshotMessage(WelcomeMessage):
    """After ``sync``, or after a ``stale`` command: as ``welcome``."""

    type: Literal["snapshot"] = Field(description='"snapshot"')  # type: ignore[assignment]


class UpdateMessage(_ServerMessage):
    """After every applied command, to every connection of the game."""

    type: Literal["update"] = Field(description='"update"')
    game: str = Field(_ABSENT, description="the game's id")
    seq: int = Field(description="commands applied so far")
    events: list[Json] = Field(description="the new events the seat may see: {kind, text, data}")
    delta: Json = Field(
        description='turns the previous view into the new one: {"$set", "$del"} or {"$value"}'
    )
    view_hash: str = Field(description="SHA-256 of the new view")
    state_hash: str = Field(
        _ABSENT, description="not sent (a hash of the whole state would tell hidden cards)"
    )
    to_act: Side | None = Field(_ABSENT, description="the seat to act; null when the game is over")
    waiting_for: Side | None = Field(_ABSENT, description="the seat to act when nobody holds it, else null")
    legal: list[GameCommand] = Field(_ABSENT, description="as in welcome")


class SeatsMessage(_ServerMessage):
    """A seat connected or left."""

    type: Literal["seats"] = Field(description='"seats"')
    game: str = Field(_ABSENT, description="the game's id")
    seats: dict[str, SeatInfo] = Field(description="per seat: connected or not")
    waiting_for: Side | None = Field(_ABSENT, description="the seat to act when nobody holds it, else null")


class ErrorMessage(_ServerMessage):
    """Any refusal; the connection stays open unless the code says otherwise (docs/protocol.md)."""

    type: Literal["error"] = Field(description='"error"')
    code: Literal[ERROR_CODES] = Field(description="the error code")  # type: ignore[valid-type]
    message: str = Field(description="what was refused and why, naming the field")
    seq: int = Field(_ABSENT, description="the seq of the refused command")


class GameListing(FileModel):
    """One game of the lobby's list."""

    game: str = Field(description="the game's id")
    mode: Mode
    scenario: str = Field(description="the scenario's id")
    name: str = Field(description="the scenario's name")
    free_seats: list[Side] = Field(description="seats nobody holds")
    seats: dict[str, SeatInfo] = Field(description="per seat: connected or not")
    spectators: int = Field(description="spectators connected")
    turn: int = Field(description="the turn (a campaign: the year)")
    phase: str = Field(description="the phase")
    fog: bool = Field(description="fog of war")
    result: str | None = Field(description="the result, or null while the game goes on")


class GamesMessage(_ServerMessage):
    """The lobby's answer to ``list``."""

    type: Literal["games"] = Field(description='"games"')
    games: list[GameListing] = Field(description="every game on the server")
    scenarios: list[str] = Field(
        _ABSENT, description="what create may name: shipped scenarios and campaign presets"
    )


class CreatedMessage(_ServerMessage):
    """The lobby's answer to ``create``."""

    type: Literal["created"] = Field(description='"created"')
    game: str = Field(description="the new game's id")
    mode: Mode
    tokens: dict[str, str] = Field(description="seat -> its secret token")


class PongMessage(_ServerMessage):
    """The answer to ``ping``."""

    type: Literal["pong"] = Field(description='"pong"')
    id: int = Field(_ABSENT, description="the ping's id")


ServerMessage = Annotated[
    WelcomeMessage
    | SnapshotMessage
    | UpdateMessage
    | SeatsMessage
    | ErrorMessage
    | GamesMessage
    | CreatedMessage
    | PongMessage,
    Field(discriminator="type"),
]
SERVER_MODELS: dict[str, type[_ServerMessage]] = {
    "welcome": WelcomeMessage,
    "snapshot": SnapshotMessage,
    "update": UpdateMessage,
    "seats": SeatsMessage,
    "error": ErrorMessage,
    "games": GamesMessage,
    "created": CreatedMessage,
    "pong": PongMessage,
}


# -- the schema ------------------------------------------------------------------------------------
@cache
def _adapter(kind: str) -> TypeAdapter[Any]:
    if kind == "client":
        return TypeAdapter(ClientMessage)
    if kind == "server":
        return TypeAdapter(ServerMessage)
    mode, what = kind.split("_")
    if what == "view":
        return TypeAdapter(MODE_VIEWS[mode])
    models = tuple(MODE_COMMANDS[mode].values())
    # a type built at run time: typed Any, so that no pydantic's TypeAdapter stub refuses it
    tagged: Any = Annotated[(models[0] if len(models) == 1 else _union(models)), Field(discriminator="cmd")]
    return TypeAdapter(tagged)


def _union(models: tuple[Any, ...]) -> Any:
    u = models[0]
    for m in models[1:]:
        u = u | m
    return u


#: the $defs names of the message models (the names docs/protocol.md and the tests use)
_DEF_NAMES = {
    **{m.__name__: t for t, m in CLIENT_MODELS.items()},
    **{m.__name__: f"server_{t}" for t, m in SERVER_MODELS.items()},
    "GameCommand": "game_command",
}


def _rename(node: Any) -> Any:
    if isinstance(node, list):
        return [_rename(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        if (k == "title" and isinstance(v, str)) or (k == "default" and v is None):
            continue  # no generated titles; an optional field is one not required, never null
        if k == "$ref" and isinstance(v, str):
            name = v.rsplit("/", 1)[-1]
            v = f"#/$defs/{_DEF_NAMES.get(name, name)}"
        elif k == "mapping" and isinstance(v, dict):
            v = {
                t: f"#/$defs/{_DEF_NAMES.get(r.rsplit('/', 1)[-1], r.rsplit('/', 1)[-1])}"
                for t, r in v.items()
            }
        out[k] = _rename(v)
    return out


@cache
def _protocol_schema_text() -> str:
    defs: dict[str, Any] = {}
    bodies: dict[str, Any] = {}
    kinds = ["client", "server"] + [f"{m}_{w}" for m in MODES for w in ("command", "view")]
    for kind in kinds:
        body = _adapter(kind).json_schema(ref_template="#/$defs/{model}")
        for name, d in body.pop("$defs", {}).items():
            defs[_DEF_NAMES.get(name, name)] = d
        bodies[kind] = body
    client = bodies.pop("client")
    defs["server"] = {
        "description": 'Messages the server sends (every one with "protocol": 1; docs/protocol.md).',
        **bodies.pop("server"),
    }
    for kind, body in bodies.items():
        mode, what = kind.split("_")
        desc = (
            f"A {mode} command (command.command, and each entry of legal) with its fields."
            if what == "command"
            else f"The view of a {mode} game (welcome/snapshot view; see docs/protocol.md 'The view')."
        )
        if "$ref" in body:  # a one-model body: the model's own def
            body = {"allOf": [body]}
        defs[kind] = {"description": desc, **body}
    defs["side"] = {"enum": ["german", "soviet"]}
    defs["mode"] = {"enum": list(MODES)}
    defs["legal"] = {
        "description": "Every command the seat may send now (in welcome, snapshot and update, only to the "
        "seat to act): entries of $defs.MODE_command; send one unchanged as command.command.",
        "type": "array",
        "items": {"$ref": "#/$defs/game_command"},
    }
    doc = {
        "$schema": SCHEMA_DIALECT,
        "$id": "urn:hexwar:schema:protocol",
        "title": f"hexwar network protocol, version {PROTOCOL_VERSION} (docs/protocol.md)",
        "description": "Messages a client sends to a hexwar server (hexwar serve). Each WebSocket text frame is "
        'one JSON object with a "type". Server messages are under $defs.server, each mode\'s commands and '
        "views under $defs.MODE_command and $defs.MODE_view. Generated from hexwar.formats.protocol_file.",
        "type": "object",
        "required": ["type"],
        **client,
        "$defs": dict(sorted(defs.items())),
    }
    return json.dumps(_rename(doc), indent=2, ensure_ascii=False) + "\n"


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the protocol, generated from the models (``hexwar
    schema protocol``): the client messages at the root, ``$defs.server``, ``$defs.legal`` and
    each mode's ``$defs.MODE_command`` / ``$defs.MODE_view``. A new dict on every call."""
    return json.loads(_protocol_schema_text())  # type: ignore[no-any-return]


def client_adapter() -> TypeAdapter[Any]:
    """The :class:`~pydantic.TypeAdapter` of :data:`ClientMessage` (built once)."""
    return _adapter("client")


def server_adapter() -> TypeAdapter[Any]:
    """The :class:`~pydantic.TypeAdapter` of :data:`ServerMessage` (built once)."""
    return _adapter("server")


__all__ += ["client_adapter", "server_adapter", "COMMAND_FIELDS"]


MAX_WHERE = 80  # characters of a field path in a report (a key may be 60,000 characters long)


def message_problems(
    data: Any, src: str = "", server: bool = False, limit: int = 200, error: Any = None
) -> list[Problem]:
    """Every way ``data`` (a parsed frame) breaks its message model, as problems naming the field.

    Args:
        data: the parsed JSON value.
        src: the file name for the reports (``""`` for a frame off a socket).
        server: check it as a server message (:data:`ServerMessage`), else as a client message.
        limit: report at most this many problems, then one ``... and N more problems`` (with
            ``where`` empty): a 64 KiB frame of 5,000 unknown fields costs no more than a few.
        error: the :class:`pydantic.ValidationError` of validating ``data`` already, if any
            (so it is not validated twice).

    Returns:
        problems in the message's field order (empty when it fits). The union's errors carry
        the message type first in their location; it is taken off, and the member model's
        field descriptions word each problem (:func:`hexwar.model.filemodel.problems_of`). A
        problem of the whole message is named by its type; a type that is none of the
        protocol's is one problem on ``type``.
    """
    models: dict[str, Any] = SERVER_MODELS if server else CLIENT_MODELS
    if not isinstance(data, dict):
        return [Problem(src, "", f'expected a JSON object with a "type", got {type(data).__name__}')]
    tag = data.get("type")
    known = models[tag].model_fields if isinstance(tag, str) and tag in models else None
    dropped = 0
    if known is not None and len(data) > len(known) + limit:  # a flood of unknown fields: the first
        extra = [k for k in data if k not in known]  # ones tell it; pydantic's error list for all
        dropped = len(extra) - limit  # of them would cost 10 times the old check
        data = {k: v for k, v in data.items() if k in known} | {k: data[k] for k in extra[:limit]}
        error = None
    if error is None:
        try:
            (server_adapter() if server else client_adapter()).validate_python(data)
            return []
        except pydantic.ValidationError as exc:
            error = exc
    errors = error.errors(include_url=False)
    kind = data.get("type")
    if (
        not isinstance(kind, str)
        or kind not in models
        or any(e["type"].startswith("union_tag") for e in errors)
    ):
        return [Problem(src, "type", f"expected one of {list(models)}, got {str(kind)[:40]!r}")]
    details = error_details(error)[:limit]
    for d in details:
        d["loc"] = tuple(d["loc"])[1:]  # the tag (the message type) first: not a field
    out = []
    for p in problems_of(pydantic.ValidationError.from_exception_data(kind, details), models[kind], src):
        where = p.where or kind
        out.append(
            Problem(src, where if len(where) <= MAX_WHERE else where[: MAX_WHERE - 3] + "...", p.message)
        )
    if len(errors) + dropped > limit:
        out.append(Problem(src, "", f"... and {len(errors) + dropped - limit} more problems"))
    return out


__all__ += ["message_problems"]
