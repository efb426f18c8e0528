"""`plsim scenarios`: what can be played, and every rule value a scenario plays with."""

from __future__ import annotations

import click

from plsim.cli import UsageFailure, main
from plsim.rules import param_specs
from plsim.scenario import ScenarioError, load_scenario, scan_scenarios


@main.command("scenarios")
@click.option(
    "--show",
    metavar="NAME",
    help="Print one scenario (a name or a .toml path) with its whole resolved rule tree, as TOML.",
)
@click.option("--params", "list_params", is_flag=True,
              help="List every rule parameter path (as sweep and tune take it) with its type, default and allowed "
                   "values: a range, true or false, or a choice's names.")
def scenarios_command(show: str | None, list_params: bool) -> None:
    """List the scenarios: name, players, description; a file that cannot be loaded gets one line
    saying why.

    Scenarios are <name>.toml files in ./scenarios and in plsim's own scenarios folder; a file in
    the current directory hides a shipped one of the same name. standard-4p is built in.
    """
    if list_params:
        specs = param_specs().values()
        rows = [("parameter", "type", "default", "allowed")]
        rows += [(s.path, s.type_name, _text(s.default), s.allowed_text()) for s in specs]
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        for row in rows:
            click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[3])
        return
    if show is not None:
        try:
            scenario = load_scenario(show)
        except ScenarioError as exc:
            raise UsageFailure(str(exc)) from exc
        notes = "".join(f"# note: {note}\n" for note in scenario.notes)
        click.echo(notes + scenario.to_toml(), nl=False)
        return
    scenarios, broken = scan_scenarios()
    lines = [(s.name, f"{s.players} players  {s.description}") for s in scenarios]
    lines += [(name, f"cannot be loaded: {error}") for name, error in broken]
    width = max(len(name) for name, _ in lines)
    for name, text in sorted(lines):
        click.echo(f"{name:<{width}}  {text}")


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value)
