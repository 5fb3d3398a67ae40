#!/usr/bin/python3
"""Writes the seed corpora tests/fuzz/corpus/<target>/ from the project's own
test data and samples (deterministic; standard library only).

  python3 tests/fuzz/make-seeds.py [--models DIR]

Every seed is a real file or a cut of one (a few KB at most), so the fuzzer
starts from inputs that reach deep into each parser. The model seeds (ibm1,
nmt, spm, heads, and two of the safetensors seeds) need trained models; with
--models DIR they are taken from DIR/toy.ibm1.safetensors,
DIR/tiny.nmt.safetensors, DIR/sep.nmt.safetensors, DIR/tiny.heads.safetensors and DIR/en-fr.tmx (paracorp's TMX writer), made with the build's own tools:

  pc-ibm1 train -o DIR/toy.ibm1.safetensors tests/data/ibm1/toy.tsv
  head -40 tests/data/nmt/train.tsv > DIR/small.tsv
  pc-nmt train -o DIR/tiny.nmt.safetensors --dim 8 --heads 2 --ffn-dim 8 \
    --enc-layers 1 --dec-layers 1 --vocab-size 80 --max-steps 1 \
    --batch-tokens 256 DIR/small.tsv
  pc-nmt train -o DIR/sep.nmt.safetensors (the same options) --separate-vocab \
    --spm-type bpe DIR/small.tsv
  pc-tmx -s en -t fr -o DIR/en-fr.tmx tests/data/en-fr.tsv
  cut -f1 DIR/small.tsv | sed 1d > DIR/small.en
  pc-nmt train-heads -m DIR/tiny.nmt.safetensors -o DIR/tiny.heads.safetensors \
    --guesses 2 --head-dim 4 --shortlist 16 --epochs 1 DIR/small.en

and the fasttext seeds from DIR/tiny.lid.bin and DIR/tiny.lid.ftz, made with
Debian's fasttext command from 40 French and 40 German sample targets:

  { sed -n 2,41p data/samples/bitext/en-fr.tsv | cut -f2 | sed 's/^/__label__fr /'
    sed -n 2,41p data/samples/bitext/en-de.tsv | cut -f2 | sed 's/^/__label__de /'; } > DIR/lid.txt
  fasttext supervised -input DIR/lid.txt -output DIR/tiny.lid -dim 2 -minn 2 -maxn 3 \
    -bucket 64 -epoch 1 -thread 1 -seed 1
  fasttext quantize -input DIR/lid.txt -output DIR/tiny.lid -qnorm -cutoff 300

SentencePiece stores a 240 KB normalisation table in every model; the nmt
and spm seeds drop it (the model then normalises nothing) so that a seed is
a few KB and the fuzzer mutates the pieces and the file, not the table.
"""
import argparse
import gzip
import json
import os
import struct
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "fuzz", "corpus")
DATA = os.path.join(ROOT, "tests", "data")
SAMPLES = os.path.join(ROOT, "data", "samples")


def read(*parts):
    with open(os.path.join(*parts), "rb") as f:
        return f.read()


def write(target, name, data):
    os.makedirs(os.path.join(OUT, target), exist_ok=True)
    with open(os.path.join(OUT, target, name), "wb") as f:
        f.write(data)


def head(data, limit):
    """The first lines of `data` that fit in `limit` bytes."""
    if len(data) <= limit:
        return data
    cut = data.rfind(b"\n", 0, limit)
    return data[: cut + 1] if cut > 0 else data[:limit]


def warc_records(data):
    """(headers, block) of each record of an uncompressed WARC file."""
    pos = 0
    while True:
        start = data.find(b"WARC/1.", pos)
        if start < 0:
            return
        end = data.find(b"\r\n\r\n", start)
        if end < 0:
            return
        head_lines = data[start:end].decode("latin-1").split("\r\n")
        length = 0
        for line in head_lines[1:]:
            k, _, v = line.partition(":")
            if k.lower() == "content-length":
                length = int(v.strip() or 0)
        block = data[end + 4 : end + 4 + length]
        yield head_lines, block
        pos = end + 4 + length


# ---- protobuf, just enough to drop SentencePiece's charsmap ----
def varint(b, i):
    n = shift = 0
    while True:
        c = b[i]
        i += 1
        n |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return n, i


def put_varint(n):
    out = bytearray()
    while True:
        c = n & 0x7F
        n >>= 7
        out.append(c | (0x80 if n else 0))
        if not n:
            return bytes(out)


