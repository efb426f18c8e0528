"""`plsim scenarios`: what can be played, and every rule value a scenario plays with."""

from __future__ import annotations

import click

from plsim.cli import UsageFailure, main
from plsim.scenario import ScenarioError, list_scenarios, load_scenario


@main.command("scenarios")
@click.option(
    "--show",
    metavar="NAME",
    help="Print one scenario (a name or a .toml path) with its whole resolved rule tree, as TOML.",
)
def scenarios_command(show: str | None) -> None:
    """List the scenarios: name, players, description.

    Scenarios are <name>.toml files in ./scenarios and in plsim's own scenarios folder; a file in
    the current directory hides a shipped one of the same name. standard-4p is built in.
    """
    try:
        if show is not None:
            click.echo(load_scenario(show).to_toml(), nl=False)
            return
        scenarios = list_scenarios()
    except ScenarioError as exc:
        raise UsageFailure(str(exc)) from exc
    width = max(len(s.name) for s in scenarios)
    for scenario in scenarios:
        click.echo(f"{scenario.name:<{width}}  {scenario.players} players  {scenario.description}")
