# The paracorp main job on the bundled samples (README quick start, command 1).
#   make -f scripts/pipeline.mk [BIN=build/release/tools] [OUT=out/sample]
# Today the pipeline is: sample bitext (TSV) -> TMX 1.4b, checked by xmllint
# and converted back to TSV to prove nothing was lost. Later stages (crawl,
# ingest, split, align, clean, train, translate, eval) join as they land.
BIN ?= build/release/tools
OUT ?= out/sample
SAMPLES := data/samples/bitext
PAIRS := $(patsubst $(SAMPLES)/%.tsv,%,$(wildcard $(SAMPLES)/en-*.tsv))

.PHONY: all check clean
.DELETE_ON_ERROR:
.SECONDARY:

all: check
	@echo "pipeline: $(words $(PAIRS)) language pairs -> $(OUT)/*.tmx.gz (provenance in *.meta.json)"

$(OUT):
	mkdir -p $@

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
