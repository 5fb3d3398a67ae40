# pc-tmx golden tests: NAME <TAB> EXIT <TAB> STDOUT <TAB> STDERR <TAB> COMMAND
# (format: see run-golden.sh). Fixtures are in tests/data ($DATA).

# --- conventions: help, version, usage errors ---
help-stdout	0	~^Usage:   pc-tmx	empty	pc-tmx --help
help-golden	0	@pc-tmx.help	empty	taskset -c 0 pc-tmx -h
help-table	0	~^-j\t--threads\tN\t	empty	pc-tmx --help-table
version	0	~^simd: built for	empty	pc-tmx --version | grep -E '^(pc-tmx \(paracorp\)|commit|compiler|simd|threads)'
unknown-option-one-line	2	empty	~^pc-tmx: unrecognised option '--bogus' — see 'pc-tmx --help'$	pc-tmx --bogus 2>e; r=$?; cat e >&2; [ "$(wc -l <e)" = 1 ] || exit 99; exit $r
bad-option-value	2	empty	~^pc-tmx: .*--threads	pc-tmx --threads many $DATA/en-fr.tsv
bad-to-value	2	empty	~--to must be tmx, tsv or auto, not 'xml'	pc-tmx --to xml $DATA/en-fr.tsv
missing-input	1	empty	~^pc-tmx: nofile.tsv: No such file or directory	pc-tmx nofile.tsv
directory-input	1	empty	~^pc-tmx: /: is a directory	pc-tmx -s en -t fr /
no-languages	2	empty	~cannot infer the source language.*-s/--src-lang	pc-tmx $DATA/unicode.tsv
two-inputs	2	empty	~one input file at a time	pc-tmx $DATA/en-fr.tsv $DATA/en-fr.tsv
stdin-terminal-usage	2	empty	~no input given and stdin is a terminal	script -qec 'pc-tmx -s en -t fr' /dev/null | tr -d '\r' >&2; exit ${PIPESTATUS[0]}

