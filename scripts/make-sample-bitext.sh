#!/usr/bin/env bash
# Builds a small, real, sentence-aligned bitext sample from the gettext
# translation catalogues (binary .mo files) shipped by the Debian packages
# installed on this machine:
#
#   /usr/share/locale/<lang>/LC_MESSAGES/*.mo   ->   data/samples/bitext/en-<lang>.tsv
#
# Each output file has the header line "src_text<TAB>trg_text" followed by one
# English msgid / translated msgstr pair per line.  The script also writes
# data/samples/bitext/SOURCES.tsv (which package, version and licence every
# pair came from) and data/samples/bitext/README.md.
#
# Deterministic and idempotent: inputs are sorted (LC_ALL=C), the selection of
# pairs is by SHA-256 of the pair, and re-running on the same set of installed
# packages gives byte-identical files.  Needs only bash, dpkg and Debian's
# /usr/bin/python3 (standard library only); no network access.
#
# Usage: scripts/make-sample-bitext.sh
# Environment (optional):
#   BITEXT_OUT_DIR    output folder              (default: data/samples/bitext)
#   BITEXT_LOCALEDIR  where the catalogues live  (default: /usr/share/locale)
#   BITEXT_MAX_PAIRS  pairs kept per file        (default: 3000)
#   BITEXT_MIN_PAIRS  optional pairs (ja, ru) are only written when at least
#                     this many pairs survive the filters (default: 1000)
set -euo pipefail
export LC_ALL=C
export PYTHONHASHSEED=0
umask 022

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT_DIR=${BITEXT_OUT_DIR:-$ROOT/data/samples/bitext}
LOCALEDIR=${BITEXT_LOCALEDIR:-/usr/share/locale}
MAX_PAIRS=${BITEXT_MAX_PAIRS:-3000}
MIN_PAIRS=${BITEXT_MIN_PAIRS:-1000}
PY=/usr/bin/python3

for tool in "$PY" dpkg dpkg-query; do
  command -v "$tool" >/dev/null || { echo "make-sample-bitext: missing $tool" >&2; exit 1; }
done

