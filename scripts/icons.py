#!/usr/bin/env python3
"""Draws the app's icons (web/icons/icon-192.png, icon-512.png): a cross and a ring on the
accent colour, full-bleed so a phone may mask it to any shape. Standard library only.

    python3 scripts/icons.py
"""
import math
import struct
import zlib
from pathlib import Path

BACKGROUND = (43, 108, 176)
INK = (255, 255, 255)
SAMPLES = 4  # per side, for smooth edges


def ink_at(x, y):
    """Whether the point (x, y), both in 0..1, is on the cross or the ring."""
    # The cross on the left half, the ring on the right, within the maskable safe zone.
    cx, cy, arm, width = 0.33, 0.5, 0.13, 0.055
    dx, dy = x - cx, y - cy
    if max(abs(dx), abs(dy)) <= arm + width / 2:
        if abs(dx - dy) / math.sqrt(2) <= width / 2 or abs(dx + dy) / math.sqrt(2) <= width / 2:
            return True
    r = math.hypot(x - 0.67, y - 0.5)
    return abs(r - 0.12) <= width / 2


def pixels(size):
    rows = []
    for py in range(size):
        row = bytearray([0])  # filter: none
        for px in range(size):
            hits = sum(
                ink_at((px + (i + 0.5) / SAMPLES) / size, (py + (j + 0.5) / SAMPLES) / size)
                for i in range(SAMPLES)
                for j in range(SAMPLES)
            )
            a = hits / SAMPLES**2
            row += bytes(round(b + (f - b) * a) for b, f in zip(BACKGROUND, INK))
        rows.append(bytes(row))
    return b"".join(rows)


def png(size):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(pixels(size), 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    out = Path(__file__).resolve().parent.parent / "web" / "icons"
    out.mkdir(exist_ok=True)
    for size in (192, 512):
        (out / f"icon-{size}.png").write_bytes(png(size))
        print(f"wrote {out / f'icon-{size}.png'}")
