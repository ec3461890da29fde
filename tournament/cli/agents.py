"""`meeple agents`: every agent kind and its parameters."""

from __future__ import annotations

import typer

from tournament.cli.common import FormatOption, JsonFlag, OutputFormat, wants_json


def agents(
    fmt: FormatOption = OutputFormat.text,
    as_json: JsonFlag = False,
) -> None:
    """Every agent kind with its parameters, defaults (or required), meanings and accepted
    values."""
    import json

    from solvers.registry import all_kinds  # deferred: fast --help

    kinds = all_kinds()
    if wants_json(fmt, as_json):
        typer.echo(
            json.dumps(
                [
                    {
                        "kind": k.name,
                        "summary": k.summary,
                        "params": [
                            {
                                "name": p.name,
                                "type": p.type.__name__,
                                "default": p.default,
                                "required": p.required,
                                "meaning": p.meaning,
                                "help": p.help,
                                "choices": list(p.choices),
                                "range": list(p.range) if p.range else None,
                                "auto": p.auto.value if p.auto else None,
                                "tunable": p.tunable,
                            }
                            for p in k.params
                        ],
                    }
                    for k in kinds
                ],
                indent=2,
            )
        )
        return
    for k in kinds:
        typer.echo(f"{k.name}: {k.summary}")
        for p in k.params:
            default = "required" if p.required else f"default {p.default!r}"
            typer.echo(f"    {p.name} ({p.type.__name__}, {default}): {p.help}")
    typer.echo("Spec syntax: kind or kind(key=value,...), e.g. mcts(sims=800,uct_c=1.4)")


def register(app: typer.Typer) -> None:
    """Add this module's command to the root app."""
    app.command("agents")(agents)
