# pc-ingest golden tests: NAME <TAB> EXIT <TAB> STDOUT <TAB> STDERR <TAB> COMMAND
# (format: see run-golden.sh). Fixtures: tests/data/ingest (made by make-fixtures.py).
# text.py prints one field of every document: python3 -c ... FIELD

# --- conventions ---
help-stdout	0	~^Usage:   pc-ingest	empty	pc-ingest --help
help-golden	0	@pc-ingest.help	empty	taskset -c 0 pc-ingest -h
help-table	0	~^-j\t--threads\tN\t	empty	pc-ingest --help-table
unknown-option	2	empty	~^pc-ingest: unrecognised option '--bogus'	pc-ingest --bogus
bad-max-size	2	empty	~--max-size must be a size such as 20M	pc-ingest --max-size lots $DATA/ingest/latin1.html
bad-split-suffix	2	empty	~--split-suffix must be	pc-ingest --split-by-lang d --split-suffix .txt $DATA/ingest/latin1.html
missing-input	1	empty	~^pc-ingest: nofile.warc: No such file or directory	pc-ingest nofile.warc
empty-input	0	empty	~0 records, 0 docs	pc-ingest < /dev/null
stdin-terminal-usage	2	empty	~no input given and stdin is a terminal	script -qec 'pc-ingest' /dev/null | tr -d '\r' >&2; exit ${PIPESTATUS[0]}
broken-pipe-quiet	0	-	empty	pc-ingest $SAMPLES/site | head -c 100 > /dev/null

