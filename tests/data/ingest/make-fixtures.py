#!/usr/bin/python3
"""Writes the pc-ingest fixtures in this folder (deterministic; standard
library only):

  charset.warc        ISO-8859-1 and Shift-JIS pages, each with and without a
                      charset in the HTTP header (and no <meta>)
  latin1.html, sjis.html   the same pages as files (no declaration at all)
  wrong-length.warc   record 2 has a Content-Length 10 bytes too long; record 3 is good
  truncated.warc.gz   a gzipped WARC cut in the middle of its gzip stream
  bomb.warc           a response whose gzip Content-Encoding expands to 8 MiB
  garbage.bin         4 KiB of pseudo-random bytes
  nul.html            an HTML file with NUL bytes

Not written here: wget.warc.gz is GNU Wget 1.21.3's own WARC (wget
--warc-file=site of fr/pr01-s2.html, de/pr01-s2.html and style.css of
data/samples/site served by tests/crawl/serve_site.py): warcinfo, request and
response records, then wget's MANIFEST.txt (metadata record), and
wget_arguments.txt and wget.log (resource records, text/plain).
"""
import gzip
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))

FR = ("Le café crème de Noël coûte trois euros à la gare. Les élèves français préfèrent "
      "la crêpe à la pâtisserie, mais l'été dernier ils ont goûté une spécialité "
      "régionale très appréciée. Où êtes-vous allés ? À Besançon, près de la forêt.")
JA = ("日本語のテキストです。これは文字コードの検出をテストするための文章です。"
      "東京都の天気は晴れで、明日は雨が降るでしょう。図書館で新しい本を借りました。"
      "私たちは毎朝コーヒーを飲みながら新聞を読みます。")


def page(title, text):
    return (f"<html><head><title>{title}</title></head><body>"
            f"<nav><a href='/'>Home</a></nav><p>{text}</p><p>{text}</p></body></html>")


def record(wtype, uri, block, content_type="application/http; msgtype=response", length=None):
    head = (f"WARC/1.0\r\nWARC-Type: {wtype}\r\nWARC-Target-URI: {uri}\r\n"
            f"WARC-Date: 2024-01-01T00:00:00Z\r\n"
            f"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{abs(hash(uri)) % 10**12:012d}>\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(block) if length is None else length}\r\n\r\n")
    return head.encode() + block + b"\r\n\r\n"


def response(uri, body, ctype, extra=""):
    head = f"HTTP/1.1 200 OK\r\nContent-Type: {ctype}\r\n{extra}Content-Length: {len(body)}\r\n\r\n"
    return record("response", uri, head.encode() + body)


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def main():
    os.environ.setdefault("PYTHONHASHSEED", "0")
    latin1 = page("Café", FR).encode("iso-8859-1")
    sjis = page("日本語", JA).encode("shift_jis")
    write("latin1.html", latin1)
    write("sjis.html", sjis)
    write("charset.warc",
          response("http://example.org/latin1-header", latin1, "text/html; charset=ISO-8859-1")
          + response("http://example.org/latin1-none", latin1, "text/html")
          + response("http://example.org/sjis-header", sjis, "text/html; charset=Shift_JIS")
          + response("http://example.org/sjis-none", sjis, "text/html"))
    good = page("Good", "A good page in English with enough words to be identified as English text.").encode()
    bad = response("http://example.org/wrong", good, "text/html")
    # Claim 10 more bytes than the block has.
    bad = bad.replace(b"Content-Length: %d\r\n\r\nHTTP" % (len(bad) - bad.index(b"HTTP/1.1") - 4),
                      b"Content-Length: %d\r\n\r\nHTTP" % (len(bad) - bad.index(b"HTTP/1.1") - 4 + 10))
    write("wrong-length.warc",
          response("http://example.org/one", good.replace(b"Good", b"One"), "text/html") + bad
          + response("http://example.org/three", good.replace(b"good page", b"third page"), "text/html"))
    full = gzip.compress(b"".join(response(f"http://example.org/{i}", good.replace(b"Good", b"P%d" % i), "text/html")
                                  for i in range(20)), mtime=0)
    write("truncated.warc.gz", full[: len(full) // 2])
    bomb = gzip.compress(b"<html><body>" + b" " * (8 << 20), mtime=0)
    write("bomb.warc", response("http://example.org/bomb", bomb, "text/html", "Content-Encoding: gzip\r\n"))
    write("garbage.bin", random.Random(4).randbytes(4096))
    write("nul.html", b"<html><body><p>text\x00with\x00NUL bytes</p></body></html>")


main()
