"""cluster.py - one axio site on several servers, for the cluster tests, the browser test
and the chaos benchmark: a throwaway PostgreSQL (tests/server/pgcluster.py), N `axio serve`
instances on it, and Debian's nginx in front with deploy/nginx-axio-cluster.conf (its
upstream and hashing as shipped; plain HTTP on loopback instead of TLS, which
tests/deploy/test_nginx.py checks). Everything listens on 127.0.0.1 only.

    site = Site(3)            # PostgreSQL, 3 instances, nginx
    site.http("GET", "/api/health")
    site.kill(1); site.start(1)
    site.stop()               # removes its folder; AXIO_KEEP_CLUSTER=1 keeps the logs

As a program (the browser test drives it through stdin):
    python3 cluster.py serve [--instances N] [--web DIR]
prints "url http://127.0.0.1:PORT/" once everything is up, then takes lines "kill I",
"start I", "stop I" (SIGTERM), "holder GAME" (the instance holding a game), "quit", and
answers each with "ok ..." on stdout.
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "server"))
import harness  # noqa: E402
from pgcluster import Cluster  # noqa: E402
sys.path.insert(0, os.path.join(HERE, "..", "deploy"))
from nginxproc import NginxProcess, main_conf  # noqa: E402

SRC = harness.SRC
AXIO = harness.AXIO
TIMEOUT = harness.TIMEOUT
NGINX_CONF = os.path.join(SRC, "deploy", "nginx-axio-cluster.conf")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nginx_conf(tmp, port, upstream_ports, limits=False):
    """deploy/nginx-axio-cluster.conf with this test's ports and paths, on plain HTTP; its
    limits per client address as shipped only with `limits` (the tests' clients are all
    127.0.0.1 to nginx)."""
    with open(NGINX_CONF) as f:
        site = f.read()
    # the redirecting port-80 server goes; the TLS one listens on plain HTTP here
    site, n = re.subn(r"server \{\n    listen 80;.*?\n\}\n", "", site, count=1, flags=re.S)
    assert n == 1, "the port-80 server of nginx-axio-cluster.conf"
    site = site.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{port};")
    site = re.sub(r"\n\s*(listen \[::\]:443 ssl http2;|ssl_[^\n]*|add_header Strict[^\n]*)", "", site)
    servers = re.findall(r"\n    server 127\.0\.0\.1:\d+ ([^;]*);", site)
    assert servers, "the upstream's servers"
    site = re.sub(r"\n    server 127\.0\.0\.1:\d+ [^;]*;", "", site)
    lines = "".join(f"\n    server 127.0.0.1:{p} {servers[0]};" for p in upstream_ports)
    site = site.replace("hash $axio_game consistent;", "hash $axio_game consistent;" + lines, 1)
    site = site.replace("/var/log/nginx/axio.access.log", f"{tmp}/axio.access.log")
    if not limits:
        site = site.replace("limit_conn axio_conns 32;", "limit_conn axio_conns 60000;")
        site = site.replace("rate=20r/s;", "rate=100000r/s;")
        site = site.replace("burst=40 nodelay;", "burst=100000 nodelay;")
    return main_conf(tmp, site, worker_connections=30000, access_log=False)


class Instance:
    """One `axio serve` of the site; http/websocket/create/join as harness.Server's, straight
    to this instance (not through nginx)."""

    http = harness.Server.http
    http_once = harness.Server.http_once
    create = harness.Server.create
    join = harness.Server.join
    websocket = harness.Server.websocket

    def __init__(self, site, i):
        self.site, self.i = site, i
        self.port = free_port()
        self.proc = None
        self.log = open(os.path.join(site.tmp, f"axio{i}.log"), "a+")

    def start(self):
        cmd = [AXIO, "serve", "--port", str(self.port), "--bind", "127.0.0.1", "--db",
               self.site.db, "--trusted-proxy", "127.0.0.1"]
        if not self.site.limits:
            cmd += ["--max-games-per-ip", "100000", "--max-signups-per-ip", "100000",
                    "--request-rate", "100000", "--max-conns-per-ip", "100000", "--msg-rate", "1000"]
            # an older build (bench/load.py measures one beside this one) has fewer limits
            if "--max-waiting-per-ip" in self.site.help():
                cmd += ["--max-waiting-per-ip", "100000"]
        cmd += ["--public-url", f"http://127.0.0.1:{self.site.port}/", *self.site.args]
        if self.site.web:
            cmd += ["--web", self.site.web]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self.log, text=True)
        got = []
        t = threading.Thread(target=lambda: got.append(self.proc.stdout.readline()), daemon=True)
        t.start()
        t.join(TIMEOUT)
        if not got or "listening on" not in got[0]:
            raise RuntimeError(f"instance {self.i} did not start: {got!r} {self.errors()[-2000:]}")
        # the rest of stdout is drained so that it never fills up
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        self.instance_id = harness.Server.http_once(self, "GET", "/api/health")[1]["instance"]

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        if self.running():
            self.proc.kill()
            self.proc.wait(TIMEOUT)

    def stop(self):
        if self.running():
            self.proc.send_signal(signal.SIGTERM)
            return self.proc.wait(TIMEOUT)
        return None

    def errors(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()


class Site:
    """PostgreSQL, n instances and nginx; http/websocket/create/join as harness.Server's."""

    def __init__(self, n=3, web=None, args=(), durable=False, limits=False):
        """limits: the instances' and nginx's limits per client address as shipped."""
        self.limits = limits
        self.tmp = tempfile.mkdtemp(prefix="axio-cluster.")
        os.chmod(self.tmp, 0o755)  # nginx's workers run as nobody when the test runs as root
        self.pg = Cluster(durable=durable)
        self.db = self.pg.new_database()
        self.web, self.args = web, list(args)
        self.port = free_port()
        self.instances = [Instance(self, i) for i in range(n)]
        for inst in self.instances:
            inst.start()
        conf = nginx_conf(self.tmp, self.port, [i.port for i in self.instances], limits)
        self.nginx = NginxProcess(self.tmp, conf, [self.port], TIMEOUT)

    # harness.Server's client side, through nginx
    http = harness.Server.http
    http_once = harness.Server.http_once
    create = harness.Server.create
    join = harness.Server.join
    websocket = harness.Server.websocket

    def url(self):
        return f"http://127.0.0.1:{self.port}/"

    def help(self):
        """`axio serve --help` of the binary under test."""
        if not hasattr(self, "_help"):
            self._help = subprocess.run([AXIO, "serve", "--help"], capture_output=True,
                                        text=True).stdout
        return self._help

    def kill(self, i):
        self.instances[i].kill()

    def start(self, i):
        self.instances[i].start()

    def stop_instance(self, i):
        return self.instances[i].stop()

    def holder(self, game):
        """The index of the instance that holds a game now, or None."""
        rows = self.pg.psql(self.db, "SELECT instance FROM game_owners WHERE game_id = '"
                            + game.replace("'", "") + "'")
        ids = [i.instance_id if i.running() else None for i in self.instances]
        return ids.index(rows[0][0]) if rows and rows[0][0] in ids else None

    def errors(self):
        return "".join(f"--- instance {i.i}\n{i.errors()}" for i in self.instances)

    def stop(self):
        for inst in self.instances:
            try:
                inst.stop()
            except subprocess.TimeoutExpired:
                inst.kill()
        self.nginx.stop()
        self.pg.stop()
        if not os.environ.get("AXIO_KEEP_CLUSTER"):  # its logs, for a look afterwards
            shutil.rmtree(self.tmp, ignore_errors=True)


def main(argv):
    import argparse
    p = argparse.ArgumentParser(prog="cluster.py")
    p.add_argument("command", choices=["serve"])
    p.add_argument("--instances", type=int, default=3)
    p.add_argument("--web")
    a = p.parse_args(argv)
    site = Site(a.instances, web=a.web)
    try:
        print("url", site.url(), flush=True)
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words[0] == "quit":
                break
            if words[0] == "holder":
                print("ok holder", site.holder(words[1]), flush=True)
                continue
            i = int(words[1])
            {"kill": site.kill, "start": site.start, "stop": site.stop_instance}[words[0]](i)
            print("ok", *words, flush=True)
    finally:
        site.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
