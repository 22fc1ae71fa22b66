"""`sushigo`: the one command-line entry point. Each package registers its own commands."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib.metadata import version

# What pyproject.toml's `train` extra brings, matplotlib by way of ultralytics
# (tests/test_layers.py: reading a photo needs none of them).
TRAINING_PACKAGES = frozenset({"torch", "torchvision", "ultralytics", "onnx", "tqdm", "matplotlib"})


def build_parser() -> argparse.ArgumentParser:
    # Each commands module imports only argparse-level things; heavy work is imported
    # inside the handlers so that `sushigo --help` stays instant.
    from api import commands as api_commands
    from datasets import commands as dataset_commands
    from vision import commands as vision_commands

    parser = argparse.ArgumentParser(prog="sushigo", description="Score Sushi Go! from photos.")
    parser.add_argument("--version", action="version", version=f"sushigo {version('sushigo')}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    vision_commands.register(sub)
    dataset_commands.register(sub)
    api_commands.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        # Named with its command, in one line: argparse had printed the top-level usage,
        # as if the command itself were unknown.
        command = " ".join(filter(None, (args.command, getattr(args, "action", None))))
        print(
            f"sushigo {args.command}: error: unrecognized arguments: {' '.join(unknown)} "
            f"(sushigo {command} --help lists them)",
            file=sys.stderr,
        )
        return 2
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in TRAINING_PACKAGES:
            raise
        # A plain `pip install -e .` serves and reads photos; making data and training
        # need the extra.
        print(
            f"sushigo {args.command}: error: {error.name} is not installed: this command "
            "needs the train extra (pip install -e '.[train]')",
            file=sys.stderr,
        )
        return 2
    except (ValueError, OSError) as error:
        # Domain errors (bad tally, unreadable photo, missing file) subclass these: the
        # user gets one line naming the problem, not a traceback.
        print(f"sushigo {args.command}: error: {in_words(error)}", file=sys.stderr)
        return 2


def in_words(error: Exception) -> str:
    """The error's line: the system's own errors ("[Errno 13] Permission denied: 'x'") as
    the path and what the system said ("x: permission denied"); others as they read."""
    if not isinstance(error, OSError) or not error.strerror or not str(error).startswith("[Errno"):
        return str(error)
    said = error.strerror[:1].lower() + error.strerror[1:]
    if error.filename is None:
        return said
    where = os.fsdecode(error.filename)
    if error.filename2 is not None:
        where += f" -> {os.fsdecode(error.filename2)}"
    return f"{where}: {said}"


if __name__ == "__main__":
    sys.exit(main())