def fields(b):
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        num, wire = key >> 3, key & 7
        start = i
        if wire == 0:
            _, i = varint(b, i)
        elif wire == 1:
            i += 8
        elif wire == 2:
            n, i = varint(b, i)
            i += n
        elif wire == 5:
            i += 4
        else:
            raise ValueError("unsupported wire type")
        yield num, wire, b[start:i], key


def strip_charsmap(model):
    """ModelProto with normalizer_spec (3) and denormalizer_spec (5) renamed
    "identity" and their precompiled_charsmap (2) dropped."""
    out = bytearray()
    for num, wire, raw, key in fields(model):
        if num in (3, 5) and wire == 2:
            n, j = varint(raw, 0)
            spec = bytearray()
            for snum, swire, sraw, skey in fields(raw[j : j + n]):
                if snum == 2:
                    continue
                if snum == 1:
                    sraw = put_varint(8) + b"identity"
                spec += put_varint(skey) + sraw
            raw = put_varint(len(spec)) + bytes(spec)
        out += put_varint(key) + raw
    return bytes(out)


def safetensors_read(data):
    n = struct.unpack("<Q", data[:8])[0]
    return json.loads(data[8 : 8 + n]), data[8 + n :]


def safetensors_write(header, blobs):
    """header: name -> (dtype, shape) in order, blobs: name -> bytes, plus
    "__metadata__"; tensors laid out in the given order."""
    js, buf, off = {}, bytearray(), 0
    for name, spec in header.items():
        if name == "__metadata__":
            js[name] = spec
            continue
        dtype, shape = spec
        b = blobs[name]
        js[name] = {"dtype": dtype, "shape": shape, "data_offsets": [off, off + len(b)]}
        buf += b
        off += len(b)
    text = json.dumps(js, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + bytes(buf)


def small_nmt(model):
    """The NMT model with its SentencePiece models' charsmaps dropped."""
    h, data = safetensors_read(model)
    header, blobs = {}, {}
    for name, t in sorted(((k, v) for k, v in h.items() if k != "__metadata__"),
                          key=lambda kv: kv[1]["data_offsets"][0]):
        b = data[t["data_offsets"][0] : t["data_offsets"][1]]
        if name.startswith("spm."):
            b = strip_charsmap(b)
        header[name] = (t["dtype"], [len(b)] if name.startswith("spm.") else t["shape"])
        blobs[name] = b
    meta = dict(h.get("__metadata__", {}))
    meta.pop("provenance", None)
    return safetensors_write({"__metadata__": meta, **header}, blobs), blobs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", help="folder with toy.ibm1.safetensors and tiny.nmt.safetensors")
    args = ap.parse_args()
    # Seeds are written over, never cleared: the corpora also hold the
    # reproducers of fuzz findings and seeds added by hand (docs/fuzzing.md),
    # which a regeneration must keep. A seed this script stops writing is
    # deleted by hand.

    ingest = os.path.join(DATA, "ingest")
    # WARC: the ingest fixtures (one with a wrong Content-Length), and the
    # gzip bomb's record cut short of its body.
    write("warc", "charset.warc", read(ingest, "charset.warc"))
    write("warc", "wrong-length.warc", read(ingest, "wrong-length.warc"))
    write("warc", "bomb.warc", read(ingest, "bomb.warc"))
    write("warc", "truncated.warc", read(ingest, "bomb.warc")[:2048])
    # gzip: a WARC with one member per record (as pc-crawl writes it), the
    # header fields a member may carry (FEXTRA, FNAME, FCOMMENT, FHCRC), an
    # empty member, stored blocks, and the broken kinds: cut short, a wrong
    # CRC, garbage after a member.
    warc = read(ingest, "charset.warc")
    starts = [i for i in range(len(warc)) if warc.startswith(b"WARC/1.", i) and (i == 0 or warc[i - 1] == 10)]
    records = [warc[a:b] for a, b in zip(starts, starts[1:] + [len(warc)])]
    write("gzip", "warc-members.gz", b"".join(gzip.compress(r, mtime=0) for r in records))
    body = zlib.compressobj(9, zlib.DEFLATED, -15)
    text = read(SAMPLES, "site", "en", "pr01-s1.html")[:3000]
    deflated = body.compress(text) + body.flush()
    extra = b"AB\x04\x00data"
    hdr = (b"\x1f\x8b\x08\x1e\x00\x00\x00\x00\x00\x03" + struct.pack("<H", len(extra)) + extra
           + b"page.html\x00" + b"a comment\x00")
    hdr += struct.pack("<H", zlib.crc32(hdr) & 0xFFFF)
    trailer = struct.pack("<II", zlib.crc32(text), len(text))
    write("gzip", "header-fields.gz", hdr + deflated + trailer)
    write("gzip", "empty-member.gz", gzip.compress(b"", mtime=0) + gzip.compress(b"after\n", mtime=0))
    write("gzip", "stored.gz", gzip.compress(text, compresslevel=0, mtime=0))
    whole = gzip.compress(text, mtime=0)
    write("gzip", "truncated.gz", whole[: len(whole) // 2])
    write("gzip", "bad-crc.gz", whole[:-8] + bytes([whole[-8] ^ 1]) + whole[-7:])
    write("gzip", "garbage-after.gz", whole + b"junk")
    # HTTP: the response blocks inside those WARC files (the bomb's gzip body
    # is 8 KB; the fuzzer's limit keeps it).
    n = 0
    for f in ("charset.warc", "wrong-length.warc", "bomb.warc"):
        for lines, block in warc_records(read(ingest, f)):
            if block.startswith(b"HTTP/1."):
                write("http", f"{f.split('.')[0]}-{n}.http", block)
                n += 1
    write("http", "chunked.http", b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n"
          b"5\r\nhello\r\n7; ext=1\r\n, world\r\n0\r\nTrailer: x\r\n\r\n")
    # HTML: sample pages cut to 4 KB, and the ingest fixtures.
    for lang in ("en", "de"):
        write("html", f"{lang}-pr01-s1.html", read(SAMPLES, "site", lang, "pr01-s1.html"))
        write("html", f"{lang}-index.html", head(read(SAMPLES, "site", lang, "index.html"), 4096))
    write("html", "en-ch02-s4.html", head(read(SAMPLES, "site", "en", "ch02-s4.html"), 4096))
    write("html", "latin1.html", read(ingest, "latin1.html"))
    write("html", "nul.html", read(ingest, "nul.html"))
    # Charset: "Content-Type line \n document bytes".
    write("charset", "latin1-header", b"text/html; charset=ISO-8859-1\n" + read(ingest, "latin1.html"))
    write("charset", "latin1-none", b"text/html\n" + read(ingest, "latin1.html"))
    write("charset", "sjis-header", b"text/html; charset=Shift_JIS\n" + read(ingest, "sjis.html"))
    write("charset", "sjis-none", b"\n" + read(ingest, "sjis.html"))
    write("charset", "utf8-meta", b"text/html\n" + head(read(SAMPLES, "site", "de", "pr01-s1.html"), 2048))
    write("charset", "bom", b"text/plain\n\xef\xbb\xbf" + "Grüße aus Köln".encode())
    write("charset", "garbage", b"\n" + read(ingest, "garbage.bin")[:2048])
    # JSONL documents.
    split = os.path.join(DATA, "split")
    for f in ("docs.jsonl", "bad.jsonl", "para-langs-mismatch.jsonl"):
        write("jsonl", f, read(split, f))
    # TSV bitext: with and without a header, bad rows, real samples.
    for f in ("en-fr.tsv", "unicode.tsv", "wrong-columns.tsv", "bad-utf8.tsv", "nul.tsv"):
        write("tsv", f, read(DATA, f))
    write("tsv", "en-de.tsv", head(read(SAMPLES, "bitext", "en-de.tsv"), 3072))
    write("tsv", "sources.tsv", head(read(SAMPLES, "bitext", "SOURCES.tsv"), 3072))
    # TMX: the foreign fixture, and one written by paracorp's own writer.
    write("tmx", "foreign.tmx", read(DATA, "foreign.tmx"))
    if args.models:
        write("tmx", "en-fr.tmx", read(args.models, "en-fr.tmx"))
    # robots.txt and sitemaps: the crawler's formats as sites write them.
    write("robots", "groups.txt", ROBOTS)
    write("robots", "star.txt", b"User-agent: *\nDisallow: /\nAllow: /$\nAllow: /public/*.html$\n")
    write("robots", "crlf.txt", b"# comment\r\nUser-Agent: pc-crawl/0.1\r\nDisallow: /tmp\r\n"
          b"Crawl-delay: 2.5\r\n\r\nUser-agent: *\r\nDisallow: /%7Ejoe/\r\n")
    write("sitemap", "urlset.xml", SITEMAP)
    write("sitemap", "index.xml", SITEMAP_INDEX)
    # URLs: base \n reference, taken from the sample site's links.
    for i, (base, ref) in enumerate(URLS):
        write("url", f"url-{i}", f"{base}\n{ref}".encode())
    # Sentence splitting: "lang \n paragraph" from the hard gold cases.
    gold = os.path.join(SAMPLES, "split-gold", "hard")
    for f in sorted(os.listdir(gold)):
        lang = f.split(".")[0]
        lines = read(gold, f).split(b"\n")
        write("segment", lang, lang.encode() + b"\n" + b" ".join(l.replace(b"\t", b" ") for l in lines[:6]))
    write("segment", "crlf", b"de\n" + read(split, "de-crlf.txt").replace(b"\n", b" "))
    # Normalisation: "spec \n text".
    write("normalize", "norm", b"mojibake,entities,nfc,ctrl,ws,punct\n" + read(split, "norm.txt"))
    write("normalize", "mixed", b"nfkc,ws\n" + read(split, "mixed.txt"))
    write("normalize", "unicode", b"none\n" + read(DATA, "unicode.tsv"))

    # safetensors: the foreign-kind fixture, plus models when given.
    write("safetensors", "ibm1-kind.safetensors", read(DATA, "nmt", "ibm1-kind.safetensors"))
    write("safetensors", "dtypes.safetensors", safetensors_write(
        {"__metadata__": {"format": "test"}, "f64": ("F64", [2]), "i32": ("I32", [2, 2]), "u8": ("U8", [3])},
        {"f64": struct.pack("<2d", 1.5, -2), "i32": struct.pack("<4i", 1, 2, 3, 4), "u8": b"abc"}))
    if args.models:
        for ext in ("bin", "ftz"):
            write("fasttext", "tiny-lid." + ext, read(args.models, "tiny.lid." + ext))
        ibm1 = read(args.models, "toy.ibm1.safetensors")
        write("ibm1", "toy.safetensors", ibm1)
        write("safetensors", "toy-ibm1.safetensors", ibm1)
        write("heads", "tiny.safetensors", read(args.models, "tiny.heads.safetensors"))
        for kind in ("tiny", "sep"):
            nmt, blobs = small_nmt(read(args.models, kind + ".nmt.safetensors"))
            write("nmt", kind + ".safetensors", nmt)
            write("safetensors", kind + "-nmt.safetensors", nmt)
            for name, b in blobs.items():
                if name.startswith("spm."):
                    write("spm", f"{kind}-{name}.model", b)


ROBOTS = b"""# robots.txt as large sites write them
User-agent: Googlebot
Disallow: /search
Allow: /search/about

User-agent: pc-crawl
User-agent: otherbot
Disallow: /private/
Disallow: /*.pdf$
Allow: /private/public-*
Crawl-delay: 1

User-agent: *
Disallow: /cgi-bin/
Disallow: /tmp/

Sitemap: https://example.org/sitemap.xml
Sitemap: https://example.org/news/sitemap-index.xml
"""

SITEMAP = b"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.org/en/index.html</loc><lastmod>2024-01-01</lastmod></url>
  <url><loc>https://example.org/de/index.html</loc><changefreq>weekly</changefreq></url>
  <url><loc>https://example.org/fr/caf%C3%A9.html?a=1&amp;b=2</loc><priority>0.8</priority></url>
</urlset>
"""

SITEMAP_INDEX = b"""<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://example.org/sitemap-en.xml.gz</loc></sitemap>
  <sitemap><loc><![CDATA[https://example.org/sitemap-de.xml]]></loc><lastmod>2024-01-01</lastmod></sitemap>
</sitemapindex>
"""

URLS = [
    ("http://127.0.0.1:8080/en/index.html", "ch02-s1.html"),
    ("http://127.0.0.1:8080/en/ch02-s1.html", "../de/ch02-s1.html#bridgehead"),
    ("https://Example.ORG:443/a/b/c", "./../d/./e?x=1&y=%2F#frag"),
    ("http://example.org/", "//other.example.com:80/path with space"),
    ("", "HTTPS://xn--caf-dma.example/%7Euser/"),
    ("http://[::1]:8080/a", "?only=query"),
]

if __name__ == "__main__":
    main()
