"""Errors that carry user-facing problem reports (file, field or hex, what was expected)."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "HexwarError",
    "Problem",
    "ValidationError",
    "format_problems",
    "clip",
    "small_uint",
    "printable",
    "CLIP_CHARS",
]

CLIP_CHARS = 80  # echoed values are cut to about this many characters (issue 13 item 9)
_MAX_MESSAGE = 600  # a backstop: no single problem message runs longer than this


def small_uint(text: object, digits: int = 9) -> int | None:
    """``text`` as a whole number >= 0 when it is plain ASCII digits (or an int) of at most
    ``digits`` digits, else ``None``.

    Typed or read numbers go through this instead of ``str.isdigit()`` and ``int()``: those
    take ``"²"`` for a digit (then ``int`` fails) and turn a 5000-digit text into a
    ``ValueError`` (Python's 4300-digit limit) - tracebacks, never a refusal.

    >>> small_uint("12"), small_uint("²"), small_uint("9" * 5000), small_uint("-1"), small_uint(7)
    (12, None, None, None, 7)
    """
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        return text if 0 <= text < 10**digits else None
    if isinstance(text, str) and text.isascii() and text.isdigit() and len(text) <= digits:
        return int(text)
    return None


# C0 controls but tab and newline, DEL, the C1 controls (U+0080-U+009F: CSI, OSC ...), and the
# invisible format characters that reorder or hide text (bidi overrides, isolates, zero widths,
# line and paragraph separators, the BOM)
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
_UNPRINTABLE_KEEP_CR = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]"
)


def printable(text: str, keep_cr: bool = False) -> str:
    r"""``text`` with every terminal control character escaped as ``\uXXXX`` (issue 33).

    The one sanitizer for strings from files and sockets on their way to a terminal: ESC
    and BEL sequences in a downloaded save must not retitle or recolour the user's terminal,
    and bidi overrides must not reorder what is shown. Newlines and tabs are kept; carriage
    returns too when ``keep_cr`` (progress bars on stderr redraw with them). The escape form
    is also valid inside a JSON string, so ``--json`` output stays parseable.

    >>> printable("a\x1b]0;pwned\x07b\n")
    'a\\u001b]0;pwned\\u0007b\n'
    """
    pat = _UNPRINTABLE_KEEP_CR if keep_cr else _UNPRINTABLE
    return pat.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def clip(value: object, limit: int = CLIP_CHARS, quote: bool = True) -> str:
    """A value echoed in a message, cut to about ``limit`` characters.

    Text is shown quoted (``repr``) unless ``quote`` is false and it has no control
    characters (a newline would break the one-line message); an empty text is ``''``
    (never a blank that reads as a double space); longer values end with
    ``... (N characters)``.

    >>> clip("x" * 100_000)[-26:]
    'xxx... (100000 characters)'
    >>> clip("")
    "''"
    >>> clip("de-pz4g", quote=False)
    'de-pz4g'
    >>> clip("german=a\\nb.toml", quote=False)
    "'german=a\\\\nb.toml'"
    """
    if isinstance(value, str):
        # unquoted only when it reads as itself: a newline or other control character
        # would break the one-line message, so such a value is quoted with its escapes
        text = repr(value) if quote or not value or not value.isprintable() else value
        n = len(value)
    else:
        text = repr(value)
        n = len(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({n} characters)"


class HexwarError(Exception):
    """Base of every error hexwar reports to a user as one clear message, never a traceback."""


def cannot(doing: str, path: object, exc: BaseException) -> str:
    """One message for a failed file operation: ``"cannot continue saves/a.json: cut short"``.

    Args:
        doing: the operation, a verb phrase (``"continue"``, ``"open"``).
        path: the file's path as the user gave it.
        exc: the error; a message that already starts with ``path`` (``"saves/a.json: ..."``, as
            :class:`Problem` and the loaders write them) is not given the path a second time.

    Returns:
        the message text (no exception is raised).
    """
    where = str(path)
    msg = str(exc)
    if msg.startswith(where + ": "):
        msg = msg[len(where) + 2 :]
    return f"cannot {doing} {where}: {msg}"


def unnamed(exc: BaseException, name: str) -> str:
    """The text of ``exc`` without a leading ``"NAME: "`` for a message that names the value
    itself (``"--deck german=x.toml: resolves to ..."``, not ``"--deck german=x.toml: 'x.toml':
    resolves to ..."``).

    Args:
        exc: the error.
        name: the value as the user gave it; its :func:`clip` (quoted or not) is what the
            message may start with.

    Returns:
        the message text (no exception is raised).

    >>> unnamed(HexwarError("'x.toml': is a folder"), "x.toml")
    'is a folder'
    """
    msg = str(exc)
    for head in (clip(name), clip(name, quote=False), str(name)):
        if head and msg.startswith(head + ": "):
            return msg[len(head) + 2 :]
    return msg


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found in a file.

    Attributes:
        file: the file's path as given (or ``"<memory>"``).
        where: the field path (``terrain[3]``, ``features.D07.wrecks``) or hex label.
        message: what is wrong and what was expected.
    """

    file: str
    where: str
    message: str

    def __post_init__(self) -> None:
        if len(self.where) > 120:
            object.__setattr__(self, "where", clip(self.where, 100, quote=False))
        if len(self.message) > _MAX_MESSAGE:
            object.__setattr__(self, "message", clip(self.message, _MAX_MESSAGE - 40, quote=False))

    def __str__(self) -> str:
        return f"{self.file}: {self.where}: {self.message}" if self.where else f"{self.file}: {self.message}"


class ValidationError(HexwarError):
    """Raised with every problem found in a file at once (collect-all-errors).

    Attributes:
        problems: the list of :class:`Problem`, in file order.
    """

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__(format_problems(self.problems))


def format_problems(problems: list[Problem]) -> str:
    """One line per problem, prefixed by a count line."""
    n = len(problems)
    head = f"{n} problem{'s' if n != 1 else ''} found:"
    return "\n".join([head] + [f"  - {p}" for p in problems])