# --- HTML -> text on the sample site: body paragraphs, no navigation or footer ---
sample-page-text-golden	0	@ingest-pr01-s2.txt	-	pc-ingest $SAMPLES/site/en/pr01-s2.html | python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["text"])'
sample-page-no-boilerplate	0	!(paracorp sample site|Staff area|Site footer|GPL-2\+|off-site|Contents|Français|Deutsch)	-	pc-ingest $SAMPLES/site/en/pr01-s2.html $SAMPLES/site/fr/pr01-s2.html $SAMPLES/site/de/ch02-s1.html | python3 -c 'import json,sys; [print(json.loads(l)["text"]) for l in sys.stdin]'
sample-site-langs	0	-	~1 robots.txt, .*13 docs de, 14 docs en, 13 docs es, 13 docs fr, 13 docs ja	pc-ingest $SAMPLES/site -o docs.jsonl && [ $(grep -c '"lang":"ja"' docs.jsonl) = 13 ]
# the streaming extractor (default) and gumbo's tree give the same documents on the sample site and a wget WARC
html-parser-gumbo-same-output	0	empty	-	pc-ingest -q $SAMPLES/site $DATA/ingest/wget.warc.gz $DATA/ingest/sjis.html $DATA/ingest/latin1.html -o a.jsonl && pc-ingest -q --html-parser gumbo $SAMPLES/site $DATA/ingest/wget.warc.gz $DATA/ingest/sjis.html $DATA/ingest/latin1.html -o b.jsonl && [ -s a.jsonl ] && cmp a.jsonl b.jsonl
html-parser-bad-choice	2	empty	~--html-parser must be	pc-ingest --html-parser tree $DATA/ingest/latin1.html
# one CLD2 pass (default) scores the document from the call that labels its paragraphs; two passes from a call of its own
mixed-page-with-english-keeps-its-language	0	~"lang":"es","lang_score":0.89,	-	pc-ingest -q $SAMPLES/site/es/pr01-s4.html
mixed-page-two-pass-lang-id	0	~"lang":"es","lang_score":0.82,	-	pc-ingest -q --lang-id two-pass $SAMPLES/site/es/pr01-s4.html
para-langs-per-paragraph	0	~^ok$	-	pc-ingest $SAMPLES/site/ja/pr01-s2.html | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); n=d["text"].count(chr(10))+1; assert len(d["para_langs"])==n and "ja" in d["para_langs"] and d["lang"]=="ja" and d["lang_score"]>0.5; print("ok")'
title-kept	0	~"title":"2..?.?What is Debian"	-	pc-ingest $SAMPLES/site/en/pr01-s2.html
lang-filter	0	-	~13 language not kept, 13 docs, 13 docs fr	pc-ingest --lang fr $SAMPLES/site/en $SAMPLES/site/fr -o x.jsonl && ! grep -q '"lang":"en"' x.jsonl
split-by-lang	0	empty	-	pc-ingest -q --split-by-lang out $SAMPLES/site && ls out | tr '\n' ' ' | grep -qx 'de.jsonl en.jsonl es.jsonl fr.jsonl ja.jsonl ' && [ $(wc -l < out/fr.jsonl) = 13 ] && ! ls -a out | grep -q tmp
split-by-lang-compressed	0	empty	-	pc-ingest -q --split-by-lang out --split-suffix .jsonl.zst $SAMPLES/site && [ $(zstdcat out/ja.jsonl.zst | wc -l) = 13 ]
split-by-lang-low-fd-limit	0	empty	-	ulimit -n 16 && pc-ingest -q -j2 --split-by-lang out $SAMPLES/site $SAMPLES/site && [ $(wc -l < out/en.jsonl) = 14 ]
dedup-by-digest	0	-	~66 duplicate, 66 docs	pc-ingest $SAMPLES/site $SAMPLES/site > /dev/null
no-dedup	0	-	~132 docs	pc-ingest --no-dedup $SAMPLES/site $SAMPLES/site > /dev/null
threads-identical	0	empty	-	pc-ingest -q -j1 $SAMPLES/site > a && pc-ingest -q -j2 $SAMPLES/site > b && cmp a b && [ $(wc -l < a) -gt 60 ]
tar-and-zip	0	-	-	tar -C $SAMPLES/site -cf s.tar en fr && (cd $SAMPLES/site && python3 -c 'import zipfile,sys; z=zipfile.ZipFile(sys.argv[1],"w"); [z.write(f) for f in sys.argv[2:]]' $OLDPWD/s.zip de/index.html de/ch02-s1.html) && pc-ingest -q s.tar s.zip > d && [ $(grep -c '"lang":"fr"' d) = 13 ] && [ $(grep -c '"lang":"de"' d) = 2 ] && grep -q '"url":"s.tar!/en/index.html"' d
# The same documents, offsets included, from the plain, zstd and gzip WARC (only warc.file differs)
warc-roundtrip-gz-zst	0	-	-	zstd -q -c $DATA/ingest/charset.warc > c.warc.zst && gzip -c $DATA/ingest/charset.warc > c.warc.gz && pc-ingest -q --no-dedup $DATA/ingest/charset.warc > a && pc-ingest -q --no-dedup c.warc.zst > b && pc-ingest -q --no-dedup c.warc.gz > c && for f in a b c; do sed 's/"file":"[^"]*"/"file":"F"/' $f > $f.n; done && [ $(wc -l < a.n) = 4 ] && cmp a.n b.n && cmp a.n c.n

# Real pages (the Debian Reference as installed, 6 chapters in 4 languages, one folder = one host): a line the translations of a page share ('Password:'),
# the link cells of data tables (package names, popcon columns, the encodings table's key column) and lines repeated inside the content ('Tip') stay;
# the tables of contents' headings, repeated beside dropped links on every chapter, go
debian-reference-shared-lines-kept	0	~^ok$	-	mkdir dr && for l in en fr de zh-cn; do for c in ch01 ch02 ch03 ch04 ch11 ch12; do cp /usr/share/debian-reference/$c.$l.html dr/; done; done && pc-ingest -q dr | python3 -c 'import json,sys; d={json.loads(l)["url"].split("/")[-1]: json.loads(l)["text"].split(chr(10)) for l in sys.stdin}; assert all("Password:" in d["ch01.%s.html" % l] for l in ("en","fr","de","zh-cn")), "Password:"; en2=d["ch02.en.html"]; assert "dpkg" in en2 and "V:919, I:999" in en2 and "popcon" in en2, "package table"; assert "ASCII" in d["ch11.zh-cn.html"] and "CP850" in d["ch11.zh-cn.html"], "encodings table"; assert "Tip" in d["ch01.en.html"]; assert "Table of Contents" not in d["ch01.en.html"] and "Table des mati\u00e8res" not in d["ch01.fr.html"], "toc"; print("ok")'

