#!/usr/bin/python3
"""Builds data/samples/site/: a small multilingual website made from a few
chapters of the Debian Reference (Debian packages debian-reference-{en,fr,de,
es,ja}, GPL-2+), for pc-crawl and pc-ingest tests and the sample pipeline.

    /usr/bin/python3 scripts/make-sample-site.py [OUT]   (default data/samples/site)

SITE_LANGS and SITE_CHAPTERS (space-separated) choose other languages and
chapters; bench/bench-ingest.sh builds the whole book in all ten languages
(en fr de es ja id it pt zh-cn zh-tw) into a temporary folder this way.

Each h2 section of the chosen chapters becomes a page /LANG/CHAPTER-sN.html
with site navigation (<header>, <nav>), a footer, and <link rel=alternate
hreflang> links to its translations. /LANG/index.html lists the pages; / is a
language chooser; /private/ is disallowed by robots.txt; /sitemap.xml is a
sitemap index pointing at one sitemap per language. Links between sections
are rewritten to the site's pages; links to anything else are removed (the
text stays) except one deliberate off-site link to http://example.invalid/.
Standard library only; deterministic (same packages -> same bytes)."""
import os
import re
import sys
import xml.etree.ElementTree as ET

SRC = "/usr/share/debian-reference"
LANGS = os.environ.get("SITE_LANGS", "en fr de es ja").split()
NAMES = {"en": "English", "fr": "Français", "de": "Deutsch", "es": "Español", "ja": "日本語",
         "id": "Bahasa Indonesia", "it": "Italiano", "pt": "Português", "zh-cn": "简体中文", "zh-tw": "繁體中文"}
CONTENTS = {"en": "Contents", "fr": "Sommaire", "de": "Inhalt", "es": "Índice", "ja": "目次",
            "id": "Daftar Isi", "it": "Indice", "pt": "Índice", "zh-cn": "目录", "zh-tw": "目錄"}
CHAPTERS = os.environ.get("SITE_CHAPTERS", "pr01 ch02").split()
X = "{http://www.w3.org/1999/xhtml}"
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "data", "samples", "site")


def local(tag):
    return tag[len(X):] if tag.startswith(X) else tag


def sections(lang, chapter):
    root = ET.parse(f"{SRC}/{chapter}.{lang}.html").getroot()
    out = []
    for d in root.iter(X + "div"):
        if d.get("class") == "section" and d.find(f"{X}div/{X}div/{X}div/{X}h2") is not None:
            h2 = d.find(f"{X}div/{X}div/{X}div/{X}h2")
            out.append((d, "".join(h2.itertext()).strip()))
    return out


def build_id_map():
    """element id -> page name, from the English chapters (ids are shared)."""
    ids = {}
    for ch in CHAPTERS:
        for i, (d, _) in enumerate(sections("en", ch), 1):
            for e in d.iter():
                if e.get("id"):
                    ids[e.get("id")] = f"{ch}-s{i}"
    return ids


def clean(elem, lang, ids):
    """Strips the XHTML namespace, images and off-site links, rewrites links."""
    for e in elem.iter():
        e.tag = local(e.tag)
    for parent in list(elem.iter()):
        for child in list(parent):
            if child.tag == "img":
                tail = child.tail or ""
                idx = list(parent).index(child)
                parent.remove(child)
                if tail:
                    if idx > 0:
                        parent[idx - 1].tail = (parent[idx - 1].tail or "") + tail
                    else:
                        parent.text = (parent.text or "") + tail
    for a in elem.iter("a"):
        href = a.get("href")
        if href is None:
            continue
        m = re.match(r"^(?:[a-z0-9]+\.[a-z_-]+\.html)?#(.+)$", href)
        if m and m.group(1) in ids:
            a.set("href", f"/{lang}/{ids[m.group(1)]}.html#{m.group(1)}")
        else:
            del a.attrib["href"]  # off-site or outside the sample: plain text
        for k in list(a.attrib):
            if k not in ("href", "id"):
                del a.attrib[k]
    return elem


