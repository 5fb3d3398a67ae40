#!/usr/bin/python3
"""Writes cld2-full/LANG.txt: about 600 bytes of translated messages per
language that only CLD2's full tables know (libcld2_full.so; the Chrome tables
of libcld2.so give another language or none), taken from the gettext
catalogues installed under /usr/share/locale (Debian 12), and
cld2-full/SOURCES: which catalogues each file's lines come from.

Messages of at least 30 characters without printf directives, in catalogue
order (catalogues in name order), whole lines until 600 bytes.
Usage: make-cld2-full-sample.py OUT_DIR
"""
import glob
import os
import struct
import sys

LANGS = ["br", "eo", "fo", "gv", "mi", "mn", "oc", "ps", "so", "tk", "tt", "ug", "xh", "yo", "zu"]


def messages(mo):
    b = open(mo, "rb").read()
    if len(b) < 28:
        return
    e = "<" if struct.unpack("<I", b[:4])[0] == 0x950412DE else ">"
    n, _, to = struct.unpack(e + "III", b[8:20])
    for i in range(1, n):  # entry 0 is the header
        length, off = struct.unpack(e + "II", b[to + 8 * i : to + 8 * i + 8])
        s = b[off : off + length].split(b"\0")[0]
        try:
            s = s.decode("utf-8")
        except UnicodeDecodeError:
            continue
        s = " ".join(s.split())
        if len(s) >= 30 and "%" not in s and "{" not in s:
            yield s


out = sys.argv[1]
os.makedirs(out, exist_ok=True)
sources = []
for lang in LANGS:
    lines, used, size = [], [], 0
    for mo in sorted(glob.glob(f"/usr/share/locale/{lang}/LC_MESSAGES/*.mo")):
        for s in messages(mo):
            if size >= 600:
                break
            lines.append(s)
            size += len(s.encode()) + 1
            if os.path.basename(mo) not in used:
                used.append(os.path.basename(mo))
    with open(f"{out}/{lang}.txt", "w") as f:
        f.write("\n".join(lines) + "\n")
    sources.append(f"{lang}.txt\t/usr/share/locale/{lang}/LC_MESSAGES/: {', '.join(used)}")
with open(f"{out}/SOURCES", "w") as f:
    f.write("\n".join(sources) + "\n")