mkdir -p "$OUT_DIR"
TMP=$(mktemp -d "$OUT_DIR/.tmp.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

PARACORP_SCRIPTS="$ROOT/scripts" "$PY" - "$LOCALEDIR" "$TMP" "$MAX_PAIRS" "$MIN_PAIRS" <<'PYEOF'
import fnmatch
import hashlib
import os
import re
import struct
import subprocess
import sys
import unicodedata
from collections import Counter, OrderedDict
sys.path.insert(0, os.environ["PARACORP_SCRIPTS"])
from gettext_catalogues import MIN_LEN, MAX_LEN, owning_packages, read_mo, normalise, strip_accel, bad_chars, has_placeholder, has_letter, why_rejected  # noqa: E402

LOCALEDIR, TMP, MAX_PAIRS, MIN_PAIRS = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

# (language code, required?)  en-ja and en-ru are written only if enough data.
LANGS = [("fr", True), ("de", True), ("es", True), ("ja", False), ("ru", False)]

# No package may contribute more than this share of a file (keeps e.g. the
# language names of iso-codes from crowding out sentences).
MAX_SHARE = 0.10


def log(*a):
    print("make-sample-bitext:", *a, file=sys.stderr)


# --------------------------------------------------------------------------
# Package, version and licence of each catalogue
# --------------------------------------------------------------------------



_versions = {}
def pkg_version(pkg):
    if pkg not in _versions:
        res = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
        _versions[pkg] = res.stdout.decode().strip() or "unknown"
    return _versions[pkg]


# Packages whose debian/copyright is not machine-readable (DEP-5): the licence
# below was read by hand from /usr/share/doc/<pkg>/copyright; it is used only if
# that file still contains the quoted phrase, otherwise the package is excluded.
FREEFORM_LICENCES = {
    "binutils-common": ("GPL-3+", "either version 3 of the License"),
    "gettext": ("GPL-3+", "Copyright and license for the gettext tools"),
    "gettext-base": ("GPL-3+ and LGPL-2.1+", "Copyright and license for the libintl library"),
    "krb5-locales": ("BSD-2-clause", "Redistribution and use in source and binary forms, with or without\nmodification, are permitted provided that the following conditions are\nmet:"),
    "libavahi-common-data": ("LGPL-2+", "Lesser General Public\n  License as published by the Free Software Foundation; either\n  version 2 of the License"),
    "libc-l10n": ("LGPL-2.1+ and GPL-2+", "Most of the GNU C library is under the following copyright"),
    "libgnutls30": ("LGPL-2.1+", "The main library is licensed under GNU Lesser"),
    "libgtk2.0-common": ("LGPL-2+", "Everything else:\n\n This library is free software"),
    "shared-mime-info": ("GPL-2+", "either version 2 of the License"),
    "wget": ("GPL-3", "Released under the terms of the GPL; see \n/usr/share/common-licenses/GPL-3."),
    "xdg-user-dirs": ("GPL-2+", "For everything except xdg-user-dir-lookup.c"),
    "xkb-data": ("HPND and MIT", "This package is distributed under the following licenses"),
}

# A licence expression is accepted if, for every "and" term, at least one "or"
# alternative is a GPL-family, BSD/MIT-style or public-domain licence.
_ALLOWED = re.compile(
    r"^(?:(?:A|L)?GPL(?:-\d(?:\.\d)?\+?)?|BSD(?:-[0-9A-Za-z.+-]+)?|Expat|MIT|X11|ISC|HPND|"
    r"PostgreSQL|Zlib|Apache-2\.0|CC0-1\.0|FSFULL?R?|FSFAP|PD|public-domain|"
    r"[0-9A-Za-z.-]+-(?:PD|permissive))(?: with [0-9A-Za-z. -]+ exception)?$",
    re.IGNORECASE)


def licence_allowed(expr):
    for term in re.split(r"\s+and\s+|,\s*", expr.strip()):
        alts = [a.strip().strip("()") for a in re.split(r"\s+or\s+", term)]
        if not any(_ALLOWED.match(a) for a in alts if a):
            return False
    return bool(expr.strip())


def dep5_paragraphs(text):
    return [p for p in re.split(r"\n[ \t]*\n", text) if p.strip()]


def dep5_field(par, name):
    m = re.search(r"^%s:[ \t]*(.*(?:\n[ \t].*)*)" % re.escape(name), par, re.M | re.I)
    return m.group(1) if m else None


_licences = {}
def package_licence(pkg, lang):
    """Licence of the translations of `pkg` into `lang`, or None if unknown."""
    key = (pkg, lang)
    if key in _licences:
        return _licences[key]
    lic = None
    path = "/usr/share/doc/%s/copyright" % pkg
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        text = None
    if text is not None:
        pars = dep5_paragraphs(text)
        if re.search(r"^Format:.*copyright-format", text, re.M | re.I):
            # DEP-5: the last "Files:" stanza matching po/<lang>.po wins ...
            for par in pars:
                files = dep5_field(par, "Files")
                l = dep5_field(par, "License")
                if files and l and l.split("\n")[0].strip():
                    if any(fnmatch.fnmatchcase("po/%s.po" % lang, pat) for pat in files.split()):
                        lic = l.split("\n")[0].strip()
            # ... else the first non-empty License: field.
            if lic is None:
                for m in re.finditer(r"^License:[ \t]*(\S.*)$", text, re.M):
                    lic = m.group(1).strip()
                    break
        elif pkg in FREEFORM_LICENCES and FREEFORM_LICENCES[pkg][1] in text:
            lic = FREEFORM_LICENCES[pkg][0]
    _licences[key] = lic
    return lic




# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

sources_rows = []          # (file, package, version, licence, pairs)
summary = []               # (file, pairs, catalogues, packages)
excluded_pkgs = set()

for lang, required in LANGS:
    d = os.path.join(LOCALEDIR, lang, "LC_MESSAGES")
    mos = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".mo")) if os.path.isdir(d) else []
    owner = owning_packages(mos) if mos else {}
    stats = Counter()
    pairs = OrderedDict()   # (src, trg) -> package of the first catalogue providing it
    used_catalogues = 0
    for mo in mos:
        pkg = owner.get(mo)
        if pkg is None:
            log("no owning package, skipped:", mo)
            continue
        lic = package_licence(pkg, lang)
        if lic is None or not licence_allowed(lic):
            excluded_pkgs.add((pkg, lic or "undetermined"))
            stats["catalogue-excluded"] += 1
            continue
        used_catalogues += 1
        for _ctxt, msgid, msgstr in read_mo(mo):
            src = strip_accel(normalise(msgid))
            trg = strip_accel(normalise(msgstr))
            src, trg = normalise(src), normalise(trg)
            why = why_rejected(src, trg)
            if why:
                stats[why] += 1
                continue
            if (src, trg) in pairs:
                stats["duplicate"] += 1
                continue
            pairs[(src, trg)] = pkg
            stats["kept"] += 1
    name = "en-%s.tsv" % lang
    log("%s: %d catalogues, %d candidate pairs; rejected: %s" % (
        name, used_catalogues, len(pairs),
        ", ".join("%s=%d" % kv for kv in sorted(stats.items()) if kv[0] != "kept")))
    if not required and len(pairs) < MIN_PAIRS:
        log("%s: only %d pairs (< %d), not written" % (name, len(pairs), MIN_PAIRS))
        continue
    if required and not pairs:
        sys.exit("make-sample-bitext: no pairs for required language %s" % lang)

    def hkey(p):
        return hashlib.sha256((p[0] + "\t" + p[1]).encode("utf-8")).hexdigest()
    ordered = sorted(pairs, key=hkey)
    cap = max(1, int(MAX_PAIRS * MAX_SHARE))
    taken, chosen, overflow = Counter(), [], []
    for p in ordered:
        if len(chosen) >= MAX_PAIRS:
            break
        if taken[pairs[p]] < cap:
            taken[pairs[p]] += 1
            chosen.append(p)
        else:
            overflow.append(p)
    if len(chosen) < MAX_PAIRS:            # not enough variety: relax the cap
        chosen = sorted(chosen + overflow[:MAX_PAIRS - len(chosen)], key=hkey)

    with open(os.path.join(TMP, name), "w", encoding="utf-8", newline="\n") as f:
        f.write("src_text\ttrg_text\n")
        for src, trg in chosen:
            for s in (src, trg):
                assert s == s.strip() and not any(c in s for c in "\t\r\n\0"), s
                s.encode("utf-8")
            f.write(src + "\t" + trg + "\n")
    per_pkg = Counter(pairs[p] for p in chosen)
    for pkg in sorted(per_pkg):
        sources_rows.append((name, pkg, pkg_version(pkg), package_licence(pkg, lang), per_pkg[pkg]))
    summary.append((name, len(chosen), len(pairs), len(per_pkg)))

