# The paracorp main job on the bundled samples (README quick start, command 1).
#   make -f scripts/pipeline.mk [BIN=build/release/tools] [OUT=out/sample]
# Today the pipeline is:
#   1. the sample website (data/samples/site) served on 127.0.0.1 on a free
#      port by tests/crawl/serve_site.py, crawled by pc-crawl into a WARC
#      (robots.txt obeyed, 0.05 s between requests), then stopped;
#   2. pc-ingest: WARC -> documents, one JSONL file per language;
#   3. sample bitext (TSV) -> TMX 1.4b, checked by xmllint and converted back
#      to TSV to prove nothing was lost.
# Later stages (split, align, clean, train, translate, eval) join as they land.
BIN ?= build/release/tools
OUT ?= out/sample
SAMPLES := data/samples/bitext
PAIRS := $(patsubst $(SAMPLES)/%.tsv,%,$(wildcard $(SAMPLES)/en-*.tsv))

.PHONY: all check clean
.DELETE_ON_ERROR:
.SECONDARY:

SITE := data/samples/site
SITE_FILES := $(shell find $(SITE) -type f)

all: check $(OUT)/docs/.done
	@echo "pipeline: site -> $(OUT)/site.warc.gz -> $(OUT)/docs/*.jsonl; $(words $(PAIRS)) language pairs -> $(OUT)/*.tmx.gz (provenance in *.meta.json)"

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

# TSV -> TMX; the languages come from the file name (en-fr.tsv).
$(OUT)/%.tmx.gz: $(SAMPLES)/%.tsv | $(OUT)
	$(BIN)/pc-tmx --no-progress $< -o $@ --meta $@.meta.json

# Well-formed XML, and TMX -> TSV gives back the input byte for byte.
$(OUT)/%.checked: $(OUT)/%.tmx.gz
	zcat $< | xmllint --noout -
	$(BIN)/pc-tmx -q $< | cmp - $(SAMPLES)/$*.tsv
	touch $@

check: $(PAIRS:%=$(OUT)/%.checked)

clean:
	rm -rf $(OUT)
