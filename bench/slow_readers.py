#!/usr/bin/env python3
"""slow_readers.py - what readers that never read cost `axio serve` (issue 46, finding 4).

Usage:
    python3 bench/slow_readers.py --axio build/axio [--readers 600] [--seconds 60]
                                  [--trickle BYTES] [--chat 200] [--churn-seconds 10]
                                  [--json FILE]

It starts its own server (a temporary SQLite database, per-address limits raised: the
readers come from 20 loopback addresses, 127.0.20.1 and up), then
  1. creates a game of AXIO Hex for four people, all played by this script from the
     server's hints, a decision a second (about 120 of them: the game lasts the run);
     their connections read everything;
  2. fills the game's chat with --chat messages of about 2 KB (200: about 414 KB, the
     finding's chat), five from each of 40 addresses;
  3. opens --readers spectators that read their handshake and nothing after it (a
     socket's default receive buffer, segments of 1,400 bytes as on a real network; with
     --trickle N, N bytes a second each, a reader too slow for the game), and lets the game and a chat message a second go on for
     --seconds;
  4. closes them, then for --churn-seconds connects and disconnects spectators in a loop
     from 10 addresses (each reads its connection's first messages up to the chat
     history, then closes), as fast as this script can (its parsing of what it reads
     is the limit: compare the server's CPU time per connection).

Reported every 10 s of step 3 and at its end: the kernel's TCP memory (the `mem` pages of
/proc/net/sockstat's TCP line, as 4 KiB pages, minus what it was before the readers
came; on loopback it counts both ends' buffers, the readers' receive buffers too: a
reader elsewhere keeps those on its own machine), the part of it that is the server's own
sockets (`ss -tm`: their receive and send queues, closed ones still sending included), the
server's resident size, how many readers the server still holds (its ends ESTABLISHED);
for step 4 the connections a second, the server's CPU (share of one core) and its CPU
time per connection. A reader that reads nothing at all is closed by the kernel itself
about 70 s after the server last heard from it (its TCP keepalive: 30 s, then 4 probes
10 s apart), with either build; one that reads a little (--trickle) is not. The
machine's other processes' sockets are in the kernel figure as well: run old and new
builds in one sitting and compare their differences.
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "server"))
from wsclient import Closed, WebSocket  # noqa: E402

HOST = "127.0.0.1"
PAGE = 4096


def tcp_mem_bytes():
    with open("/proc/net/sockstat") as f:
        for line in f:
            if line.startswith("TCP:"):
                parts = line.split()
                return int(parts[parts.index("mem") + 1]) * PAGE
    return 0


def server_sockets(port, readers_prefix):
    """(the kernel memory of the server's own sockets, in any state: `ss -tm`, each one's
    receive and send queues with their overhead, without the readers' ends; how many of
    the readers' connections the server still has open, ESTABLISHED on its side)."""
    out = subprocess.run(["ss", "-tmnaH", f"( sport = :{port} )"],
                         capture_output=True, text=True).stdout
    total = held = 0
    rows = out.splitlines()
    for i, row in enumerate(rows):
        if "skmem:(" not in row or i == 0:
            continue
        fields = row.split("skmem:(")[1].split(")")[0].split(",")
        values = {f.rstrip("0123456789"): int(f[len(f.rstrip("0123456789")):]) for f in fields}
        total += values.get("r", 0) + values.get("w", 0)
        socket_row = rows[i - 1].split()
        if socket_row and socket_row[0] == "ESTAB" and socket_row[4].startswith(readers_prefix):
            held += 1
    return total, held


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(axio, folder):
    cmd = [axio, "serve", "--port", "0", "--db", os.path.join(folder, "bench.db"), "--quiet",
           "--max-conns-per-ip", "5000", "--request-rate", "100000", "--msg-rate", "1000",
           "--max-header-waits-per-ip", "1000"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    if "listening on" not in line:
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, int(line.split("http://")[1].split("/")[0].split(":")[1])


def http_json(port, method, path, body=None):
    import http.client
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    conn.request(method, path, json.dumps(body) if body is not None else None,
                 {"Content-Type": "application/json"} if body is not None else {})
    resp = conn.getresponse()
    value = json.loads(resp.read() or b"null")
    conn.close()
    return resp.status, value


def send(ws, obj):
    ws.send_text(json.dumps(obj, ensure_ascii=False))


last_move = [0.0]  # of any seat: the game's pace
pace = threading.Lock()


def player(port, game, token, stop, interval):
    """A seat played from its hints, the game a decision every `interval` seconds; reads
    everything."""
    ws = WebSocket.connect(HOST, port, f"/ws/{game}?token={token}&hint=1", timeout=30)
    state = None
    while not stop.is_set():
        try:
            m = json.loads(ws.recv(0.2))
            if m["type"] == "state":
                state = m
        except TimeoutError:
            pass
        except Closed:
            return
        you = state and state.get("you")
        if you and "hint" in you and state["game"]["status"] == "running":
            with pace:
                if time.monotonic() - last_move[0] >= interval:
                    send(ws, you["hint"])
                    last_move[0] = time.monotonic()
                    state = None
    ws.close()


def chat_from(port, game, source, texts):
    ws = WebSocket.connect(HOST, port, f"/ws/{game}", timeout=30, source=source)
    for t in texts:
        send(ws, {"type": "chat", "text": t})
    send(ws, {"type": "ping"})
    while json.loads(ws.recv(30))["type"] != "pong":
        pass
    ws.close()


def silent_reader(port, game, source):
    sock = socket.socket()
    # segments as on a real network (loopback's are 64 KiB: a reader would announce
    # room in its window only once it had read that much)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 1400)
    sock.bind((source, 0))
    sock.settimeout(30)
    sock.connect((HOST, port))
    sock.sendall((f"GET /ws/{game} HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\n"
                  "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    if not head.startswith(b"HTTP/1.1 101"):
        raise SystemExit(f"a reader was refused: {head[:80]!r}")
    return sock


def churn(port, game, seconds, addresses=10):
    """Spectators connecting, reading up to their chat history and leaving, in a loop."""
    count = [0] * addresses
    end = time.monotonic() + seconds

    def loop(i):
        while time.monotonic() < end:
            try:
                ws = WebSocket.connect(HOST, port, f"/ws/{game}", timeout=30,
                                       source=f"127.0.30.{1 + i}")
                while json.loads(ws.recv(30))["type"] != "chat_history":
                    pass
                ws.close()
                count[i] += 1
            except (OSError, Closed, TimeoutError):
                time.sleep(0.01)
    threads = [threading.Thread(target=loop, args=(i,)) for i in range(addresses)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(count)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--axio", required=True)
    ap.add_argument("--readers", type=int, default=600)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--chat", type=int, default=200, help="chat messages of ~2 KB first")
    ap.add_argument("--trickle", type=int, default=0,
                    help="bytes each reader reads a second (0: none, as the finding's)")
    ap.add_argument("--churn-seconds", type=float, default=10)
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args()

    folder = tempfile.TemporaryDirectory()
    proc, port = start_server(args.axio, folder.name)
    results = {"axio": args.axio, "readers": args.readers, "seconds": args.seconds,
               "trickle": args.trickle, "samples": []}
    readers, stop = [], threading.Event()
    try:
        status, created = http_json(port, "POST", "/api/games",
                                    {"variant": "hex", "players": 4, "name": "Ann",
                                     "seats": [{"kind": "human"}] * 4})
        assert status == 201, created
        game = created["game"]
        tokens = [created["token"]] + [
            http_json(port, "POST", f"/api/games/{game}/join", {"name": name})[1]["token"]
            for name in ("Bo", "Cy", "Di")]
        # the chat first: ~2 KB a message (480 four-byte characters)
        texts = [f"{i} " + "\U00020000" * 480 for i in range(args.chat)]
        for a in range(0, len(texts), 5):
            chat_from(port, game, f"127.0.10.{1 + a // 5}", texts[a:a + 5])
        time.sleep(1.0)  # stored and sent
        players = [threading.Thread(target=player, args=(port, game, tok, stop, 1.0), daemon=True)
                   for tok in tokens]
        for t in players:
            t.start()
        time.sleep(1.0)
        base_mem, base_rss = tcp_mem_bytes(), rss_bytes(proc.pid)
        results.update(base_tcp_mem_mb=base_mem / 2**20, base_rss_mb=base_rss / 2**20)
        t0 = time.monotonic()
        for i in range(args.readers):
            readers.append(silent_reader(port, game, f"127.0.20.{1 + i // 30}"))
        opened = time.monotonic() - t0
        results["readers_opened_s"] = round(opened, 1)
        k, next_sample, cpu0 = 0, 0.0, cpu_seconds(proc.pid)
        print(f"{args.readers} readers opened in {opened:.1f} s; base: kernel TCP "
              f"{base_mem / 2**20:.0f} MB, server RSS {base_rss / 2**20:.0f} MB")
        print("   t   kernel TCP MB (+)   server sockets MB   server RSS MB   readers held")
        while True:
            t = time.monotonic() - t0
            if t >= next_sample:
                mem, rss = tcp_mem_bytes(), rss_bytes(proc.pid)
                own, held = server_sockets(port, "127.0.20.")
                sample = {"t": round(t), "tcp_mem_mb": round((mem - base_mem) / 2**20, 1),
                          "server_sockets_mb": round(own / 2**20, 1),
                          "rss_mb": round(rss / 2**20, 1), "readers_held": held}
                results["samples"].append(sample)
                print(f"{sample['t']:4d}   {sample['tcp_mem_mb']:17.1f}   {own / 2**20:17.1f}"
                      f"   {sample['rss_mb']:13.1f}   {held:12d}")
                next_sample += 10
            if t >= args.seconds:
                break
            if args.trickle:  # a reader that reads a little keeps the kernel from giving up
                for r in readers:
                    try:
                        r.recv(args.trickle, socket.MSG_DONTWAIT)
                    except OSError:
                        pass
            # a chat message a second, from addresses of their own
            try:
                chat_from(port, game, f"127.0.11.{1 + k % 250}",
                          [f"later {k} " + "\U00020000" * 480])
            except (OSError, Closed, TimeoutError):
                pass
            k += 1
            time.sleep(max(0.0, k - (time.monotonic() - t0)))
        results["cpu_share_while_held"] = round((cpu_seconds(proc.pid) - cpu0) / args.seconds, 3)
        results["plies"] = http_json(port, "GET", f"/api/games/{game}")[1].get("ply")
        results["chat_later"] = k
        results["final"] = results["samples"][-1]
        for s in readers:
            s.close()
        readers = []
        if args.churn_seconds > 0:
            time.sleep(1.0)
            cpu0, w0 = cpu_seconds(proc.pid), time.monotonic()
            n = churn(port, game, args.churn_seconds)
            wall = time.monotonic() - w0
            cpu = cpu_seconds(proc.pid) - cpu0
            results["churn"] = {"connections_per_s": round(n / wall, 1),
                                "server_cpu_share": round(cpu / wall, 3),
                                "server_cpu_ms_per_connection": round(1000 * cpu / max(n, 1), 2)}
            print(f"churn: {n / wall:.0f} connections a second, server CPU {100 * cpu / wall:.0f}%"
                  f" of a core, {1000 * cpu / max(n, 1):.2f} ms a connection")
    finally:
        stop.set()
        for s in readers:
            s.close()
        proc.terminate()
        proc.wait(30)
        folder.cleanup()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print(json.dumps({k: v for k, v in results.items() if k != "samples"}))


if __name__ == "__main__":
    main()