# Only response records are pages: wget's own WARC holds its MANIFEST.txt (metadata record), wget_arguments.txt and wget.log (resource records), which became documents
wget-warc-metadata-not-documents	0	!metadata://	~10 records, 4 not a response, 1 MIME type not kept, 1 WARC metadata record, 2 WARC resource record, 2 docs, 1 docs de, 1 docs fr	pc-ingest $DATA/ingest/wget.warc.gz
# --warc-resources: resource records of HTML are pages too, others still are not
warc-resources-html-only	0	~"url":"http://h/page.html"	~2 records, 1 WARC resource record, 1 docs	printf 'WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://h/page.html\r\nContent-Type: text/html\r\nContent-Length: 95\r\n\r\n<p>Le renard brun rapide saute par-dessus le chien paresseux et court dans la grande foret.</p>\r\n\r\nWARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://h/notes.txt\r\nContent-Type: text/plain\r\nContent-Length: 65\r\n\r\nLe renard brun rapide saute par-dessus le chien paresseux encore.\r\n\r\n' > r.warc && pc-ingest --warc-resources r.warc
warc-resources-not-by-default	0	empty	~2 records, 2 WARC resource record, 0 docs	printf 'WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://h/page.html\r\nContent-Type: text/html\r\nContent-Length: 95\r\n\r\n<p>Le renard brun rapide saute par-dessus le chien paresseux et court dans la grande foret.</p>\r\n\r\nWARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://h/notes.txt\r\nContent-Type: text/plain\r\nContent-Length: 65\r\n\r\nLe renard brun rapide saute par-dessus le chien paresseux encore.\r\n\r\n' > r.warc && pc-ingest r.warc

# CLD2's full tables: 15 languages of the gettext catalogues the Chrome tables do not know (they gave 14 und and 1 az)
cld2-full-tables-languages	0	-	~15 docs, 1 docs br, 1 docs eo, 1 docs fo, 1 docs gv, 1 docs mi, 1 docs mn, 1 docs oc, 1 docs ps, 1 docs so, 1 docs tk, 1 docs tt, 1 docs ug, 1 docs xh, 1 docs yo, 1 docs zu;	pc-ingest $DATA/ingest/cld2-full -o /dev/null