# --- conversion ---
tsv-to-tmx-golden	0	@unicode.tmx	-	pc-tmx -s en -t fr $DATA/unicode.tsv | grep -vE 'x-paracorp-(command|commit)'
tmx-is-well-formed	0	empty	-	pc-tmx -s en -t fr $DATA/unicode.tsv -o u.tmx && xmllint --noout u.tmx
roundtrip-unicode	0	empty	~6 units in, 6 rows out	pc-tmx -s en -t fr $DATA/unicode.tsv -o u.tmx && pc-tmx u.tmx | cmp - $DATA/unicode.tsv
roundtrip-headerless-langs-from-name	0	empty	-	pc-tmx $DATA/en-fr.tsv -o x.tmx && grep -q 'srclang="en"' x.tmx && grep -q 'xml:lang="fr"' x.tmx && pc-tmx x.tmx | cmp - $DATA/en-fr.tsv
roundtrip-sample-compressed	0	empty	-	pc-tmx $SAMPLES/bitext/en-ja.tsv -o x.tmx.gz && pc-tmx x.tmx.gz -o back.tsv.zst && zstdcat back.tsv.zst | cmp - $SAMPLES/bitext/en-ja.tsv
roundtrip-all-compressions	0	empty	-	for z in gz zst xz bz2; do pc-tmx -q $SAMPLES/bitext/en-de.tsv -o x.tmx.$z && pc-tmx -q x.tmx.$z -o b.tsv.$z && pc-tmx -q -s en -t de b.tsv.$z | pc-tmx -q | cmp - $SAMPLES/bitext/en-de.tsv || exit 1; done
magic-not-suffix	0	empty	-	zstd -q -c $DATA/en-fr.tsv > plain-name.tsv && pc-tmx -s en -t fr plain-name.tsv | pc-tmx | cmp - $DATA/en-fr.tsv
foreign-tmx	0	@foreign.tsv	~1 fields with tabs/newlines replaced	pc-tmx $DATA/foreign.tmx
foreign-tmx-lang-override	0	~^\t\tSecond\tZweite\t$	-	pc-tmx -s en -t de $DATA/foreign.tmx
lockstep-moses-files	0	~<tuv xml:lang="fr">	-	pc-tmx --src $DATA/moses.en --trg $DATA/moses3.fr
lockstep-line-count-mismatch	2	-	~line counts differ: .*moses.en has 3 lines, .*moses.fr has 2	pc-tmx --src $DATA/moses.en --trg $DATA/moses.fr -o out.tmx; r=$?; [ ! -e out.tmx ] || exit 97; exit $r
threads-identical	0	empty	-	for i in 1 2 3 4 5 6; do tail -q -n +2 $SAMPLES/bitext/en-*.tsv; done > big.tsv && pc-tmx -q -j1 -s en -t xx big.tsv > a.tmx && pc-tmx -q -j2 -s en -t xx big.tsv > b.tmx && cmp a.tmx b.tmx && [ $(grep -c '<tu ' a.tmx) = $(wc -l < big.tsv) ]
meta-json	0	empty	-	pc-tmx -q --meta m.json -s en -t fr $DATA/unicode.tsv -o u.tmx && grep -q '"units out": 6' m.json && grep -q '"command": "pc-tmx -s en -t fr ' m.json && /usr/bin/python3 -c 'import json,sys; json.load(open("m.json"))'
summary-on-stderr	0	-	~^pc-tmx: 6 rows in, 6 units out; .* peak RSS	pc-tmx -s en -t fr $DATA/unicode.tsv > /dev/null
quiet	0	-	empty	pc-tmx -q -s en -t fr $DATA/unicode.tsv > /dev/null
progress-forced	0	-	~recs	pc-tmx --progress -s en -t fr $DATA/unicode.tsv > /dev/null
empty-tsv-gives-empty-tmx	0	empty	-	pc-tmx -q -s en -t fr < /dev/null > e.tmx && xmllint --noout e.tmx && [ $(grep -c '<tu ' e.tmx) = 0 ]
empty-tmx-input	1	empty	~empty input: no TMX document	pc-tmx --to tsv < /dev/null
broken-pipe-quiet	0	-	empty	pc-tmx -s en -t fr $SAMPLES/bitext/en-fr.tsv | head -c 100 > /dev/null

