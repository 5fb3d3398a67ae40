# pc-docalign golden tests: NAME <TAB> EXIT <TAB> STDOUT <TAB> STDERR <TAB> COMMAND
# (format: see run-golden.sh). Real data: the sample site's pages read by
# pc-ingest from data/samples/site (13 pages per language, plus an English
# /private/ page), scored by $DATA/docalign/site_pairs.py; models trained on
# the catalogue bitext $SAMPLES/bitext (no sample-site text).

# --- conventions: help, usage errors ---
help-stdout	0	~^Usage:   pc-docalign	empty	pc-docalign --help
help-table	0	~^\t--method\tM\t	empty	pc-docalign --help-table
no-langs	2	empty	~give both languages: -s SRC -t TRG	pc-docalign x.jsonl
same-langs	2	empty	~-s and -t are the same language \(en\)	pc-docalign -s en -t EN x.jsonl
three-inputs	2	empty	~one mixed stream or two files, not more	pc-docalign -s en -t fr a b c
two-stdin	2	empty	~only one of the two inputs can be stdin	pc-docalign -s en -t fr - -
embed-needs-encoder	2	empty	~--content embed needs --encoder MODEL	pc-docalign -s en -t fr --content embed x.jsonl
bad-method	2	empty	~--method must be both, url or content, not 'all'	pc-docalign -s en -t fr --method all x.jsonl
missing-input	1	empty	~^pc-docalign: nofile.jsonl: No such file or directory	pc-docalign -s en -t fr nofile.jsonl
stdin-terminal-usage	2	empty	~no input given and stdin is a terminal	script -qec 'pc-docalign -s en -t fr' /dev/null | tr -d '\r' >&2; exit ${PIPESTATUS[0]}

