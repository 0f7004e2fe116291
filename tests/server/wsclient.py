"""wsclient.py - a small WebSocket client (RFC 6455) on Python's standard library.

The server tests talk to the real server through it. `WebSocket.connect` does the
HTTP/1.1 upgrade handshake and checks Sec-WebSocket-Accept; `send_frame` writes one
masked frame of any opcode (fragments, declared lengths and all, so the tests can
send malformed input too); `recv` returns the next complete message, reassembling
continuation frames and answering pings, and raises `Closed` on a close frame or
end of stream. Blocking sockets with deadlines: no threads, no asyncio.
"""
import base64
import hashlib
import json
import os
import socket
import struct
import time

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0, 1, 2, 8, 9, 10


class HandshakeError(Exception):
    def __init__(self, status, head):
        super().__init__(f"handshake refused: {status}")
        self.status = status
        self.head = head


class Closed(Exception):
    def __init__(self, code=None, reason=""):
        super().__init__(f"closed ({code}) {reason}")
        self.code = code
        self.reason = reason


class WebSocket:
    def __init__(self, sock, pending=b""):
        self.sock = sock
        self.buf = pending
        self.closed = False

    @classmethod
    def connect(cls, host, port, path, timeout=10.0, headers=None, source=None):
        """headers: extra request headers (a dict); source: the local address to connect
        from (an attacker's 127.0.0.2)."""
        sock = socket.create_connection((host, port), timeout=timeout,
                                        source_address=(source, 0) if source else None)
        key = base64.b64encode(os.urandom(16))
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key.decode()}\r\n"
            f"Sec-WebSocket-Version: 13\r\n{extra}\r\n"
        )
        sock.sendall(request.encode())
        data = b""
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in data:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = sock.recv(4096)
            if not chunk:
                sock.close()
                raise HandshakeError(None, data.decode(errors="replace"))
            data += chunk
        head, rest = data.split(b"\r\n\r\n", 1)
        lines = head.decode(errors="replace").split("\r\n")
        parts = lines[0].split(" ")
        status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
        if status != 101:
            sock.close()
            raise HandshakeError(status, head.decode(errors="replace"))
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        expected = base64.b64encode(hashlib.sha1(key + GUID).digest()).decode()
        if headers.get("sec-websocket-accept") != expected:
            sock.close()
            raise HandshakeError(status, "bad Sec-WebSocket-Accept")
        return cls(sock, rest)

    def fileno(self):
        return self.sock.fileno()

    # --- sending ---

    def send_frame(self, opcode, payload, fin=True, declared_len=None):
        """One masked frame; declared_len lies about the length when given."""
        if isinstance(payload, str):
            payload = payload.encode()
        n = len(payload) if declared_len is None else declared_len
        head = bytes([(0x80 if fin else 0) | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + body)

    def send_text(self, text):
        self.send_frame(OP_TEXT, text)

    def send_json(self, obj):
        self.send_text(json.dumps(obj))

    def close(self, code=1000):
        if not self.closed:
            try:
                self.send_frame(OP_CLOSE, struct.pack("!H", code))
            except OSError:
                pass
            self.closed = True
        try:
            self.sock.close()
        except OSError:
            pass

    # --- receiving ---

    def _fill(self, n, deadline):
        while len(self.buf) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no message in time")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                raise TimeoutError("no message in time") from None
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                self.closed = True
                raise Closed(None, "end of stream")
            self.buf += chunk

    def _take(self, n, deadline):
        self._fill(n, deadline)
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv_frame(self, deadline):
        b0, b1 = self._take(2, deadline)
        fin, opcode, n = b0 & 0x80, b0 & 0x0F, b1 & 0x7F
        if b1 & 0x80:
            raise ValueError("the server masked a frame")
        if n == 126:
            n = struct.unpack("!H", self._take(2, deadline))[0]
        elif n == 127:
            n = struct.unpack("!Q", self._take(8, deadline))[0]
        return bool(fin), opcode, self._take(n, deadline)

    def recv(self, timeout=10.0):
        """The next text message as a string."""
        deadline = time.monotonic() + timeout
        parts = []
        while True:
            fin, opcode, payload = self.recv_frame(deadline)
            if opcode == OP_PING:
                self.send_frame(OP_PONG, payload)
                continue
            if opcode == OP_PONG:
                continue
            if opcode == OP_CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                self.closed = True
                raise Closed(code, payload[2:].decode(errors="replace"))
            parts.append(payload)
            if fin:
                return b"".join(parts).decode()

    def pending(self):
        """Whether bytes are waiting in the buffer (select() cannot see them)."""
        return len(self.buf) > 0