with open(os.path.join(TMP, "SOURCES.tsv"), "w", encoding="utf-8", newline="\n") as f:
    f.write("file\tpackage\tversion\tlicence\tpairs\n")
    for row in sources_rows:
        f.write("\t".join(str(x) for x in row) + "\n")

# ---- README --------------------------------------------------------------
lic_pairs = Counter()
for row in sources_rows:
    lic_pairs[row[3]] += row[4]
total = sum(s[1] for s in summary)

lines = []
w = lines.append
w("# Sample bitext from Debian gettext catalogues")
w("")
w("Small, real, sentence-aligned English-to-X parallel text for tests, examples and")
w("benchmarks of paracorp. Every pair is an English message (`msgid`) of a free")
w("software program and its human translation (`msgstr`), taken from the compiled")
w("gettext catalogues (`/usr/share/locale/<lang>/LC_MESSAGES/*.mo`) of the Debian 12")
w("packages installed on the machine that ran the script.")
w("")
w("Do not edit these files by hand: they are generated by")
w("")
w("    scripts/make-sample-bitext.sh")
w("")
w("which needs only bash, dpkg and `/usr/bin/python3` (standard library), uses no")
w("network, and is deterministic: running it again on the same set of installed")
w("packages gives byte-identical files. Different installed packages or versions")
w("give different samples.")
w("")
w("## Files")
w("")
w("| file | pairs | candidate pairs after filtering | contributing packages |")
w("|---|---:|---:|---:|")
for name, n, cand, npk in summary:
    w("| `%s` | %d | %d | %d |" % (name, n, cand, npk))
