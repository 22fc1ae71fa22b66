"""The README's command lines are ones the `sushigo` command takes, as the least a user
would type and with every option shown."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from api.cli import build_parser

README = Path(__file__).parents[1] / "README.md"
# A placeholder's value by the option it follows, where the option wants a number or one
# of a few words ("S" is a seed for --seed and a split for --split).
VALUES = {
    "--players": "2",
    "--port": "8000",
    "--images": "2",
    "--seed": "1",
    "--size": "640",
    "--split": "test",
    "--since": "2026-01-01",
    "--as": "egg",
}
# What "..." stands for in "sushigo synth ... --printing another": the line above it.
SYNTH_ELLIPSIS = "--out DIR --images N --faces DECK"


def _lines() -> list[str]:
    """Each `sushigo ...` line of the README's code blocks, its comment dropped ("PHOTO
    [PHOTO ...]" as "PHOTO [PHOTO]")."""
    return [
        line.split(" # ")[0].strip().replace("[PHOTO ...]", "[PHOTO]")
        for line in README.read_text().splitlines()
        if line.startswith("    sushigo ")
    ]


def _words(command: str) -> list[str]:
    """The words after `sushigo`, each placeholder given its option's value."""
    words = shlex.split(command.replace("$DECK", "deck"))[1:]
    words = [w for word in words for w in (SYNTH_ELLIPSIS.split() if word == "..." else [word])]
    return [VALUES.get(before, word) for before, word in zip(["", *words[:-1]], words, strict=True)]


def least(command: str) -> list[str]:
    """The command without its optional parts ("[--seed S]")."""
    while (shorter := re.sub(r"\s*\[[^\[\]]*\]", "", command)) != command:
        command = shorter
    return _words(command)


def whole(command: str) -> list[str]:
    """The command with every optional part ("[--from [W]]" as "--from W")."""
    return _words(command.replace("[", "").replace("]", ""))


@pytest.mark.parametrize("command", _lines())
@pytest.mark.parametrize("form", [least, whole])
def test_a_readme_command_parses(command: str, form: object) -> None:
    assert callable(form)
    args = build_parser().parse_args(form(command))
    assert callable(args.handler)


def test_the_readme_has_its_commands() -> None:
    said = " ".join(" ".join(whole(command)) for command in _lines()) + " "
    for command in ("detect", "serve", "db upgrade", "faces import", "synth", "train", "eval"):
        assert f"{command} " in said, command
    for option in ("--players", "--json", "--annotate", "--ship", "--from", "--printing"):
        assert f"{option} " in said, option
