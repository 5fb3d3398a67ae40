# pc-clean golden rows: NAME  EXIT  STDOUT  STDERR  COMMAND (see run-golden.sh)
annotate-sample	0	@pc-clean-annotate-en-fr.tsv	-	head -301 $SAMPLES/bitext/en-fr.tsv | pc-clean -q -s en -t fr --annotate
kept-equals-annotate-keep	0	empty	-	head -301 $SAMPLES/bitext/en-fr.tsv | pc-clean -q -s en -t fr | tail -n +2 > kept; awk -F'\t' 'NR > 1 && $3 == "keep" { print $1 "\t" $2 }' $EXPECTED/pc-clean-annotate-en-fr.tsv | cmp - kept
rejected-file	0	~^[0-9]+ rejected$	-	head -301 $SAMPLES/bitext/en-fr.tsv | pc-clean -q -s en -t fr --rejected rej.tsv > /dev/null; head -1 rej.tsv | grep -qx 'src_text.trg_text.clean_reason' && awk -F'\t' 'NR > 1 && $3 == "keep" { bad = 1 } END { if (!bad) print NR - 1 " rejected" }' rej.tsv
summary-counts-per-rule	0	-	~^pc-clean: 300 pairs in, [0-9]+ kept, [0-9]+ fixed, [0-9]+ rejected len, .* [0-9]+ rejected lid, [0-9]+ rejected script, .*[0-9]+ rejected dedup	head -301 $SAMPLES/bitext/en-fr.tsv | pc-clean -s en -t fr > /dev/null
summary-chain	0	-	~^pc-clean: chain: fix=all,len=1:200,ratio=3,lid,dedup=near$	head -31 $SAMPLES/bitext/en-fr.tsv | pc-clean -s en -t fr --chain 'fix=all,len=1:200,ratio=3,lid,dedup=near' > /dev/null
meta-chain	0	~^ok$	-	head -31 $SAMPLES/bitext/en-fr.tsv | pc-clean -q -s en -t fr --chain 'fix=all,same,dedup=exact' --meta m.json > /dev/null && python3 -c 'import json; c = json.load(open("m.json"))["counts"]; assert c["chain fix=all,same,dedup=exact"] == 1 and "rejected same" in c; print("ok")'
default-chain-no-langs	0	-	~no -s/-t: the default chain runs without lid, script and alphabet	printf 'src_text\ttrg_text\nOpen\tOuvrir\n' | pc-clean
bad-chain-item	2	empty	~bad chain item 'lenght=3': unknown rule 'lenght'	printf 'a\tb\n' | pc-clean --chain 'len=1:2,lenght=3'
bad-chain-value	2	empty	~bad chain item 'ratio=x': 'x' is not a number	printf 'a\tb\n' | pc-clean --chain 'ratio=x'
lid-needs-langs	2	empty	~rule lid needs both languages	printf 'a\tb\n' | pc-clean --chain lid
ibm1-needs-model	2	empty	~rule ibm1 needs an IBM1 model	printf 'a\tb\n' | pc-clean --chain 'ibm1>=0.2'
wrong-column-count	1	-	~^pc-clean: <stdin>:3: expected 2 tab-separated columns, found 1	printf 'src_text\ttrg_text\na\tb\nbroken\nc\td\n' | pc-clean
skip-bad-counts	0	~^c\td$	~1 skipped \(bad\)	printf 'src_text\ttrg_text\na\tb\nbroken\nc\td\n' | pc-clean --skip-bad
invalid-utf8	1	-	~<stdin>:2: invalid UTF-8 at byte 1 \(\\xff\) in column 2	printf 'Open\tOuvrir\na\t\xff\n' | pc-clean
empty-input	0	empty	~^pc-clean: 0 pairs in, 0 kept, 0 fixed, 0 rejected len, .*0 rejected dedup, 1 chain	pc-clean --annotate < /dev/null
header-only-input	0	empty	~0 pairs in	printf 'src_text\ttrg_text\n' | pc-clean
fix-output	0	~^fish & chips\tcaf..? frites$	-	printf 'fish &amp; chips\tcaf\xc3\x83\xc2\xa9  frites \n' | pc-clean -q --chain fix=all
scores-columns	0	~^src_text\ttrg_text\tibm1_score\tclean_score\tclean_reason$	-	pc-ibm1 train -q --lowercase -o m.ibm1 $SAMPLES/bitext/en-fr.tsv && head -51 $SAMPLES/bitext/en-fr.tsv | pc-clean -q -s en -t fr --ibm1 m.ibm1 --annotate --chain 'fix=all,ibm1>=0.2' | head -1
scores-threshold	0	~^ok$	-	pc-ibm1 train -q --lowercase -o m.ibm1 $SAMPLES/bitext/en-fr.tsv && head -201 $SAMPLES/bitext/en-fr.tsv | pc-clean -q --ibm1 m.ibm1 --annotate --chain 'ibm1>=0.3' | awk -F'\t' 'NR > 1 && (($3 >= 0.3) != ($5 == "keep")) { bad = 1 } END { print bad ? "mismatch" : "ok" }'
encoder-scores	0	~^src_text\ttrg_text\tcos_score\tclean_score$	-	pc-embed train -q -o m.enc $SAMPLES/bitext/en-fr.tsv && head -51 $SAMPLES/bitext/en-fr.tsv | pc-clean -q --encoder m.enc --chain 'cos>=0.1' | head -1
determinism-j1-j2	0	~^same [0-9]+$	-	bash $PC_SRC/bench/make-bitext.sh 4 big.tsv && pc-clean -q -j1 -s en -t fr --annotate --chain 'fix=all,len=1:200,ratio=3,same,numbers,lid,dedup=near,maxsrc=3' big.tsv > a && pc-clean -q -j2 -s en -t fr --annotate --chain 'fix=all,len=1:200,ratio=3,same,numbers,lid,dedup=near,maxsrc=3' big.tsv > b && cmp a b && echo "same $(wc -l < a)"
moses-two-files	0	~^Same\tSame\tsame$	-	printf 'Open file\nSame\n' > s.txt && printf 'Ouvrir le fichier\nSame\n' > t.txt && pc-clean -q --src s.txt --trg t.txt --annotate
moses-unequal-lines	2	empty	~line counts differ	printf 'a\nb\n' > s.txt && printf 'a\n' > t.txt && pc-clean -q --src s.txt --trg t.txt
bitextor-columns-pass-through	0	~^http://a/en\thttp://a/fr\tOpen\tOuvrir\t0.9$	-	printf 'src_url\ttrg_url\tsrc_text\ttrg_text\tscore\nhttp://a/en\thttp://a/fr\tOpen\tOuvrir\t0.9\n' | pc-clean -q
alphabet-wrong-language	0	~^Invalid operation\tUng.*\talphabet$	-	printf 'Invalid operation\tUng\xc3\xbcltige \xc3\x84nderung\n' | pc-clean -q -s en -t fr --annotate --chain alphabet
multiway-signal	0	~^Open file\tOuvrir\t3\tmultiway$	-	printf 'src_text\ttrg_text\nOpen file\tDatei\n' > de.tsv && printf 'src_text\ttrg_text\nOpen file\tAbrir\n' > es.tsv && printf 'Open file\tOuvrir\nClose\tFermer\n' | pc-clean -q --multiway de.tsv --multiway es.tsv --chain multiway=3 --annotate
encoder-bert-kind	0	~^src_text\ttrg_text\tcos_score\tclean_score\tclean_reason$	-	pc-embed import -q -o w.st $DATA/embed/wordpiece && head -21 $SAMPLES/bitext/en-fr.tsv | pc-clean -q --encoder w.st --chain 'fix=all' --annotate | head -1
encoder-wrong-kind	1	empty	~m.st: a sentence encoder of kind "laser"	/usr/bin/python3 -c 'import json,struct; h=json.dumps({"__metadata__":{"format":"paracorp.encoder","version":"1","config":json.dumps({"kind":"laser"})},"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}).encode(); h+=b" "*((8-len(h)%8)%8); open("m.st","wb").write(struct.pack("<Q",len(h))+h+b"\0"*4)' && printf 'a\tb\n' | pc-clean -q --encoder m.st
