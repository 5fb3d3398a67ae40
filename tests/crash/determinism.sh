#!/usr/bin/env bash
# Thread-count independence of every tool: the same command with -j1 and -j2
# on the same multi-batch input writes the same files.
#   determinism.sh BIN_DIR     (ONLY=REGEX: only the modes whose name matches)
# Each run is in a folder of its own with the same relative output names, so
# the command lines recorded in the outputs agree. Outputs are compared byte
# for byte, except the throughput in pc-nmt's training log and the WARC
# records' IDs and dates (see same-output.py). A command without -j (pc-ibm1
# lexicon, pc-nmt inspect, pc-eval mining and align) runs twice instead; for
# pc-crawl, which has no -j either, one host with --host-connections 1 is
# crawled with --connections 1 and 4, and the WARCs' target URIs and payload
# digests must come in the same order.
# One line per tool and mode; exit 1 if any differ.
source "$(dirname "$0")/lib.sh"
failures=0

# det_mode NAME THREADS COMMAND...   THREADS: "-j" (append -j1 and -j2),
# "none" (run the same command twice) or "ARG1|ARG2" (append ARG1, then ARG2).
det_mode() {
  local name=$1 how=$2
  [[ $name =~ ${ONLY:-.} ]] || return 0
  shift 2
  local dir=$work/$name a b
  case $how in
    -j) a=-j1 b=-j2 ;;
    none) a= b= ;;
    *) a=${how%|*} b=${how#*|} ;;
  esac
  mkdir -p "$dir/1" "$dir/2"
  local problems=()
  # shellcheck disable=SC2086  # $a and $b are one word or none
  (cd "$dir/1" && "$@" $a) >/dev/null 2>"$dir/1.err" || problems+=("the ${a:-first} run exited $?: $(tail -1 "$dir/1.err")")
  # shellcheck disable=SC2086
  (cd "$dir/2" && "$@" $b) >/dev/null 2>"$dir/2.err" || problems+=("the ${b:-second} run exited $?: $(tail -1 "$dir/2.err")")
  local files=()
  mapfile -t files < <(cd "$dir" && { (cd 1 && find . -type f); (cd 2 && find . -type f); } | sed 's|^\./||' | sort -u)
  [ ${#files[@]} -gt 0 ] || problems+=("no output files")
  local f bytes=0
  for f in "${files[@]}"; do
    if [ ! -e "$dir/1/$f" ] || [ ! -e "$dir/2/$f" ]; then
      problems+=("$f written by one run only")
    elif ! same "$dir/1/$f" "$dir/2/$f"; then
      problems+=("$f differs ($(cmp "$dir/1/$f" "$dir/2/$f" 2>&1 | head -1))")
    else
      bytes=$((bytes + $(stat -c %s "$dir/1/$f")))
    fi
  done
  local summary="${a:-run 1} vs ${b:-run 2}: ${#files[@]} files, $bytes bytes"
  if [ ${#problems[@]} = 0 ]; then
    echo "$name: ok: $summary identical"
  else
    echo "$name: FAIL: $summary"
    printf '    %s\n' "${problems[@]}"
    failures=$((failures + 1))
  fi
}

make_inputs
start_server

det_mode pc-split -j "$bin/pc-split" -q -l de "$in/para.txt" -o sentences.txt
det_mode pc-split.jsonl -j "$bin/pc-split" -q "$in/docs.jsonl" -o sentences.jsonl
det_mode pc-tmx.to-tmx -j "$bin/pc-tmx" -q -s en -t xx "$in/huge.tsv" -o out.tmx
det_mode pc-tmx.to-tsv -j "$bin/pc-tmx" -q "$in/big.tmx" -o out.tsv
det_mode pc-ingest -j "$bin/pc-ingest" -q "$samples/site" -o docs.jsonl
det_mode pc-ingest.split-by-lang -j "$bin/pc-ingest" -q --no-dedup --split-by-lang langs "$samples/site" "$samples/site"
det_mode pc-ibm1.train -j "$bin/pc-ibm1" train -q -o model.st "$in/all.tsv"
det_mode pc-ibm1.train-variational -j "$bin/pc-ibm1" train -q --variational -o model.st "$samples/bitext/en-de.tsv"
det_mode pc-ibm1.align -j "$bin/pc-ibm1" align -q -m "$in/ibm1.st" --direction sym "$in/big.tsv" -o align.txt
det_mode pc-ibm1.align-trains -j "$bin/pc-ibm1" align -q "$samples/bitext/en-ru.tsv" -o align.txt
det_mode pc-ibm1.score -j "$bin/pc-ibm1" score -q -m "$in/ibm1.st" "$in/big.tsv" -o scores.tsv
det_mode pc-ibm1.translate -j "$bin/pc-ibm1" translate -q -m "$in/ibm1.st" "$in/src.txt" -o out.txt
det_mode pc-ibm1.lexicon none "$bin/pc-ibm1" lexicon -q -m "$in/ibm1.st" -o lex.txt
det_mode pc-nmt.train -j "$bin/pc-nmt" train "${NMT_TINY[@]}" --max-steps 4 --valid-every 2 --log-every 1 \
  --valid "$tdata/nmt/valid.tsv" -q -o model.st "$tdata/nmt/train.tsv"
det_mode pc-nmt.translate -j "$bin/pc-nmt" translate -q -m "$in/nmt.st" "$in/nmt-src.txt" -o out.txt
det_mode pc-nmt.inspect none "$bin/pc-nmt" inspect --vocab -m "$in/nmt.st" -o vocab.tsv
det_mode pc-nmt.import-marian none "$bin/pc-nmt" import-marian -q -o model.st "$tdata/marian"
det_mode pc-eval.bleu,chrf,chrf++ -j "$bin/pc-eval" bleu,chrf,chrf++ -q -r "$in/ref.txt" "$in/src.txt" -o scores.txt
det_mode pc-eval.sentence -j "$bin/pc-eval" bleu,chrf --sentence -q -r "$in/ref-big.txt" "$in/src-big.txt" -o scores.txt
det_mode pc-eval.paired-bs -j "$bin/pc-eval" chrf --paired-bs --paired-bs-n 50 -q -r "$in/ref-big.txt" "$in/src-big.txt" "$in/ref-big.txt" -o scores.txt
det_mode pc-eval.mining none "$bin/pc-eval" mining -q -g "$in/mine.gold" "$in/mine.cand" -o mining.tsv
det_mode pc-eval.align none "$bin/pc-eval" align -q -g "$in/wa.gold" "$in/wa.test" -o aer.tsv
det_mode pc-clean -j "$bin/pc-clean" -q -s en -t de --rejected rejected.tsv "$in/big.tsv" -o kept.tsv
det_mode pc-clean.annotate-scores -j "$bin/pc-clean" -q -s en -t de --annotate --ibm1 "$in/ibm1.st" "$in/big.tsv" -o annotated.tsv
det_mode pc-embed.train -j "$bin/pc-embed" train -q "${EMBED_SMALL[@]}" -o enc.st "$samples/bitext/en-de.tsv"
det_mode pc-embed.encode -j "$bin/pc-embed" encode -q -m "$in/enc.st" -o vectors.npy "$in/src-big.txt"
det_mode pc-embed.encode-bert -j "$bin/pc-embed" encode -q -m "$in/bert.st" --dtype float16 -o vectors.npy "$in/bert-src.txt"
det_mode pc-embed.score -j "$bin/pc-embed" score -q -m "$in/enc.st" "$in/big.tsv" -o scored.tsv
det_mode pc-embed.import none "$bin/pc-embed" import -q --pooling mean -o enc.st "$tdata/embed/spm"
det_mode pc-crawl "--connections 1|--connections 4" "$bin/pc-crawl" -q --delay 0 --host-connections 1 --max-pages 30 \
  -o site.warc.gz "$base/"

[ "$failures" = 0 ] || { echo "$failures tools or modes failed"; exit 1; }
