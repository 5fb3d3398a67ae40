#!/usr/bin/env bash
# Splits the gettext translation catalogues installed on this machine into
# train / valid / test bitexts BY SOFTWARE PACKAGE, for evaluations that must
# not test on wording the model saw in training (messages of one package share
# terms, phrasing and whole strings):
#
#   /usr/share/locale/<lang>/LC_MESSAGES/*.mo  ->  OUT_DIR/en-<lang>.{train,valid,test}.tsv
#                                                  OUT_DIR/en-<lang>.manifest.tsv
#
# Usage: scripts/make-package-split.sh OUT_DIR [LANG...]     (default LANGs: de es fr)
# Environment (optional):
#   SPLIT_LOCALEDIR  where the catalogues live     (default: /usr/share/locale)
#   SPLIT_TEST       pairs in each test file       (default: 1000)
#   SPLIT_VALID      pairs in each valid file      (default: 500)
#   SPLIT_MAX_SHARE  largest share of a test or valid file one package may
#                    give; bigger packages stay in train (default: 0.25)
#   SPLIT_EXTRA_TRAIN  a folder of catalogues of packages that are not
#                    installed, one sub-folder per package
#                    (scripts/fetch-extra-catalogues.sh): TRAINING pairs only.
#                    test and valid are chosen from the installed packages as
#                    without it (byte-identical files); an extra package named
#                    like an installed one, and any catalogue whose domain
#                    (the .mo file's name) a test or valid package ships, is
#                    left out, so the held-out packages give no training pair.
#   SPLIT_PLACEHOLDER_TEST  1: also write en-<lang>.test-placeholders.tsv, up
#                    to SPLIT_TEST pairs of the test packages that the filters
#                    drop only for their placeholders or markup (%s, {0},
#                    <b>, &amp;), neither side in another file: the test of
#                    placeholder handling (pc-nmt --protect-placeholders).
#                    The other files do not change.
#
# How (the same for every language, so a package is in the same split for
# all languages whenever it has pairs for them):
#  1. Pairs are read from the .mo files exactly as scripts/make-sample-bitext.sh
#     does (same normalisation, accelerator stripping and filters; its reader
#     is copied below), each pair attributed to the first package, in sorted
#     path order, that has it. Catalogues are not filtered by licence here: the
#     files are for local evaluation, not for redistribution.
#  2. Packages are ordered by SHA-256 of their name. Walking that order, whole
#     packages go to test until they hold at least SPLIT_TEST pairs, then to
#     valid until SPLIT_VALID; packages over SPLIT_MAX_SHARE of the file are
#     passed over (they stay in train). Every other package is train.
#  3. test and valid take exactly SPLIT_TEST / SPLIT_VALID pairs of their
#     packages, chosen by SHA-256 of the pair; the rest of those packages' pairs
#     are dropped, never moved to train. Train pairs whose English or
#     translated side is also a side of a test or valid pair are dropped too
#     (the same message in two packages), so no sentence is in two splits.
#  4. Every file is "src_text<TAB>trg_text" then pairs ordered by SHA-256 of
#     the pair (a deterministic shuffle). The manifest has one row per package:
#     split, package, pairs available, pairs written. en-<lang>.train.packages
#     names the package of each train pair, line for line (no header), so
#     another language's train pairs can be filtered by this one's test and
#     valid packages (bench/embed-multilingual-train.py).
# Deterministic: the same installed packages give byte-identical files. Needs
# bash, dpkg and /usr/bin/python3 (standard library); no network.
set -euo pipefail
export LC_ALL=C
export PYTHONHASHSEED=0
umask 022

