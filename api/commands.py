"""`sushigo serve`: run the HTTP service; `sushigo db upgrade`: migrate its database;
`sushigo corrections export`. uvicorn, the app and Alembic load only when one runs."""

from __future__ import annotations

import argparse
import errno
import socket
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    from api.settings import Settings  # pydantic only: light

    variables = ", ".join(f"SUSHIGO_{name.upper()}" for name in Settings.model_fields)
    serve = subparsers.add_parser(
        "serve",
        help="run the HTTP service (games, photos, scores; OpenAPI at /docs)",
        description="Run the HTTP service. Settings not given here come from SUSHIGO_* "
        f"environment variables ({variables}).",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=_port, default=8000, help="port to listen on (8000)")
    serve.add_argument("--data-dir", type=Path, help="photos and the SQLite database (./data)")
    serve.add_argument("--database-url", help="a SQLAlchemy URL instead of SQLite in the data dir")
    serve.add_argument("--weights", type=Path, help="detector weights (default: the shipped ones)")
    serve.set_defaults(handler=run_serve)

    corrections = subparsers.add_parser(
        "corrections",
        help="turn the corrections made in review into training data",
        description="Work with the photos people corrected and confirmed in review.",
    )
    actions = corrections.add_subparsers(dest="action", required=True, metavar="ACTION")
    export = actions.add_parser(
        "export",
        help="write every confirmed photo with its corrected boxes as a YOLO dataset",
        description="Write every confirmed photo with its corrected boxes (the detections "
        "plus relabels, deletions and added boxes) as a YOLO dataset (data.yaml, images/, "
        "labels/, tallies/ with the confirmed tallies; long side at most 1600 px). Confirmed "
        "tallies the boxes cannot stand for (counters only, a stack whose wasabi has no box, "
        "boxes that read as another tally) are listed in DIR/skipped.json instead.",
    )
    export.add_argument("--out", type=Path, required=True, help="a new or empty folder")
    export.add_argument(
        "--since", help="only tallies confirmed at or after this ISO date or time (local time)"
    )
    export.add_argument("--data-dir", type=Path, help="photos and the SQLite database (./data)")
    export.add_argument("--database-url", help="a SQLAlchemy URL instead of SQLite in the data dir")
    export.set_defaults(handler=run_corrections_export)

    db = subparsers.add_parser(
        "db",
        help="the service's database: bring its schema up to date",
        description="Work with the service's database (SQLite in the data dir, or "
        "SUSHIGO_DATABASE_URL).",
    )
    db_actions = db.add_subparsers(dest="action", required=True, metavar="ACTION")
    upgrade = db_actions.add_parser(
        "upgrade",
        help="apply the schema migrations not applied yet and print the revision",
        description="Apply the schema migrations the database lacks (what `sushigo serve` "
        "also does on start) and print the revision it is at. A database made before "
        "there were migrations is recognised and kept, rows and all.",
    )
    upgrade.add_argument("--data-dir", type=Path, help="photos and the SQLite database (./data)")
    upgrade.add_argument(
        "--database-url", help="a SQLAlchemy URL instead of SQLite in the data dir"
    )
    upgrade.set_defaults(handler=run_db_upgrade)


def _port(text: str) -> int:
    """An argparse type: a TCP port, 1 to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, not {value:,}")
    return value


def settings_from(args: argparse.Namespace) -> Any:
    from api.settings import get_settings

    return get_settings(
        data_dir=args.data_dir, database_url=args.database_url, weights=args.weights
    )


def run_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from api.database import opening
    from api.main import create_app

    settings = settings_from(args)
    if settings.weights is not None:
        _say_missing_weights(settings.weights)
    with opening(settings.resolved_database_url):
        app = create_app(settings)
    listening = _listening(args.host, args.port)
    uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port)).run(sockets=[listening])
    return 0


def _listening(host: str, port: int) -> socket.socket:
    """A socket bound to host:port for the service, or one line saying why there is none:
    uvicorn, binding it itself, had logged its start, the error, then its shutdown."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as error:
        raise ValueError(f"--host {host}: {(error.strerror or str(error)).lower()}") from None
    listening = socket.socket(family, kind, proto)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
    try:
        listening.bind(address)
    except OSError as error:
        listening.close()
        if error.errno == errno.EADDRINUSE:
            raise ValueError(
                f"port {port} on {host} is in use: stop what holds it, or give another --port"
            ) from None
        reason = (error.strerror or str(error)).lower()
        raise ValueError(f"cannot listen on {host}:{port}: {reason}") from None
    return listening


def _say_missing_weights(weights: Path) -> None:
    """The service starts without its weights (they may be copied in while it runs), but
    says so at once rather than on every photo's 503. A path that is nothing at all is a
    mistyped name: refused."""
    from vision.detector import model_info

    if not weights.exists():
        raise FileNotFoundError(f"--weights: no such weights folder or file: {weights}")
    try:
        model_info(weights)
    except (OSError, ValueError) as error:
        print(
            f"sushigo serve: warning: {error}: reading photos answers 503 until the weights "
            "are there",
            file=sys.stderr,
        )


def run_db_upgrade(args: argparse.Namespace) -> int:
    from api.database import make_engine, opening, upgrade_schema
    from api.settings import get_settings

    settings = get_settings(data_dir=args.data_dir, database_url=args.database_url)
    settings.make_data_dir()
    with opening(settings.resolved_database_url):
        engine = make_engine(settings.resolved_database_url)
        try:
            revision = upgrade_schema(engine)
        finally:
            engine.dispose()
    print(f"database at revision {revision} (head)")
    return 0


def run_corrections_export(args: argparse.Namespace) -> int:
    from api.corrections import run_export

    return run_export(args)