def page(lang, title, head_links, nav_links, body, prev_next=""):
    alts = "".join(f'<link rel="alternate" hreflang="{l}" href="{h}">\n' for l, h in head_links)
    langs = " | ".join(f'<a hreflang="{l}" href="{h}">{NAMES[l]}</a>' for l, h in nav_links)
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<title>{title}</title>
{alts}<link rel="stylesheet" href="/style.css">
</head>
<body>
<header>
<p class="site-name">paracorp sample site</p>
<nav><a href="/{lang}/index.html">{CONTENTS[lang]}</a> | {langs} | <a href="/private/index.html">Staff area</a>{prev_next}</nav>
</header>
<main>
{body}
</main>
<footer>
<p>Sample pages built from the Debian Reference (package debian-reference), licensed GPL-2+. Site footer of the paracorp test site.</p>
<p><a href="http://example.invalid/">An off-site link that crawlers keep out of scope</a></p>
</footer>
</body>
</html>
"""


def write(rel, text):
    path = os.path.join(OUT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def main():
    ids = build_id_map()
    names = []  # page names in order, same for every language
    for ch in CHAPTERS:
        names += [f"{ch}-s{i}" for i in range(1, len(sections("en", ch)) + 1)]
    urls = {lang: [f"/{lang}/index.html"] for lang in LANGS}
    for lang in LANGS:
        toc = []
        pages = []
        for ch in CHAPTERS:
            secs = sections(lang, ch)
            assert len(secs) == len(sections("en", ch)), (lang, ch)
            for i, (d, title) in enumerate(secs, 1):
                pages.append((f"{ch}-s{i}", d, title))
        for k, (name, d, title) in enumerate(pages):
            body = ET.tostring(clean(d, lang, ids), encoding="unicode", method="html")
            alts = [(l, f"/{l}/{name}.html") for l in LANGS]
            pn = ""
            if k > 0:
                pn += f' | <a href="/{lang}/{pages[k - 1][0]}.html">«</a>'
            if k + 1 < len(pages):
                pn += f' | <a href="/{lang}/{pages[k + 1][0]}.html">»</a>'
            write(f"{lang}/{name}.html", page(lang, title, alts, alts, body, pn))
            toc.append(f'<li><a href="/{lang}/{name}.html">{title}</a></li>')
            urls[lang].append(f"/{lang}/{name}.html")
        root = ET.parse(f"{SRC}/index.{lang}.html").getroot()
        abstract = next(d for d in root.iter(X + "div") if d.get("class") == "abstract")
        doc_title = root.find(f"{X}head/{X}title").text.strip()
        body = f"<h1>{doc_title}</h1>\n" + ET.tostring(clean(abstract, lang, ids), encoding="unicode", method="html")
        body += "\n<ul>\n" + "\n".join(toc) + "\n</ul>"
        alts = [(l, f"/{l}/index.html") for l in LANGS]
        write(f"{lang}/index.html", page(lang, doc_title, alts, alts, body))
    alts = [(l, f"/{l}/index.html") for l in LANGS]
    chooser = "".join(f'<link rel="alternate" hreflang="{l}" href="/{l}/index.html">\n' for l in LANGS)
    chooser += '<link rel="alternate" hreflang="x-default" href="/index.html">\n'
    links = " | ".join(f'<a hreflang="{l}" href="/{l}/index.html">{NAMES[l]}</a>' for l in LANGS)
    write("index.html", f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>paracorp sample site</title>
{chooser}</head>
<body>
<nav>{links}</nav>
</body>
</html>
""")
    write("private/index.html", """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Staff area</title></head>
<body><main><p>This page is under /private/, which robots.txt disallows. A polite crawler never requests it.</p></main></body>
</html>
""")
    write("style.css", "body { max-width: 50em; margin: auto; font-family: sans-serif; }\n")
    write("robots.txt", """# paracorp sample site
User-agent: *
Disallow: /private/
Allow: /

Sitemap: /sitemap.xml
""")
    index = "".join(f"  <sitemap><loc>/sitemaps/{l}.xml</loc></sitemap>\n" for l in LANGS)
    write("sitemap.xml", f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- Locations are root-relative: the site is served on a port chosen at run time. -->
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
{index}</sitemapindex>
""")
    for lang in LANGS:
        locs = "".join(f"  <url><loc>{u}</loc></url>\n" for u in urls[lang])
        write(f"sitemaps/{lang}.xml", f"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
{locs}</urlset>
""")
    print(f"site: {len(LANGS)} languages x {len(names) + 1} pages -> {OUT}")


main()