# --- the sample site: every chapter pair by URL, and by content alone ---
site-url-every-chapter	0	~^pairs 13 correct 13 url 13 content 0 precision 1.000 recall 1.000$	empty	pc-ingest -q $SAMPLES/site > d.jsonl && for l in de es fr ja; do pc-docalign -q -s en -t $l d.jsonl > p.$l && $DATA/docalign/site_pairs.py p.$l; done > r && [ $(sort -u r | wc -l) = 1 ] && [ $(wc -l < r) = 4 ] && cat r
site-url-summary	0	-	~66 documents in, 39 other language, 27 split here, 14 en documents, 13 fr documents, 13 url pairs, 0 content pairs, 1 en unpaired, 0 fr unpaired	pc-ingest -q $SAMPLES/site | pc-docalign -s en -t fr
site-content-ibm1	0	~^pairs 13 correct 13 url 0 content 13 precision 1.000 recall 1.000$	empty	pc-ingest -q $SAMPLES/site > d.jsonl && for l in de es fr ja; do pc-ibm1 train -q -s en -t $l -o m.$l $SAMPLES/bitext/en-$l.tsv && pc-docalign -q -s en -t $l --method content --ibm1 m.$l d.jsonl > p.$l && $DATA/docalign/site_pairs.py p.$l; done > r && [ $(sort -u r | wc -l) = 1 ] && [ $(wc -l < r) = 4 ] && cat r
site-content-embed	0	~^pairs 13 correct 13 url 0 content 13 precision 1.000 recall 1.000$	empty	pc-ingest -q $SAMPLES/site > d.jsonl && for l in de es fr ja; do pc-embed train -q -s en -t $l --buckets 256 --char-buckets 128 -o e.$l $SAMPLES/bitext/en-$l.tsv && pc-docalign -q -s en -t $l --method content --encoder e.$l d.jsonl > p.$l && $DATA/docalign/site_pairs.py p.$l; done > r && [ $(sort -u r | wc -l) = 1 ] && [ $(wc -l < r) = 4 ] && cat r
site-content-untranslated-fr	0	~^pairs 12 correct 12 url 0 content 12	~content matching compares the words the documents share, untranslated	pc-ingest -q $SAMPLES/site | pc-docalign -s en -t fr --method content > p && $DATA/docalign/site_pairs.py p
pair-has-both-sentences	0	~^13 True True url en fr$	empty	pc-ingest -q $SAMPLES/site | pc-split -q | pc-docalign -q -s en -t fr | /usr/bin/python3 -c 'import json,sys; r=[json.loads(l) for l in sys.stdin]; print(len(r), all(len(d["src_sentences"]) > 0 and all(isinstance(s, str) for s in d["src_sentences"]) for d in r), all(len(d["trg_sentences"]) > 0 for d in r), r[0]["docalign_method"], r[0]["src_lang"], r[0]["trg_lang"]); assert list(r[0]) == ["src_url", "trg_url", "src_lang", "trg_lang", "src_sentences", "trg_sentences", "docalign_score", "docalign_method"]'
presplit-used-as-is	0	empty	!split here	pc-ingest -q $SAMPLES/site | pc-split -q > s.jsonl && pc-docalign -s en -t de s.jsonl > p 2> e && cat e >&2 && /usr/bin/python3 -c 'import json,sys; d={json.loads(l)["url"]: json.loads(l)["sentences"] for l in open("s.jsonl")}; [exit(1) for l in open("p") for r in [json.loads(l)] if r["src_sentences"] != d[r["src_url"]] or r["trg_sentences"] != d[r["trg_url"]]]'
two-files-equal-mixed	0	empty	empty	pc-ingest -q $SAMPLES/site > d.jsonl && grep -F '"lang":"en"' d.jsonl > en.jsonl && grep -F '"lang":"es"' d.jsonl > es.jsonl && pc-docalign -q -s en -t es en.jsonl es.jsonl > a && pc-docalign -q -s en -t es d.jsonl > b && cmp a b && [ $(wc -l < a) = 13 ]
threads-identical	0	empty	empty	pc-ingest -q $SAMPLES/site > d.jsonl && pc-ibm1 train -q -s en -t de -o m.st $SAMPLES/bitext/en-de.tsv && pc-embed train -q -s en -t de --buckets 256 --char-buckets 128 -o e.st $SAMPLES/bitext/en-de.tsv && for m in "--ibm1 m.st" "--encoder e.st" ""; do pc-docalign -q -j1 -s en -t de --method content --threshold 0 $m d.jsonl > a && pc-docalign -q -j2 -s en -t de --method content --threshold 0 $m d.jsonl > b && cmp a b && [ -s a ] || exit 1; done
ibm1-wrong-direction	2	empty	~m.st: the IBM1 model translates en -> fr, not fr -> en — train one with pc-ibm1 train -s fr -t en	pc-ibm1 train -q -s en -t fr -o m.st $SAMPLES/bitext/en-fr.tsv && pc-ingest -q $SAMPLES/site | pc-docalign -s fr -t en --ibm1 m.st
unused-model-warned	0	-	~--encoder is not used: content matching is --content tfidf	pc-ingest -q $SAMPLES/site | pc-docalign -s en -t fr --content tfidf --encoder not-opened.st > p && [ $(wc -l < p) = 13 ]
meta-inputs-and-counts	0	~^1 2 13$	empty	pc-ingest -q $SAMPLES/site > d.jsonl && grep -F '"lang":"en"' d.jsonl > en.jsonl && grep -F '"lang":"fr"' d.jsonl > fr.jsonl && pc-docalign -q -s en -t fr d.jsonl --meta m1.json > /dev/null && pc-docalign -q -s en -t fr en.jsonl fr.jsonl --meta m2.json > /dev/null && /usr/bin/python3 -c 'import json; a, b = (json.load(open(f)) for f in ("m1.json", "m2.json")); print(len(a["inputs"]), len(b["inputs"]), a["counts"]["url pairs"])'
compressed-output-to-file	0	empty	-	pc-ingest -q $SAMPLES/site | pc-docalign -q -s en -t ja -o p.jsonl.gz && [ $(zcat p.jsonl.gz | wc -l) = 13 ]

