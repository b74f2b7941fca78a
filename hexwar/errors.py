"""Errors that carry user-facing problem reports (file, field or hex, what was expected)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["HexwarError", "Problem", "ValidationError", "format_problems"]


class HexwarError(Exception):
    """Base of every error hexwar reports to a user as one clear message, never a traceback."""


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
