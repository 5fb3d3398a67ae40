# pc-ibm1 golden tests: NAME <TAB> EXIT <TAB> STDOUT <TAB> STDERR <TAB> COMMAND
# (format: see run-golden.sh). Real data: $SAMPLES/bitext/*.tsv (3000 pairs each).

# --- conventions: help, usage errors ---
help-stdout	0	~^Usage:   pc-ibm1 COMMAND	empty	pc-ibm1 --help
help-table	0	~^-m\t--model\tFILE\t	empty	pc-ibm1 --help-table
no-command	2	empty	~no command given — use train, align, lexicon, score or translate	pc-ibm1
unknown-command	2	empty	~unknown command 'trian'	pc-ibm1 trian $DATA/en-fr.tsv
train-needs-output	2	empty	~train needs -o FILE	pc-ibm1 train $DATA/en-fr.tsv
train-not-m	2	empty	~-m is an option of 'pc-ibm1 align', 'pc-ibm1 lexicon', 'pc-ibm1 score' and 'pc-ibm1 translate', not of 'pc-ibm1 train'	pc-ibm1 train -m x.safetensors $DATA/en-fr.tsv
score-needs-model	2	empty	~score needs a model: give -m FILE	pc-ibm1 score $DATA/en-fr.tsv
bad-tokenize	2	empty	~--tokenize must be icu or whitespace, not 'moses'	pc-ibm1 train --tokenize moses -o m.st $DATA/en-fr.tsv
bad-symmetrize	2	empty	~--symmetrize must be intersect, union, grow-diag, grow-diag-final or grow-diag-final-and, not 'gdfa'	pc-ibm1 align --symmetrize gdfa $DATA/en-fr.tsv
bad-direction	2	empty	~--direction must be fwd, rev or sym, not 'both'	pc-ibm1 align --direction both $DATA/en-fr.tsv
stdin-terminal-usage	2	empty	~no input given and stdin is a terminal	script -qec 'pc-ibm1 align' /dev/null | tr -d '\r' >&2; exit ${PIPESTATUS[0]}

# --- train ---
train-perplexity-on-stderr	0	empty	~^pc-ibm1: iteration 5: perplexity fwd [0-9.]+ rev [0-9.]+	pc-ibm1 train -o m.safetensors $SAMPLES/bitext/en-fr.tsv && [ -s m.safetensors ]
train-perplexity-decreases	0	empty	-	pc-ibm1 train -o m.st $SAMPLES/bitext/en-es.tsv 2>e && grep -oE 'perplexity fwd [0-9.]+' e | awk '{ if (NR > 1 && $3 > p) exit 1; p = $3 }'
threads-identical-model	0	empty	-	pc-ibm1 train -q -j1 -o m1.st $SAMPLES/bitext/en-de.tsv && pc-ibm1 train -q -j2 -o m2.st $SAMPLES/bitext/en-de.tsv && pc-ibm1 train -q -j3 --variational -o v3.st $SAMPLES/bitext/en-de.tsv && pc-ibm1 train -q -j1 --variational -o v1.st $SAMPLES/bitext/en-de.tsv && cmp m1.st m2.st && cmp v1.st v3.st && ! cmp -s m1.st v1.st
numpy-reference-5-iterations	0	~largest difference [0-9.e+-]+ \(<= 1e-6\)	empty	pc-ibm1 train -q --tokenize whitespace --prune 0 --iterations 5 -o m.st $SAMPLES/bitext/en-de.tsv && /usr/bin/python3 $DATA/../align/ibm1_reference.py m.st $SAMPLES/bitext/en-de.tsv 5
model-is-safetensors	0	~^paracorp.ibm1 1 icu True$	empty	pc-ibm1 train -q --lowercase -o m.st $SAMPLES/bitext/en-ja.tsv && /usr/bin/python3 -c 'import json,struct,sys; d=open("m.st","rb").read(); n=struct.unpack("<Q",d[:8])[0]; h=json.loads(d[8:8+n]); m=h["__metadata__"]; c=json.loads(m["config"]); print(m["format"], m["version"], c["tokenize"], c["lowercase"]); assert n % 8 == 0 and h["fwd.values"]["dtype"] == "F32"'
lockstep-files	0	empty	~3 pairs in, 3 pairs trained	pc-ibm1 train -o m.st --src $DATA/moses.en --trg $DATA/moses3.fr
lockstep-line-count-mismatch	2	empty	~line counts differ: .*moses.en has 3 lines, .*moses.fr has 2	pc-ibm1 train -o m.st --src $DATA/moses.en --trg $DATA/moses.fr; r=$?; [ ! -e m.st ] || exit 97; exit $r
empty-sides-warned-and-skipped	0	~^0-0\n?	~2 pairs with an empty side were skipped	printf 'a b\tx y\n\tz\nc\t \nb\ty\n' > e.tsv && pc-ibm1 align e.tsv > out && [ "$(sed -n 2p out)$(sed -n 3p out)" = "" ] && [ $(wc -l < out) = 4 ] && cat out
empty-input	1	empty	~no sentence pairs to train on	pc-ibm1 train -o m.st < /dev/null; r=$?; [ ! -e m.st ] || exit 97; exit $r
max-len	0	empty	~over --max-len \(skipped\)	pc-ibm1 train --max-len 3 -o m.st $SAMPLES/bitext/en-de.tsv

