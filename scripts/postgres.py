"""A local PostgreSQL (Debian's ``postgresql`` package) for the live class when replicas share it: a cluster initialised
in a folder of the project (or a scratch folder for a test) on a free port, started and stopped by the caller.

PostgreSQL refuses to run as root: as root the cluster belongs to Debian's ``postgres`` user (``runuser``). It listens
on 127.0.0.1 only, with trust authentication for its one local user (nothing leaves the machine).

Usage: ``with postgres(folder) as url: ...`` (an SQLAlchemy URL); ``python scripts/postgres.py`` runs one until Ctrl-C.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.browser import free_port  # noqa: E402

USER = "attention"
MISSING = "The live class's shared database is Debian's PostgreSQL: run 'apt-get install -y postgresql' (make test and make serve do)."


def binaries() -> Path | None:
    """The newest installed PostgreSQL's bin folder (/usr/lib/postgresql/<version>/bin), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda path: int(Path(path).parent.parent.name))
    return Path(found[-1]).parent if found else None


def _as_owner(command: list[str]) -> list[str]:
    """``command`` as the cluster's owner: Debian's postgres user when this process is root."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def _own(path: Path) -> None:
    if os.geteuid() == 0:
        shutil.chown(path, "postgres", "postgres")


@contextlib.contextmanager
def postgres(folder: Path | None = None, durable: bool = True) -> Iterator[str]:
    """Start a cluster kept in ``folder`` (initialised on first use; a scratch folder, removed after, when None) on a free
    port; yield its SQLAlchemy URL; stop it. ``durable=False`` (tests) turns fsync off."""
    bin_folder = binaries()
    if bin_folder is None:
        raise RuntimeError(MISSING)
    scratch = folder is None
    folder = Path(tempfile.mkdtemp(prefix="attention-postgres-")) if scratch else Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    data, sockets = folder / "data", folder / "sockets"
    sockets.mkdir(exist_ok=True)
    for path in (folder, sockets):
        _own(path)
    if os.geteuid() == 0:
        os.chmod(folder, 0o755)
    if not (data / "PG_VERSION").exists():
        subprocess.run(_as_owner([str(bin_folder / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8",
                                  "--locale=C", "--no-sync"]), check=True, stdout=subprocess.DEVNULL)
    port = free_port()
    options = f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c max_connections=200" + ("" if durable else " -c fsync=off")
    log = folder / "postgres.log"
    if not log.exists():
        log.touch()
    _own(log)
    subprocess.run(_as_owner([str(bin_folder / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(log), "-w", "-t", "60", "start"]),
                   check=True, stdout=subprocess.DEVNULL)
    try:
        url = f"postgresql+psycopg://{USER}@127.0.0.1:{port}/postgres"
        deadline = time.monotonic() + 30
        while True:  # pg_ctl -w waits for the socket; the TCP port follows at once
            try:
                import psycopg

                psycopg.connect(f"host=127.0.0.1 port={port} user={USER} dbname=postgres", connect_timeout=2).close()
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"PostgreSQL did not start: {log.read_text()[-2000:]}") from None
                time.sleep(0.2)
        yield url
    finally:
        subprocess.run(_as_owner([str(bin_folder / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if scratch:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    with postgres(ROOT / "var" / "postgres") as running:
        print(f"PostgreSQL at {running}  (Ctrl-C stops it)")
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
