#!/usr/bin/python3
"""Compare the outputs of two runs of one command, or check that a file is complete.

  same-output.py same A B    exit 0 when A and B hold the same output
  same-output.py complete F  exit 0 when F is a whole file of its kind

"Same" is byte for byte, except where a run records something that is not
part of its result:
  - safetensors files (pc-nmt, pc-ibm1 models): the tensors byte for byte and
    the metadata, with the throughput (tokens_per_s) left out of the training
    log the metadata embeds;
  - a JSONL training log (*.log.jsonl): each record, without tokens_per_s;
  - WARC files (*.warc, *.warc.gz, *.warc.zst): record IDs and dates differ
    from run to run, so the records' types, target URIs and payload digests
    are compared, in order.
"complete" is used for the files that a run replaces while it works (the
checkpoints of pc-nmt train): a safetensors file whose data ends where its
header says, a JSONL file of whole JSON lines, an SVG that is closed.
"""
import gzip
import json
import struct
import subprocess
import sys

VOLATILE = {"tokens_per_s"}


def is_safetensors(data):
    if len(data) < 10:
        return False
    n = struct.unpack("<Q", data[:8])[0]
    return 8 + n <= len(data) and data[8:9] == b"{"


def safetensors(data):
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    body = data[8 + n:]
    meta = header.pop("__metadata__", {})
    if "train_log" in meta:
        meta["train_log"] = json.dumps([strip(r) for r in json.loads(meta["train_log"])])
    tensors = {k: (v["dtype"], v["shape"], body[v["data_offsets"][0]:v["data_offsets"][1]]) for k, v in header.items()}
    end = max((v["data_offsets"][1] for v in header.values()), default=0)
    return meta, tensors, end == len(body)


def strip(record):
    return {k: v for k, v in record.items() if k not in VOLATILE} if isinstance(record, dict) else record


def jsonl(data):
    return [strip(json.loads(line)) for line in data.decode("utf-8").splitlines()]


def warc_records(path):
    if path.endswith(".zst"):
        data = subprocess.run(["zstdcat", path], check=True, capture_output=True).stdout
    elif path.endswith(".gz"):
        data = gzip.open(path).read()
    else:
        data = open(path, "rb").read()
    keep = (b"WARC-Type:", b"WARC-Target-URI:", b"WARC-Payload-Digest:")
    # Header lines only: a record's block may hold anything, so read the
    # header fields that start each record (after a "WARC/1.x" line).
    out, in_header = [], False
    for line in data.split(b"\r\n"):
        if line.startswith(b"WARC/1."):
            in_header = True
        elif in_header and line == b"":
            in_header = False
        elif in_header and line.startswith(keep):
            out.append(line)
    return out


def same(a, b):
    if a.endswith((".warc", ".warc.gz", ".warc.zst")):
        ra = warc_records(a)
        return bool(ra) and ra == warc_records(b)
    da, db = open(a, "rb").read(), open(b, "rb").read()
    if da == db:
        return True
    if is_safetensors(da) and is_safetensors(db):
        return safetensors(da)[:2] == safetensors(db)[:2]
    if a.endswith(".jsonl"):
        try:
            return jsonl(da) == jsonl(db)
        except ValueError:
            return False
    return False


def complete(path):
    data = open(path, "rb").read()
    if path.endswith(".jsonl"):
        jsonl(data)
        return data.endswith(b"\n") or not data
    if path.endswith(".svg"):
        return data.rstrip().endswith(b"</svg>")
    if is_safetensors(data):
        return safetensors(data)[2]
    return False


def main():
    try:
        ok = same(sys.argv[2], sys.argv[3]) if sys.argv[1] == "same" else complete(sys.argv[2])
    except (ValueError, KeyError, OSError, EOFError, subprocess.CalledProcessError) as e:
        print(f"same-output.py: {e}", file=sys.stderr)
        ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
