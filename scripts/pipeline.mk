# The paracorp main job on the bundled samples (README quick start, command 1).
#   make -f scripts/pipeline.mk [BIN=build/release/tools] [OUT=out/sample]
# Today the pipeline is:
#   1. the sample website (data/samples/site) served on 127.0.0.1 on a free
#      port by tests/crawl/serve_site.py, crawled by pc-crawl into a WARC
#      (robots.txt obeyed, 0.05 s between requests), then stopped;
#   2. pc-ingest: WARC -> documents, one JSONL file per language;
#   3. pc-split: documents -> documents with sentences, per language;
#   4. sample bitext (TSV) -> pc-clean (default chain; rejected rows with their
#      reasons beside it) -> TMX 1.4b, checked by xmllint and converted back
#      to TSV to prove nothing was lost;
#   5. pc-ibm1 trained on the first 2500 pairs of each sample bitext, word-based
#      translation of the last 500, scored by pc-eval (BLEU, chrF) next to
#      copying the source;
#   6. pc-embed: a small lexical encoder trained on each en-XX sample bitext
#      (de, es, fr) encodes the split sentences of the English and the XX
#      documents to .npy; a small neural encoder (d = 64, 300 steps, about
#      20 s of CPU) trained on the en-de sample bitext, and the two en-de
#      encoders combined into one model, encode the same sentences;
#   7. pc-mine: those vectors mined for translation pairs (FAISS, ratio
#      margin), en-XX bitext with scores, cleaned by pc-clean (default chain,
#      rejected rows beside it), then TMX;
#   8. pc-docalign pairs the English chapters with the XX ones (by URL, then
#      content), pc-align aligns their sentences with the same encoder, and
#      the aligned bitext is cleaned by pc-clean like the mined one, then TMX;
#   9. pc-nmt: a tiny model trained for 150 steps on en-fr sample pairs
#      translates 40 held-out sentences with greedy decoding and with
#      parallel decoding (jacobi, ngram drafts, 3 candidates): both timings,
#      and whether the outputs are identical (they must be).
BIN ?= build/release/tools
OUT ?= out/sample
SAMPLES := data/samples/bitext
PAIRS := $(patsubst $(SAMPLES)/%.tsv,%,$(wildcard $(SAMPLES)/en-*.tsv))

.PHONY: all check clean
.DELETE_ON_ERROR:
.SECONDARY:

SITE := data/samples/site
SITE_FILES := $(shell find $(SITE) -type f)

EMBED_LANGS := de es fr

all: check $(OUT)/sents/.done $(OUT)/ibm1-scores.txt $(EMBED_LANGS:%=$(OUT)/embed/en-%.done) \
     $(OUT)/embed/neural-en-de.done $(OUT)/embed/combined-en-de.done \
     $(EMBED_LANGS:%=$(OUT)/mine/en-%.tmx.gz) $(EMBED_LANGS:%=$(OUT)/aligned/en-%.tmx.gz) $(OUT)/nmt/decode.txt
	@echo "pipeline: site -> $(OUT)/site.warc.gz -> $(OUT)/docs/*.jsonl -> $(OUT)/sents/*.jsonl;" \
	  "$(words $(PAIRS)) language pairs -> $(OUT)/clean/*.tsv -> $(OUT)/*.tmx.gz; IBM1 translation scores in" \
	  "$(OUT)/ibm1-scores.txt; sentence vectors in $(OUT)/embed/*.npy (neural-en-de.*, combined-en-de.*:" \
	  "the neural and the combined en-de encoders); mined pairs in $(OUT)/mine/*.tsv," \
	  "cleaned in *.clean.tsv (rejects in *.rejected.tsv), TMX in *.tmx.gz; document pairs in" \
	  "$(OUT)/docpairs/*.jsonl, aligned sentences in $(OUT)/aligned/ the same way (provenance in *.meta.json)"
	@cat $(OUT)/ibm1-scores.txt
	@rows() { awk 'NR > 1 { n++ } END { print n + 0 }' "$$1"; }; \
	for l in $(EMBED_LANGS); do printf 'en-%s: %s mined pairs (%s kept by pc-clean), %s document pairs, %s aligned pairs (%s kept)\n' $$l \
	  $$(rows $(OUT)/mine/en-$$l.tsv) $$(rows $(OUT)/mine/en-$$l.clean.tsv) $$(wc -l < $(OUT)/docpairs/en-$$l.jsonl) \
	  $$(rows $(OUT)/aligned/en-$$l.tsv) $$(rows $(OUT)/aligned/en-$$l.clean.tsv); done
	@cat $(OUT)/nmt/decode.txt

