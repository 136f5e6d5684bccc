"""A local PostgreSQL (Debian's ``postgresql`` package) for the live class when replicas share it: a cluster initialised
in a folder of the project (or a scratch folder for a test) on a free port, started and stopped by the caller.

Nobody in where they do not belong:

- Authentication: ``peer`` on the Unix socket (only the operating-system user of the same name) and ``scram-sha-256``
  with a password over TCP; never ``trust``. The passwords (128 random bits each) are kept in files of the folder,
  readable by the server's user only (0600).
- The socket lives in a private folder (0700, the cluster owner's): other local users cannot even reach it.
- Two roles: the cluster's administrator (used only here, to make the class's database), and ``attention_class``,
  which may log in and owns the class's database ``live_class`` and nothing else: no superuser, no role or database
  creation, and no connection to any other database (CONNECT is revoked from PUBLIC everywhere).
- It listens on 127.0.0.1 only.

PostgreSQL refuses to run as root: as root the cluster belongs to Debian's ``postgres`` user (``runuser``).

Usage: ``with postgres(folder) as cluster: cluster.url`` (an SQLAlchemy URL for the class's role; ``cluster.admin_url``
for the administrator); ``python scripts/postgres.py`` runs one until Ctrl-C.
"""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.browser import free_port  # noqa: E402

ADMIN = "attention_admin"  # the cluster's superuser: makes the class's role and database, nothing else
OLD_USER = "attention"  # before: the one superuser of a cluster with trust authentication, its classes in "postgres"
ROLE = "attention_class"  # what the app logs in as: owns the class's database only
DATABASE = "live_class"
MISSING = "The live class's shared database is Debian's PostgreSQL: run 'apt-get install -y postgresql' (make test and make serve do)."
HBA = """# Written by scripts/postgres.py: peer on the private socket, a password over TCP from this machine; nothing else.
local   all   all                  peer
host    all   all   127.0.0.1/32   scram-sha-256
"""


@dataclass(frozen=True)
class Cluster:
    """A running cluster: the class role's SQLAlchemy URL, the administrator's, its port and its socket folder."""

    url: str
    admin_url: str
    port: int
    sockets: Path
    bin: Path


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


def _secret(path: Path) -> str:
    """The password kept in ``path`` (0600, the server's user's), made on first use."""
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(16))
    os.chmod(path, 0o600)
    return path.read_text().strip()


