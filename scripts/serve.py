"""make serve REPLICAS=n: n app processes behind nginx (Debian's package), for a class larger than one process serves.

A Streamlit session lives in one process, on one websocket; the page's other requests (a download
button's file, a reconnect after a network blip) must reach that same process. nginx sends each
browser to one replica by a cookie it sets on first contact (``attention_replica``, a random key,
``hash ... consistent``), so that a whole class behind one school router still spreads over every
replica (``ip_hash`` would send them all to one, since they share one address). Websockets are
upgraded; each replica is checked on ``/_stcore/health`` before nginx starts and every few seconds
after, and restarted when it stops answering (nginx meanwhile skips it: ``max_fails``).

Usage: ``python scripts/serve.py --replicas 3 --port 8080``. Stop with Ctrl-C or SIGTERM (every process stops).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.browser import free_port  # noqa: E402

NGINX = os.environ.get("NGINX", shutil.which("nginx") or "/usr/sbin/nginx")
MISSING_NGINX = f"The load balancer is Debian's nginx at {NGINX}: run 'apt-get install -y nginx' (or set NGINX=/path/to/nginx)."
COOKIE = "attention_replica"
HEALTH_EVERY = 3.0  # seconds between health checks of each replica
HUNG_CHECKS = 10  # a replica restarts after this many failed checks in a row (30 s): one busy with a room joining at once
# answers late, and restarting it would drop every session it serves
CONFIG = """# Written by scripts/serve.py; see its docstring.
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;

    # Websockets: pass the upgrade on; plain requests keep their connection to the replica.
    map $http_upgrade $connection_upgrade {{ default upgrade; "" ""; }}
    # Sticky sessions: the browser's key, or a new random one on first contact (set below as a cookie).
    map $cookie_{cookie} $replica_key {{ "" $request_id; default $cookie_{cookie}; }}
    map $cookie_{cookie} $replica_cookie {{ "" "{cookie}=$request_id; Path=/; HttpOnly; SameSite=Lax"; default ""; }}

    upstream attention {{
        hash $replica_key consistent;
{servers}
        # No keepalive to the replicas: a kept connection the replica has closed fails on reuse, and nginx would
        # retry the request on the next replica, where that browser's session (and its download) does not exist.
    }}

    server {{
        listen {address}:{port};
        location / {{
            proxy_pass http://attention;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 1h;  # a websocket idle during a long explanation stays open
            proxy_send_timeout 1h;
            proxy_buffering off;
            proxy_next_upstream error timeout http_502 http_503;  # only when a replica is down (no kept connections)
            add_header Set-Cookie $replica_cookie always;
            add_header X-Replica $upstream_addr always;  # which replica answered: for the tests and for a curious admin
        }}
    }}
}}
"""


@dataclass
class Replica:
    """One app process on a local port."""

    port: int
    process: subprocess.Popen | None = None
    restarts: int = 0
    failures: int = 0
    database: str | None = None  # the live class's DATABASE_URL, shared by every replica

    def start(self, options: tuple[str, ...] = ()) -> None:
        command = [sys.executable, str(ROOT / "scripts" / "run.py"), "app.py", "--server.port", str(self.port),
                   "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false", *options]
        env = {**os.environ, **({"DATABASE_URL": self.database} if self.database else {})}
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/_stcore/health", timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


@dataclass
class Balancer:
    """The running layout: its public URL, the replicas, and nginx."""

    url: str
    replicas: list[Replica]
    nginx: subprocess.Popen
    folder: Path
    stopping: threading.Event = field(default_factory=threading.Event)

    def pids(self) -> list[int]:
        return [r.process.pid for r in self.replicas if r.process is not None]


def wait_healthy(replica: Replica, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not replica.healthy():
        if replica.process is not None and replica.process.poll() is not None:
            raise RuntimeError(f"the replica on port {replica.port} exited with {replica.process.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the replica on port {replica.port} did not answer on /_stcore/health in {timeout:.0f} s")
        time.sleep(0.2)


def watch(balancer: Balancer, options: tuple[str, ...]) -> None:
    """Every few seconds, check each replica's health; restart one that has exited or failed HUNG_CHECKS checks in a row."""
    while not balancer.stopping.wait(HEALTH_EVERY):
        for replica in balancer.replicas:
            exited = replica.process is None or replica.process.poll() is not None
            replica.failures = 0 if not exited and replica.healthy() else replica.failures + 1
            if exited or replica.failures >= HUNG_CHECKS:
                replica.stop()
                replica.start(options)
                replica.restarts += 1
                replica.failures = 0


