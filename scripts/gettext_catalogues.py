"""Pairs from the gettext catalogues (.mo) of the installed Debian packages,
shared by make-sample-bitext.sh, make-package-split.sh and the bench scripts (their embedded
Python imports it, so all read catalogues and filter pairs alike): which
package owns a catalogue, reading a .mo, and the filters a pair must pass.
Standard library only."""
import os
import re
import struct
import subprocess
import sys
import unicodedata


# A pair's sides are kept between these lengths (characters, after normalise).
MIN_LEN, MAX_LEN = 3, 300


def log(*a):
    print("gettext_catalogues:", *a, file=sys.stderr)


def owning_packages(paths):
    """dpkg -S for many paths at once -> {path: package}."""
    res = subprocess.run(["dpkg", "-S", "--"] + paths, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, check=False)
    owner = {}
    for line in res.stdout.decode("utf-8", "replace").splitlines():
        if line.startswith("diversion by") or ": /" not in line:
            continue
        pkgs, path = line.split(": /", 1)
        path = "/" + path
        pkg = pkgs.split(",")[0].strip().split(":")[0]   # first owner, arch stripped
        owner.setdefault(path, pkg)
    return owner


def extra_catalogues(extra_dir):
    """The catalogues of a scripts/fetch-extra-catalogues.sh folder (one
    sub-folder per package): [(package, locale, .mo path)], packages in sorted
    order, each package's folders walked in sorted order, locale the name of
    the folder above LC_MESSAGES."""
    out = []
    for pkg in sorted(os.listdir(extra_dir)):
        root = os.path.join(extra_dir, pkg)
        if pkg.startswith(".") or pkg.endswith(".tmp") or not os.path.isdir(root):
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            if os.path.basename(dirpath) != "LC_MESSAGES":
                continue
            locale = os.path.basename(os.path.dirname(dirpath))
            out += [(pkg, locale, os.path.join(dirpath, f)) for f in sorted(filenames) if f.endswith(".mo")]
    return out


# --------------------------------------------------------------------------
# .mo parsing
# --------------------------------------------------------------------------

