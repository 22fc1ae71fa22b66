"""A throwaway PostgreSQL server for the tests: initdb in a temporary folder, started with
pg_ctl on a Unix socket in that folder (no TCP port to collide with), stopped and removed
at the end. Debian's `postgresql` package provides the binaries (`.ci/run` installs it).

initdb refuses to run as root, so as root the server runs as the `postgres` user (or
`nobody`) and owns its folder; the tests connect through the socket as the superuser
`sushigo`, trusted locally.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SUPERUSER = "sushigo"
PORT = 5433  # only names the socket file: the server listens on no TCP address
MISSING = (
    "PostgreSQL is not installed: no initdb under /usr/lib/postgresql/*/bin. The API's "
    "PostgreSQL tests need it; `.ci/run` installs Debian's package "
    "(apt-get install -y postgresql)."
)


class PostgresUnavailable(RuntimeError):
    """The server cannot be started here; the message says why and what to install."""


def find_bin_dir() -> Path:
    """The newest installed PostgreSQL's bin folder (Debian's layout), or PATH's."""
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda path: int(Path(path).parts[-3]) if Path(path).parts[-3].isdigit() else 0,
    )
    if candidates:
        return Path(candidates[-1]).parent
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    raise PostgresUnavailable(MISSING)


def _server_user() -> str | None:
    """Whom to run the server as: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise PostgresUnavailable("running as root and there is no 'postgres' or 'nobody' user")


class PostgresServer:
    """One server in its own folder; `url(database)` gives SQLAlchemy URLs into it."""

    def __init__(self, root: Path, bin_dir: Path, user: str | None) -> None:
        self.root = root
        self.bin_dir = bin_dir
        self.user = user
        self.data = root / "data"
        self.socket_dir = root / "socket"
        self.log = root / "server.log"
        self._databases = 0

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin_dir / args[0]), *args[1:]]
        kwargs: dict[str, Any] = {"cwd": self.root, "capture_output": True, "text": True}
        if self.user is not None:
            kwargs["user"] = self.user
            kwargs["group"] = pwd.getpwnam(self.user).pw_gid
            kwargs["extra_groups"] = []
        result = subprocess.run(command, timeout=120, check=False, **kwargs)
        if result.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise PostgresUnavailable(
                f"{args[0]} failed ({result.returncode}):\n{result.stdout}{result.stderr}{log}"
            )
        return result

    def start(self) -> None:
        self.socket_dir.mkdir()
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            for path in (self.root, self.socket_dir):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        self._run(
            "initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust",
            "--encoding=UTF8", "--no-sync", "--no-instructions",
        )  # fmt: skip
        # Durability is not what these tests are about: skip the fsyncs.
        options = (
            f"-k {self.socket_dir} -p {PORT} -c listen_addresses='' "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self) -> None:
        with contextlib.suppress(PostgresUnavailable, subprocess.TimeoutExpired):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{SUPERUSER}@/{database}?host={self.socket_dir}&port={PORT}"

    def new_database(self) -> str:
        """A fresh, empty database; its SQLAlchemy URL."""
        import psycopg

        self._databases += 1
        name = f"test_{self._databases}"
        with psycopg.connect(
            host=str(self.socket_dir), port=PORT, user=SUPERUSER, dbname="postgres", autocommit=True
        ) as connection:
            connection.execute(f'CREATE DATABASE "{name}"'.encode())
        return self.url(name)


@contextlib.contextmanager
def running_server() -> Iterator[PostgresServer]:
    """Start a server in a new temporary folder; stop it and remove the folder after."""
    try:
        import psycopg  # noqa: F401
    except ImportError as error:
        raise PostgresUnavailable(
            "the PostgreSQL driver is not installed: pip install -e '.[test]' (psycopg[binary])"
        ) from error
    bin_dir = find_bin_dir()
    # Not pytest's tmp_path: that is private to root, and the server may run as another user.
    root = Path(tempfile.mkdtemp(prefix="sushigo-pg-"))
    server = PostgresServer(root, bin_dir, _server_user())
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
