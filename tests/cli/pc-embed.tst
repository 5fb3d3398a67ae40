# pc-embed golden tests: NAME <TAB> EXIT <TAB> STDOUT <TAB> STDERR <TAB> COMMAND
# (format: see run-golden.sh). Models are trained in the row on $SAMPLES/bitext/en-de.tsv
# with small blocks (2 x 64 + 16 + 32 = 176 dimensions), which takes about a second.

# --- conventions ---
help-stdout	0	~^Usage:   pc-embed COMMAND	empty	pc-embed --help
no-command	2	empty	~no command given	pc-embed
train-needs-output	2	empty	~train needs -o FILE	pc-embed train $SAMPLES/bitext/en-de.tsv
train-needs-input	2	empty	~train needs a seed bitext \(FILE\), a --dict, or both	pc-embed train -o m.st
encode-needs-model	2	empty	~encode needs a model: give -m FILE	pc-embed encode -o v.npy x.txt
encode-needs-file-output	2	empty	~encode needs -o FILE.npy	echo x > x.txt && pc-embed encode -m m.st x.txt
bad-dtype	2	empty	~--dtype must be float32 or float16, not 'f64'	pc-embed encode -m m.st --dtype f64 -o v.npy x.txt

# --- train ---
train-summary	0	empty	~^pc-embed: 3000 bitext pairs, 3000 pairs trained	pc-embed train --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && [ -s m.st ]
model-is-encoder	0	~^paracorp.encoder 1 lexical 176$	empty	pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && /usr/bin/python3 -c 'import json,struct; d=open("m.st","rb").read(); n=struct.unpack("<Q",d[:8])[0]; m=json.loads(d[8:8+n])["__metadata__"]; c=json.loads(m["config"]); print(m["format"], m["version"], c["kind"], c["dim"])'
train-deterministic	0	empty	empty	pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && mv m.st a.st && pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv -j1 && cmp a.st m.st
train-dictionary-only	0	empty	~^pc-embed: [0-9]+ dictionary pairs, [0-9]+ pairs trained	d=/usr/share/dictd/freedict-eng-spa.index; [ -e $d ] || { echo 'pc-embed: 0 dictionary pairs, 0 pairs trained (dict-freedict-eng-spa not installed)' >&2; exit 0; }; pc-embed train -o m.st --dict $d && printf 'cat\tgato\n' | pc-embed score -q -m m.st | tail -1 | awk -F'\t' '{ exit !($3 > 0.3) }'
train-empty-input	1	empty	~no training pair has words on both sides	pc-embed train -o m.st /dev/null; r=$?; [ ! -e m.st ] || exit 97; exit $r
train-mismatched-columns	1	empty	~t.tsv:3: expected 2 tab-separated columns, found 3	printf 'src_text\ttrg_text\na\tb\nc\td\te\n' > t.tsv && pc-embed train -o m.st t.tsv; r=$?; [ ! -e m.st ] || exit 97; exit $r