# --- bad input: a clear error with the line, or a count; nothing half-written ---
malformed-line-number	1	empty	~x.jsonl:2: not valid JSON \(column	printf '{"url":"a/en/x","lang":"en","text":"One."}\n{"url":\n' > x.jsonl && pc-docalign -s en -t fr x.jsonl -o out; r=$?; [ ! -e out ] || exit 97; exit $r
missing-key	1	empty	~x.jsonl:1: missing key "text"	printf '{"url":"a/en/x","lang":"en"}\n' > x.jsonl && pc-docalign -s en -t fr x.jsonl -o out; r=$?; [ ! -e out ] || exit 97; exit $r
sentences-not-strings	1	empty	~y.jsonl:2: key "sentences" must be an array of strings	printf '{"url":"a/fr/x","lang":"fr","text":"Un."}\n{"url":"a/fr/y","lang":"fr","text":"Un.","sentences":[1]}\n' > y.jsonl && printf '{"url":"a/en/x","lang":"en","text":"One."}\n' > x.jsonl && pc-docalign -s en -t fr x.jsonl y.jsonl -o out; r=$?; [ ! -e out ] || exit 97; exit $r
invalid-utf8	1	empty	~x.jsonl:1: not valid JSON .*ill-formed UTF-8	printf '{"url":"a/en/x","lang":"en","text":"One. \xff Two."}\n' > x.jsonl && pc-docalign -s en -t fr x.jsonl
nul-in-sentences	1	empty	~x.jsonl:1: NUL character in "sentences"	printf '{"url":"a/en/x","lang":"en","text":"t","sentences":["a\\u0000b"]}\n' > x.jsonl && pc-docalign -s en -t fr x.jsonl
nul-byte	1	empty	~x.jsonl:1: NUL byte in a JSON line	printf '{"url":"a/en/x","lang":"en","text":"a\0b"}\n' > x.jsonl && pc-docalign -s en -t fr x.jsonl
skip-bad-counts	0	~"trg_url": "a/fr/x"	~1 skipped \(bad\)	printf '{"url":"a/en/x","lang":"en","text":"One."}\n{"url":\n{"url":"a/fr/x","lang":"fr","text":"Un."}\n' | pc-docalign -s en -t fr --skip-bad
empty-input	1	empty	~the input has no en documents with sentences \(0 documents read\)	pc-docalign -s en -t fr /dev/null -o out; r=$?; [ ! -e out ] || exit 97; exit $r
empty-side	1	empty	~fr.jsonl has no fr documents with sentences \(1 documents read\) — give the -s file first	printf '{"url":"a/en/x","lang":"en","text":"One."}\n' > en.jsonl && : > fr.jsonl && pc-docalign -s en -t fr en.jsonl fr.jsonl
no-sentences-counted	0	~"src_url": "a/en/x"	~2 without sentences	printf '{"url":"a/en/x","lang":"en","text":"One."}\n{"url":"a/en/y","lang":"en","text":""}\n{"url":"a/fr/y","lang":"fr","text":"t","sentences":[]}\n{"url":"a/fr/x","lang":"fr","text":"Un."}\n' | pc-docalign -s en -t fr
max-line	1	empty	~x.jsonl:1: line longer than 100 bytes	printf '{"url":"a/en/x","lang":"en","text":"%0200d"}\n' 0 > x.jsonl && pc-docalign -s en -t fr --max-line 100 x.jsonl
truncated-gzip	1	empty	~x.jsonl.gz	pc-ingest -q $SAMPLES/site | gzip -c > full.gz && head -c 20000 full.gz > x.jsonl.gz && pc-docalign -s en -t fr x.jsonl.gz -o out; r=$?; [ ! -e out ] || exit 97; exit $r