# --- charsets: ISO-8859-1 and Shift-JIS, with and without a charset header ---
latin1-with-header	0	~Le café crème de Noël coûte trois euros	-	pc-ingest --no-dedup $DATA/ingest/charset.warc | grep latin1-header
latin1-without-header	0	~Le café crème de Noël coûte trois euros	-	pc-ingest --no-dedup $DATA/ingest/charset.warc | grep latin1-none
sjis-with-header	0	~"charset":"shift_jis".*|日本語のテキストです。これは文字コード	-	pc-ingest --no-dedup $DATA/ingest/charset.warc | grep sjis-header | grep '"lang":"ja"'
sjis-without-header	0	~日本語のテキストです。これは文字コードの検出	-	pc-ingest --no-dedup $DATA/ingest/charset.warc | grep sjis-none | grep '"lang":"ja"'
# A symbolic link in a folder may point anywhere (x.txt -> /etc/passwd): skipped and counted unless --follow-symlinks
folder-symlink-skipped	0	!(secret|root:)	~4 records, 3 symlink not followed, 1 docs	mkdir -p d/sub outside && cp $DATA/ingest/latin1.html d/a.html && printf 'Ce texte secret se trouve hors du dossier lu et ne doit pas devenir un document.\n' > outside/secret.txt && ln -s ../outside/secret.txt d/x.txt && ln -s /etc/passwd d/passwd.txt && ln -s ../../outside d/sub/link && pc-ingest d
folder-symlink-follow	0	~"url":"d/sub/link/secret.txt".*"text":"Ce texte secret	~3 records, 3 docs	mkdir -p d/sub outside && cp $DATA/ingest/latin1.html d/a.html && printf 'Ce texte secret se trouve hors du dossier lu et ne doit pas devenir un document.\n' > outside/secret.txt && ln -s ../outside/secret.txt d/x.txt && ln -s /etc/passwd d/passwd.txt && ln -s ../../outside d/sub/link && rm d/passwd.txt && pc-ingest --follow-symlinks --no-dedup d
latin1-file-detected	0	~"lang":"fr".*Le café crème	-	pc-ingest $DATA/ingest/latin1.html
sjis-file-detected	0	~"lang":"ja".*東京都の天気は晴れ	-	pc-ingest $DATA/ingest/sjis.html
all-valid-utf8	0	empty	-	pc-ingest -q --no-dedup $DATA/ingest/charset.warc $DATA/ingest/*.html 2>/dev/null | iconv -f UTF-8 -t UTF-8 > /dev/null; pc-ingest -q --no-dedup $DATA/ingest/charset.warc | python3 -c 'import sys; t=sys.stdin.buffer.read().decode("utf-8"); assert "\ufffd" not in t and "Ã" not in t'

# --- bad input: a clear message, a count, exit 1; --skip-bad continues ---
truncated-warc-gz	1	empty	~truncated.warc.gz: truncated gzip data.*--skip-bad	pc-ingest $DATA/ingest/truncated.warc.gz -o out.jsonl; r=$?; [ ! -e out.jsonl ] || exit 97; exit $r
truncated-warc-gz-skip	0	-	~1 bad \(skipped\)	pc-ingest --skip-bad $DATA/ingest/truncated.warc.gz
truncated-warc-zst	1	empty	~t\.warc\.zst: truncated zstd data	zstd -q -c $DATA/ingest/charset.warc > full && head -c 300 full > t.warc.zst && pc-ingest t.warc.zst
wrong-content-length	1	empty	~wrong-length.warc: record 2: wrong Content-Length \(326\)	pc-ingest $DATA/ingest/wrong-length.warc
wrong-content-length-skip	0	~example.org/three	~3 records, 1 bad \(skipped\), 2 docs	pc-ingest --skip-bad $DATA/ingest/wrong-length.warc
gzip-bomb-body	1	empty	~bomb.warc: record 1 \(http://example.org/bomb\): the decoded body is over the size limit	pc-ingest --max-size 1M $DATA/ingest/bomb.warc
gzip-bomb-body-skip	0	empty	~1 records, 1 bad \(skipped\), 0 docs	pc-ingest --skip-bad --max-size 1M $DATA/ingest/bomb.warc
html-100mb	1	empty	~big.html: 100000000 bytes is over the size limit	head -c 100000000 /dev/zero | tr '\0' a > big.html && pc-ingest big.html
html-100mb-skip	0	~"lang":"fr"	~2 records, 1 bad \(skipped\), 1 docs	head -c 100000000 /dev/zero | tr '\0' a > big.html && pc-ingest --skip-bad big.html $DATA/ingest/latin1.html
binary-garbage	1	empty	~garbage.bin: not a WARC file, a tar or zip archive	pc-ingest $DATA/ingest/garbage.bin
binary-garbage-skip	0	-	~2 records, 1 bad \(skipped\), 1 docs	pc-ingest --skip-bad $DATA/ingest/garbage.bin $DATA/ingest/sjis.html
nesting-bomb	1	empty	~deep.html: HTML nested more than 10000 elements deep	python3 -c "print('<div>' * 20000 + 'x')" > deep.html && pc-ingest deep.html
nesting-bomb-skip	0	~"lang":"fr"	~2 records, 1 bad \(skipped\), 1 docs	python3 -c "print('<div>' * 20000 + 'x')" > deep.html && pc-ingest --skip-bad deep.html $DATA/ingest/latin1.html
# A million nested <q> (3 MB) and 100,000 nested table cells overflowed the stack in gumbo: every element left open counts
nesting-bomb-any-tag	1	empty	~deep.warc.gz: record 1 \(http://deep.test/q\): HTML nested more than 10000 elements deep	python3 -c 'import gzip,sys; R=lambda u,b: (lambda h: ("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://deep.test/%s\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:%s>\r\nContent-Type: application/http;msgtype=response\r\nContent-Length: %d\r\n\r\n" % (u, u, len(h))).encode() + h + b"\r\n\r\n")(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + b); sys.stdout.buffer.write(b"".join(gzip.compress(R(u, b)) for u, b in (("q", b"<q>" * 1000000 + b"x"), ("td", b"<table><tr><td>" * 100000 + b"x"), ("ok", b"<p>Le renard brun rapide saute par-dessus le chien paresseux et court dans la foret.</p>"))))' > deep.warc.gz && pc-ingest deep.warc.gz
nesting-bomb-any-tag-skip	0	~"url":"http://deep.test/ok"	~3 records, 2 bad \(skipped\), 1 docs	python3 -c 'import gzip,sys; R=lambda u,b: (lambda h: ("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://deep.test/%s\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:%s>\r\nContent-Type: application/http;msgtype=response\r\nContent-Length: %d\r\n\r\n" % (u, u, len(h))).encode() + h + b"\r\n\r\n")(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + b); sys.stdout.buffer.write(b"".join(gzip.compress(R(u, b)) for u, b in (("q", b"<q>" * 1000000 + b"x"), ("td", b"<table><tr><td>" * 100000 + b"x"), ("ok", b"<p>Le renard brun rapide saute par-dessus le chien paresseux et court dans la foret.</p>"))))' > deep.warc.gz && pc-ingest --skip-bad deep.warc.gz
binary-named-html	1	empty	~garbage.html: binary data	cp $DATA/ingest/garbage.bin garbage.html && pc-ingest garbage.html
nul-bytes	1	empty	~nul.html: binary data \(NUL bytes\)	pc-ingest $DATA/ingest/nul.html
invalid-utf8-html	0	~"text":"caf.* au lait .* long enough words here"	-	printf '<html><body><p>caf\xc3 au lait \xff\xfe long enough words here</p></body></html>' > bad.html && pc-ingest bad.html > out.jsonl && iconv -f UTF-8 -t UTF-8 out.jsonl > /dev/null && cat out.jsonl
# WARC records broken in their header, and a record whose body holds a NUL byte
warc-huge-header-line	1	empty	~h\.warc: WARC header line longer than 1 MiB	{ printf 'WARC/1.0\r\nWARC-Target-URI: '; head -c 2000000 /dev/zero | tr '\0' a; printf '\r\n'; } > h.warc && pc-ingest h.warc
warc-huge-header-line-skip	0	empty	~1 records, 1 bad \(skipped\), 0 docs	{ printf 'WARC/1.0\r\nWARC-Target-URI: '; head -c 2000000 /dev/zero | tr '\0' a; printf '\r\n'; } > h.warc && pc-ingest --skip-bad h.warc
warc-truncated-header	1	empty	~th\.warc: record 1: truncated in its header	printf 'WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 5\r\n' > th.warc && pc-ingest th.warc
warc-nul-body	1	empty	~n\.warc: record 1 \(http://example\.org/n\): binary data \(NUL bytes\)	python3 -c 'import sys; b=b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>caf\x00 au lait</p>"; sys.stdout.buffer.write(b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://example.org/n\r\nContent-Length: %d\r\n\r\n" % len(b) + b + b"\r\n\r\n")' > n.warc && pc-ingest n.warc
# --skip-bad always moves forward: a bad header after a good record, or bytes that only look like record starts, end the run (timeout: the reader once found the same record again forever)
warc-bad-header-after-good-skip-plain	0	empty	~2 records, .*1 bad \(skipped\)	printf 'WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://h/a.txt\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nHello.\r\n\r\nWARC/1.1\r\nWARC-Type: resource\r\nContent-Length: x\r\n\r\nabc\r\n\r\n' > gb.warc && timeout 20 pc-ingest --skip-bad gb.warc
warc-bad-header-after-good-skip-gzip	0	empty	~2 records, .*1 bad \(skipped\)	printf 'WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://h/a.txt\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nHello.\r\n\r\nWARC/1.1\r\nWARC-Type: resource\r\nContent-Length: x\r\n\r\nabc\r\n\r\n' > gb.warc && gzip gb.warc && timeout 20 pc-ingest --skip-bad gb.warc.gz
warc-bad-header-after-good-skip-zstd	0	empty	~2 records, .*1 bad \(skipped\)	printf 'WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://h/a.txt\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nHello.\r\n\r\nWARC/1.1\r\nWARC-Type: resource\r\nContent-Length: x\r\n\r\nabc\r\n\r\n' > gb.warc && zstd -q --rm gb.warc && timeout 20 pc-ingest --skip-bad gb.warc.zst
warc-bad-header-after-good-skip-stdin	0	empty	~2 records, .*1 bad \(skipped\)	printf 'WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://h/a.txt\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nHello.\r\n\r\nWARC/1.1\r\nWARC-Type: resource\r\nContent-Length: x\r\n\r\nabc\r\n\r\n' > gb.warc && timeout 20 pc-ingest --skip-bad < gb.warc
warc-bad-header-after-good	1	empty	~gb\.warc: record 2: bad Content-Length 'x'	printf 'WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://h/a.txt\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nHello.\r\n\r\nWARC/1.1\r\nWARC-Type: resource\r\nContent-Length: x\r\n\r\nabc\r\n\r\n' > gb.warc && timeout 20 pc-ingest gb.warc
warc-14-bytes-skip	0	empty	~2 records, 2 bad \(skipped\), 0 docs	printf 'WARC/\nWARC/1.1' > w.warc && timeout 20 pc-ingest --skip-bad w.warc
warc-14-bytes-skip-stdin-gzip	0	empty	~2 records, 2 bad \(skipped\), 0 docs	printf 'WARC/\nWARC/1.1' | gzip | timeout 20 pc-ingest --skip-bad
# A Content-Length is never allocated up front: 10 GB declared in a short file is a truncation error in bounded memory (ulimit -v: not under the sanitizers)
warc-content-length-10G-short	1	empty	~big\.warc: record 1: truncated: Content-Length is 10000000000 but only 9 bytes follow	printf 'WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 10000000000\r\n\r\nshort\r\n\r\n' > big.warc && { [ -n "$PC_ASAN" ] || ulimit -v 2000000; } && pc-ingest --max-size 100G big.warc
# A SIGKILLed run leaves its temporary; the next run that writes the same name removes it and writes the right file
sigkill-then-rerun-removes-stale-temporary	0	empty	-	pc-ingest -o out.jsonl < <(cat $DATA/ingest/charset.warc; sleep 5) & for i in $(seq 100); do ls -A | grep -q "^\.out\.[a-z]*\.tmp-" && break; sleep 0.1; done; kill -KILL $!; wait $!; ls -A | grep -q "^\.out\.[a-z]*\.tmp-" || exit 96; pc-ingest -q $DATA/ingest/charset.warc -o out.jsonl && [ -z "$(ls -A | grep tmp-)" ] || { ls -A >&2; exit 97; } && pc-ingest -q $DATA/ingest/charset.warc | cmp - out.jsonl
# each document's warc.offset is where its record's version line starts in the decompressed WARC (it was one byte past it)
warc-offset-at-record-start	0	-	-	pc-ingest -q $DATA/ingest/charset.warc > p.jsonl && gzip -c $DATA/ingest/charset.warc > c.warc.gz && pc-ingest -q c.warc.gz > g.jsonl && /usr/bin/python3 -c 'import json,sys; d=open(sys.argv[1],"rb").read(); ws=[json.loads(l)["warc"] for f in sys.argv[2:] for l in open(f)]; assert len(ws)==4 and all(d[w["offset"]:w["offset"]+5]==b"WARC/" for w in ws), ws' $DATA/ingest/charset.warc p.jsonl g.jsonl
