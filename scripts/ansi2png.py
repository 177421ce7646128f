#!/usr/bin/env python3
"""Render a terminal capture with colours (`tmux capture-pane -e -p`) to a PNG, cell by cell,
so the README can show the terminal frontend's real colours.

Understands the SGR codes tmux emits: reset, bold, reverse, 16 colours, 256 colours
(38;5;n / 48;5;n) and true colour (38;2;r;g;b / 48;2;r;g;b).

Usage: ansi2png.py CAPTURE.ansi OUT.png [COLUMNS ROWS]
Needs Pillow (python3 -m pip install pillow) and DejaVu Sans Mono or Noto Sans Mono.
"""
import re
import sys

from PIL import Image, ImageDraw, ImageFont

FONTS = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansMono-Regular.ttf",
]
BASE16 = [
    (0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16),
    (36, 114, 200), (188, 63, 188), (17, 168, 205), (229, 229, 229),
    (102, 102, 102), (241, 76, 76), (35, 209, 139), (245, 245, 67),
    (59, 142, 234), (214, 112, 214), (41, 184, 219), (255, 255, 255),
]
DEFAULT_FG = (204, 204, 204)
DEFAULT_BG = (0, 0, 0)


def xterm256(n):
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    v = 8 + (n - 232) * 10
    return (v, v, v)


def parse(text):
    """Rows of cells (char, fg, bg)."""
    rows = []
    fg, bg, reverse = DEFAULT_FG, DEFAULT_BG, False
    for line in text.split("\n"):
        row = []
        for part in re.split(r"(\x1b\[[0-9;]*m)", line):
            m = re.fullmatch(r"\x1b\[([0-9;]*)m", part)
            if not m:
                for ch in part:
                    f, b = (bg, fg) if reverse else (fg, bg)
                    row.append((ch, f, b))
                continue
            codes = [int(c) if c else 0 for c in m.group(1).split(";")] if m.group(1) else [0]
            i = 0
            while i < len(codes):
                c = codes[i]
                if c == 0:
                    fg, bg, reverse = DEFAULT_FG, DEFAULT_BG, False
                elif c == 7:
                    reverse = True
                elif c == 27:
                    reverse = False
                elif 30 <= c <= 37:
                    fg = BASE16[c - 30]
                elif 90 <= c <= 97:
                    fg = BASE16[c - 90 + 8]
                elif 40 <= c <= 47:
                    bg = BASE16[c - 40]
                elif 100 <= c <= 107:
                    bg = BASE16[c - 100 + 8]
                elif c == 39:
                    fg = DEFAULT_FG
                elif c == 49:
                    bg = DEFAULT_BG
                elif c in (38, 48) and i + 1 < len(codes):
                    if codes[i + 1] == 5 and i + 2 < len(codes):
                        col = xterm256(codes[i + 2])
                        i += 2
                    elif codes[i + 1] == 2 and i + 4 < len(codes):
                        col = tuple(codes[i + 2:i + 5])
                        i += 4
                    else:
                        col = None
                    if col is not None:
                        if c == 38:
                            fg = col
                        else:
                            bg = col
                i += 1
        rows.append(row)
    return rows


def main():
    src, out = sys.argv[1], sys.argv[2]
    cols = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    nrows = int(sys.argv[4]) if len(sys.argv) > 4 else 30
    font_path = next((f for f in FONTS if __import__("os").path.exists(f)), None)
    if font_path is None:
        sys.exit("ansi2png: no monospace font found")
    font = ImageFont.truetype(font_path, 16)
    left, top, right, bottom = font.getbbox("M")
    cw = round(font.getlength("M"))
    ch = 20
    rows = parse(open(src, encoding="utf-8").read())[:nrows]
    img = Image.new("RGB", (cols * cw, nrows * ch), DEFAULT_BG)
    draw = ImageDraw.Draw(img)
    for y, row in enumerate(rows):
        for x, (c, fg, bg) in enumerate(row[:cols]):
            x0, y0 = x * cw, y * ch
            draw.rectangle([x0, y0, x0 + cw - 1, y0 + ch - 1], fill=bg)
            if c == "█":
                draw.rectangle([x0, y0, x0 + cw - 1, y0 + ch - 1], fill=fg)
            elif c != " ":
                draw.text((x0, y0 + 1), c, font=font, fill=fg)
    img.save(out)


if __name__ == "__main__":
    main()