. "$(dirname "${BASH_SOURCE[0]}")/header-usage.sh"
header_usage 1 "$@"
OUT_DIR=$1
shift
LANGS=("$@")
[ ${#LANGS[@]} -gt 0 ] || LANGS=(de es fr)
LOCALEDIR=${SPLIT_LOCALEDIR:-/usr/share/locale}
PY=/usr/bin/python3
for tool in "$PY" dpkg; do
  command -v "$tool" >/dev/null || { echo "make-package-split: missing $tool" >&2; exit 1; }
done
mkdir -p "$OUT_DIR"
TMP=$(mktemp -d "$OUT_DIR/.tmp.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

PARACORP_SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)" "$PY" - "$LOCALEDIR" "$TMP" "${SPLIT_TEST:-1000}" "${SPLIT_VALID:-500}" "${SPLIT_MAX_SHARE:-0.25}" "${LANGS[@]}" <<'PYEOF'
import hashlib
import os
import re
import struct
import subprocess
import sys
import unicodedata
from collections import OrderedDict
sys.path.insert(0, os.environ["PARACORP_SCRIPTS"])
from gettext_catalogues import MIN_LEN, MAX_LEN, extra_catalogues, owning_packages, read_mo, normalise, strip_accel, bad_chars, has_placeholder, has_letter, why_rejected  # noqa: E402

LOCALEDIR, TMP = sys.argv[1], sys.argv[2]
N_TEST, N_VALID, MAX_SHARE = int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
LANGS = sys.argv[6:]
EXTRA = os.environ.get("SPLIT_EXTRA_TRAIN", "")
PH_TEST = os.environ.get("SPLIT_PLACEHOLDER_TEST", "") == "1"


def log(*a):
    print("make-package-split:", *a, file=sys.stderr)


def sha(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


# Catalogue ownership, .mo reading and the pair filters: scripts/gettext_catalogues.py,
# shared with make-sample-bitext.sh.




def add_catalogue(pairs, mo, pkg, ph_pairs=None):
    for _ctxt, msgid, msgstr in read_mo(mo):
        src = normalise(strip_accel(normalise(msgid)))
        trg = normalise(strip_accel(normalise(msgstr)))
        why = why_rejected(src, trg)
        if why is None and (src, trg) not in pairs:
            pairs[(src, trg)] = pkg
        elif (ph_pairs is not None and why == "placeholder/markup" and (src, trg) not in ph_pairs
              and why_rejected(src, trg, allow_placeholders=True) is None):
            ph_pairs[(src, trg)] = pkg


def read_pairs(lang):
    """({(src, trg): package} in the order make-sample-bitext.sh finds them,
    {package: set of catalogue domains}, {(src, trg): package} of the pairs
    dropped only for placeholders or markup)."""
    d = os.path.join(LOCALEDIR, lang, "LC_MESSAGES")
    mos = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".mo")) if os.path.isdir(d) else []
    owner = owning_packages(mos) if mos else {}
    pairs = OrderedDict()
    ph_pairs = OrderedDict()
    domains = {}
    for mo in mos:
        pkg = owner.get(mo)
        if pkg is None:
            log("no owning package, skipped:", mo)
            continue
        domains.setdefault(pkg, set()).add(os.path.basename(mo))
        add_catalogue(pairs, mo, pkg, ph_pairs)
    return pairs, domains, ph_pairs


def read_extra(lang, known, pairs, banned_domains):
    """The SPLIT_EXTRA_TRAIN catalogues of `lang`: {(src, trg): package} for
    pairs not in `pairs`, packages not in `known`, domains not banned."""
    extra = OrderedDict()
    if not EXTRA:
        return extra
    skipped = set()
    for pkg, locale, mo in extra_catalogues(EXTRA):
        if pkg in known:
            if pkg not in skipped:
                log("extra package is installed, skipped:", pkg)
                skipped.add(pkg)
            continue
        if locale != lang:
            continue
        if os.path.basename(mo) in banned_domains:
            log("extra catalogue shares a held-out domain, skipped:", mo)
            continue
        add_catalogue(extra, mo, pkg)
    for p in list(extra):
        if p in pairs:
            del extra[p]
    return extra


def pair_key(p):
    return sha(p[0] + "\t" + p[1])


def write_tsv(path, pairs):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("src_text\ttrg_text\n")
        for src, trg in pairs:
            assert not any(c in src + trg for c in "\t\r\n\0")
            f.write(src + "\t" + trg + "\n")


for lang in LANGS:
    pairs, domains, ph_pairs = read_pairs(lang)
    by_pkg = {}
    for p, pkg in pairs.items():
        by_pkg.setdefault(pkg, []).append(p)
    order = sorted(by_pkg, key=sha)
    split = {}
    want = [("test", N_TEST), ("valid", N_VALID)]
    chosen = {"test": [], "valid": []}
    stage = 0
    for pkg in order:
        if stage < len(want):
            name, n = want[stage]
            if len(by_pkg[pkg]) <= MAX_SHARE * n:
                split[pkg] = name
                chosen[name] += by_pkg[pkg]
                if len(chosen[name]) >= n:
                    stage += 1
                continue
        split[pkg] = "train"
    if stage < len(want):
        sys.exit("make-package-split: en-%s has too few packages for %d test and %d valid pairs"
                 % (lang, N_TEST, N_VALID))
    out = {}
    for name, n in want:
        out[name] = sorted(sorted(chosen[name], key=pair_key)[:n], key=pair_key)
    held = set()
    for name, _ in want:
        for s, t in out[name]:
            held.add(("s", s))
            held.add(("t", t))
    train = [p for p, pkg in pairs.items() if split[pkg] == "train"]
    banned = set()
    for pkg, name in split.items():
        if name != "train":
            banned |= domains.get(pkg, set())
    extra = read_extra(lang, set(split), pairs, banned)
    n_extra_pkgs = len(set(extra.values()))
    for p, pkg in extra.items():
        pairs[p] = pkg
        split.setdefault(pkg, "train")
        by_pkg.setdefault(pkg, []).append(p)
    order = sorted(by_pkg, key=sha)
    train += list(extra)
    leaked = [p for p in train if ("s", p[0]) in held or ("t", p[1]) in held]
    out["train"] = sorted(set(train) - set(leaked), key=pair_key)
    if PH_TEST:
        used = set()
        for name in ("train", "valid", "test"):
            for s, t in out[name]:
                used.add(("s", s))
                used.add(("t", t))
        ph = [p for p, pkg in ph_pairs.items() if split.get(pkg) == "test"
              and ("s", p[0]) not in used and ("t", p[1]) not in used]
        out["test-placeholders"] = sorted(sorted(ph, key=pair_key)[:N_TEST], key=pair_key)
        write_tsv(os.path.join(TMP, "en-%s.test-placeholders.tsv" % lang), out["test-placeholders"])
        log("en-%s: %d placeholder test pairs" % (lang, len(out["test-placeholders"])))
    for name in ("train", "valid", "test"):
        write_tsv(os.path.join(TMP, "en-%s.%s.tsv" % (lang, name)), out[name])
    with open(os.path.join(TMP, "en-%s.train.packages" % lang), "w", encoding="utf-8", newline="\n") as f:
        f.writelines(pairs[p] + "\n" for p in out["train"])
    written = {}
    for name in ("train", "valid", "test"):
        for p in out[name]:
            written[pairs[p]] = written.get(pairs[p], 0) + 1
    with open(os.path.join(TMP, "en-%s.manifest.tsv" % lang), "w", encoding="utf-8", newline="\n") as f:
        f.write("split\tpackage\tpairs_available\tpairs_written\n")
        for name in ("test", "valid", "train"):
            for pkg in sorted(p for p in order if split[p] == name):
                f.write("%s\t%s\t%d\t%d\n" % (name, pkg, len(by_pkg[pkg]), written.get(pkg, 0)))
    log("en-%s: %d pairs from %d packages -> train %d, valid %d, test %d (packages %d/%d/%d; "
        "%d train pairs dropped for sharing a side with valid/test)"
        % (lang, len(pairs), len(order), len(out["train"]), len(out["valid"]), len(out["test"]),
           sum(v == "train" for v in split.values()), sum(v == "valid" for v in split.values()),
           sum(v == "test" for v in split.values()), len(leaked)))
    if EXTRA:
        log("en-%s: %d of the pairs from %d extra (not installed) packages" % (lang, len(extra), n_extra_pkgs))
PYEOF

for f in "$TMP"/*.tsv "$TMP"/*.train.packages; do
  mv -f "$f" "$OUT_DIR/$(basename "$f")"
done
echo "make-package-split: wrote $OUT_DIR" >&2