w("| `SOURCES.tsv` | | | |")
w("")
w("Each `en-XX.tsv` is UTF-8, LF line endings, a header line `src_text<TAB>trg_text`,")
w("then one pair per line: English source, tab, translation. No field contains a")
w("tab, CR, LF, NUL or other control character, and there are no leading or")
w("trailing spaces. Lines are ordered by SHA-256 of `src<TAB>trg` (a deterministic")
w("shuffle, so packages are mixed).")
w("")
w("`SOURCES.tsv` lists, for each output file, every Debian package whose catalogue")
w("contributed pairs: columns `file`, `package`, `version`, `licence`, `pairs`.")
w("")
w("## How the pairs were made")
w("")
w("1. Catalogues: every `*.mo` under `/usr/share/locale/<lang>/LC_MESSAGES/` for")
w("   `<lang>` in fr, de, es, ja, ru (exact directory, regional variants such as")
w("   `de_CH` are not used), in `LC_ALL=C` sorted path order. The owning package is")
w("   found with `dpkg -S`, its version with `dpkg-query`.")
w("2. Licence: read from `/usr/share/doc/<package>/copyright`. For machine-readable")
w("   (DEP-5) files, the `License:` of the last `Files:` stanza matching")
w("   `po/<lang>.po` (in practice usually `Files: *`), else the first non-empty")
w("   `License:` field. For free-form files, a licence read by hand and recorded in")
w("   the script, used only while the file still contains the quoted sentence.")
w("   Catalogues whose licence cannot be determined, or is not GPL-family,")
w("   BSD/MIT-style, PostgreSQL or public domain, are excluded.")
w("3. Entries: the `.mo` files are parsed directly (binary format, charset from")
w("   the catalogue header). Skipped: the header entry (empty msgid) and all")
w("   plural entries (no `msgstr[0]` singular is taken). Fuzzy entries never")
w("   reach a `.mo` file (msgfmt drops them). Entries with a `msgctxt` are kept;")
w("   the context is discarded.")
w("4. Normalisation of both sides: tabs, newlines and other ASCII whitespace runs")
w("   become one space; leading/trailing spaces are removed (non-breaking spaces,")
w("   e.g. in French typography, are kept).")
w("5. Keyboard accelerators: a CJK-style suffix `(_X)` / `(&X)` (X an ASCII letter")
w("   or digit, with one preceding space if present) is deleted; a `_` or `&` at the")
w("   start of a word and immediately before a letter is deleted (`_Open` -> `Open`,")
w("   `&Save` -> `Save`). Mid-word markers (`Fi_le`) are not touched, and")
w("   strings containing an HTML/XML entity such as `&amp;` are left alone.")
w("6. Dropped pairs: either side empty; both sides identical; either side shorter")
w("   than %d or longer than %d characters (code points); either side with a" % (MIN_LEN, MAX_LEN))
w("   control character, unassigned/private-use code point or U+FFFD; either side")
w("   with a printf directive (`%s`, `%d`, `%1$s`, `%(name)s`, `%<PRIu64>`, ...),")
w("   a brace/shell placeholder (`{0}`, `{name}`, `$VAR`, `${VAR}`, `$(var)`,")
w("   `$1`) or markup `<...>`; either side still containing `_` (identifiers such")
w("   as `max_connections`, mid-word accelerators); either side without any")
w("   letter. Exact duplicate pairs are removed; a pair found in several")
w("   catalogues is attributed to the first one in sorted path order.")
w("7. Selection: the remaining pairs are sorted by SHA-256 of `src<TAB>trg` and")
w("   taken in that order, at most %d per package (%d%% of a file, so that e.g." % (int(MAX_PAIRS * MAX_SHARE), int(MAX_SHARE * 100)))
w("   iso-codes' language names do not dominate), until %d pairs are kept (the" % MAX_PAIRS)
w("   cap is relaxed only if that leaves too few). en-ja and en-ru are only")
w("   written when at least %d pairs survive the filters." % MIN_PAIRS)
w("")
w("Messages are mostly short software strings (UI labels, error messages,")
w("command-line help, language and country names from iso-codes), not running")
w("prose. Some sources have more than one translation (different packages).")
w("")
w("## Licence")
w("")
w("The pairs are not covered by paracorp's own licence. Each pair carries the")
w("licence of the Debian package whose catalogue it came from (mostly GPL-family;")
w("see the per-package `licence` column of `SOURCES.tsv`), and the sample as a whole")
w("is distributed under the terms of each contributing package. Copyright in the")
w("translations belongs to their translators and the respective projects; see")
w("`/usr/share/doc/<package>/copyright` of each package listed in `SOURCES.tsv`.")
w("")
w("Pairs per licence, all files together (%d pairs):" % total)
w("")
w("| licence | pairs |")
w("|---|---:|")
for lic, n in sorted(lic_pairs.items(), key=lambda kv: (-kv[1], kv[0])):
    w("| %s | %d |" % (lic, n))
