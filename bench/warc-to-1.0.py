#!/usr/bin/python3
"""Copies a per-record gzipped WARC/1.1 file as WARC/1.0 (only the version
line of each record changes; each record stays its own gzip member), for
tools that read WARC/1.0 only, such as warc2text (bench/bench-ingest.sh).

    warc-to-1.0.py IN.warc.gz OUT.warc.gz
"""
import sys
import zlib

data = open(sys.argv[1], "rb").read()
out = open(sys.argv[2], "wb")
pos = 0
while pos < len(data):
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    member = d.decompress(data[pos:]) + d.flush()
    used = len(data) - pos - len(d.unused_data)
    pos += used
    if member.startswith(b"WARC/1.1\r\n"):
        member = b"WARC/1.0\r\n" + member[10:]
    c = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    out.write(c.compress(member) + c.flush())
out.close()
