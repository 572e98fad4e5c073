"""The local Neo4j server: the graph database of the one-machine stack and of the tests.

Neo4j 5.26 LTS Community runs from jars the Maven registry serves, in a JVM of its own
(`deploy/neo4j-local/`: a pom.xml and one launcher class), with Bolt and the HTTP server
(Neo4j Browser at `/browser/`) on 127.0.0.1. `build` resolves the jars once
(`mvn package dependency:copy-dependencies` into `target/lib/`) and lays out the Browser
folder with lexgraph's guide and style (services/core/browser_kit.py); `start` then runs
offline (`java -cp 'target/lib/*' ...`).

The server's files live under `<data_dir>/neo4j/` (data, logs, run), its output in
`<data_dir>/neo4j.log`, its pid in `<data_dir>/neo4j.pid`; `stop` ends only the process
that pid file names, and only when that process is this server (its command line names
the launcher class and this home folder). Ready means: the launcher wrote its ready
marker (after it set the configured password) and Bolt answers `RETURN 1`.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import signal
import socket
import subprocess
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from services.core.errors import GraphUnavailable

log = logging.getLogger(__name__)

MAIN_CLASS = "lexgraph.LocalNeo4j"
USER = "neo4j"  # Community has one user database and this one user
# Measured on 2 shared cores: ready in 9-27 s (first start, which creates the system
# database, is the slowest); a stop checkpoints and takes ~12 s.
START_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 60.0
BUILD_TIMEOUT_S = 900.0
BROWSER_ARTIFACT = "neo4j-browser-"


@dataclass(frozen=True)
class LocalNeo4j:
    data_dir: Path
    launcher_dir: Path
    bolt_port: int = 7687
    http_port: int = 7474
    password: str = "lexgraph-local"  # noqa: S105 - local default, overridden by settings
    database: str = "statutes"
    heap_mb: int = 1024
    pagecache: str = "256m"
    user: str = USER

    @property
    def home(self) -> Path:
        return self.data_dir / "neo4j"

    @property
    def pid_file(self) -> Path:
        return self.data_dir / "neo4j.pid"

    @property
    def log_file(self) -> Path:
        return self.data_dir / "neo4j.log"

    @property
    def ready_file(self) -> Path:
        return self.home / "run" / "lexgraph.ready"

    @property
    def bolt_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def browser_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}/browser/"

    @property
    def target(self) -> Path:
        return self.launcher_dir / "target"

    def classpath(self) -> str:
        # The Browser folder first: the server serves the classpath's `browser/`.
        entries = [self.target / "browser-root", self.target / "neo4j-local-1.jar"]
        return os.pathsep.join([*map(str, entries), str(self.target / "lib" / "*")])

    def command(self) -> list[str]:
        return [
            _java(),
            f"-Xms{min(self.heap_mb, 256)}m",
            f"-Xmx{self.heap_mb}m",
            "-XX:+UseG1GC",
            "-XX:+ExitOnOutOfMemoryError",
            "-Dfile.encoding=UTF-8",
            "-cp",
            self.classpath(),
            MAIN_CLASS,
            "--home", str(self.home),
            "--bolt-port", str(self.bolt_port),
            "--http-port", str(self.http_port),
            "--database", self.database,
            "--pagecache", self.pagecache,
        ]  # fmt: skip


@dataclass(frozen=True)
class ServerStatus:
    running: bool
    pid: int | None
    bolt_uri: str
    ready: bool
    detail: str
    browser_url: str = ""

    def as_dict(self) -> dict[str, object]:
        return {
            "running": self.running,
            "pid": self.pid,
            "bolt_uri": self.bolt_uri,
            "browser_url": self.browser_url,
            "ready": self.ready,
            "detail": self.detail,
        }


def bolt_port(uri: str) -> int:
    """The port of a bolt:// URI (7687 when it names none)."""
    return urlsplit(uri).port or 7687


# --- build -------------------------------------------------------------------------------


def is_built(server: LocalNeo4j) -> bool:
    stamp = server.target / "lexgraph-build"
    return stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == _build_inputs_hash(
        server
    )


def build(server: LocalNeo4j, *, force: bool = False) -> bool:
    """Resolve the jars with Maven (online the first time; `-o` when ~/.m2 already holds
    them), unpack Neo4j Browser and add lexgraph's Browser kit. False when already built."""
    from services.core.browser_kit import write_browser_kit

    if not force and is_built(server):
        return False
    mvn = shutil.which("mvn")
    if mvn is None:
        raise GraphUnavailable("Maven (mvn) is needed once to fetch Neo4j's jars; install maven")
    lib = server.target / "lib"
    shutil.rmtree(lib, ignore_errors=True)
    argv = [mvn, "-B", "-q", "-f", str(server.launcher_dir / "pom.xml"),
            "package", "dependency:copy-dependencies"]  # fmt: skip
    started = time.perf_counter()
    done = subprocess.run(  # noqa: S603 - fixed argv
        argv, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S, check=False
    )
    if done.returncode != 0:
        raise GraphUnavailable(
            f"building the Neo4j launcher failed ({' '.join(argv)}):\n"
            f"{(done.stdout + done.stderr)[-3000:]}"
        )
    _unpack_browser(server)
    write_browser_kit(server.target / "browser-root" / "browser" / "lexgraph")
    (server.target / "lexgraph-build").write_text(_build_inputs_hash(server) + "\n", "utf-8")
    log.info("built the Neo4j launcher in %.1f s", time.perf_counter() - started)
    return True


