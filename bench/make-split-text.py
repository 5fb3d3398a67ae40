#!/usr/bin/python3
"""make-split-text.py SIZE_MB OUT_PREFIX — mixed-language paragraphs for the
pc-split benchmark, from the gettext catalogues installed under
/usr/share/locale: every translated string of 20 languages (Latin, Cyrillic,
Greek, Arabic, Devanagari, CJK, Thai scripts), joined 1-6 at a time into
paragraphs of one language, cycled until SIZE_MB megabytes. Writes
OUT_PREFIX.txt (a paragraph per line), OUT_PREFIX.jsonl (the same paragraphs,
one document of up to 5 paragraphs per line, with its lang) and
OUT_PREFIX.en.txt (the English msgids alone, for the English-only baselines).
Deterministic."""
import glob
import gettext
import hashlib
import json
import sys

LANGS = ["de", "fr", "es", "it", "pt", "nl", "pl", "cs", "ru", "uk", "el", "tr", "ar", "hi", "zh_CN", "ja", "ko",
         "th", "fi", "sv"]
size = int(sys.argv[1]) * 1000 * 1000
prefix = sys.argv[2]


def strings(lang):
    out, en = [], []
    for path in sorted(glob.glob(f"/usr/share/locale/{lang}/LC_MESSAGES/*.mo")):
        try:
            with open(path, "rb") as f:
                cat = gettext.GNUTranslations(f)._catalog
        except Exception:
            continue
        for k, v in cat.items():
            if isinstance(k, str) and k and v and "\n" not in v and "\n" not in k and len(v) >= 10:
                out.append(v.replace("\t", " "))
                en.append(k.replace("\t", " "))
    return out, en


paras, english = [], []
for lang in LANGS:
    s, en = strings(lang)
    code = lang.split("_")[0]
    i = 0
    while i < len(s):
        n = 1 + int(hashlib.sha256(f"{lang}{i}".encode()).hexdigest(), 16) % 6
        paras.append((code, " ".join(s[i:i + n])))
        if lang == "fr":
            english.append(" ".join(en[i:i + n]))
        i += n
paras.sort(key=lambda p: hashlib.sha256(p[1].encode()).hexdigest())
with open(prefix + ".txt", "w", encoding="utf-8") as txt, open(prefix + ".jsonl", "w", encoding="utf-8") as js:
    written, k = 0, 0
    while written < size:
        doc = paras[k % len(paras): k % len(paras) + 5]
        k += 5
        lang = doc[0][0]
        doc = [p for p in doc if p[0] == lang]
        for _, p in doc:
            txt.write(p + "\n")
            written += len(p.encode()) + 1
        js.write(json.dumps({"url": f"https://example.org/{k}", "lang": lang, "text": "\n".join(p for _, p in doc)},
                            ensure_ascii=False) + "\n")
with open(prefix + ".en.txt", "w", encoding="utf-8") as f:
    written, k = 0, 0
    while written < size:
        p = english[k % len(english)]
        f.write(p + "\n")
        written += len(p.encode()) + 1
        k += 1