# --- encode ---
encode-header-and-size	0	~^\{'descr':'<f4','fortran_order':False,'shape':\(3000,176\),\}$	empty	pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && cut -f1 $SAMPLES/bitext/en-de.tsv | tail -n +2 > s.txt && pc-embed encode -q -m m.st -o v.npy s.txt && head -c 128 v.npy | tail -c +11 | tr -d ' ' && [ $(stat -c %s v.npy) = $((128 + 3000 * 176 * 4)) ]
encode-float16	0	~'<f2'.*\(3000,176\)	empty	pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && pc-embed encode -q -m m.st --column trg_text --side trg --dtype float16 -o v.npy $SAMPLES/bitext/en-de.tsv && head -c 128 v.npy | tail -c +11 | tr -d ' ' && [ $(stat -c %s v.npy) = $((128 + 3000 * 176 * 2)) ]
encode-threads-identical	0	empty	empty	pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && cut -f2 $SAMPLES/bitext/en-de.tsv > s.txt && for i in 1 2 3 4 5 6 7 8; do cat s.txt; done > s8.txt && pc-embed encode -q -m m.st --side trg -j1 -o a.npy s8.txt && pc-embed encode -q -m m.st --side trg -j2 -o b.npy s8.txt && cmp a.npy b.npy
encode-empty-input	0	~'shape':\(0,176\)	~0 sentences	pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && pc-embed encode -m m.st -o v.npy /dev/null && head -c 128 v.npy | tail -c +11 | tr -d ' '
encode-empty-line-zero-vector	0	~^0.0 0.0 1.0$	~3 sentences, 2 empty \(zero vector\)	pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && printf '\n   \nDatei\n' > s.txt && pc-embed encode -m m.st -o v.npy s.txt && /usr/bin/python3 -c 'import struct; d=open("v.npy","rb").read()[128:]; v=struct.unpack("<%df" % (len(d)//4), d); n=[sum(x*x for x in v[i*176:(i+1)*176]) for i in range(3)]; print(*[round(x, 3) for x in n])'
encode-invalid-utf8	1	empty	~^pc-embed: bad.txt:2: invalid UTF-8 at byte 5 \(\\xff\) — fix the line, or pass --skip-bad	pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && printf 'ok\nbad \377\n' > bad.txt && pc-embed encode -m m.st -o v.npy bad.txt; r=$?; [ ! -e v.npy ] || exit 97; exit $r
encode-invalid-utf8-skip-bad	0	empty	~2 sentences, 0 empty \(zero vector\), 1 skipped \(bad\)	pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && printf 'ok\nbad \377\n' > bad.txt && pc-embed encode --skip-bad -m m.st -o v.npy bad.txt
encode-wrong-model-text	1	empty	~m.st	echo 'not a model' > m.st && echo x > x.txt && pc-embed encode -m m.st -o v.npy x.txt
encode-wrong-model-ibm1	1	empty	~^pc-embed: m.st: a "paracorp.ibm1" model, not a paracorp.encoder model	pc-ibm1 train -q -o m.st $SAMPLES/bitext/en-de.tsv && echo x > x.txt && pc-embed encode -m m.st -o v.npy x.txt
encode-wrong-kind	1	empty	~^pc-embed: m.st: a sentence encoder of kind "neural", which this pc-embed cannot run —	/usr/bin/python3 -c 'import json,struct; h=json.dumps({"__metadata__":{"format":"paracorp.encoder","version":"1","config":json.dumps({"kind":"neural"})},"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}).encode(); h+=b" "*((8-len(h)%8)%8); open("m.st","wb").write(struct.pack("<Q",len(h))+h+b"\0"*4)' && echo x > x.txt && pc-embed encode -m m.st -o v.npy x.txt
encode-bert-without-config	1	empty	~^pc-embed: m.st: the config has no "model_type"	/usr/bin/python3 -c 'import json,struct; h=json.dumps({"__metadata__":{"format":"paracorp.encoder","version":"1","config":json.dumps({"kind":"bert"})},"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}).encode(); h+=b" "*((8-len(h)%8)%8); open("m.st","wb").write(struct.pack("<Q",len(h))+h+b"\0"*4)' && echo x > x.txt && pc-embed encode -m m.st -o v.npy x.txt
encode-mismatched-columns	1	empty	~t.tsv:3: 3 columns where the header has 2	pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && printf 'src_text\ttrg_text\na\tb\nc\td\te\n' > t.tsv && pc-embed encode -m m.st --column src_text -o v.npy t.tsv; r=$?; [ ! -e v.npy ] || exit 97; exit $r
encode-no-such-column	2	empty	~has no column 'x_foo' \(it has src_text, trg_text\)	pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && pc-embed encode -m m.st --column x_foo -o v.npy $SAMPLES/bitext/en-de.tsv

