#!/usr/bin/python3
"""Language-ID training text from the gettext catalogues installed here, for
a fastText model (bench/lid-train.sh) that pc-clean's lid rule can use
(--lid-model). Held out: every package that is in a test or valid split of
SPLIT_DIR (scripts/make-package-split.sh manifests), and every string whose
English source is a side of a test or valid pair there, so the noise
benchmark's wrong-language rows (the same English source's translation in a
third language) are never training text.

  lid-catalogue-data.py SPLIT_DIR OUT.txt [--per-lang N] [--per-lang-en N] [--min-lang M]

Lines are "__label__LANG text" (LANG the locale's primary subtag; English
from the msgids), at most N a language (default 20000; English, which
every catalogue's msgids give and whose words turn up in every language,
60000 with --per-lang-en; chosen by SHA-256 of the line). Translations that
keep half of their words from the English source are left out; so are
languages with fewer than M strings (default 1000). Lines are ordered by
SHA-256 (a deterministic shuffle). With SPLIT_EXTRA_TRAIN set (a folder of
scripts/fetch-extra-catalogues.sh, as make-package-split.sh takes it), the
catalogues of those packages that are not installed are read too, except
any whose domain (the .mo file's name) a held-out package ships. Standard
library only."""
import argparse
import glob
import hashlib
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from gettext_catalogues import extra_catalogues, owning_packages, read_mo, normalise, strip_accel, bad_chars, has_letter  # noqa: E402

LOCALEDIR = os.environ.get("SPLIT_LOCALEDIR", "/usr/share/locale")
EXTRA = os.environ.get("SPLIT_EXTRA_TRAIN", "")


def lang_of(locale):
    return locale.split("_")[0].split("@")[0].split(".")[0].lower()


def sha(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


def words(s):
    return {w for w in re.findall(r"\w+", s.lower()) if not w.isdigit()}


def mostly_english(trg, src):
    """A translation that keeps half of its words from the English source (a
    catalogue left partly untranslated) teaches a language ID that English
    words are that language."""
    t, e = words(trg), words(src)
    return trg == src or (t and len(t & e) * 2 >= len(t))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("split_dir")
    ap.add_argument("out")
    ap.add_argument("--per-lang", type=int, default=20000)
    ap.add_argument("--per-lang-en", type=int, default=60000)
    ap.add_argument("--min-lang", type=int, default=1000)
    a = ap.parse_args()

    held_pkgs, held_src = set(), set()
    for man in glob.glob(os.path.join(a.split_dir, "en-*.manifest.tsv")):
        with open(man, encoding="utf-8") as f:
            next(f)
            for line in f:
                split, pkg = line.split("\t")[:2]
                if split in ("test", "valid"):
                    held_pkgs.add(pkg)
    for tsv in glob.glob(os.path.join(a.split_dir, "en-*.test.tsv")) + glob.glob(os.path.join(a.split_dir, "en-*.valid.tsv")):
        with open(tsv, encoding="utf-8") as f:
            next(f)
            for line in f:
                held_src.add(line.split("\t")[0])
    if not held_pkgs:
        sys.exit("lid-catalogue-data: no manifests in " + a.split_dir)

    texts = {}  # lang -> set of strings
    catalogues, installed, held_domains = [], set(), set()
    for d in sorted(glob.glob(os.path.join(LOCALEDIR, "*", "LC_MESSAGES"))):
        lang = lang_of(os.path.basename(os.path.dirname(d)))
        mos = sorted(glob.glob(os.path.join(d, "*.mo")))
        if not mos:
            continue
        owner = owning_packages(mos)
        for mo in mos:
            pkg = owner.get(mo)
            if pkg is not None:
                installed.add(pkg)
                if pkg in held_pkgs:
                    held_domains.add(os.path.basename(mo))
            catalogues.append((lang, pkg, mo))
    if EXTRA:
        catalogues += [(lang_of(locale), pkg, mo) for pkg, locale, mo in extra_catalogues(EXTRA)
                       if pkg not in installed and os.path.basename(mo) not in held_domains]
    for lang, pkg, mo in catalogues:
        if pkg is None or pkg in held_pkgs:
            continue
        for _ctxt, msgid, msgstr in read_mo(mo):
            src = normalise(strip_accel(normalise(msgid)))
            trg = normalise(strip_accel(normalise(msgstr)))
            if not src or src in held_src:
                continue
            for lab, s in (("en", src), (lang, trg)):
                if lab != "en" and mostly_english(s, src):
                    continue  # (partly) untranslated: English, not this language
                if len(s) < 2 or len(s) > 300 or bad_chars(s) or not has_letter(s):
                    continue
                texts.setdefault(lab, set()).add(s)
    lines = []
    kept = []
    for lab in sorted(texts):
        if len(texts[lab]) < a.min_lang:
            continue
        chosen = sorted(texts[lab], key=lambda s: sha(lab + "\t" + s))[: a.per_lang_en if lab == "en" else a.per_lang]
        kept.append("%s:%d" % (lab, len(chosen)))
        lines += ["__label__%s %s" % (lab, s) for s in chosen]
    lines.sort(key=sha)
    with open(a.out, "w", encoding="utf-8", newline="\n") as f:
        for line in lines:
            f.write(line + "\n")
    print("lid-catalogue-data: %d lines, %d languages (%s); %d packages and %d English sources held out"
          % (len(lines), len(kept), " ".join(kept), len(held_pkgs), len(held_src)), file=sys.stderr)


if __name__ == "__main__":
    main()