$(OUT):
	mkdir -p $@

# Serve the site on a free local port for the time of the crawl only.
$(OUT)/site.warc.gz: $(SITE_FILES) | $(OUT)
	rm -f $(OUT)/port; \
	/usr/bin/python3 tests/crawl/serve_site.py --root $(SITE) --port-file $(OUT)/port --log $(OUT)/requests.log & \
	pid=$$!; trap 'kill $$pid' EXIT; \
	for i in $$(seq 100); do [ -s $(OUT)/port ] && break; sleep 0.05; done; \
	$(BIN)/pc-crawl --no-progress --delay 0.05 -o $@ --meta $@.meta.json http://127.0.0.1:$$(cat $(OUT)/port)/

# WARC -> documents, one file per language.
$(OUT)/docs/.done: $(OUT)/site.warc.gz
	rm -rf $(OUT)/docs
	$(BIN)/pc-ingest --no-progress --split-by-lang $(OUT)/docs $< --meta $(OUT)/docs.meta.json
	touch $@

# Documents -> documents with `sentences` and `sent_para`.
$(OUT)/sents/.done: $(OUT)/docs/.done
	rm -rf $(OUT)/sents && mkdir -p $(OUT)/sents
	for f in $(OUT)/docs/*.jsonl; do \
	  $(BIN)/pc-split --no-progress $$f -o $(OUT)/sents/$$(basename $$f) --meta $(OUT)/sents/$$(basename $$f).meta.json || exit 1; \
	done
	touch $@

# IBM Model 1: train on pairs 1..2500, translate pairs 2501..3000, score.
$(OUT)/ibm1/%.train.tsv: $(SAMPLES)/%.tsv | $(OUT)
	mkdir -p $(OUT)/ibm1
	head -n 2501 $< > $@
	tail -n +2502 $< | cut -f1 > $(OUT)/ibm1/$*.test.src
	tail -n +2502 $< | cut -f2 > $(OUT)/ibm1/$*.test.ref

$(OUT)/ibm1/%.safetensors: $(OUT)/ibm1/%.train.tsv
	$(BIN)/pc-ibm1 train --no-progress -o $@ --meta $@.meta.json $<

$(OUT)/ibm1/%.scores: $(OUT)/ibm1/%.safetensors
	$(BIN)/pc-ibm1 translate -q -m $< $(OUT)/ibm1/$*.test.src -o $(OUT)/ibm1/$*.test.hyp
	for sys in "pc-ibm1 translate:hyp" "copy source:src"; do \
	  set -- $$($(BIN)/pc-eval bleu,chrf -q --score-only -r $(OUT)/ibm1/$*.test.ref $(OUT)/ibm1/$*.test.$${sys#*:}); \
	  printf '%s\t%-18s\tBLEU %5s\tchrF %5s\n' $* "$${sys%%:*}" $$1 $$2; \
	done > $@

$(OUT)/ibm1-scores.txt: $(PAIRS:%=$(OUT)/ibm1/%.scores)
	{ echo "# held-out pairs 2501-3000 of data/samples/bitext; $$($(BIN)/pc-eval bleu,chrf -q --short -r $(OUT)/ibm1/en-fr.test.ref $(OUT)/ibm1/en-fr.test.hyp | sed -E 's/ = .*//' | tr '\n' ' ')"; cat $^; } > $@

# Bitext -> cleaned bitext (pc-clean's default chain); the languages come
# from the file name (en-fr.tsv).
$(OUT)/clean/%.tsv: $(SAMPLES)/%.tsv | $(OUT)
	mkdir -p $(OUT)/clean
	$(BIN)/pc-clean --no-progress -s $(word 1,$(subst -, ,$*)) -t $(word 2,$(subst -, ,$*)) \
	  --rejected $(OUT)/clean/$*.rejected.tsv $< -o $@ --meta $@.meta.json

