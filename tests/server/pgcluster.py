"""pgcluster.py - a throwaway PostgreSQL server for the tests and benchmarks: Debian's
`postgresql` (initdb, postgres) in a temporary folder, listening only on a unix socket there
(no TCP port), stopped and removed at the end.

initdb and postgres refuse to run as root. As root (CI) they run as the system user
`postgres` (setpriv) in a folder it owns; as an ordinary user, as that user. The server is
started through a small shell watchdog that stops it and removes the folder when the process
that started it is gone, however that one ended, so a killed test leaves no server behind.

Each server of a test gets a new, empty schema of the cluster's database `axio`
(`new_database`: CREATE SCHEMA takes milliseconds, CREATE DATABASE a second), reached by a
libpq URI naming the socket folder and the schema:
postgresql:///axio?host=DIR&user=axio&options=-csearch_path%3Ds1. axio keeps its tables
in the schema its connection starts in, so a schema is a database to it. The tests' cluster runs with
fsync=off (the tests kill axio, never PostgreSQL, so what they check does not depend on the
disk; it spares the shared machine's disk); `durable=True` keeps PostgreSQL's defaults, for
benchmarks.

As a program:
    python3 pgcluster.py run [--durable] [--createdb NAME ...] -- COMMAND ...
runs COMMAND with PGHOST, PGUSER and AXIO_TEST_PG (the folder) set, and each NAME created.
"""
import glob
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time

USER = "axio"  # the cluster's superuser, whoever runs it


def bin_dir():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if not found:
        raise RuntimeError("PostgreSQL's server is missing (Debian package postgresql; make deps)")
    return os.path.dirname(found[-1])


WATCHDOG = r'''
"$BIN/postgres" -D "$DIR/data" "$@" &
pg=$!
trap 'kill -INT $pg 2>/dev/null; wait $pg; exit 0' TERM INT
while [ -d /proc/$OWNER ] && kill -0 $pg 2>/dev/null; do sleep 0.5; done
kill -INT $pg 2>/dev/null
wait $pg
[ -d /proc/$OWNER ] || rm -rf "$DIR"
'''


class Cluster:
    def __init__(self, durable=False):
        self.bin = bin_dir()
        self.durable = durable
        self.dir = tempfile.mkdtemp(prefix="axio-pg-")
        self.as_postgres = []
        if os.geteuid() == 0:
            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("running as root needs the system user postgres (Debian's "
                                   "postgresql package makes it)")
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
            self.as_postgres = ["setpriv", f"--reuid={pw.pw_uid}", f"--regid={pw.pw_gid}",
                                "--init-groups", "--"]
        self.proc = None
        self.count = 0
        self.schemas = 0
        r = subprocess.run(self.as_postgres + [
            os.path.join(self.bin, "initdb"), "-D", os.path.join(self.dir, "data"), "-U", USER,
            "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"],
            capture_output=True, text=True, cwd=self.dir)
        if r.returncode != 0:
            shutil.rmtree(self.dir, ignore_errors=True)
            raise RuntimeError("initdb failed: " + r.stdout + r.stderr)
        self.start()
        self.psql("postgres", "CREATE DATABASE axio")

    def start(self):
        """Starts (or starts again) the server; returns when it answers."""
        settings = ["-c", "listen_addresses=", "-c", f"unix_socket_directories={self.dir}",
                    "-c", "max_connections=100", "-c", "shared_buffers=32MB"]
        if not self.durable:
            settings += ["-c", "fsync=off", "-c", "full_page_writes=off"]
        env = dict(os.environ, BIN=self.bin, DIR=self.dir, OWNER=str(os.getpid()))
        self.log = open(os.path.join(self.dir, "server.log"), "a")
        self.proc = subprocess.Popen(self.as_postgres + ["bash", "-c", WATCHDOG, "watchdog",
                                                         *settings],
                                     env=env, stdout=self.log, stderr=self.log, cwd=self.dir,
                                     start_new_session=True)
        deadline = time.monotonic() + 60
        while True:
            r = subprocess.run([os.path.join(self.bin, "pg_isready"), "-q", "-h", self.dir,
                                "-U", USER, "-d", "postgres"])
            if r.returncode == 0:
                return
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("PostgreSQL did not start: " + self.server_log())
            time.sleep(0.1)

    def server_log(self):
        try:
            with open(os.path.join(self.dir, "server.log")) as f:
                return f.read()[-4000:]
        except OSError:
            return ""

    def stop_server(self):
        """Stops the server (a fast shutdown: its sessions are ended); the folder stays."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(60)
        self.proc = None
        self.log.close()

    def stop(self):
        self.stop_server()
        shutil.rmtree(self.dir, ignore_errors=True)

    def uri(self, name):
        return f"postgresql:///{name}?host={self.dir}&user={USER}"

    def new_database(self):
        """A new, empty schema of the database axio, as a URI."""
        self.schemas += 1
        schema = f"s{self.schemas}"
        self.psql("axio", f"CREATE SCHEMA {schema}")
        return self.uri("axio") + f"&options=-csearch_path%3D{schema}"

    def create_database(self, name):
        self.psql("postgres", f'CREATE DATABASE "{name}"')
        return self.uri(name)

    def psql(self, database, sql):
        """Runs SQL on a database (a name, or a URI from new_database); the rows as lists of
        text (None for NULL)."""
        where = ["-d", database] if "://" in database else ["-h", self.dir, "-U", USER,
                                                             "-d", database]
        r = subprocess.run([os.path.join(self.bin, "psql"), "-X", "-q", "-A", "-t",
                            "-v", "ON_ERROR_STOP=1", "-P", "null=\\N", "-F", "\x1f",
                            *where, "-c", sql],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"psql: {r.stderr.strip()} ({sql[:200]})")
        return [[None if v == "\\N" else v for v in line.split("\x1f")]
                for line in r.stdout.splitlines()]

    def terminate_sessions(self):
        """Ends every session of axio servers (pg_terminate_backend); how many."""
        return int(self.psql("postgres", "SELECT count(pg_terminate_backend(pid)) FROM"
                             " pg_stat_activity WHERE application_name = 'axio'")[0][0])


def main(argv):
    if len(argv) < 2 or argv[0] != "run" or "--" not in argv:
        print("usage: pgcluster.py run [--durable] [--createdb NAME ...] -- COMMAND ...",
              file=sys.stderr)
        return 2
    split = argv.index("--")
    opts, command = argv[1:split], argv[split + 1:]
    durable = "--durable" in opts
    names = [opts[i + 1] for i, o in enumerate(opts) if o == "--createdb" and i + 1 < len(opts)]
    cluster = Cluster(durable=durable)
    try:
        for name in names:
            cluster.create_database(name)
        env = dict(os.environ, PGHOST=cluster.dir, PGUSER=USER, AXIO_TEST_PG=cluster.dir)
        return subprocess.run(command, env=env).returncode
    finally:
        cluster.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
