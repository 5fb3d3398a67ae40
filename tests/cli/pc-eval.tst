# pc-eval golden tests: NAME	EXIT	STDOUT	STDERR	COMMAND (see run-golden.sh)
# sacreBLEU README example (two reference sets): BLEU 48.53, chrF 59.73.
readme-bleu	0	~^BLEU\|nrefs:2\|case:mixed\|eff:no\|tok:13a\|smooth:exp\|version:2\.6\.0 = 48\.53 82\.4/50\.0/45\.5/37\.5 \(BP = 0\.943 ratio = 0\.944 hyp_len = 17 ref_len = 18\)$	-	pc-eval bleu --width 2 -r $DATA/eval/readme.ref1 -r $DATA/eval/readme.ref2 $DATA/eval/readme.hyp
readme-chrf	0	~^chrF2\|nrefs:2\|case:mixed\|eff:yes\|nc:6\|nw:0\|space:no\|version:2\.6\.0 = 59\.73$	-	pc-eval chrf --width 2 -r $DATA/eval/readme.ref1 -r $DATA/eval/readme.ref2 $DATA/eval/readme.hyp
readme-default-width	0	~= 48\.5 82\.4	-	pc-eval bleu -q -r $DATA/eval/readme.ref1 -r $DATA/eval/readme.ref2 $DATA/eval/readme.hyp
readme-json	0	~^ "score": 48\.5,$	-	pc-eval bleu --format json -q -r $DATA/eval/readme.ref1 -r $DATA/eval/readme.ref2 $DATA/eval/readme.hyp
readme-stdin-gz	0	~= 48\.53 	-	pc-eval bleu --width 2 -q -r $DATA/eval/readme.ref1 -r $DATA/eval/readme.ref2 < $DATA/eval/readme.hyp.gz
readme-tsv-columns	0	~^BLEU\|nrefs:1\|.* = 45\.1 70\.6/42\.9/36\.4/37\.5 	-	pc-eval bleu -q --tsv $DATA/eval/readme.tsv -r trg_text x_mt
several-metrics	0	~^chrF2\+\+\|nrefs:2\|case:mixed\|eff:yes\|nc:6\|nw:2\|space:no\|version:2\.6\.0 = 59\.15$	-	pc-eval bleu,chrf,chrf++ --width 2 -q -r $DATA/eval/readme.ref1 -r $DATA/eval/readme.ref2 $DATA/eval/readme.hyp
short-signature	0	~^BLEU\|#:2\|c:lc\|e:no\|tok:intl\|s:floor\[0\.10\]\|v:2\.6\.0 = 	-	pc-eval bleu --short --lowercase --tokenize intl --smooth-method floor -q -r $DATA/eval/readme.ref1 -r $DATA/eval/readme.ref2 $DATA/eval/readme.hyp
sentence-scores	0	~^14\.8$	-	pc-eval bleu --sentence --score-only -q -r $DATA/eval/readme.ref1 $DATA/eval/readme.hyp | sed -n 2p
sentence-lines	0	-	-	test "$(pc-eval chrf --sentence -q -r $DATA/eval/readme.ref1 $DATA/eval/readme.hyp | wc -l)" = 3
threads-identical	0	empty	-	cmp <(pc-eval bleu,chrf++ --sentence -j1 -q -r $DATA/eval/readme.ref1 $DATA/eval/readme.hyp) <(pc-eval bleu,chrf++ --sentence -j2 -q -r $DATA/eval/readme.ref1 $DATA/eval/readme.hyp)
paired-bs	0	~^\S+readme.hyp2\tBLEU\t[0-9.]+\t[0-9.]+\t[0-9.]+\t0\.[0-9]{4}\tnrefs:1\|bs:200\|seed:7\|	-	sed 's/bit/bites/' $DATA/eval/readme.hyp > readme.hyp2 && pc-eval bleu --paired-bs --paired-bs-n 200 --seed 7 -q -r $DATA/eval/readme.ref1 $DATA/eval/readme.hyp $PWD/readme.hyp2
paired-bs-threads	0	empty	-	sed 's/bit/bites/' $DATA/eval/readme.hyp > h2 && cmp <(pc-eval chrf --paired-bs -j1 -q -r $DATA/eval/readme.ref1 $DATA/eval/readme.hyp h2) <(pc-eval chrf --paired-bs -j2 -q -r $DATA/eval/readme.ref1 $DATA/eval/readme.hyp h2)
# Bad input: exit 1 (data) or 2 (usage, unbalanced), a message with the location, never a crash.
unbalanced	2	empty	~pc-eval: .*one\.txt has 1 lines but .*two\.txt has more	pc-eval bleu -r $DATA/eval/two.txt $DATA/eval/one.txt
unbalanced-ref-short	2	empty	~one\.txt has 1 lines	pc-eval chrf -r $DATA/eval/one.txt $DATA/eval/two.txt
invalid-utf8	1	empty	~pc-eval: .*bad-utf8\.txt:1: invalid UTF-8	pc-eval bleu -r $DATA/eval/one.txt $DATA/eval/bad-utf8.txt
nul-byte	1	empty	~pc-eval: .*nul\.txt:1: .*NUL	pc-eval chrf -r $DATA/eval/nul.txt $DATA/eval/one.txt
empty-input	1	empty	~empty input	pc-eval bleu -r $DATA/eval/empty.txt $DATA/eval/empty.txt
missing-file	1	empty	~pc-eval: .*no-such-file.*No such file	pc-eval bleu -r $DATA/eval/one.txt no-such-file.txt
truncated-gz	1	empty	~truncated\.gz: truncated gzip data	pc-eval bleu -r $DATA/eval/readme.ref1 $DATA/eval/truncated.gz
no-reference	2	empty	~no reference	pc-eval bleu $DATA/eval/one.txt
unknown-tokenizer	2	empty	~^pc-eval: --tokenize must be 13a, intl, zh, char or none, not 'moses'$	pc-eval bleu --tokenize moses -r $DATA/eval/one.txt $DATA/eval/one.txt
unknown-subcommand	2	empty	~^pc-eval: unknown command 'blue' — use bleu\|chrf\|chrf\+\+, mining or align	pc-eval blue -r $DATA/eval/one.txt $DATA/eval/one.txt
two-hyps-without-test	2	empty	~--paired-bs	pc-eval bleu -r $DATA/eval/one.txt $DATA/eval/one.txt $DATA/eval/one.txt
bad-tsv-column	2	empty	~no column named	pc-eval bleu --tsv $DATA/eval/readme.tsv -r trg_text x_nope
bad-tsv-column-number-huge	2	empty	~column 99999999999 does not exist: .*readme\.tsv has 3 columns	pc-eval bleu --tsv $DATA/eval/readme.tsv -r trg_text 99999999999
# Mining (BUCC): hand-computed in tests/mt/test_mining_align.cpp.
mining-partial	0	~^best\t0\.55\t3\t2\t3\t0\.6667\t0\.6667\t0\.6667$	-	pc-eval mining -g $DATA/eval/mine.gold $DATA/eval/mine.partial
mining-threshold	0	~^threshold\t0\.75\t2\t1\t3\t0\.5000\t0\.3333\t0\.4000$	-	pc-eval mining -g $DATA/eval/mine.gold --threshold 0.75 $DATA/eval/mine.partial
mining-perfect	0	~^all\t-\t3\t3\t3\t1\.0000\t1\.0000\t1\.0000$	-	pc-eval mining -g $DATA/eval/mine.gold $DATA/eval/mine.perfect
mining-empty	0	~^all\t-\t0\t0\t3\t0\.0000\t0\.0000\t0\.0000$	-	pc-eval mining -g $DATA/eval/mine.gold $DATA/eval/mine.empty
mining-sentences	0	~^all\t-\t4\t2\t3\t0\.5000\t0\.6667\t0\.5714$	-	pc-eval mining -g $DATA/eval/mine.gold --src-sents $DATA/eval/mine.de --trg-sents $DATA/eval/mine.en $DATA/eval/mine.sents.tsv
mining-bad-gold	1	empty	~mine\.badgold:1: malformed gold line	pc-eval mining -g $DATA/eval/mine.badgold $DATA/eval/mine.partial
mining-unknown-id	1	empty	~mine\.unknown:2: id .de-009. is not in	pc-eval mining -g $DATA/eval/mine.gold --src-sents $DATA/eval/mine.de --trg-sents $DATA/eval/mine.en $DATA/eval/mine.unknown
mining-unknown-sentence	1	empty	~:1: source sentence .Nicht da. is not in	printf 'Nicht da\tHello world\t0.5\n' | pc-eval mining -g $DATA/eval/mine.gold --src-sents $DATA/eval/mine.de --trg-sents $DATA/eval/mine.en
# Alignment: Vecalign strict/lax and AER.
align-partial	0	~^lax\t0\.8000\t1\.0000\t0\.8889$	-	pc-eval align -g $DATA/eval/al.gold $DATA/eval/al.partial
align-perfect	0	~^strict\t1\.0000\t1\.0000\t1\.0000$	-	pc-eval align -g $DATA/eval/al.gold $DATA/eval/al.perfect
align-empty	0	~^strict\t0\.0000\t0\.0000\t0\.0000$	-	pc-eval align -g $DATA/eval/al.gold $DATA/eval/al.empty
align-bad	1	empty	~al\.bad:1: malformed alignment line	pc-eval align -g $DATA/eval/al.gold $DATA/eval/al.bad
aer-partial	0	~^5\t3\t5\t0\.6000\t0\.6667\t0\.3750$	-	pc-eval align -g $DATA/eval/wa.gold $DATA/eval/wa.partial
aer-perfect	0	~\t1\.0000\t1\.0000\t0\.0000$	-	pc-eval align -g $DATA/eval/wa.gold $DATA/eval/wa.perfect
aer-empty	0	~^0\t3\t5\t0\.0000\t0\.0000\t1\.0000$	-	pc-eval align -g $DATA/eval/wa.gold $DATA/eval/wa.empty
aer-unbalanced	2	empty	~wa\.short has 1 lines	pc-eval align -g $DATA/eval/wa.gold $DATA/eval/wa.short
aer-bad-link	1	empty	~wa\.gold:1: malformed alignment link	pc-eval align --align-format pharaoh -g $DATA/eval/wa.gold $DATA/eval/wa.gold
help	0	~^Usage:	empty	pc-eval --help
# A truncated zstd stream; a 12 MB line (one word) is scored in 800 MB of address space (chrF counts one n-gram order at a time)
truncated-zst	1	empty	~t\.zst: truncated zstd data	zstd -q -c $DATA/eval/readme.hyp > f && head -c 40 f > t.zst && pc-eval bleu -r $DATA/eval/readme.ref1 t.zst
huge-line	0	~= 100\.0	-	head -c 12000000 /dev/zero | tr '\0' a > big && echo >> big && ([ -n "$PC_ASAN" ] || ulimit -v 800000; pc-eval chrf -j 2 -q -r big big)
mining-invalid-utf8	1	empty	~x\.gold:1: invalid UTF-8	printf 'de-\xff\ten-1\n' > x.gold && pc-eval mining -g x.gold $DATA/eval/mine.partial
# Bad bytes in the other readers: mining gold and candidates, --tsv, word alignments
mining-gold-nul	1	empty	~x\.gold:1: NUL byte	printf 'de-\0\ten-1\n' > x.gold && pc-eval mining -g x.gold $DATA/eval/mine.partial
mining-candidates-nul	1	empty	~c\.tsv:1: NUL byte	printf 'de-001\ten-\0001\t0.9\n' > c.tsv && pc-eval mining -g $DATA/eval/mine.gold c.tsv
tsv-invalid-utf8	1	empty	~t\.tsv:2: invalid UTF-8	printf 'trg_text\tx_mt\nabc\tab\xff\n' > t.tsv && pc-eval bleu --tsv t.tsv -r trg_text x_mt
align-invalid-utf8	1	empty	~w\.bad:1: invalid UTF-8	printf '0-0 1-\xff\n' > w.bad && pc-eval align -g $DATA/eval/wa.gold w.bad
# each command has its own option table: a chrF option given to mining is a usage error naming its owner
option-of-another-command	2	empty	~^pc-eval: --chrf-beta is an option of 'pc-eval bleu\|chrf\|chrf\+\+', not of 'pc-eval mining' — see 'pc-eval mining --help'$	pc-eval mining --chrf-beta 9 2>e; r=$?; cat e >&2; [ "$(wc -l <e)" = 1 ] || exit 99; exit $r
smooth-value-not-a-number	2	empty	~^pc-eval: --smooth-value must be a number, not '0\.1x'$	pc-eval bleu --smooth-method floor --smooth-value 0.1x -r $DATA/eval/one.txt $DATA/eval/one.txt
threshold-not-a-number	2	empty	~^pc-eval: --threshold must be a number, not 'high'$	pc-eval mining --gold g --threshold high c
# A 1 GB hypothesis line stops at --max-line (32M) in bounded memory (it ran out of memory past 4 GB)
hyp-huge-line-1GB-bounded	1	empty	~^pc-eval: <stdin>:2: line longer than 33554432 bytes — raise --max-line or fix the input$	printf 'a b c\nd e f\n' > ref && { printf 'a b c\n'; head -c 1000000000 /dev/zero | tr '\0' a; printf '\n'; } | ([ -n "$PC_ASAN" ] || ulimit -v 1500000; pc-eval bleu -r ref -)
ref-long-line-max-line	1	empty	~^pc-eval: ref:1: line longer than 10 bytes — raise --max-line	printf 'a b c d e f g\n' > ref && printf 'a b c\n' | pc-eval chrf --max-line 10 -r ref
tsv-long-line-max-line	1	empty	~^pc-eval: b\.tsv:2: line longer than 20 bytes	printf 'src_text\ttrg_text\n%s\tb\n' aaaaaaaaaaaaaaaaaaaaaaaaa > b.tsv && pc-eval bleu --max-line 20 --tsv b.tsv -r trg_text src_text
mining-long-candidate-skip-bad	0	-	~1 candidate pairs, 1 skipped \(bad\)	printf 's1\tt1\n' > gold && { printf 's1\tt1\n'; head -c 300 /dev/zero | tr '\0' x; printf '\n'; } | pc-eval mining --gold gold --skip-bad --max-line 100
align-long-line-max-line	1	empty	~^pc-eval: test:1: line longer than 10 bytes	printf '0-0\n' > gold && printf '0-0 1-1 2-2 3-3\n' > test && pc-eval align --align-format pharaoh --max-line 10 --gold gold test
