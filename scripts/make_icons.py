#!/usr/bin/env python3
"""make_icons.py - draws the site's icons (web/icons/): the SVG, and the PNGs a phone's
home screen and the notifications use (192 and 512 pixels), from one description of the
shapes (the header's brand: a red disc, a green triangle, a blue square, an orange
diamond on the ink of the page). Python's standard library only (zlib, struct): each
pixel is 4x4 samples. Run it after changing the shapes: python3 scripts/make_icons.py"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "web", "icons")
INK, RED, GREEN, BLUE, ORANGE = "#22242a", "#e5383b", "#2fa84f", "#2f7de1", "#f28c18"
R = 96  # the background's corner radius, of 512


def inside_tri(x, y, a, b, c):
    def side(p, q):
        return (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0])
    s = [side(a, b), side(b, c), side(c, a)]
    return all(v >= 0 for v in s) or all(v <= 0 for v in s)


SHAPES = [
    (RED, lambda x, y: (x - 160) ** 2 + (y - 160) ** 2 <= 80 ** 2),
    (GREEN, lambda x, y: inside_tri(x, y, (352, 80), (432, 240), (272, 240))),
    (BLUE, lambda x, y: 80 <= x <= 240 and 272 <= y <= 432),
    (ORANGE, lambda x, y: abs(x - 352) + abs(y - 352) <= 90),
]


def background(x, y):
    cx = min(max(x, R), 512 - R)
    cy = min(max(y, R), 512 - R)
    return (x - cx) ** 2 + (y - cy) ** 2 <= R ** 2


def rgb(color):
    return tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))


def color_at(x, y):
    """(r, g, b, a) of one sample in 512 units."""
    for color, hit in SHAPES:
        if hit(x, y):
            return (*rgb(color), 255)
    return (*rgb(INK), 255) if background(x, y) else (0, 0, 0, 0)


def png(size):
    n = 4
    rows = []
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            acc = [0, 0, 0, 0]
            for sy in range(n):
                for sx in range(n):
                    x = (px + (sx + 0.5) / n) * 512 / size
                    y = (py + (sy + 0.5) / n) * 512 / size
                    c = color_at(x, y)
                    acc[0] += c[0] * c[3]
                    acc[1] += c[1] * c[3]
                    acc[2] += c[2] * c[3]
                    acc[3] += c[3]
            a = acc[3]
            row += bytes([acc[0] // a, acc[1] // a, acc[2] // a, a // (n * n)] if a else [0, 0, 0, 0])
        rows.append(bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


SVG = f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
<rect width="512" height="512" rx="{R}" fill="{INK}"/>
<circle cx="160" cy="160" r="80" fill="{RED}"/>
<polygon points="352,80 432,240 272,240" fill="{GREEN}"/>
<rect x="80" y="272" width="160" height="160" fill="{BLUE}"/>
<polygon points="352,262 442,352 352,442 262,352" fill="{ORANGE}"/>
</svg>
"""

if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "icon.svg"), "w") as f:
        f.write(SVG)
    for size in (192, 512):
        with open(os.path.join(OUT, f"icon-{size}.png"), "wb") as f:
            f.write(png(size))
