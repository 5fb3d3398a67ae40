# pc-align golden tests: NAME <TAB> EXIT <TAB> STDOUT <TAB> STDERR <TAB> COMMAND
# (format: see run-golden.sh). The encoder is trained in the row on
# $SAMPLES/bitext/en-de.tsv with small blocks (176 dimensions, under a second);
# $DATA/sentalign/pairs.jsonl holds three edited document pairs of that text
# with their gold (make-fixtures.py): deletions on both sides, 2-1 and 1-2.

# --- conventions ---
help-stdout	0	~^Usage:   pc-align	empty	pc-align --help
embedding-needs-encoder	2	empty	~--method embedding needs --encoder MODEL	pc-align --method embedding $DATA/sentalign/pairs.jsonl
bad-deletion	2	empty	~--deletion: bad deletion penalty 'percentile:7'	pc-align --deletion percentile:7 $DATA/sentalign/pairs.jsonl
bad-max-bead	2	empty	~--max-bead	pc-align --max-bead 9 $DATA/sentalign/pairs.jsonl
not-an-encoder	1	empty	~pairs\.jsonl	pc-align --encoder $DATA/sentalign/pairs.jsonl $DATA/sentalign/pairs.jsonl

# --- output ---
tsv-header	0	~^src_url\ttrg_url\tsrc_text\ttrg_text\talign_score$	-	cached m.st pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && pc-align -q --encoder m.st $DATA/sentalign/pairs.jsonl | head -1
tsv-rows	0	~^http://example\.com/en/doc0\.html\thttp://example\.com/de/doc0\.html\t[^\t]+\t[^\t]+\t0\.[0-9]{6}$	~3 document pairs, 58 source sentences, 57 target sentences, 55 aligned beads, 2 source sentences deleted, 1 target sentences deleted, 0 pairs with an empty side	cached m.st pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && pc-align --encoder m.st $DATA/sentalign/pairs.jsonl
vecalign-format	0	~^\[9, 10\]:\[8\]:0\.[0-9]{6}$	-	cached m.st pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && pc-align -q --encoder m.st --format vecalign $DATA/sentalign/pairs.jsonl
vecalign-deletions	0	~^\[4\]:\[\]:0\.000000$	-	cached m.st pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && pc-align -q --encoder m.st --format vecalign $DATA/sentalign/pairs.jsonl
embedding-gold	0	~^strict\t1\.0000\t1\.0000\t1\.0000$	-	cached m.st pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && pc-align -q --encoder m.st --format vecalign $DATA/sentalign/pairs.jsonl | awk -v RS= '{ print > ("t." (NR-1) ".txt") }' && pc-eval align -g $DATA/sentalign/gold.0.txt -g $DATA/sentalign/gold.1.txt -g $DATA/sentalign/gold.2.txt t.0.txt t.1.txt t.2.txt
expected-output	0	@pc-align.fixture.tsv	-	cached m.st pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && pc-align -q --encoder m.st $DATA/sentalign/pairs.jsonl
length-fallback	0	~^src_url\t	~no --encoder: aligning by length \(Gale-Church\)	pc-align $DATA/sentalign/pairs.jsonl
length-method	0	-	~aligning by length \(Gale-Church\)	cached m.st pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && pc-align --encoder m.st --method length $DATA/sentalign/pairs.jsonl
length-gold	0	~^lax\t0\.[6-9][0-9]{3}	-	pc-align -q --format vecalign $DATA/sentalign/pairs.jsonl | awk -v RS= '{ print > ("t." (NR-1) ".txt") }' && pc-eval align -g $DATA/sentalign/gold.0.txt -g $DATA/sentalign/gold.1.txt -g $DATA/sentalign/gold.2.txt t.0.txt t.1.txt t.2.txt
fixed-zero-deletes-all	0	-	~ 0 aligned beads, 58 source sentences deleted, 57 target sentences deleted	cached m.st pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && pc-align --encoder m.st --deletion fixed:0 $DATA/sentalign/pairs.jsonl
percentile-rule	0	-	~3 document pairs	cached m.st pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && pc-align --encoder m.st --deletion percentile:0.2 $DATA/sentalign/pairs.jsonl