# --- align ---
align-lines-and-format	0	empty	-	pc-ibm1 align -q $SAMPLES/bitext/en-de.tsv > a && [ $(wc -l < a) = 3000 ] && ! grep -vE '^([0-9]+-[0-9]+( [0-9]+-[0-9]+)*)?$' a
align-with-model-equals-align-in-run	0	empty	-	pc-ibm1 train -q -o m.st $SAMPLES/bitext/en-fr.tsv && pc-ibm1 align -q -m m.st $SAMPLES/bitext/en-fr.tsv > a && pc-ibm1 align -q $SAMPLES/bitext/en-fr.tsv > b && cmp a b
align-intersect-in-union	0	empty	-	pc-ibm1 train -q -o m.st $SAMPLES/bitext/en-es.tsv && for s in intersect union grow-diag grow-diag-final grow-diag-final-and; do pc-ibm1 align -q -m m.st --symmetrize $s $SAMPLES/bitext/en-es.tsv > $s || exit 1; done && paste -d'\n' intersect union | awk 'NR % 2 { n = split($0, a, " "); next } { for (i = 1; i <= n; i++) if (index(" " $0 " ", " " a[i] " ") == 0) exit 1 }' && [ $(wc -w < intersect) -lt $(wc -w < grow-diag) ] && [ $(wc -w < grow-diag-final-and) -le $(wc -w < grow-diag-final) ] && [ $(wc -w < grow-diag-final) -le $(wc -w < union) ]
align-directions	0	~^0-0 1-1 2-2 3-3$	empty	pc-ibm1 train -q --prune 0 --iterations 10 -o m.st $DATA/ibm1/toy.tsv && printf 'the book is small\tdas Buch ist klein\n' > q.tsv && pc-ibm1 align -q -m m.st --direction fwd q.tsv && pc-ibm1 align -q -m m.st --direction rev q.tsv | grep -qE '^0-0 1-1 2-2 3-3$'
align-new-text-unknown-words	0	~^0-0 1-1$	empty	pc-ibm1 train -q -o m.st $DATA/ibm1/toy.tsv && printf 'the house zebra\tdas Haus Zebra\n' | pc-ibm1 align -q -m m.st --symmetrize intersect
align-threads-identical	0	empty	-	pc-ibm1 align -q -j1 $SAMPLES/bitext/en-ru.tsv > a && pc-ibm1 align -q -j2 $SAMPLES/bitext/en-ru.tsv > b && cmp a b

