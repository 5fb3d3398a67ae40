#!/usr/bin/python3
"""Fails when an #include "..." goes against the arrows of docs/architecture.md.

The rules are read from the table between the include-rules markers of
docs/architecture.md, so the drawing and this check cannot drift apart:
each row names a part, its folder, and the parts it may include besides
itself. Every source file under a library folder must belong to a part,
and every quoted include must name a file of an allowed part (system and
third-party headers use <...> and are not checked).

  check-includes.py [--root DIR]        exit 0 when clean, 1 with one line per bad include
"""
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = sys.argv[1:]
if args[:1] == ["--root"]:
    root = os.path.abspath(args[1])

doc = os.path.join(root, "docs", "architecture.md")
text = open(doc, encoding="utf-8").read()
m = re.search(r"<!-- include-rules -->(.*?)<!-- /include-rules -->", text, re.S)
if not m:
    sys.exit(f"{doc}: no include-rules table")
parts = {}  # name -> (folder, allowed set)
for line in m.group(1).splitlines():
    cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
    if len(cells) != 3 or cells[0] in ("part", "") or set(cells[0]) <= set("-: "):
        continue
    name, folder, allowed = cells
    allow = {a.strip().strip("`") for a in allowed.split(",") if a.strip() not in ("", "—", "-")}
    parts[name] = (folder.rstrip("/"), allow | {name})
if not parts:
    sys.exit(f"{doc}: the include-rules table is empty")
for name, (_, allow) in parts.items():
    for a in allow:
        if a != "*" and a not in parts:
            sys.exit(f"{doc}: part {name} may include '{a}', which is not a part")

# Longest folder first, so libcorpus/core wins over libcorpus.
by_folder = sorted(((f, n) for n, (f, _) in parts.items()), key=lambda x: -len(x[0]))


def part_of(rel):
    for folder, name in by_folder:
        if rel == folder or rel.startswith(folder + "/"):
            return name
    return None


inc_re = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
bad = []
checked = 0
for top in sorted({f.split("/")[0] for f, _ in by_folder}):
    for dirpath, _, files in os.walk(os.path.join(root, top)):
        for fn in sorted(files):
            if not fn.endswith((".h", ".hpp", ".cpp", ".cc")):
                continue
            path = os.path.join(dirpath, fn)
            rel = os.path.relpath(path, root)
            me = part_of(rel)
            if me is None:
                bad.append(f"{rel}: belongs to no part of docs/architecture.md")
                continue
            allow = parts[me][1]
            with open(path, encoding="utf-8", errors="replace") as f:
                for no, line in enumerate(f, 1):
                    mm = inc_re.match(line)
                    if not mm:
                        continue
                    target = mm.group(1)
                    local = os.path.normpath(os.path.join(os.path.dirname(rel), target))
                    if os.path.exists(os.path.join(root, local)) and "/" not in target.lstrip("./"):
                        continue  # a header beside the file (tests' own helpers)
                    tp = part_of(os.path.normpath(target))
                    if tp is None and os.path.exists(os.path.join(root, local)):
                        tp = part_of(local)
                    if tp is None:
                        continue  # not one of ours (a generated or tests-local header)
                    checked += 1
                    if "*" not in allow and tp not in allow:
                        bad.append(f'{rel}:{no}: part {me} includes "{target}" of part {tp}'
                                   f" — {me} may include only {', '.join(sorted(allow))} (docs/architecture.md)")
for b in bad:
    print(b)
if bad:
    sys.exit(1)
print(f"include check: {checked} includes in {len(parts)} parts follow docs/architecture.md")
