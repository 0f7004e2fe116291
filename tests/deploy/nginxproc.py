"""nginxproc.py - Debian's nginx for a test: a site's configuration wrapped in what
Debian's /etc/nginx/nginx.conf gives it (every path moved into the test's folder),
checked with `nginx -t`, run in the foreground until its ports answer, and stopped
gracefully. Used by tests/deploy/test_nginx.py and tests/cluster/cluster.py.
"""
import os
import shutil
import signal
import socket
import subprocess
import time


def nginx_path():
    """nginx's path; fails (never skips) when it is missing."""
    path = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if not path:
        raise AssertionError("nginx is missing: run scripts/install-deps.sh (Debian package nginx)")
    return path


def main_conf(tmp, site, worker_connections=256, access_log=True):
    """The main configuration around a site (one or more server blocks)."""
    rlimit = f"worker_rlimit_nofile {2 * worker_connections + 1000};\n" if worker_connections > 1000 else ""
    log = f"access_log {tmp}/access.log;" if access_log else "access_log off;"
    return f"""
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log;
events {{ worker_connections {worker_connections}; }}
{rlimit}http {{
    {log}
    client_body_temp_path {tmp}/client_body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    default_type application/octet-stream;
{site}
}}
"""


class NginxProcess:
    """nginx -p TMP with the configuration text conf, listening on ports (127.0.0.1)."""

    def __init__(self, tmp, conf, ports, timeout=30.0):
        self.tmp, self.timeout = tmp, timeout
        path = os.path.join(tmp, "nginx.conf")
        with open(path, "w") as f:
            f.write(conf)
        base = [nginx_path(), "-p", tmp + "/", "-e", f"{tmp}/error.log", "-c", path]
        check = subprocess.run(base + ["-t"], capture_output=True, text=True, timeout=timeout)
        if check.returncode != 0:
            raise AssertionError("nginx -t refused the configuration:\n" + check.stderr)
        self.stderr = open(os.path.join(tmp, "nginx.stderr"), "w+")
        self.proc = subprocess.Popen(base + ["-g", "daemon off;"], stdout=subprocess.DEVNULL,
                                     stderr=self.stderr)
        deadline = time.monotonic() + timeout
        for port in ports:
            while True:
                if self.proc.poll() is not None:
                    raise AssertionError("nginx stopped: " + self.errors())
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise AssertionError("nginx did not listen in time: " + self.errors())
                    time.sleep(0.05)

    def errors(self):
        """What nginx said on its standard error and in its error log."""
        text = ""
        for name in ("nginx.stderr", "error.log"):
            try:
                with open(os.path.join(self.tmp, name)) as f:
                    text += f.read()
            except OSError:
                pass
        return text

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)  # graceful: workers finish, then exit
            try:
                self.proc.wait(self.timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(self.timeout)
        self.stderr.close()