def _unpack_browser(server: LocalNeo4j) -> None:
    """The Browser jar becomes a `browser/` folder on the classpath, so lexgraph's guide and
    style sit beside Browser's own files and the server serves them at /browser/lexgraph/."""
    lib = server.target / "lib"
    jars = sorted(lib.glob(f"{BROWSER_ARTIFACT}*.jar"))
    if not jars:
        raise GraphUnavailable(f"no {BROWSER_ARTIFACT}*.jar in {lib}")
    root = server.target / "browser-root"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    with zipfile.ZipFile(jars[-1]) as jar:
        jar.extractall(root, [n for n in jar.namelist() if n.startswith("browser/")])
    for jar_path in jars:
        jar_path.unlink()


def _build_inputs_hash(server: LocalNeo4j) -> str:
    from services.core.browser_kit import kit_sources

    digest = hashlib.sha256()
    sources = [server.launcher_dir / "pom.xml",
               *sorted((server.launcher_dir / "src").rglob("*.java")), *kit_sources()]  # fmt: skip
    for path in sources:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


# --- run -----------------------------------------------------------------------------------


def status(server: LocalNeo4j) -> ServerStatus:
    pid = _our_pid(server)
    if pid is None:
        if not _port_open(server.bolt_port):
            return ServerStatus(False, None, server.bolt_uri, False, "not running")
        ready = _bolt_answers(server)
        detail = "another process serves this Bolt port" + ("" if ready else " (not answering)")
        return ServerStatus(False, None, server.bolt_uri, ready, detail)
    ready = _marker_is(server, pid) and _bolt_answers(server)
    return ServerStatus(
        True, pid, server.bolt_uri, ready, "ready" if ready else "starting", server.browser_url
    )


def start(server: LocalNeo4j, *, timeout_s: float = START_TIMEOUT_S) -> ServerStatus:
    """Start the server unless it already runs (building the launcher first if needed);
    return once it answers Bolt."""
    current = status(server)
    if current.running:
        if not current.ready:
            _wait_ready(server, current.pid, timeout_s)
        return status(server)
    if current.ready:  # a server started another way answers there: use it
        return current
    if current.detail.startswith("another process"):
        raise GraphUnavailable(
            f"port {server.bolt_port} is taken by a process that does not answer as "
            f"Neo4j database {server.database!r} with the configured password"
        )
    build(server)
    server.home.mkdir(parents=True, exist_ok=True)
    server.ready_file.unlink(missing_ok=True)
    env = {**os.environ, "LEXGRAPH_NEO4J_PASSWORD": server.password}
    with open(server.log_file, "ab") as out:
        process = subprocess.Popen(  # noqa: S603 - fixed argv, no shell
            server.command(),
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            cwd=server.home,
            env=env,
        )
    server.pid_file.write_text(f"{process.pid}\n", encoding="utf-8")
    log.info("started Neo4j (pid %d) on %s, data in %s", process.pid, server.bolt_uri, server.home)
    _wait_ready(server, process.pid, timeout_s, process)
    return status(server)


def stop(server: LocalNeo4j, *, timeout_s: float = STOP_TIMEOUT_S) -> bool:
    """Stop (SIGTERM: Neo4j checkpoints and closes its store) the server this pid file
    names; True when one was running."""
    pid = _our_pid(server)
    if pid is None:
        server.pid_file.unlink(missing_ok=True)
        return False
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.1)
    if _alive(pid):
        log.warning("Neo4j (pid %d) ignored SIGTERM for %.0f s; killing it", pid, timeout_s)
        os.kill(pid, signal.SIGKILL)
        while _alive(pid):
            time.sleep(0.05)
    server.pid_file.unlink(missing_ok=True)
    return True


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now, for a server about to start
    (the benchmarks' and the tests' own stacks)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- helpers ---------------------------------------------------------------------------


def _java() -> str:
    java_home = os.environ.get("JAVA_HOME")  # the JVM's own convention, not a lexgraph setting
    if java_home and (Path(java_home) / "bin" / "java").is_file():
        return str(Path(java_home) / "bin" / "java")
    return shutil.which("java") or "java"


def _our_pid(server: LocalNeo4j) -> int | None:
    """The pid in the pid file when that process is alive and is this server."""
    try:
        pid = int(server.pid_file.read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return None
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    if MAIN_CLASS.encode() in cmdline and str(server.home).encode() in cmdline and _alive(pid):
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


def _port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _marker_is(server: LocalNeo4j, pid: int) -> bool:
    try:
        return server.ready_file.read_text(encoding="utf-8").strip() == str(pid)
    except OSError:
        return False


def _bolt_answers(server: LocalNeo4j) -> bool:
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
        raise GraphUnavailable(
            f"Neo4j at {server.bolt_uri} refused user {server.user!r} ({e.message})"
        ) from e
    except (DriverError, Neo4jError, OSError):
        return False


def _wait_ready(
    server: LocalNeo4j,
    pid: int | None,
    timeout_s: float,
    process: subprocess.Popen[bytes] | None = None,
) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise GraphUnavailable(
                f"Neo4j exited with code {process.returncode} while starting; "
                f"see {server.log_file}"
            )
        if pid is not None and process is None and not _alive(pid):
            raise GraphUnavailable(f"Neo4j (pid {pid}) died while starting; see {server.log_file}")
        if pid is not None and _marker_is(server, pid) and _bolt_answers(server):
            return
        time.sleep(0.25)
    raise GraphUnavailable(
        f"Neo4j did not answer on {server.bolt_uri} within {timeout_s:.0f} s; "
        f"see {server.log_file}"
    )
