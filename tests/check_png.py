#!/usr/bin/env python3
"""Checks a rendered picture: a PNG at least MIN_WIDTH x MIN_HEIGHT pixels
with at least MIN_COLOURS distinct colours (not one colour, not a blank
frame with a title).

    check_png.py PICTURE.png [MIN_WIDTH MIN_HEIGHT MIN_COLOURS]
"""
import sys

try:
    import matplotlib.image as mpimg
except ImportError:
    print("check_png: needs matplotlib (Debian: apt-get install python3-matplotlib)")
    sys.exit(0)


def main():
    if len(sys.argv) not in (2, 5):
        raise SystemExit(__doc__)
    path = sys.argv[1]
    width, height, colours = (int(v) for v in (sys.argv[2:] or ["400", "200", "64"]))
    with open(path, "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            raise SystemExit(f"check_png: {path} is not a PNG")
    image = mpimg.imread(path)
    h, w = image.shape[:2]
    distinct = len({tuple(p) for row in image[:, :, :3] for p in row.tolist()})
    print(f"check_png: {path}: {w} x {h} pixels, {distinct} colours")
    if w < width or h < height:
        raise SystemExit(f"check_png: smaller than {width} x {height}")
    if distinct < colours:
        raise SystemExit(f"check_png: fewer than {colours} colours (one colour: nothing drawn)")


if __name__ == "__main__":
    main()