# --- lexicon, score, translate ---
lexicon-ttable	0	~^file\tDatei\t0\.[0-9]+$	empty	cached m.st pc-ibm1 train -q -o m.st $SAMPLES/bitext/en-de.tsv && pc-ibm1 lexicon -q -m m.st
lexicon-moses-e2f	0	~^Datei file 0\.[0-9]{7}$	empty	cached m.st pc-ibm1 train -q -o m.st $SAMPLES/bitext/en-de.tsv && pc-ibm1 lexicon -q -m m.st --format moses --direction rev -o lex.e2f && grep -E '^file Datei' lex.e2f >/dev/null && pc-ibm1 lexicon -q -m m.st --format moses -o lex.f2e && grep -qE '^Datei file ' lex.f2e && cat lex.f2e
lexicon-min-prob	0	empty	-	cached m.st pc-ibm1 train -q -o m.st $SAMPLES/bitext/en-de.tsv && pc-ibm1 lexicon -q -m m.st --min-prob 0.5 | awk -F'\t' '$3 < 0.5 { exit 1 }'
score-columns	0	~^src_text\ttrg_text\tibm1_fwd_score\tibm1_rev_score\tibm1_qmax_fwd_score\tibm1_qmax_rev_score$	empty	cached m.st pc-ibm1 train -q -o m.st $SAMPLES/bitext/en-de.tsv && pc-ibm1 score -q -m m.st $SAMPLES/bitext/en-de.tsv > s && [ $(wc -l < s) = 3001 ] && awk -F'\t' 'NR > 1 && ($5 < 0 || $5 > 1 || $3 > 0) { exit 1 }' s && head -1 s
score-ranks-shuffled-lower	0	empty	-	cached m.st pc-ibm1 train -q -o m.st $SAMPLES/bitext/en-de.tsv && awk 'NR > 1 && NR <= 501' $SAMPLES/bitext/en-de.tsv > good && paste <(cut -f1 good) <(cut -f2 good | tail -n +2; head -1 good | cut -f2) > bad && pc-ibm1 score -q -m m.st good | awk -F'\t' 'NR > 1 { s += $5 } END { print s }' > g && pc-ibm1 score -q -m m.st bad | awk -F'\t' 'NR > 1 { s += $5 } END { print s }' > b && awk -v g=$(cat g) -v b=$(cat b) 'BEGIN { exit !(g > 2 * b) }'
score-existing-column	2	empty	~already has a ibm1_fwd_score column	cached m.st pc-ibm1 train -q -o m.st $SAMPLES/bitext/en-de.tsv && pc-ibm1 score -q -m m.st $SAMPLES/bitext/en-de.tsv > s && pc-ibm1 score -m m.st s
score-empty-side-nan	0	~^a\t\tnan\tnan\tnan\tnan$	~1 pairs with an empty side were scored nan	cached m.st pc-ibm1 train -q -o m.st $SAMPLES/bitext/en-de.tsv && printf 'a\t\n' | pc-ibm1 score -m m.st
translate-word-by-word	0	~^das klein Haus 42 zebra$	empty	pc-ibm1 train -q --prune 0 --iterations 10 -o m.st $DATA/ibm1/toy.tsv && printf 'the small house 42 zebra\n' | pc-ibm1 translate -q -m m.st
translate-drop-null	0	-	empty	cached m.st pc-ibm1 train -q -o m.st $SAMPLES/bitext/en-de.tsv && awk -F'\t' 'NR > 1 && NR <= 201 { print $1 }' $SAMPLES/bitext/en-de.tsv > src && pc-ibm1 translate -q -m m.st src > a && pc-ibm1 translate -q -m m.st --drop-null src > b && [ $(wc -l < a) = 200 ] && [ $(wc -l < b) = 200 ] && [ $(wc -w < b) -lt $(wc -w < a) ]
translate-not-bitext	2	empty	~--src is an option of 'pc-ibm1 train', 'pc-ibm1 align' and 'pc-ibm1 score', not of 'pc-ibm1 translate'	cached m.st pc-ibm1 train -q -o m.st $SAMPLES/bitext/en-de.tsv && pc-ibm1 translate -m m.st --src $DATA/moses.en --trg $DATA/moses3.fr

