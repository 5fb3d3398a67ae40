#!/usr/bin/python3
"""An independent reader of the WARC/1.1 framing, to check what pc-crawl writes.

    warc_reader.py FILE...                  check WARC files (.warc, .warc.gz, .warc.zst)
    warc_reader.py --crawl PC_CRAWL SITE    crawl SITE from a local server into .warc.gz
                                            and .warc.zst, then check both

It shares no code with libcorpus: the framing is read from the standard
(version line, header fields, Content-Length, CRLF CRLF after each block),
every gzip member must hold exactly one record (so readers can seek to
record offsets), zstd goes through the zstd command, and each
WARC-Block-Digest (sha1, base32) and WARC-Payload-Digest is recomputed.
"""
import base64
import hashlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import zlib

VERSIONS = (b"WARC/1.0", b"WARC/1.1")
REQUIRED = ("WARC-Type", "WARC-Record-ID", "WARC-Date", "Content-Length")


class Bad(Exception):
    pass


def gzip_members(data):
    """The decompressed members of a gzip file, one by one."""
    pos = 0
    while pos < len(data):
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        out = d.decompress(data[pos:])
        if not d.eof:
            raise Bad(f"gzip member at byte {pos} is truncated")
        used = len(data) - pos - len(d.unused_data)
        yield pos, out
        pos += used


def digest(data):
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode()


def http_payload(block):
    """The body of an HTTP message block (after the header's CRLF CRLF)."""
    end = block.find(b"\r\n\r\n")
    return None if end < 0 else block[end + 4:]


def read_records(data, where):
    """Parses back-to-back records of `data`; yields (headers, block)."""
    pos = 0
    while pos < len(data):
        nl = data.find(b"\r\n", pos)
        if nl < 0:
            raise Bad(f"{where}: byte {pos}: no version line")
        version = data[pos:nl]
        if version not in VERSIONS:
            raise Bad(f"{where}: byte {pos}: version line {version[:20]!r}, not WARC/1.0 or WARC/1.1")
        pos = nl + 2
        headers = {}
        while True:
            nl = data.find(b"\r\n", pos)
            if nl < 0:
                raise Bad(f"{where}: header fields run to the end")
            line = data[pos:nl]
            pos = nl + 2
            if not line:
                break
            name, sep, value = line.partition(b":")
            if not sep or not name or name != name.strip():
                raise Bad(f"{where}: bad header line {line[:60]!r}")
            headers[name.decode("ascii")] = value.strip().decode("utf-8")
        for f in REQUIRED:
            if f not in headers:
                raise Bad(f"{where}: record without {f}")
        length = int(headers["Content-Length"])
        block = data[pos:pos + length]
        if len(block) != length:
            raise Bad(f"{where}: Content-Length {length}, only {len(block)} bytes follow")
        pos += length
        if data[pos:pos + 4] != b"\r\n\r\n":
            raise Bad(f"{where}: record {headers['WARC-Record-ID']} does not end with CRLF CRLF")
        pos += 4
        yield headers, block


def check_record(headers, block, where):
    rid = headers["WARC-Record-ID"]
    if not (rid.startswith("<urn:") and rid.endswith(">")):
        raise Bad(f"{where}: WARC-Record-ID {rid} is not a <urn:...>")
    if "WARC-Block-Digest" in headers and headers["WARC-Block-Digest"] != digest(block):
        raise Bad(f"{where}: {rid}: WARC-Block-Digest {headers['WARC-Block-Digest']}, the block's is {digest(block)}")
    if "WARC-Payload-Digest" in headers and headers["WARC-Type"] in ("response", "request"):
        payload = http_payload(block)
        if payload is None or headers["WARC-Payload-Digest"] != digest(payload):
            raise Bad(f"{where}: {rid}: WARC-Payload-Digest does not match the HTTP body")


def check_file(path):
    raw = open(path, "rb").read()
    records = 0
    types = {}
    if raw[:2] == b"\x1f\x8b":
        for offset, member in gzip_members(raw):
            recs = list(read_records(member, f"{path}: member at {offset}"))
            if len(recs) != 1:
                raise Bad(f"{path}: the gzip member at byte {offset} holds {len(recs)} records, not 1")
            for h, b in recs:
                check_record(h, b, path)
                types[h["WARC-Type"]] = types.get(h["WARC-Type"], 0) + 1
                records += 1
    else:
        if raw[:4] == b"\x28\xb5\x2f\xfd":
            raw = subprocess.run(["zstd", "-q", "-d", "-c", path], check=True, stdout=subprocess.PIPE).stdout
        for h, b in read_records(raw, path):
            check_record(h, b, path)
            types[h["WARC-Type"]] = types.get(h["WARC-Type"], 0) + 1
            records += 1
    if records == 0:
        raise Bad(f"{path}: no records")
    if "warcinfo" not in types:
        raise Bad(f"{path}: no warcinfo record")
    return records, types


def crawl(pc_crawl, site, out_dir):
    here = os.path.dirname(os.path.abspath(__file__))
    port_file = os.path.join(out_dir, "port")
    server = subprocess.Popen(["/usr/bin/python3", os.path.join(here, "crawl", "serve_site.py"), "--root", site,
                               "--port-file", port_file, "--log", os.path.join(out_dir, "requests.log")])
    try:
        for _ in range(200):
            if os.path.exists(port_file) and os.path.getsize(port_file) > 0:
                break
            time.sleep(0.05)
        port = open(port_file).read().strip()
        outs = []
        for suffix in (".warc.gz", ".warc.zst"):
            out = os.path.join(out_dir, "site" + suffix)
            subprocess.run([pc_crawl, "-q", "--no-progress", "--delay", "0", "--timeout", "2", "-o", out,
                            f"http://127.0.0.1:{port}/"], check=True)
            outs.append(out)
        return outs
    finally:
        server.terminate()
        server.wait()


def main(argv):
    if len(argv) >= 1 and argv[0] == "--crawl":
        with tempfile.TemporaryDirectory(prefix="warc-reader.") as d:
            return report(crawl(argv[1], argv[2], d))
    return report(argv)


def report(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        for p in paths:
            n, types = check_file(p)
            print(f"{os.path.basename(p)}: {n} records ok ({', '.join(f'{k} {v}' for k, v in sorted(types.items()))})")
    except (Bad, ValueError, zlib.error, subprocess.CalledProcessError) as e:
        print(f"FAIL: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
