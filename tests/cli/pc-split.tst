# pc-split golden tests: NAME <TAB> EXIT <TAB> STDOUT <TAB> STDERR <TAB> COMMAND
# (format: see run-golden.sh). Fixtures are in tests/data/split ($DATA/split).

# --- conventions: help, usage errors ---
help-stdout	0	~^Usage:   pc-split	empty	pc-split --help
help-golden	0	@pc-split.help	empty	taskset -c 0 pc-split -h
help-table	0	~^\t--normalize\tSTEPS\t	empty	pc-split --help-table
unknown-option	2	empty	~^pc-split: unrecognised option '--bogus'	pc-split --bogus
bad-format	2	empty	~--format must be text, jsonl or auto, not 'xml'	pc-split --format xml $DATA/split/mixed.txt
bad-normalize-step	2	empty	~unknown normalisation step 'nfd'.*the steps are nfc, nfkc	pc-split --normalize nfc,nfd $DATA/split/mixed.txt
min-above-max	2	empty	~--min-length 50 is above --max-length 10	pc-split --min-length 50 --max-length 10 $DATA/split/mixed.txt
missing-input	1	empty	~^pc-split: nofile.txt: No such file or directory	pc-split nofile.txt
two-inputs	2	empty	~one input file at a time	pc-split $DATA/split/mixed.txt $DATA/split/mixed.txt
stdin-terminal-usage	2	empty	~no input given and stdin is a terminal	script -qec 'pc-split -l en' /dev/null | tr -d '\r' >&2; exit ${PIPESTATUS[0]}
bad-prefix-list	1	-	~bad/en.txt:1: unknown directive '%oops'	mkdir bad && echo '%oops' > bad/en.txt && pc-split -l en --prefix-dir bad $DATA/split/mixed.txt

# --- splitting ---
text-golden	0	@split-mixed.txt	~4 paragraphs, 11 sentences	pc-split -l en $DATA/split/mixed.txt
keep-paragraphs	0	@split-mixed-paras.txt	-	pc-split -q -l en --keep-paragraphs $DATA/split/mixed.txt
no-lang-splits-after-abbreviations	0	~^Smith went to Washington\.$	-	pc-split -q $DATA/split/mixed.txt
icu-only-baseline	0	~^Dr\.$	-	pc-split -q -l en --icu-only $DATA/split/mixed.txt
german-ordinals-crlf	0	~^Am 3\. Oktober 1990 kam z\.B\. Herr Dr\. Müller\.$	-	! pc-split -q -l de $DATA/split/de-crlf.txt | grep -q $'\r' && pc-split -q -l de $DATA/split/de-crlf.txt
jsonl-golden	0	@split-docs.jsonl	~4 documents, 6 paragraphs, 10 sentences	pc-split -l en $DATA/split/docs.jsonl
jsonl-forced-format	0	~"sentences":\["One\.","Two\."\]	-	printf '  {"url":"u","lang":"en","text":"One. Two."}\n' | pc-split -q --format jsonl
text-and-jsonl-agree	0	empty	-	cut -f1 $SAMPLES/bitext/en-de.tsv | tail -n +2 | paste -d' ' - - - > p.txt && pc-split -q -l en --keep-paragraphs p.txt > a.txt && /usr/bin/python3 -c 'import json,sys; [print(json.dumps({"url":"u","lang":"en","text":l.rstrip("\n")})) for l in open("p.txt")]' > p.jsonl && pc-split -q p.jsonl | /usr/bin/python3 -c 'import json,sys; print("\n\n".join("\n".join(json.loads(l)["sentences"]) for l in sys.stdin))' | cmp - a.txt
threads-identical	0	empty	-	for i in 1 2 3 4 5 6; do for l in de es fr ja ru; do cut -f2 $SAMPLES/bitext/en-$l.tsv | paste -d' ' - - -; done; done > big.txt && pc-split -q -j1 -l de big.txt > a && pc-split -q -j2 -l de big.txt > b && cmp a b && [ $(wc -l < a) -gt $(wc -l < big.txt) ]
threads-identical-jsonl	0	empty	-	for i in 1 2 3 4 5 6 7 8; do cat $DATA/split/docs.jsonl; done > d.jsonl && for i in 1 2 3 4 5 6 7 8; do cat d.jsonl; done > big.jsonl && pc-split -q -j1 big.jsonl > a && pc-split -q -j2 big.jsonl > b && cmp a b
max-length-bounds-sentences	0	empty	-	pc-split -q -l en --max-length 30 $DATA/split/mixed.txt | awk 'length($0) > 30 { exit 1 }'
min-length-joins	0	~^Wait… Then I left\.$	-	pc-split -q -l en --min-length 20 $DATA/split/mixed.txt
prefix-dir-replaces-list	0	~^Foo\. Bar\.$	-	echo 'Foo. Bar. Dr. Baz.' | pc-split -q -l en --prefix-dir $DATA/split/prefixes
data-dir-env	0	~^Foo\. Bar\.$	-	mkdir -p d/nonbreaking && cp $DATA/split/prefixes/en.txt d/nonbreaking/ && echo 'Foo. Bar.' | PARACORP_DATA_DIR=d pc-split -q -l en
normalize-chain	0	@split-norm.txt	~1 paragraphs normalised	pc-split -l en --normalize=mojibake,entities,ws,punct $DATA/split/norm.txt
normalize-rewrites-jsonl-text	0	~"text":"café"	-	printf '{"url":"u","lang":"fr","text":"caf\xc3\x83\xc2\xa9"}\n' | pc-split -q --normalize mojibake
compressed-in-and-out	0	empty	-	gzip -c $DATA/split/mixed.txt > m.txt.gz && pc-split -q -l en m.txt.gz -o out.zst && zstdcat out.zst | cmp - $EXPECTED/split-mixed.txt
meta-records-counts	0	empty	-	pc-split -q -l en $DATA/split/mixed.txt --meta m.json > /dev/null && grep -q '"sentences": *11' m.json