def _read_as_owner(path: Path) -> str:
    """A file of the cluster, read as its owner; only lines that are not comments."""
    text = subprocess.run(_as_owner(["cat", str(path)]), capture_output=True, text=True, check=True).stdout
    return "\n".join(line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#"))


def _initdb(bin_folder: Path, data: Path, password: str) -> None:
    """A new cluster in ``data``: the administrator's password from a file only the cluster's owner reads (removed
    after), peer and password authentication."""
    scratch = Path(tempfile.mkdtemp(prefix="attention-initdb-"))
    try:
        pwfile = scratch / "password"
        pwfile.write_text(password)
        os.chmod(pwfile, 0o600)
        for path in (scratch, pwfile):
            _own(path)
        subprocess.run(_as_owner([str(bin_folder / "initdb"), "-D", str(data), "-U", ADMIN, f"--pwfile={pwfile}",
                                  "--auth-local=peer", "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync"]),
                       check=True, stdout=subprocess.DEVNULL)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    hba = data / "pg_hba.conf"
    subprocess.run(_as_owner(["sh", "-c", f"cat > {hba}"]), input=HBA.encode(), check=True)


def _upgrade_trusting(bin_folder: Path, data: Path, log: Path, admin_password: str) -> None:
    """A cluster made before passwords (trust authentication, the superuser ``attention``, the classes in the database
    ``postgres``) moves forward without losing a class: an administrator with a password is added, the classes'
    database becomes ``live_class`` (a new empty ``postgres`` is made), and peer and password authentication replace
    trust. The class's role takes the tables over in ``_class_database``."""
    import psycopg

    port = free_port()
    sockets = Path(tempfile.mkdtemp(prefix="attention-upgrade-"))
    os.chmod(sockets, 0o700)
    _own(sockets)
    options = f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1"
    subprocess.run(_as_owner([str(bin_folder / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(log), "-w", "-t", "60", "start"]),
                   check=True, stdout=subprocess.DEVNULL)
    try:
        old = f"host=127.0.0.1 port={port} user={OLD_USER} dbname=template1"
        with psycopg.connect(old, autocommit=True) as connection:
            if not connection.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (ADMIN,)).fetchone():
                connection.execute(f'CREATE ROLE "{ADMIN}" SUPERUSER LOGIN')
            connection.execute(psycopg.sql.SQL("ALTER ROLE {} PASSWORD {}").format(psycopg.sql.Identifier(ADMIN),
                                                                                  psycopg.sql.Literal(admin_password)))
            if not connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone():
                connection.execute(f'ALTER DATABASE postgres RENAME TO "{DATABASE}"')
                connection.execute("CREATE DATABASE postgres")
    finally:
        subprocess.run(_as_owner([str(bin_folder / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(sockets, ignore_errors=True)
    subprocess.run(_as_owner(["sh", "-c", f"cat > {data / 'pg_hba.conf'}"]), input=HBA.encode(), check=True)


def _class_database(admin: str, password: str) -> None:
    """The class's role and database (made once), the role's password set to ``password``, and CONNECT left to the
    owner alone on every database."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(admin, autocommit=True) as connection:
        if not connection.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (ROLE,)).fetchone():
            connection.execute(sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS")
                               .format(sql.Identifier(ROLE)))
        connection.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(sql.Identifier(ROLE), sql.Literal(password)))
        if not connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone():
            connection.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(DATABASE), sql.Identifier(ROLE)))
        connection.execute(sql.SQL("ALTER DATABASE {} OWNER TO {}").format(sql.Identifier(DATABASE), sql.Identifier(ROLE)))
        for name in ("postgres", "template1", DATABASE):
            connection.execute(sql.SQL("REVOKE ALL ON DATABASE {} FROM PUBLIC").format(sql.Identifier(name)))
    with psycopg.connect(admin.rsplit("/", 1)[0] + f"/{DATABASE}", autocommit=True) as connection:
        connection.execute("REVOKE ALL ON SCHEMA public FROM PUBLIC")
        connection.execute(sql.SQL("ALTER SCHEMA public OWNER TO {}").format(sql.Identifier(ROLE)))
        for (table,) in connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tableowner <> %s",
                                           (ROLE,)).fetchall():  # a cluster moved forward: its classes' tables
            connection.execute(sql.SQL("ALTER TABLE public.{} OWNER TO {}").format(sql.Identifier(table), sql.Identifier(ROLE)))


def new_database(cluster: Cluster, name: str) -> str:
    """Another database owned by the class's role (the tests make one per case); its SQLAlchemy URL."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(cluster.admin_url.replace("postgresql+psycopg", "postgresql"), autocommit=True) as connection:
        connection.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(name), sql.Identifier(ROLE)))
        connection.execute(sql.SQL("REVOKE ALL ON DATABASE {} FROM PUBLIC").format(sql.Identifier(name)))
    return cluster.url.rsplit("/", 1)[0] + f"/{name}"


@contextlib.contextmanager
def postgres(folder: Path | None = None, durable: bool = True) -> Iterator[Cluster]:
    """Start a cluster kept in ``folder`` (initialised on first use; a scratch folder, removed after, when None) on a free
    port; yield it; stop it. ``durable=False`` (tests) turns fsync off."""
    bin_folder = binaries()
    if bin_folder is None:
        raise RuntimeError(MISSING)
    scratch = folder is None
    folder = Path(tempfile.mkdtemp(prefix="attention-postgres-")) if scratch else Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o711 if os.geteuid() == 0 else 0o700)  # root: the postgres user passes through to data/, lists nothing
    data, sockets = folder / "data", folder / "sockets"
    sockets.mkdir(exist_ok=True)
    os.chmod(sockets, 0o700)
    _own(sockets)
    admin_password, class_password = _secret(folder / "admin.password"), _secret(folder / "class.password")
    log = folder / "postgres.log"
    if not log.exists():
        os.close(os.open(log, os.O_WRONLY | os.O_CREAT, 0o600))
    _own(log)
    if not (data / "PG_VERSION").exists():
        data.mkdir(mode=0o700, exist_ok=True)
        _own(data)
        _initdb(bin_folder, data, admin_password)
    elif "trust" in _read_as_owner(data / "pg_hba.conf"):
        _upgrade_trusting(bin_folder, data, log, admin_password)
    port = free_port()
    options = (f"-p {port} -k {sockets} -c unix_socket_permissions=0700 -c listen_addresses=127.0.0.1 -c max_connections=200"
               f" -c password_encryption=scram-sha-256" + ("" if durable else " -c fsync=off"))
    subprocess.run(_as_owner([str(bin_folder / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(log), "-w", "-t", "60", "start"]),
                   check=True, stdout=subprocess.DEVNULL)
    try:
        admin = f"postgresql://{ADMIN}:{admin_password}@127.0.0.1:{port}/postgres"
        deadline = time.monotonic() + 30
        while True:  # pg_ctl -w waits for the socket; the TCP port follows at once
            try:
                import psycopg

                psycopg.connect(admin, connect_timeout=2).close()
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"PostgreSQL did not start: {log.read_text()[-2000:]}") from None
                time.sleep(0.2)
        _class_database(admin, class_password)
        yield Cluster(url=f"postgresql+psycopg://{ROLE}:{class_password}@127.0.0.1:{port}/{DATABASE}",
                      admin_url=admin.replace("postgresql://", "postgresql+psycopg://"), port=port, sockets=sockets, bin=bin_folder)
    finally:
        subprocess.run(_as_owner([str(bin_folder / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if scratch:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    with postgres(ROOT / "var" / "postgres") as running:
        print(f"PostgreSQL on 127.0.0.1:{running.port}, database {DATABASE} owned by {ROLE}  (Ctrl-C stops it)")
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
