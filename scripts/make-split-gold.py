#!/usr/bin/python3
"""Builds the sentence-splitting gold set of pc-split from real translated text:
the gettext catalogues (/usr/share/locale/<lang>/LC_MESSAGES/*.mo) of the Debian
packages installed here.

A catalogue string is kept as a gold sentence only when it is certainly one
complete sentence: one line, 15-250 characters, starting with a letter or
digit (a capital in cased scripts), ending with the language's sentence mark,
and with no other sentence mark followed by a space (or, in Chinese and
Japanese, no other 。！？) inside. Sentences are shuffled deterministically (by
SHA-256) and joined into paragraphs of 1-5 sentences, with a space (none in
Chinese and Japanese), so every boundary is known.

Output: data/samples/split-gold/<lang>.tsv, one paragraph per line, its
sentences separated by TAB. English comes from the msgids. Deterministic: the
same installed packages give the same files.

Usage: /usr/bin/python3 scripts/make-split-gold.py [OUT_DIR]
"""
import glob
import gettext
import hashlib
import os
import sys
import unicodedata

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "data", "samples", "split-gold")
LOCALEDIR = "/usr/share/locale"
MAX_SENTENCES = 600
# gold language -> (catalogue folder, sentence marks, joiner)
LANGS = {
    "en": ("fr", ".!?", " "),
    "fr": ("fr", ".!?", " "),
    "de": ("de", ".!?", " "),
    "es": ("es", ".!?", " "),
    "ru": ("ru", ".!?", " "),
    "hi": ("hi", ".!?।", " "),
    "ar": ("ar", ".!?؟", " "),
    "zh": ("zh_CN", "。！？", ""),
    "ja": ("ja", "。！？", ""),
}
CASED = {"en", "fr", "de", "es", "ru"}


def catalogue(folder):
    pairs = []
    for path in sorted(glob.glob(f"{LOCALEDIR}/{folder}/LC_MESSAGES/*.mo")):
        try:
            with open(path, "rb") as f:
                t = gettext.GNUTranslations(f)
        except Exception:
            continue
        for k, v in sorted(t._catalog.items(), key=lambda kv: str(kv[0])):
            if isinstance(k, str) and k and v:
                pairs.append((k, v))
    return pairs


def is_sentence(s, lang, marks):
    if not (15 <= len(s) <= 250) or any(c in s for c in "\n\t\r") or s != s.strip():
        return False
    if "..." in s or "…" in s or "  " in s:
        return False
    first = s[0]
    if lang in CASED:
        if not first.isupper():
            return False
    elif not (first.isalpha() or first.isdigit()):
        return False
    if s[-1] not in marks:
        return False
    body = s[:-1]
    if lang in ("zh", "ja"):
        if any(c in body for c in marks + ".!?"):
            return False
        return any(unicodedata.name(c, "").startswith(("CJK", "HIRAGANA", "KATAKANA")) for c in body)
    for i, c in enumerate(body):
        if c in marks + ".!?" and i + 1 < len(body) and body[i + 1].isspace():
            return False
    if lang == "hi" and not any("\u0900" <= c <= "\u097f" for c in s):
        return False
    if lang == "ar" and not any("\u0600" <= c <= "\u06ff" for c in s):
        return False
    return True


def main():
    os.makedirs(OUT, exist_ok=True)
    for lang, (folder, marks, joiner) in LANGS.items():
        texts = sorted({(k if lang == "en" else v) for k, v in catalogue(folder)})
        good = [s for s in texts if is_sentence(s, lang, marks)]
        good.sort(key=lambda s: hashlib.sha256(s.encode()).hexdigest())
        good = good[:MAX_SENTENCES]
        paras, i = [], 0
        while i < len(good):
            n = 1 + int(hashlib.sha256(f"{lang}{i}".encode()).hexdigest(), 16) % 5
            paras.append(good[i:i + n])
            i += n
        with open(os.path.join(OUT, f"{lang}.tsv"), "w", encoding="utf-8") as f:
            for p in paras:
                f.write("\t".join(p) + "\n")
        print(f"{lang}: {len(good)} sentences in {len(paras)} paragraphs (from {len(texts)} strings)", file=sys.stderr)


main()
