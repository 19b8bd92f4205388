#!/usr/bin/env python3
"""What tests/e2e/plot.sh asks of --plot's files, with python3's standard library only.

  plot_check.py svg FILE   the document is well-formed XML with an <svg> root, every
                           coordinate a finite number; prints the height, then for each
                           polyline of class CLASS "CLASS=POINTS", one a line, then
                           for every class word of the other elements "count:WORD=N"
                           (how many elements have it; --latency's circles, say)
  plot_check.py png FILE   a PNG as Chromium writes it (8-bit RGB or RGBA): prints its
                           width, height, distinct colours and the share of pixels that
                           are not white (percent)
Exit status 1, with the reason on stderr, when the file is not what it should be.
"""
import math
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

SVG = "{http://www.w3.org/2000/svg}"
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
GEOMETRY = ("x", "y", "x1", "y1", "x2", "y2", "width", "height", "cx", "cy", "r")


def die(why):
    print(f"plot_check: {why}", file=sys.stderr)
    sys.exit(1)


def finite(text, where):
    """Every number in text is finite, and nothing else is there."""
    if re.search(r"nan|inf", text, re.IGNORECASE):
        die(f"{where}: not a number: {text[:80]}")
    for n in NUMBER.findall(text):
        if not math.isfinite(float(n)):
            die(f"{where}: not finite: {n}")


def check_svg(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        die(f"{path}: not well-formed XML: {e}")
    if root.tag != SVG + "svg":
        die(f"{path}: the root is {root.tag}, not svg")
    print(root.get("height", "0"))
    counts = {}
    for el in root.iter():
        for name in GEOMETRY:
            if el.get(name) is not None and "%" not in el.get(name):
                finite(el.get(name), f"{path}: <{el.tag[len(SVG):]} {name}>")
        if el.tag == SVG + "polyline":
            points = el.get("points", "")
            finite(points, f"{path}: polyline")
            print(f"{el.get('class')}={len(points.split())}")
        elif el.get("class"):
            for word in el.get("class").split():
                counts[word] = counts.get(word, 0) + 1
    for word in sorted(counts):
        print(f"count:{word}={counts[word]}")


def png_rows(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        die(f"{path}: not a PNG")
    pos, idat, head = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    if head is None:
        die(f"{path}: no IHDR")
    width, height, depth, colour, _, _, interlace = head
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        die(f"{path}: a PNG of depth {depth}, colour type {colour}, interlace {interlace}")
    return width, height, 3 if colour == 2 else 4, zlib.decompress(idat)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def unfilter(width, height, bpp, raw):
    """The pixel rows, PNG's five filters undone."""
    stride, rows, prev, pos = width * bpp, [], bytearray(width * bpp), 0
    for _ in range(height):
        kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            add = (0, a, b, (a + b) // 2, paeth(a, b, c))[kind] if kind <= 4 else None
            if add is None:
                die(f"filter type {kind}")
            line[i] = (line[i] + add) & 0xFF
        rows.append(line)
        prev = line
    return rows


def check_png(path):
    width, height, bpp, raw = png_rows(path)
    colours, ink = set(), 0
    for line in unfilter(width, height, bpp, raw):
        for i in range(0, len(line), bpp):
            px = bytes(line[i:i + 3])
            colours.add(px)
            ink += px != b"\xff\xff\xff"
    print(width, height, len(colours), f"{100.0 * ink / (width * height):.2f}")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("svg", "png"):
        die("usage: plot_check.py svg|png FILE")
    (check_svg if sys.argv[1] == "svg" else check_png)(sys.argv[2])
