"""`plsim strategies`: the registered strategies, one line each."""

from __future__ import annotations

import click

from plsim.cli import main
from plsim.strategy import registry
from plsim.strategy.registry import StrategyLoadError


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
def strategies_command() -> None:
    """List the available strategies: the name, then what it does.

    Use a name in --players; a plugin class outside the registry is given as path/file.py:Class
    or package.module:Class, with parameters as name:key=value,key=value.
    """
    lines = strategy_lines()
    if not lines:
        click.echo("no strategies registered (entry-point group plsim.strategies)")
    for line in lines:
        click.echo(line)
