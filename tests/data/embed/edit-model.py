#!/usr/bin/python3
"""Writes a changed copy of a safetensors model, for the bad-input rows of
tests/cli/pc-embed.tst: the tensor bytes stay, the JSON header changes.

    edit-model.py IN OUT [config.KEY=JSON | meta.KEY=TEXT | rename.OLD=NEW]...

config.KEY=JSON sets a key of the "config" metadata (JSON text), meta.KEY=TEXT
a metadata string, rename.OLD=NEW renames a tensor (so OLD is missing)."""
import json
import struct
import sys

src, dst = sys.argv[1], sys.argv[2]
data = open(src, "rb").read()
n = struct.unpack("<Q", data[:8])[0]
head = json.loads(data[8:8 + n])
meta = head["__metadata__"]
for edit in sys.argv[3:]:
    what, _, value = edit.partition("=")
    kind, _, key = what.partition(".")
    if kind == "config":
        config = json.loads(meta["config"])
        config[key] = json.loads(value)
        meta["config"] = json.dumps(config)
    elif kind == "meta":
        meta[key] = value
    elif kind == "rename":
        head[value] = head.pop(key)
    else:
        sys.exit("edit-model.py: unknown edit " + edit)
text = json.dumps(head).encode()
text += b" " * ((8 - len(text) % 8) % 8)
open(dst, "wb").write(struct.pack("<Q", len(text)) + text + data[8 + n:])