# --- score ---
score-column	0	~^src_text\ttrg_text\tembed_score$	empty	pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && pc-embed score -q -m m.st $SAMPLES/bitext/en-de.tsv > s.tsv && [ $(wc -l < s.tsv) = 3001 ] && head -1 s.tsv && awk -F'\t' 'NR > 1 && ($3 < -1 || $3 > 1.000001) { exit 1 }' s.tsv
score-translations-beat-shuffled	0	empty	empty	pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && pc-embed score -q -m m.st $SAMPLES/bitext/en-de.tsv | awk -F'\t' 'NR > 1 { s += $3 } END { print s }' > a && paste <(cut -f1 $SAMPLES/bitext/en-de.tsv | tail -n +2) <(cut -f2 $SAMPLES/bitext/en-de.tsv | tail -n +3) | pc-embed score -q -m m.st | awk -F'\t' 'NR > 1 { s += $3 } END { print s }' > b && awk -v a=$(cat a) -v b=$(cat b) 'BEGIN { exit !(a > 3 * b) }'
score-empty-side	0	~^a\t\t0.000000$	~2 pairs in, 1 empty	pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && printf 'Datei\tDatei\na\t\n' | pc-embed score -m m.st
score-mismatched-columns	1	empty	~t.tsv:3: expected 2 tab-separated columns, found 3	pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && printf 'src_text\ttrg_text\na\tb\nc\td\te\n' > t.tsv && pc-embed score -m m.st -o o.tsv t.tsv; r=$?; [ ! -e o.tsv ] || exit 97; exit $r
score-twice	2	empty	~already has an embed_score column	pc-embed train -q --buckets 64 --lsa-dim 16 --char-buckets 32 -o m.st $SAMPLES/bitext/en-de.tsv && pc-embed score -q -m m.st $SAMPLES/bitext/en-de.tsv | pc-embed score -m m.st

# --- import (tiny random-weight Hugging Face folders made by tests/data/embed/make-bert-fixtures.py;
# expected.json holds the torch reference's vectors for its sentences) ---
import-wordpiece-cls	0	~^max-abs-diff <= 1e-4$	empty	pc-embed import -q -o w.st $DATA/embed/wordpiece && /usr/bin/python3 -c 'import json,sys; [print(s) for s in json.load(open(sys.argv[1]))["sentences"]]' $DATA/embed/expected.json > s.txt && pc-embed encode -q -m w.st -o w.npy s.txt && /usr/bin/python3 $DATA/embed/check-vectors.py w.npy wordpiece cls
import-spm-mean	0	~^max-abs-diff <= 1e-4$	empty	pc-embed import -q --pooling mean -o s.st $DATA/embed/spm && /usr/bin/python3 -c 'import json,sys; [print(s) for s in json.load(open(sys.argv[1]))["sentences"]]' $DATA/embed/expected.json > s.txt && pc-embed encode -q -m s.st -o s.npy s.txt && /usr/bin/python3 $DATA/embed/check-vectors.py s.npy spm mean
import-summary	0	empty	~^pc-embed: bert \(bert\) d=32 layers=2 heads=4 vocab=100 wordpiece tokenizer, cls pooling$	pc-embed import -o w.st $DATA/embed/wordpiece
import-threads-identical	0	empty	empty	pc-embed import -q -o w.st $DATA/embed/wordpiece && cut -f1 $SAMPLES/bitext/en-de.tsv > s.txt && pc-embed encode -q -j1 -m w.st -o a.npy s.txt && pc-embed encode -q -j2 -m w.st -o b.npy s.txt && cmp a.npy b.npy
import-score	0	~^src_text\ttrg_text\tembed_score$	empty	pc-embed import -q --pooling mean -o s.st $DATA/embed/spm && head -20 $SAMPLES/bitext/en-de.tsv | pc-embed score -q -m s.st | head -1
import-not-a-folder	1	empty	~^pc-embed: .*nope: not a folder	pc-embed import -o w.st nope
import-no-output	2	empty	~import needs -o FILE	pc-embed import $DATA/embed/wordpiece
import-bad-pooling	2	empty	~--pooling	pc-embed import --pooling max -o w.st $DATA/embed/wordpiece
import-foreign-model	1	empty	~not a paracorp.encoder model	printf 'x\n' | pc-embed encode -m $DATA/embed/wordpiece/model.safetensors -o o.npy
