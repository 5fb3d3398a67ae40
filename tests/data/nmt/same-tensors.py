#!/usr/bin/python3
"""Exit 0 when two .safetensors files hold the same tensors, byte for byte
(the __metadata__, which records the command line, is not compared)."""
import json
import struct
import sys


def tensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    header.pop("__metadata__", None)
    return {k: (v["dtype"], v["shape"], data[v["data_offsets"][0]:v["data_offsets"][1]]) for k, v in header.items()}


a, b = tensors(sys.argv[1]), tensors(sys.argv[2])
if a != b:
    diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    sys.exit(f"tensors differ: {', '.join(diff[:5])}")