# --- bad input ---
invalid-utf8-line-and-byte	1	-	~^pc-split: .*bad-utf8.txt:2: invalid UTF-8 at byte 5 \(\\xff\) — repair it with --skip-bad	pc-split -l en $DATA/split/bad-utf8.txt -o out.txt; r=$?; [ ! -e out.txt ] || exit 97; exit $r
invalid-utf8-repaired	0	~^Bad � byte\.$	~1 lines repaired \(bad UTF-8\)	pc-split -l en --skip-bad $DATA/split/bad-utf8.txt
nul-byte	1	-	~nul.txt:2: NUL byte at byte 5	pc-split -l en $DATA/split/nul.txt
nul-byte-removed	0	~^NUL  here\.$	-	pc-split -q -l en --skip-bad $DATA/split/nul.txt
jsonl-bad-document	1	-	~bad.jsonl:2: not valid JSON	pc-split $DATA/split/bad.jsonl
jsonl-number-overflow	1	empty	~^pc-split: <stdin>:2: not valid JSON \(number overflow parsing '1e999'\)	printf '{"url":"a","lang":"en","text":"One."}\n{"url":"b","lang":"en","text":"Two.","n":1e999}\n' | pc-split --format jsonl
jsonl-bad-document-skipped	0	~"sentences":\["One\.","Two\."\]	~1 documents skipped \(bad\)	pc-split --skip-bad $DATA/split/bad.jsonl
jsonl-invalid-utf8	1	-	~x.jsonl:1: invalid UTF-8 at byte 37	printf '{"url":"u","lang":"en","text":"One. \xff Two."}\n' > x.jsonl && pc-split x.jsonl
jsonl-invalid-utf8-repaired	0	~"sentences":\["One\.","� Two\."\]	~1 lines repaired	printf '{"url":"u","lang":"en","text":"One. \xff Two."}\n' | pc-split --skip-bad
para-langs-mismatch	1	-	~"para_langs" has 1 entries but "text" has 2 paragraphs	pc-split $DATA/split/para-langs-mismatch.jsonl
empty-input	0	empty	~0 paragraphs, 0 sentences	pc-split -l en /dev/null
empty-lines	0	empty	-	printf '\n\n' | pc-split -q -l en
truncated-gzip	1	-	~t\.txt\.gz: truncated gzip data	for i in 1 2 3 4 5 6 7 8; do cat $DATA/split/mixed.txt; done | gzip > full.gz && head -c 100 full.gz > t.txt.gz && pc-split -q -l en t.txt.gz
huge-line-bounded	0	empty	-	{ yes 'A sentence is here. Another one, with words' || true; } | head -c 12000000 | tr '\n' ' ' > big.txt && echo >> big.txt && pc-split -q -l en big.txt > out && awk 'length($0) > 4096 { exit 1 }' out && [ $(tr -d ' \n' < out | wc -c) = $(tr -d ' \n' < big.txt | wc -c) ]
huge-word-cut-at-char-boundary	0	empty	-	/usr/bin/python3 -c 'print("\u4e2d" * 3000000)' > cjk.txt && pc-split -q -l zh --max-length 1000 cjk.txt > out && awk 'length($0) > 1000 { exit 1 }' out && iconv -f UTF-8 -t UTF-8 out > /dev/null && [ $(tr -d '\n' < out | wc -c) = 9000000 ]
# More bad input: truncated zstd; JSONL with a raw NUL, empty JSONL, and one 6 MB JSONL line (500,000 sentences)
truncated-zst	1	-	~t\.txt\.zst: truncated zstd data	zstd -q -c $DATA/split/mixed.txt > full && head -c 100 full > t.txt.zst && pc-split -q -l en t.txt.zst
jsonl-nul	1	empty	~x\.jsonl:1: NUL byte in a JSON line	printf '{"url":"u","lang":"en","text":"a\0b"}\n' > x.jsonl && pc-split x.jsonl
jsonl-empty	0	empty	~0 documents, 0 paragraphs, 0 sentences	pc-split --format jsonl < /dev/null
jsonl-huge-line	0	empty	-	python3 -c 'import json; print(json.dumps({"url":"u","lang":"en","text":"A sentence. "*500000}))' > big.jsonl && pc-split -q big.jsonl | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); assert len(d["sentences"]) == 500000 and d["sentences"][-1] == "A sentence.", len(d["sentences"])'
# "sentences" and "sent_para" an input document already has keep their places (the tree path); new ones go last
jsonl-existing-keys-keep-places	0	~^\{"url":"u","sentences":\["One\.","Two\."\],"lang":"en","text":"One\. Two\.","sent_para":\[0,0\]\}$	-	printf '{"url":"u","sentences":[1],"lang":"en","text":"One. Two."}\n{"url":"w","lang":"en","text":""}\n' | pc-split --format jsonl > o && grep -qx '{"url":"w","lang":"en","text":"","sentences":\[\],"sent_para":\[\]}' o && cat o
# JSON nested past 1000 levels is a bad document (a 10,000-deep value once overflowed the writer's stack), at the limit it passes through untouched
jsonl-nested-10000	1	-	~^pc-split: d\.jsonl:1: JSON nested more than 1000 levels deep — 	python3 -c 'import sys; d=int(sys.argv[1]); print("{\"url\":\"u\",\"lang\":\"en\",\"text\":\"Hi.\",\"x\":" + "["*d + "]"*d + "}"); print("{\"url\":\"v\",\"lang\":\"en\",\"text\":\"Yes. No.\"}")' 10000 > d.jsonl && pc-split d.jsonl
jsonl-nested-10000-skipped	0	~"sentences":\["Yes\.","No\."\]	~1 documents skipped \(bad\)	python3 -c 'import sys; d=int(sys.argv[1]); print("{\"url\":\"u\",\"lang\":\"en\",\"text\":\"Hi.\",\"x\":" + "["*d + "]"*d + "}"); print("{\"url\":\"v\",\"lang\":\"en\",\"text\":\"Yes. No.\"}")' 10000 | pc-split --skip-bad
jsonl-nested-100000-skipped	0	~"sentences":\["Yes\.","No\."\]	~1 documents skipped \(bad\)	python3 -c 'import sys; d=int(sys.argv[1]); print("{\"url\":\"u\",\"lang\":\"en\",\"text\":\"Hi.\",\"x\":" + "["*d + "]"*d + "}"); print("{\"url\":\"v\",\"lang\":\"en\",\"text\":\"Yes. No.\"}")' 100000 | pc-split --skip-bad
jsonl-nested-999-kept	0	empty	-	python3 -c 'import sys; d=int(sys.argv[1]); print("{\"url\":\"u\",\"lang\":\"en\",\"text\":\"Hi.\",\"x\":" + "["*d + "]"*d + "}"); print("{\"url\":\"v\",\"lang\":\"en\",\"text\":\"Yes. No.\"}")' 999 > d.jsonl && pc-split -q d.jsonl | head -1 | grep -c "\"x\":\[\{999\}\]\{999\},\"sentences\":\[\"Hi\.\"\]" | grep -qx 1
# Every error is one line: a U+2028 or a control byte in the JSON excerpt of the message is escaped
jsonl-error-excerpt-one-line	1	-	~^pc-split: <stdin>:1: not valid JSON \(.*last read: .*u\\u2028x	printf '{"url":"u\xe2\x80\xa8x\n' | pc-split --format jsonl 2>e; r=$?; cat e >&2; grep -q "$(printf '\xe2\x80\xa8')" e && exit 99; exit $r
# A SIGKILLed run leaves its temporary; the next run that writes the same name removes it and writes the right file
sigkill-then-rerun-removes-stale-temporary	0	empty	-	pc-split -l en -o out.txt < <(yes 'One. Two.' | head -n 400000; sleep 5) & for i in $(seq 100); do ls -A | grep -q "^\.out\.[a-z]*\.tmp-" && break; sleep 0.1; done; kill -KILL $!; wait $!; ls -A | grep -q "^\.out\.[a-z]*\.tmp-" || exit 96; pc-split -q -l en $DATA/split/mixed.txt -o out.txt && [ -z "$(ls -A | grep tmp-)" ] || { ls -A >&2; exit 97; } && pc-split -q -l en $DATA/split/mixed.txt | cmp - out.txt
# A 1 GB JSONL text stops at --max-line (32M) in bounded memory (it ran out of memory past 4 GB); --skip-bad skips and counts it
jsonl-text-1GB-bounded	1	empty	~^pc-split: <stdin>:2: line longer than 33554432 bytes — raise --max-line or fix the input$	{ printf '{"url":"u","lang":"en","text":"One. Two."}\n{"url":"u","lang":"en","text":"'; head -c 1000000000 /dev/zero | tr '\0' a; printf '"}\n'; } | ([ -n "$PC_ASAN" ] || ulimit -v 1500000; pc-split --format jsonl -o out.jsonl); r=$?; [ ! -e out.jsonl ] || exit 97; exit $r
jsonl-text-1GB-skip-bad-bounded	0	empty	~1 documents, .* 1 documents skipped \(bad\)	{ printf '{"url":"u","lang":"en","text":"'; head -c 1000000000 /dev/zero | tr '\0' a; printf '"}\n{"url":"u","lang":"en","text":"One. Two."}\n'; } | ([ -n "$PC_ASAN" ] || ulimit -v 1500000; pc-split --format jsonl --skip-bad -o out.jsonl) && grep -q '"sentences":\["One.","Two."\]' out.jsonl
text-lines-are-not-limited-by-max-line	0	empty	-	head -c 3000000 /dev/zero | tr '\0' a | pc-split -q -l en --max-line 1000 | tr -d '\n' | wc -c | grep -qx 3000000
