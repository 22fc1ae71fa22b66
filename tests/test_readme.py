"""The README's command lines are ones the `sushigo` command takes."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from api.cli import build_parser

README = Path(__file__).parents[1] / "README.md"
# The README's placeholders for numbers, as numbers.
NUMBERS = {"N": "2", "S": "1", "PX": "640", "P": "8000"}


def _command_lines() -> list[str]:
    """Each `sushigo ...` line of the README's code blocks, its comment and its optional
    parts ("[--seed S]") dropped: the least a user would type."""
    lines = []
    for line in README.read_text().splitlines():
        if not line.startswith("    sushigo ") or "..." in line.replace("[PHOTO ...]", ""):
            continue
        command = line.split(" # ")[0].strip()
        while (shorter := re.sub(r"\s*\[[^\[\]]*\]", "", command)) != command:
            command = shorter
        words = [NUMBERS.get(word, word) for word in shlex.split(command.replace("$DECK", "deck"))]
        lines.append(shlex.join(words))
    return lines


@pytest.mark.parametrize("line", _command_lines())
def test_a_readme_command_parses(line: str) -> None:
    args = build_parser().parse_args(shlex.split(line)[1:])
    assert callable(args.handler)


def test_the_readme_has_its_commands() -> None:
    said = " ".join(_command_lines())
    for command in ("detect", "serve", "db upgrade", "faces import", "synth", "train", "eval"):
        assert f"sushigo {command} " in said + " ", command