# TSV -> TMX, with the languages of the file name.
$(OUT)/%.tmx.gz: $(OUT)/clean/%.tsv
	$(BIN)/pc-tmx --no-progress -s $(word 1,$(subst -, ,$*)) -t $(word 2,$(subst -, ,$*)) $< -o $@ --meta $@.meta.json

# Well-formed XML, and TMX -> TSV gives back the cleaned bitext byte for byte.
$(OUT)/%.checked: $(OUT)/%.tmx.gz
	zcat $< | xmllint --noout -
	$(BIN)/pc-tmx -q $< | cmp - $(OUT)/clean/$*.tsv
	touch $@

# A small lexical encoder per pair (the blocks of tests/cli/pc-embed.tst's
# size, about a second), then the split sentences of both languages' documents
# to .npy, row i = sentence i of the .txt beside it.
$(OUT)/embed/%.safetensors: $(SAMPLES)/%.tsv | $(OUT)
	mkdir -p $(OUT)/embed
	$(BIN)/pc-embed train --no-progress -s $(word 1,$(subst -, ,$*)) -t $(word 2,$(subst -, ,$*)) \
	  --buckets 256 --char-buckets 128 -o $@ --meta $@.meta.json $<

$(OUT)/embed/%.txt: $(OUT)/sents/.done
	mkdir -p $(OUT)/embed
	/usr/bin/python3 -c 'import json, sys; [print(s) for l in open(sys.argv[1], encoding="utf-8") for s in json.loads(l).get("sentences", [])]' \
	  $(OUT)/sents/$*.jsonl > $@

$(OUT)/embed/en-%.done: $(OUT)/embed/en-%.safetensors $(OUT)/embed/en.txt $(OUT)/embed/%.txt
	$(BIN)/pc-embed encode --no-progress -m $< --side src -o $(OUT)/embed/en-$*.en.npy $(OUT)/embed/en.txt
	$(BIN)/pc-embed encode --no-progress -m $< --side trg -o $(OUT)/embed/en-$*.$*.npy $(OUT)/embed/$*.txt
	touch $@

# A small neural encoder on the en-de sample bitext: a fixed number of steps
# (not a time limit), so it is the same model however fast the machine is;
# 200 pairs held out for P@1 (its training log and plot lie beside it). Then
# combined with the lexical en-de encoder (W = 0.7) into one model, and both
# encode the split sentences as the lexical ones do.
$(OUT)/embed/neural-en-de.safetensors: $(SAMPLES)/en-de.tsv | $(OUT)
	mkdir -p $(OUT)/embed
	$(BIN)/pc-embed train --kind neural --no-progress -s en -t de --vocab-size 1000 --dim 64 --heads 4 \
	  --ffn-dim 256 --layers 2 --batch-pairs 64 --max-steps 300 --valid-pairs 200 --valid-every 100 \
	  -o $@ --meta $@.meta.json $<

$(OUT)/embed/combined-en-de.safetensors: $(OUT)/embed/en-de.safetensors $(OUT)/embed/neural-en-de.safetensors
	$(BIN)/pc-embed combine --weight 0.7 -o $@ --meta $@.meta.json $^

$(OUT)/embed/%-en-de.done: $(OUT)/embed/%-en-de.safetensors $(OUT)/embed/en.txt $(OUT)/embed/de.txt
	$(BIN)/pc-embed encode --no-progress -m $< --side src -o $(OUT)/embed/$*-en-de.en.npy $(OUT)/embed/en.txt
	$(BIN)/pc-embed encode --no-progress -m $< --side trg -o $(OUT)/embed/$*-en-de.de.npy $(OUT)/embed/de.txt
	touch $@

check: $(PAIRS:%=$(OUT)/%.checked)

clean:
	rm -rf $(OUT)

# Mining the split sentences of both languages with their vectors.
$(OUT)/mine/en-%.tsv: $(OUT)/embed/en-%.done
	mkdir -p $(OUT)/mine
	$(BIN)/pc-mine mine --no-progress --src $(OUT)/embed/en.txt --trg $(OUT)/embed/$*.txt \
	  --src-npy $(OUT)/embed/en-$*.en.npy --trg-npy $(OUT)/embed/en-$*.$*.npy \
	  --threshold 1.0 -o $@ --meta $@.meta.json