# --- bad input ---
invalid-utf8	1	empty	~bad-utf8.tsv:3: invalid UTF-8 at byte 5 \(\\xff\) in column 1	pc-tmx -s en -t fr $DATA/bad-utf8.tsv -o out.tmx; r=$?; [ ! -e out.tmx ] || exit 97; exit $r
invalid-utf8-skip-bad	0	-	~2 rows in, 2 units out, 1 skipped \(bad\)|3 rows in, 2 units out, 1 skipped	pc-tmx --skip-bad -s en -t fr $DATA/bad-utf8.tsv | xmllint --noout -
nul-byte	1	empty	~nul.tsv:3: NUL byte at byte 5 in column 1	pc-tmx -s en -t fr $DATA/nul.tsv
wrong-column-count	1	empty	~wrong-columns.tsv:3: expected 2 tab-separated columns, found 3	pc-tmx -s en -t fr $DATA/wrong-columns.tsv
xml-forbidden-control	1	empty	~<stdin>:1: src_text holds a character XML cannot carry	printf 'a\001b\tc\n' | pc-tmx -s en -t fr
huge-line-50MB	0	empty	-	{ printf 'src_text\ttrg_text\n'; head -c 50000000 /dev/zero | tr '\0' a; printf '\tb\n'; } > big.tsv && pc-tmx -q -s en -t fr --max-line 64M big.tsv -o big.tmx && pc-tmx -q big.tmx | cmp - big.tsv
huge-line-50MB-one-column	1	empty	~big.tsv:1: expected 2 tab-separated columns, found 1	head -c 50000000 /dev/zero | tr '\0' a > big.tsv && pc-tmx -s en -t fr --max-line 64M big.tsv
truncated-gz	1	empty	~^pc-tmx: t.tsv.gz: truncated gzip data	gzip -c $SAMPLES/bitext/en-fr.tsv > full && head -c 20000 full > t.tsv.gz && rm full && pc-tmx -s en -t fr t.tsv.gz -o out.tmx; r=$?; [ -z "$(ls -A | grep tmx)" ] || exit 97; exit $r
truncated-zst	1	empty	~^pc-tmx: t.tsv.zst: truncated zstd data	zstd -q -c $SAMPLES/bitext/en-fr.tsv > full && head -c 20000 full > t.tsv.zst && rm full && pc-tmx -s en -t fr t.tsv.zst -o out.tmx; r=$?; [ -z "$(ls -A | grep tmx)" ] || exit 97; exit $r
truncated-xz	1	empty	~^pc-tmx: t.tsv.xz: truncated xz data	xz -c $SAMPLES/bitext/en-fr.tsv > full && head -c 20000 full > t.tsv.xz && rm full && pc-tmx -s en -t fr t.tsv.xz
truncated-bz2	1	empty	~^pc-tmx: t.tsv.bz2: truncated bzip2 data	bzip2 -c $SAMPLES/bitext/en-fr.tsv > full && head -c 20000 full > t.tsv.bz2 && rm full && pc-tmx -s en -t fr t.tsv.bz2
corrupt-gz	1	empty	~t.tsv.gz: corrupt gzip data	gzip -c $SAMPLES/bitext/en-fr.tsv > t.tsv.gz && printf 'XXXXXXXX' | dd of=t.tsv.gz bs=1 seek=5000 conv=notrunc status=none && pc-tmx -s en -t fr t.tsv.gz
truncated-tmx	1	empty	~u.tmx:[0-9]+: XML error: .* — the TMX file is malformed or cut short	pc-tmx -s en -t fr $DATA/unicode.tsv | head -c 1500 > u.tmx && pc-tmx u.tmx
tmx-missing-tuv	1	empty	~<stdin>:1: <tu> has no <tuv> for language 'fr'	printf '<tmx version="1.4"><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>a</seg></tuv><tuv xml:lang="fr"><seg>b</seg></tuv></tu><tu><tuv xml:lang="en"><seg>c</seg></tuv></tu></body></tmx>' | pc-tmx
unwritable-output	1	empty	~^pc-tmx: /proc/out.tmx: cannot create output file	pc-tmx -s en -t fr $DATA/unicode.tsv -o /proc/out.tmx
missing-output-dir	1	empty	~^pc-tmx: nodir/out.tmx: cannot create output file \(No such file or directory\) — create the folder first	pc-tmx -s en -t fr $DATA/unicode.tsv -o nodir/out.tmx
sigint-leaves-no-file	130	empty	-	pc-tmx -s en -t fr -o out.tmx < <(printf 'src_text\ttrg_text\na\tb\n'; sleep 5) & sleep 1; kill -INT $!; wait $!; r=$?; [ -z "$(ls -A)" ] || { ls -A >&2; exit 97; }; exit $r
sigkill-leaves-no-final-name	137	empty	-	pc-tmx -s en -t fr -o out.tmx < <(printf 'src_text\ttrg_text\na\tb\n'; sleep 5) & sleep 1; kill -KILL $!; wait $!; r=$?; [ ! -e out.tmx ] || exit 97; exit $r
# TMX input that XML cannot hold: invalid UTF-8 or a NUL byte in a <seg> ends the run, also with --skip-bad (the XML parser cannot resume)
tmx-invalid-utf8	1	empty	~bad\.tmx:1: XML error: not well-formed	printf '<tmx version="1.4"><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>caf\xe9</seg></tuv><tuv xml:lang="fr"><seg>b</seg></tuv></tu></body></tmx>' > bad.tmx && pc-tmx bad.tmx
tmx-nul-skip-bad	1	empty	~nul\.tmx:1: XML error: not well-formed	printf '<tmx version="1.4"><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>a\0b</seg></tuv><tuv xml:lang="fr"><seg>b</seg></tuv></tu></body></tmx>' > nul.tmx && pc-tmx --skip-bad nul.tmx -o out.tsv; r=$?; [ ! -e out.tsv ] || exit 97; exit $r
lockstep-trg-longer	2	-	~line counts differ: .*moses\.fr has 2 lines, .*moses3\.fr has 3 or more	pc-tmx --src $DATA/moses.fr --trg $DATA/moses3.fr -s en -t fr -o out.tmx; r=$?; [ ! -e out.tmx ] || exit 97; exit $r
empty-gzip-stream	0	~^</tmx>$	empty	printf '' | gzip > e.tsv.gz && pc-tmx -q -s en -t fr e.tsv.gz | xmllint --noout - && pc-tmx -q -s en -t fr e.tsv.gz
# A known element in the wrong place (xmllint accepts it: it is well-formed) is a bad unit with its line, skipped by --skip-bad with the rest of its <tu>
tmx-tu-inside-tuv	1	empty	~^pc-tmx: <stdin>:2: misplaced <tu> inside <tuv> — fix the record, or pass --skip-bad	printf '<tmx version="1.4"><header/><body><tu><tuv xml:lang="en"><seg>a</seg></tuv>\n<tuv xml:lang="fr"><tu/><seg>b</seg></tuv></tu></body></tmx>' | pc-tmx
tmx-tu-inside-tuv-skip-bad	0	~^c\td$	~2 units in, 1 rows out, 1 skipped \(bad\)	printf '<tmx version="1.4"><header/><body><tu><tuv xml:lang="en"><seg>a</seg></tuv><tuv xml:lang="fr"><tu/><seg>b</seg></tuv></tu><tu><tuv xml:lang="en"><seg>c</seg></tuv><tuv xml:lang="fr"><seg>d</seg></tuv></tu></body></tmx>' | pc-tmx --skip-bad
tmx-prop-in-misplaced-tu-skip-bad	0	~^c\td$	~2 units in, 1 rows out, 1 skipped \(bad\)	printf '<tmx version="1.4"><header/><body><tu><tuv xml:lang="en"><seg>a</seg></tuv><tuv xml:lang="fr"><tu><prop type="x">p</prop><tuv xml:lang="de"><seg>z</seg></tuv></tu><seg>b</seg></tuv></tu><tu><tuv xml:lang="en"><seg>c</seg></tuv><tuv xml:lang="fr"><seg>d</seg></tuv></tu></body></tmx>' | pc-tmx --skip-bad
tmx-misplaced-outside-tu-skip-bad	0	~^c\td$	~2 units in, 1 rows out, 1 skipped \(bad\)	printf '<tmx version="1.4"><header/><body><tuv xml:lang="en"><seg>x</seg></tuv><tu><tuv xml:lang="en"><seg>c</seg></tuv><tuv xml:lang="fr"><seg>d</seg></tuv></tu></body></tmx>' | pc-tmx --skip-bad
tmx-nesting-too-deep	1	empty	~^pc-tmx: deep\.tmx:1: elements nested more than 1000 levels deep	{ printf '<tmx version="1.4"><header/><body><tu><tuv xml:lang="en"><seg>'; for i in $(seq 5000); do printf '<hi>'; done; } > deep.tmx && pc-tmx --skip-bad deep.tmx
# Every error is one line: a newline or U+2029 in a file name, a U+2028 in a JSON excerpt are escaped
error-file-name-newline-one-line	1	empty	~^pc-tmx: no\\nfile\.tsv: No such file or directory — check the path$	pc-tmx "$(printf 'no\nfile.tsv')" 2>e; r=$?; cat e >&2; [ "$(wc -l <e)" = 1 ] || exit 99; exit $r
error-file-name-u2029-escaped	1	empty	~^pc-tmx: a\\u2029b\.tsv: No such file	pc-tmx -s en -t fr "$(printf 'a\xe2\x80\xa9b.tsv')"
# A SIGKILLed run leaves its temporary; the next run that writes the same name removes it (its PID is gone) and writes the right file
sigkill-then-rerun-removes-stale-temporary	0	empty	-	pc-tmx -s en -t fr -o out.tmx < <(printf 'src_text\ttrg_text\na\tb\n'; sleep 5) & for i in $(seq 100); do ls -A | grep -q "^\.out\.[a-z]*\.tmp-" && break; sleep 0.1; done; kill -KILL $!; wait $!; ls -A | grep -q "^\.out\.[a-z]*\.tmp-" || exit 96; pc-tmx -q -s en -t fr $DATA/unicode.tsv -o out.tmx && [ -z "$(ls -A | grep tmp-)" ] || { ls -A >&2; exit 97; } && pc-tmx -q out.tmx | cmp - $DATA/unicode.tsv
live-run-temporary-is-kept	0	empty	-	pc-tmx -s en -t fr -o out.tmx < <(printf 'src_text\ttrg_text\na\tb\n'; sleep 5) & for i in $(seq 100); do ls -A | grep -q "^\.out\.tmx\.tmp-" && break; sleep 0.1; done; pc-tmx -q -s en -t fr $DATA/unicode.tsv -o out.tmx; r=$?; n=$(ls -A | grep -c "^\.out\.tmx\.tmp-"); kill -KILL $!; wait $!; [ $r = 0 ] && [ "$n" = 1 ] && pc-tmx -q out.tmx | cmp - $DATA/unicode.tsv
# A 1 GB line (and a gzip bomb of zeros) stops at --max-line (32M) in bounded memory; it took pc-tmx to 3 GB
huge-line-1GB-bounded	1	empty	~^pc-tmx: <stdin>:3: line longer than 33554432 bytes — raise --max-line or fix the input$	{ printf 'src_text\ttrg_text\na\tb\n'; head -c 1000000000 /dev/zero | tr '\0' a; printf '\tb\nc\td\n'; } | ([ -n "$PC_ASAN" ] || ulimit -v 1500000; pc-tmx -s en -t fr -o out.tmx); r=$?; [ ! -e out.tmx ] || exit 97; exit $r
huge-line-1GB-skip-bad-bounded	0	empty	~^pc-tmx: 3 rows in, 2 units out, 1 skipped \(bad\)	{ printf 'src_text\ttrg_text\na\tb\n'; head -c 1000000000 /dev/zero | tr '\0' a; printf '\tb\nc\td\n'; } | ([ -n "$PC_ASAN" ] || ulimit -v 1500000; pc-tmx -s en -t fr --skip-bad -o out.tmx) && [ $(grep -c '<tu ' out.tmx) = 2 ]
huge-line-max-line-raised	0	empty	-	{ printf 'src_text\ttrg_text\n'; head -c 40000000 /dev/zero | tr '\0' a; printf '\tb\n'; } > big.tsv && pc-tmx -q -s en -t fr --max-line 40000002 big.tsv -o big.tmx && pc-tmx -q big.tmx | cmp - big.tsv && ! pc-tmx -q -s en -t fr --max-line 40000001 big.tsv -o b2.tmx
gzip-bomb-1GiB-zeros-bounded	1	empty	~^pc-tmx: <stdin>:1: line longer than 33554432 bytes — raise --max-line or fix the input$	head -c 1073741824 /dev/zero | gzip -1 | ([ -n "$PC_ASAN" ] || ulimit -v 1500000; pc-tmx -s en -t fr -o out.tmx)
lockstep-huge-line-is-an-error-even-with-skip-bad	1	empty	~^pc-tmx: t\.fr:2: line longer than 100 bytes — raise --max-line	printf 'a\nb\n' > s.en && { printf 'x\n'; head -c 200 /dev/zero | tr '\0' y; printf '\n'; } > t.fr && pc-tmx --skip-bad --max-line 100 --src s.en --trg t.fr -o out.tmx
max-line-zero-is-a-usage-error	2	empty	~^pc-tmx: --max-line must be at least 1, not '0'	pc-tmx --max-line 0 -s en -t fr /dev/null