# --- -j1 and -j2 give the same bytes: 30 pairs, both methods ---
threads-identical	0	empty	empty	cached m.st pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && for i in 1 2 3 4 5 6 7 8 9 10; do cat $DATA/sentalign/pairs.jsonl; done > p.jsonl && pc-align -q --encoder m.st -j1 p.jsonl > a && pc-align -q --encoder m.st -j2 p.jsonl > b && cmp a b && pc-align -q -j1 --format vecalign p.jsonl > c && pc-align -q -j2 --format vecalign p.jsonl > d && cmp c d && [ $(wc -l < a) = 551 ]

# --- bad input ---
empty-input	0	~^src_url\ttrg_url\tsrc_text\ttrg_text\talign_score$	~0 document pairs	pc-align /dev/null
empty-side	0	~^\[\]:\[1\]:0\.000000$	~1 pairs with an empty side	cached m.st pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && printf '{"src_sentences": [], "trg_sentences": ["Hallo", "Welt"]}\n{"src_sentences": ["a b"], "trg_sentences": ["a b"]}\n' > p.jsonl && pc-align --encoder m.st --format vecalign p.jsonl
empty-side-length	0	~^\[0\]:\[\]:0\.000000$	~1 pairs with an empty side	printf '{"src_sentences": ["Hello"], "trg_sentences": []}\n' > p.jsonl && pc-align --format vecalign p.jsonl
both-sides-empty	0	~^src_url\ttrg_url\tsrc_text\ttrg_text\talign_score$	~1 document pairs, 0 source sentences, 0 target sentences, 0 aligned beads, 0 source sentences deleted, 0 target sentences deleted, 1 pairs with an empty side	printf '{"src_sentences": [], "trg_sentences": []}\n' > p.jsonl && pc-align p.jsonl
malformed-line	1	empty	~p\.jsonl:2: not valid JSON	head -1 $DATA/sentalign/pairs.jsonl > p.jsonl && echo '{"src_sentences": [' >> p.jsonl && pc-align p.jsonl -o out; r=$?; [ ! -e out ] || exit 97; exit $r
missing-key	1	empty	~p\.jsonl:1: missing key "trg_sentences"	echo '{"src_sentences": ["a"]}' > p.jsonl && pc-align p.jsonl
not-an-array	1	empty	~p\.jsonl:1: key "src_sentences" must be an array of strings	echo '{"src_sentences": "a", "trg_sentences": []}' > p.jsonl && pc-align p.jsonl
not-a-string	1	empty	~p\.jsonl:1: key "trg_sentences" must be an array of strings	echo '{"src_sentences": ["a"], "trg_sentences": ["b", 3]}' > p.jsonl && pc-align p.jsonl
not-an-object	1	empty	~p\.jsonl:1: a doc-pair line must be a JSON object	echo '[1, 2]' > p.jsonl && pc-align p.jsonl
invalid-utf8	1	empty	~p\.jsonl:1: not valid JSON	printf '{"src_sentences": ["\xff"], "trg_sentences": ["b"]}\n' > p.jsonl && pc-align p.jsonl
nul-byte	1	empty	~p\.jsonl:1: not valid JSON	printf '{"src_sentences": ["a\0"], "trg_sentences": ["b"]}\n' > p.jsonl && pc-align p.jsonl
nul-escape	1	empty	~p\.jsonl:1: NUL character in "src_sentences"	printf '{"src_sentences": ["a\\u0000"], "trg_sentences": ["b"]}\n' > p.jsonl && pc-align p.jsonl
skip-bad	0	-	~1 document pairs.*2 skipped \(bad\)	{ echo '{"src_sentences": ['; head -1 $DATA/sentalign/pairs.jsonl; echo '{}'; } > p.jsonl && pc-align --skip-bad p.jsonl
long-line	1	empty	~p\.jsonl:1: .*--max-line	head -1 $DATA/sentalign/pairs.jsonl > p.jsonl && pc-align --max-line 100 p.jsonl -o out; r=$?; [ ! -e out ] || exit 97; exit $r
truncated-gzip	1	empty	~x\.jsonl\.gz	for i in 1 2 3 4 5 6 7 8; do cat $DATA/sentalign/pairs.jsonl; done | gzip -c > full.gz && head -c 3000 full.gz > x.jsonl.gz && pc-align x.jsonl.gz -o out; r=$?; [ ! -e out ] || exit 97; exit $r