# Chapters paired across languages, their sentences aligned, then TMX.
$(OUT)/docpairs/en-%.jsonl: $(OUT)/sents/.done
	mkdir -p $(OUT)/docpairs
	$(BIN)/pc-docalign --no-progress -s en -t $* $(OUT)/sents/en.jsonl $(OUT)/sents/$*.jsonl -o $@ --meta $@.meta.json

$(OUT)/aligned/en-%.tsv: $(OUT)/docpairs/en-%.jsonl $(OUT)/embed/en-%.safetensors
	mkdir -p $(OUT)/aligned
	$(BIN)/pc-align --no-progress --encoder $(OUT)/embed/en-$*.safetensors $< -o $@ --meta $@.meta.json

# Mined and aligned bitext -> cleaned bitext (pc-clean's default chain, the
# rejected rows with their rule beside it) -> TMX. pc-clean finds src_text and
# trg_text by the header that pc-mine and pc-align write, and passes their
# other columns (mine_score and ids; URLs and align_score) through.
$(OUT)/mine/en-%.clean.tsv: $(OUT)/mine/en-%.tsv
	$(BIN)/pc-clean --no-progress -s en -t $* --rejected $(OUT)/mine/en-$*.rejected.tsv $< -o $@ --meta $@.meta.json

$(OUT)/aligned/en-%.clean.tsv: $(OUT)/aligned/en-%.tsv
	$(BIN)/pc-clean --no-progress -s en -t $* --rejected $(OUT)/aligned/en-$*.rejected.tsv $< -o $@ --meta $@.meta.json

$(OUT)/mine/en-%.tmx.gz: $(OUT)/mine/en-%.clean.tsv
	$(BIN)/pc-tmx --no-progress -s en -t $* $< -o $@ --meta $@.meta.json

$(OUT)/aligned/en-%.tmx.gz: $(OUT)/aligned/en-%.clean.tsv
	$(BIN)/pc-tmx --no-progress -s en -t $* $< -o $@ --meta $@.meta.json

# A tiny NMT model (150 steps, about a minute, on the first 2500 en-fr pairs;
# steps, not seconds, so the model is the same on any machine), then
# 40 of the held-out sources translated by greedy decoding and by parallel
# decoding, which must give the same output.
$(OUT)/nmt/tiny.safetensors: $(SAMPLES)/en-fr.tsv | $(OUT)
	mkdir -p $(OUT)/nmt
	head -n 2501 $< > $(OUT)/nmt/train.tsv
	tail -n +2502 $< | cut -f1 | head -n 40 > $(OUT)/nmt/test.en
	$(BIN)/pc-nmt train --no-progress -q --arch tiny --vocab-size 2000 --batch-tokens 2048 --warmup 50 \
	  --max-steps 150 -o $@ --meta $@.meta.json $(OUT)/nmt/train.tsv

$(OUT)/nmt/decode.txt: $(OUT)/nmt/tiny.safetensors
	for m in "greedy:--batch-size 1" "parallel:--decode jacobi --block 4 --draft ngram --candidates 3"; do \
	  start=$$(date +%s.%N); \
	  $(BIN)/pc-nmt translate -q -j 1 -m $< $${m#*:} $(OUT)/nmt/test.en -o $(OUT)/nmt/test.$${m%%:*}.fr --stats $(OUT)/nmt/$${m%%:*}.stats; \
	  echo "$${m%%:*} $$(date +%s.%N) $$start" >> $@.tmp; \
	done
	awk '{ printf "pc-nmt translate, 40 held-out en-fr sentences, %s: %.2f s\n", $$1, $$2 - $$3 }' $@.tmp > $@; rm -f $@.tmp
	cmp -s $(OUT)/nmt/test.greedy.fr $(OUT)/nmt/test.parallel.fr && echo "parallel decoding output identical to greedy: yes" >> $@ \
	  || { echo "parallel decoding output differs from greedy" >&2; exit 1; }
	awk -F'\t' 'NR > 1 { p += $$2; t += $$3 } END { printf "parallel decoding: %.2f tokens a pass\n", t / p }' $(OUT)/nmt/parallel.stats >> $@
