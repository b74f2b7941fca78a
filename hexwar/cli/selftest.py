"""``hexwar selftest [--los] [--rules] [--json]``: run the shipped conformance cases (issue 13)."""

from __future__ import annotations

import click

from . import echo_json

__all__ = ["selftest"]


def _short(d: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in d.items())


@click.command()
@click.option("--los", "los", is_flag=True, help="Only the line-of-sight cases (R3).")
@click.option("--rules", "rules", is_flag=True, help="Only the seeds' worked rule examples (R6, R8, R9).")
@click.option("--json", "as_json", is_flag=True, help="Print every case as JSON.")
def selftest(los: bool, rules: bool, as_json: bool) -> int:
    """Check this build against the shipped conformance cases; exit 1 if any fails.

    Each case is printed with what was expected and what this build answered.
    """
    from ..selftest import SUITES, run_selftest

    suites = tuple(s for s, on in (("los", los), ("rules", rules)) if on) or SUITES
    results = run_selftest(suites)
    failed = [r for r in results if not r.ok]
    if as_json:
        echo_json(
            {
                "ok": not failed,
                "passed": len(results) - len(failed),
                "failed": len(failed),
                "cases": [r.to_json() for r in results],
            }
        )
    else:
        for r in results:
            click.echo(f"{'ok  ' if r.ok else 'FAIL'} {r.suite}: {r.name}")
            click.echo(f"       expected {_short(r.expected)}")
            click.echo(f"       actual   {_short(r.actual)}")
        click.echo(
            f"{len(results) - len(failed)} of {len(results)} checks passed"
            + (f"; {len(failed)} FAILED" if failed else "")
        )
    return 1 if failed else 0