if excluded_pkgs:
    w("")
    w("Packages with catalogues that were excluded because of their licence:")
    w("")
    for pkg, lic in sorted(excluded_pkgs):
        w("- `%s` (%s)" % (pkg, lic))
w("")
with open(os.path.join(TMP, "README.md"), "w", encoding="utf-8", newline="\n") as f:
    f.write("\n".join(lines))
PYEOF

# Validate before replacing anything: header, exactly two non-empty columns,
# valid UTF-8, no CR/NUL.
for f in "$TMP"/en-*.tsv; do
  [ "$(head -n1 "$f")" = "$(printf 'src_text\ttrg_text')" ] || { echo "bad header: $f" >&2; exit 1; }
  awk -F'\t' 'NF != 2 || $1 == "" || $2 == "" { print FILENAME ":" NR ": bad line" > "/dev/stderr"; bad = 1 }
              END { exit bad }' "$f"
  if LC_ALL=C grep -q $'\r' "$f" || [ "$(tr -d '\000' < "$f" | wc -c)" != "$(wc -c < "$f")" ]; then
    echo "CR or NUL in $f" >&2; exit 1
  fi
  iconv -f UTF-8 -t UTF-8 "$f" >/dev/null || { echo "invalid UTF-8: $f" >&2; exit 1; }
done

# Replace the generated files (and only those) atomically-ish.
rm -f "$OUT_DIR"/en-*.tsv
for f in "$TMP"/*; do
  mv -f "$f" "$OUT_DIR/$(basename "$f")"
done
chmod 644 "$OUT_DIR"/*.tsv "$OUT_DIR"/README.md

echo "make-sample-bitext: wrote $OUT_DIR:"
( cd "$OUT_DIR" && for f in en-*.tsv; do printf '  %-10s %6d pairs %8d bytes\n' "$f" $(( $(wc -l < "$f") - 1 )) "$(wc -c < "$f")"; done )