@contextlib.contextmanager
def shared_database(replicas: int, database: str | None, keep: Path | None) -> Iterator[str | None]:
    """The live class's database every replica uses: ``database`` (or DATABASE_URL) when given; else, for several
    replicas, a local PostgreSQL kept in ``keep`` (a scratch cluster when None; scripts/postgres.py: a password, a
    private socket, a role owning only the class's database), migrated once before any replica starts. The replicas
    get the URL, password included, in their environment (readable by the server's user only)."""
    database = database or os.environ.get("DATABASE_URL")
    with contextlib.ExitStack() as stack:
        if database is None and replicas > 1:
            from scripts.postgres import postgres

            database = stack.enter_context(postgres(keep, durable=keep is not None)).url  # the class's role, with its password
        if database is not None:
            from classroom import store

            store.connect(database).dispose()  # Alembic's upgrade, once, before the replicas start
        yield database


@contextlib.contextmanager
def balanced(replicas: int = 2, port: int | None = None, address: str = "127.0.0.1", timeout: float = 90.0,
             options: tuple[str, ...] = (), database: str | None = None, keep: Path | None = None) -> Iterator[Balancer]:
    """Start ``replicas`` app processes and nginx in front of them on ``port`` (a free one when None); stop them all after.
    Several replicas share one live class through PostgreSQL (``shared_database``: ``database``, or one started here)."""
    if not os.access(NGINX, os.X_OK):
        raise RuntimeError(MISSING_NGINX)
    replicas = max(1, min(replicas, 16))
    with shared_database(replicas, database, keep) as url, _balanced(replicas, port, address, timeout, options, url) as balancer:
        yield balancer


@contextlib.contextmanager
def _balanced(replicas: int, port: int | None, address: str, timeout: float, options: tuple[str, ...],
              database: str | None) -> Iterator[Balancer]:
    folder = Path(tempfile.mkdtemp(prefix="attention-nginx-"))
    started = [Replica(free_port(), database=database) for _ in range(replicas)]
    nginx = None
    balancer = None
    try:
        for replica in started:
            replica.start(options)
        for replica in started:
            wait_healthy(replica, timeout)
        port = port or free_port()
        servers = "\n".join(f"        server 127.0.0.1:{r.port} max_fails=2 fail_timeout=10s;" for r in started)
        (folder / "nginx.conf").write_text(CONFIG.format(folder=folder, cookie=COOKIE, servers=servers, address=address, port=port))
        check = subprocess.run([NGINX, "-t", "-q", "-p", str(folder), "-c", str(folder / "nginx.conf")], capture_output=True, text=True)
        if check.returncode:
            raise RuntimeError(f"nginx refused the configuration: {check.stderr}")
        nginx = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        url = f"http://{'127.0.0.1' if address in ('0.0.0.0', '') else address}:{port}"
        balancer = Balancer(url, started, nginx, folder)
        front = Replica(port)
        deadline = time.monotonic() + 20
        while not front.healthy():
            if nginx.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"nginx did not start: {nginx.stderr.read().decode()[-2000:] if nginx.stderr else ''}")
            time.sleep(0.1)
        watcher = threading.Thread(target=watch, args=(balancer, options), daemon=True)
        watcher.start()
        yield balancer
    finally:
        if balancer is not None:
            balancer.stopping.set()
        if nginx is not None and nginx.poll() is None:
            nginx.send_signal(signal.SIGQUIT)  # graceful: open websockets are closed cleanly
            try:
                nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                nginx.kill()
        for replica in started:
            replica.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--replicas", type=int, default=int(os.environ.get("REPLICAS", "2")))
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--address", default="0.0.0.0", help="where nginx listens (0.0.0.0: every network interface)")
    args = parser.parse_args()
    # kill / systemd stop (SIGTERM) and a closed terminal (SIGHUP) stop everything as Ctrl-C does; a job started with
    # `&` ignores SIGINT, so SIGINT is restored too.
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, _interrupt)
    with balanced(args.replicas, args.port, args.address, keep=ROOT / "var" / "postgres") as balancer:
        ports = ", ".join(str(r.port) for r in balancer.replicas)
        shared = balancer.replicas[0].database
        print(f"{len(balancer.replicas)} replicas on 127.0.0.1 ports {ports}; nginx on http://{args.address}:{args.port}  (Ctrl-C stops all)")
        print(f"live classes in {shared.split('@')[-1] if shared else 'var/live-class/live-class.sqlite3'}")  # never the password
        try:
            while balancer.nginx.poll() is None:
                time.sleep(1)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