def read_mo(path):
    """Yields (msgctxt|None, msgid, msgstr) for the singular entries of a .mo.

    Plural entries (msgid containing NUL) and the header are skipped.  .mo
    files contain no fuzzy entries (msgfmt drops them unless --use-fuzzy)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 28:
        return
    magic = struct.unpack("<I", data[:4])[0]
    if magic == 0x950412de:
        end = "<"
    elif magic == 0xde120495:
        end = ">"
    else:
        log("not a .mo file, skipped:", path)
        return
    _rev, n, o_orig, o_trans = struct.unpack(end + "4I", data[4:20])

    def entry(table, i):
        ln, off = struct.unpack(end + "2I", data[table + 8 * i: table + 8 * i + 8])
        return data[off:off + ln]

    raw = [(entry(o_orig, i), entry(o_trans, i)) for i in range(n)]
    charset = "utf-8"
    for k, v in raw:
        if k == b"":
            m = re.search(rb"charset=([-\w.]+)", v)
            if m:
                charset = m.group(1).decode("ascii").lower()
            break
    if charset in ("charset", "ascii", "us-ascii"):
        charset = "utf-8"
    for k, v in raw:
        if k == b"" or b"\x00" in k:          # header / plural entry
            continue
        try:
            k = k.decode(charset)
            v = v.decode(charset)
        except (UnicodeDecodeError, LookupError):
            continue
        ctxt = None
        if "\x04" in k:
            ctxt, k = k.split("\x04", 1)
        yield ctxt, k, v


# --------------------------------------------------------------------------
# Normalisation and filters
# --------------------------------------------------------------------------

_WS = re.compile(r"[ \t\n\r\f\v]+")          # ASCII whitespace only; NBSP is kept
# "(_F)" / "(&F)" accelerator suffixes used by CJK translations
_ACCEL_PAREN = re.compile(r"\s?[(（][_&]([A-Za-z0-9])[)）]")
# "_File" / "&File": _ or & at the start of a word, immediately before a letter
_ACCEL_WORD = re.compile(r"(?<![\w&])[_&](?=[^\W\d_])")
_ENTITY = re.compile(r"&(?:[A-Za-z]+|#[0-9]+|#x[0-9A-Fa-f]+);")

_PRINTF = re.compile(r"%(?:\d+\$)?[-+ #0']*(?:\*|\d+)?(?:\.(?:\*|\d+))?"
                     r"(?:hh|h|ll|l|L|q|j|z|Z|t|I)?[diouxXeEfFgGaAcCsSpnm]"
                     r"|%\([A-Za-z_][A-Za-z0-9_]*\)[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|L)?[diouxXeEfFgGcrsa]"
                     r"|%<PRI[diouxX]\w*>|%[A-Za-z]\b")
_BRACE = re.compile(r"\{[A-Za-z0-9_.:!]*\}|\$[{(]?[A-Za-z_][A-Za-z0-9_]*[})]?|\$\d")
_MARKUP = re.compile(r"<[^<>]*>")


def normalise(s):
    return _WS.sub(" ", s).strip()


def strip_accel(s):
    if _ENTITY.search(s):                   # contains markup entities: leave alone
        return s
    s = _ACCEL_PAREN.sub("", s)
    return _ACCEL_WORD.sub("", s)


def bad_chars(s):
    for ch in s:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs", "Co", "Cn") or ch == "\ufffd":
            return True
    return False


def has_placeholder(s):
    return bool(_PRINTF.search(s) or _BRACE.search(s) or _MARKUP.search(s))


def has_letter(s):
    return any(ch.isalpha() for ch in s)


def why_rejected(src, trg, allow_placeholders=False):
    """None for a pair the bitexts keep, else the first reason to drop it.
    allow_placeholders: placeholders and markup are no reason (for test sets
    that measure how a model keeps them)."""
    if not src or not trg:
        return "empty"
    if src == trg:
        return "identical"
    if min(len(src), len(trg)) < MIN_LEN:
        return "too-short"
    if max(len(src), len(trg)) > MAX_LEN:
        return "too-long"
    if bad_chars(src) or bad_chars(trg):
        return "control-char"
    if not allow_placeholders and (has_placeholder(src) or has_placeholder(trg)):
        return "placeholder/markup"
    if "_" in src or "_" in trg:
        return "identifier"
    if not has_letter(src) or not has_letter(trg):
        return "no-letter"
    return None


def locale_pairs(locale, filtered=False):
    """Every singular (msgid, msgstr) pair of the installed catalogues of one
    locale (/usr/share/locale/LOCALE/LC_MESSAGES/*.mo, in sorted order),
    normalised. filtered: accelerators stripped and why_rejected applied;
    otherwise only pairs that cannot be a TSV row (a TAB or newline, an
    empty side) are left out."""
    import glob
    for mo in sorted(glob.glob(f"/usr/share/locale/{locale}/LC_MESSAGES/*.mo")):
        for _, src, trg in read_mo(mo):
            if filtered:
                src, trg = normalise(strip_accel(src)), normalise(strip_accel(trg))
                if why_rejected(src, trg):
                    continue
            else:
                src, trg = normalise(src), normalise(trg)
                if not src or not trg or "\t" in src + trg or "\n" in src + trg:
                    continue
            yield src, trg


if __name__ == "__main__":
    # gettext_catalogues.py pairs LOCALE [--filtered]: locale_pairs as a TSV
    # with a src_text/trg_text header, on stdout (the bench scripts' input).
    if len(sys.argv) not in (3, 4) or sys.argv[1] != "pairs" or sys.argv[3:] not in ([], ["--filtered"]):
        sys.exit("usage: gettext_catalogues.py pairs LOCALE [--filtered]")
    print("src_text\ttrg_text")
    for s, t in locale_pairs(sys.argv[2], filtered=len(sys.argv) == 4):
        print(f"{s}\t{t}")
