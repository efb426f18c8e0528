"""`plsim strategies`: the registered strategies, one line each, or one described (``--show``)."""

from __future__ import annotations

import click

from plsim.cli import UsageFailure, main
from plsim.strategy import registry
from plsim.strategy.describe import describe
from plsim.strategy.registry import StrategyLoadError
from plsim.text import one_line


def strategy_lines() -> list[str]:
    """``name  description`` per registered strategy; one that fails to import shows its error."""
    loaded = registry.available()
    rows: list[tuple[str, str]] = []
    for name in sorted(registry.registered()):
        if name in loaded:
            rows.append((name, " ".join((loaded[name].description or "").split()) or "(no description)"))
            continue
        try:
            registry.resolve(name)
            error = "failed to load"
        except StrategyLoadError as exc:
            error = " ".join(str(exc).split())
        except Exception as exc:  # noqa: BLE001 - listing must never crash
            error = f"{type(exc).__name__}: {exc}"
        rows.append((name, f"[unavailable] {error}"))
    width = max((len(n) for n, _ in rows), default=0)
    return [f"{name:<{width}}  {text}" for name, text in rows]


@main.command("strategies")
@click.option("--show", "show", metavar="NAME", help="Print one strategy's docstring and parameters (types, defaults).")
def strategies_command(show: str | None) -> None:
    """List the available strategies: the name, then what it does.

    Use a name in --players; a plugin class outside the registry is given as path/file.py:Class
    or package.module:Class, with parameters as name:key=value,key=value.
    """
    if show is not None:
        try:
            click.echo(describe(show))
        except StrategyLoadError as exc:
            raise UsageFailure(one_line(exc)) from None
        return
    try:
        lines = strategy_lines()
    except StrategyLoadError as exc:  # a name two distributions register
        raise UsageFailure(one_line(exc)) from None
    if not lines:
        click.echo("no strategies registered (entry-point group plsim.strategies)")
    for line in lines:
        click.echo(line)