# --- bad input ---
wrong-model-kind	1	empty	~m.st: a 'paracorp.embd' model, not a paracorp.ibm1 model — give a model made by pc-ibm1 train	pc-ibm1 train -q -o m.st $DATA/en-fr.tsv && LC_ALL=C sed -i 's/"format":"paracorp.ibm1"/"format":"paracorp.embd"/' m.st && pc-ibm1 align -m m.st $DATA/en-fr.tsv
wrong-model-version	1	empty	~m.st: a paracorp.ibm1 model of format version '7'; this program reads version '1' — use the paracorp release that wrote it, or train the model again with pc-ibm1 train	pc-ibm1 train -q -o m.st $DATA/en-fr.tsv && LC_ALL=C sed -i 's/"version":"1"/"version":"7"/' m.st && pc-ibm1 score -m m.st $DATA/en-fr.tsv
model-config-bad-tokenize	1	empty	~m\.st: model config key 'tokenize' must be "icu" or "whitespace", not '"xyz"'	pc-ibm1 train -q -o m.st $DATA/en-fr.tsv && LC_ALL=C sed -i 's/\\"tokenize\\":\\"icu\\"/\\"tokenize\\":\\"xyz\\"/' m.st && pc-ibm1 align -m m.st $DATA/en-fr.tsv
model-config-bad-lowercase	1	empty	~m\.st: model config key 'lowercase' must be true or false, not '"x"'	pc-ibm1 train -q -o m.st $DATA/en-fr.tsv && LC_ALL=C sed -i 's/\\"lowercase\\":false/\\"lowercase\\":\\"x\\"/' m.st && pc-ibm1 score -m m.st $DATA/en-fr.tsv
model-not-safetensors	1	empty	~en-fr.tsv: not a safetensors model file	pc-ibm1 lexicon -m $DATA/en-fr.tsv
model-truncated	1	empty	~m.st: truncated safetensors file	cached m.st pc-ibm1 train -q -o m.st $SAMPLES/bitext/en-de.tsv && head -c 100000 m.st > t.st && mv t.st m.st && pc-ibm1 translate -m m.st $DATA/moses.en
model-missing	1	empty	~^pc-ibm1: nomodel.st: No such file or directory	pc-ibm1 align -m nomodel.st $DATA/en-fr.tsv
missing-input	1	empty	~^pc-ibm1: nofile.tsv: No such file or directory	pc-ibm1 train -o m.st nofile.tsv
invalid-utf8	1	empty	~bad-utf8.tsv:3: invalid UTF-8 at byte 5	pc-ibm1 train -o m.st $DATA/bad-utf8.tsv; r=$?; [ ! -e m.st ] || exit 97; exit $r
invalid-utf8-skip-bad	0	~^$	~skipped \(bad\)	pc-ibm1 align --skip-bad $DATA/bad-utf8.tsv | sed -n 2p
invalid-utf8-translate	1	empty	~t.txt:2: invalid UTF-8	pc-ibm1 train -q -o m.st $DATA/en-fr.tsv && printf 'ok\nbad \377 byte\n' > t.txt && pc-ibm1 translate -m m.st t.txt
nul-byte	1	empty	~nul.tsv:3: NUL byte at byte 5	pc-ibm1 train -o m.st $DATA/nul.tsv
wrong-column-count	1	empty	~expected 2 tab-separated columns, found 3	printf 'a\tb\nc\td\te\n' | pc-ibm1 align
huge-line-100MB-bounded	1	empty	~big\.tsv:4: line longer than 33554432 bytes	awk 'BEGIN { s = "lorem ipsum dolor sit amet "; while (length(s) < 1e8) s = s s; printf "%s", substr(s, 1, 1e8) }' > line && { head -3 $DATA/ibm1/toy.tsv; cat line; printf '\tb\n'; tail -n +4 $DATA/ibm1/toy.tsv; } > big.tsv && ([ -n "$PC_ASAN" ] || ulimit -v 400000; pc-ibm1 train -j 2 -o m.st big.tsv); r=$?; [ ! -e m.st ] || exit 97; exit $r
huge-line-100MB-skip-bad	0	empty	~ 1 skipped \(bad\)	awk 'BEGIN { s = "lorem ipsum dolor sit amet "; while (length(s) < 1e8) s = s s; printf "%s", substr(s, 1, 1e8) }' > line && { head -3 $DATA/ibm1/toy.tsv; cat line; printf '\tb\n'; tail -n +4 $DATA/ibm1/toy.tsv; } > big.tsv && ([ -n "$PC_ASAN" ] || ulimit -v 400000; pc-ibm1 align -j 2 --skip-bad big.tsv > a) && [ $(wc -l < a) = 9 ] && [ "$(sed -n 3p a)" = "" ] && [ -n "$(sed -n 4p a)" ]
huge-line-20MB	0	~^0-0$	empty	{ printf 'src_text\ttrg_text\n'; head -c 20000000 /dev/zero | tr '\0' a; printf '\tb\n'; } > big.tsv && pc-ibm1 align -q big.tsv
truncated-gz	1	empty	~^pc-ibm1: t.tsv.gz: truncated gzip data	gzip -c $SAMPLES/bitext/en-fr.tsv > full && head -c 20000 full > t.tsv.gz && pc-ibm1 train -o m.st t.tsv.gz; r=$?; [ ! -e m.st ] || exit 97; exit $r
compressed-input	0	empty	-	zstd -q -c $SAMPLES/bitext/en-fr.tsv > x.tsv.zst && pc-ibm1 align -q x.tsv.zst > a && pc-ibm1 align -q $SAMPLES/bitext/en-fr.tsv > b && cmp a b
truncated-zst	1	empty	~^pc-ibm1: t\.tsv\.zst: truncated zstd data	zstd -q -c $SAMPLES/bitext/en-fr.tsv > full && head -c 20000 full > t.tsv.zst && pc-ibm1 train -o m.st t.tsv.zst; r=$?; [ ! -e m.st ] || exit 97; exit $r
# align and score on empty input; NUL bytes in translate and align
align-empty	0	empty	-	pc-ibm1 train -q -o m.st $DATA/ibm1/toy.tsv && pc-ibm1 align -q -m m.st < /dev/null
score-empty-header-only	0	~^src_text\ttrg_text\tibm1_fwd_score\t	-	pc-ibm1 train -q -o m.st $DATA/ibm1/toy.tsv && pc-ibm1 score -q -m m.st < /dev/null > s && [ $(wc -l < s) = 1 ] && cat s
translate-nul	1	empty	~<stdin>:1: NUL byte	pc-ibm1 train -q -o m.st $DATA/ibm1/toy.tsv && printf 'the \0house\n' | pc-ibm1 translate -m m.st
align-nul	1	empty	~<stdin>:1: NUL byte at byte 5 in column 1	pc-ibm1 train -q -o m.st $DATA/ibm1/toy.tsv && printf 'the \0house\tdas Haus\n' | pc-ibm1 align -m m.st
# --max-line is the shared option (it was --max-line-mb)
max-line-shared-option	1	empty	~^pc-ibm1: big\.tsv:4: line longer than 1000 bytes	{ head -3 $DATA/ibm1/toy.tsv; head -c 2000 /dev/zero | tr '\0' a; printf '\tb\n'; tail -n +4 $DATA/ibm1/toy.tsv; } > big.tsv && pc-ibm1 train --max-line 1000 -o m.st big.tsv
max-line-mb-is-gone	2	empty	~unrecognised option '--max-line-mb'	pc-ibm1 train --max-line-mb 32 -o m.st $DATA/ibm1/toy.tsv
