#!/usr/bin/env bash
# Crash safety of every tool: SIGKILL in the middle of a run never leaves a
# half file under an output's name, and the next run cleans up.
#   kill-test.sh BIN_DIR     (ONLY=REGEX: only the modes whose name matches)
# For each tool and mode that writes files: a reference run (in a folder of
# its own) gives the outputs and the run time T; then the same command, in a
# fresh folder, is killed with SIGKILL at $KILLS points drawn by $RANDOM
# seeded with 42: from (0.05 T, 0.85 T), the last from (0.85 T, T). After each kill every output is as it
# was before the run (absent for the first kill; for the others, a "previous
# version" put there beforehand) or the whole new output of the reference run
# (the kill came after its rename). A last run of the same command must then
# succeed, give the reference outputs and leave none of the temporaries
# (.NAME.tmp-HOST-PID-XXXXXX) that the killed runs left.
# pc-nmt train replaces its model, checkpoint, log and plot at each
# validation: a kill may leave one of those, which must be a whole file, and
# a run resumed from that checkpoint (--resume) must end with the reference
# model's tensors. pc-crawl --state appends to its WARC: killed runs are
# resumed and the crawl must end with every page once and a readable WARC.
# One line per tool and mode; exit 1 if any check failed.
source "$(dirname "$0")/lib.sh"
KILLS=${KILLS:-3}
RANDOM=42
failures=0

now_ms() { echo $(($(date +%s%N) / 1000000)); }
state_of() { [ -e "$1" ] && sha1sum <"$1" | cut -c1-40 || echo absent; }

# kill_mode NAME FLAGS COMMAND...   (COMMAND runs in the output folder)
# FLAGS: "-" or a comma list of: replaces (outputs may be replaced by whole
# intermediate versions while the run works), resume (check --resume from a
# checkpoint a kill left).
kill_mode() {
  local name=$1 flags=$2
  [[ $name =~ ${ONLY:-.} ]] || return 0
  shift 2
  local dir=$work/$name ref=$work/$name/ref run=$work/$name/run
  mkdir -p "$ref" "$run"
  local t0 t rc
  t0=$(now_ms)
  (cd "$ref" && "$@") >"$dir/ref.out" 2>"$dir/ref.err" || {
    echo "$name: FAIL: the reference run exited $?: $(tail -1 "$dir/ref.err")"
    failures=$((failures + 1))
    return
  }
  t=$(($(now_ms) - t0))
  local outputs=()
  mapfile -t outputs < <(cd "$ref" && find . -type f | sed 's|^\./||' | sort)
  local problems=() killed=0 finished=0 left=0 intermediate=0 resumed=0
  for k in $(seq "$KILLS"); do
    declare -A before=()
    local o
    for o in "${outputs[@]}"; do
      if [ "$k" -gt 1 ]; then
        mkdir -p "$(dirname "$run/$o")"
        printf 'previous complete version of %s\n' "$o" >"$run/$o"
      fi
      before[$o]=$(state_of "$run/$o")
    done
    # The first kills anywhere in the run, the last in its final 15%, where
    # the outputs are written and renamed.
    local delay
    if [ "$k" -lt "$KILLS" ]; then delay=$((t * (5 + RANDOM % 80) / 100)); else delay=$((t * (85 + RANDOM % 15) / 100)); fi
    (cd "$run" && exec "$@") >/dev/null 2>"$dir/kill$k.err" &
    local pid=$!
    sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
    kill -KILL "$pid" 2>/dev/null
    { wait "$pid"; } 2>/dev/null
    rc=$?
    case $rc in
      137) killed=$((killed + 1)) ;;
      0) finished=$((finished + 1)) ;;
      *) problems+=("kill $k at ${delay} ms: exit $rc: $(tail -1 "$dir/kill$k.err")") ;;
    esac
    for o in "${outputs[@]}"; do
      [ "$(state_of "$run/$o")" = "${before[$o]}" ] && continue
      same "$ref/$o" "$run/$o" 2>/dev/null && continue
      if [[ $flags == *replaces* ]] && /usr/bin/python3 "$crash_dir/same-output.py" complete "$run/$o"; then
        intermediate=$((intermediate + 1))
        continue
      fi
      problems+=("kill $k at ${delay} ms left a half or wrong $o ($(stat -c %s "$run/$o" 2>/dev/null || echo no) bytes)")
    done
    # A file that is neither an output nor a temporary of one is a half file
    # under another name.
    local extra
    extra=$(cd "$run" && find . -type f ! -name '.*.tmp-*' | sed 's|^\./||' | sort | comm -23 - <(printf '%s\n' "${outputs[@]}"))
    [ -z "$extra" ] || problems+=("kill $k left other files: $extra")
    if [[ $flags == *resume* ]] && [ "$rc" = 137 ]; then
      local ck
      for ck in "${outputs[@]}"; do
        [[ $ck == *.ckpt ]] || continue
        [ -e "$run/$ck" ] && [ "$(state_of "$run/$ck")" != "${before[$ck]}" ] || continue
        # Resume in a copy, so the next kill still starts from this folder.
        rm -rf "$dir/resume" && cp -a "$run" "$dir/resume"
        if (cd "$dir/resume" && "$@" --resume) >/dev/null 2>"$dir/resume.err"; then
          for o in "${outputs[@]}"; do
            [[ $o == *.ckpt || $o == *.st ]] || continue
            /usr/bin/python3 "$tdata/nmt/same-tensors.py" "$ref/$o" "$dir/resume/$o" ||
              problems+=("resumed from the checkpoint kill $k left: $o differs from the reference")
          done
          resumed=$((resumed + 1))
        else
          problems+=("resume from the checkpoint kill $k left failed: $(tail -1 "$dir/resume.err")")
        fi
      done
    fi
    unset before
  done
  left=$(find "$run" -name '.*.tmp-*' | wc -l)
  if (cd "$run" && "$@") >/dev/null 2>"$dir/last.err"; then
    local stale
    stale=$(find "$run" -name '.*.tmp-*' | sed "s|^$run/||")
    [ -z "$stale" ] || problems+=("the run after the kills left stale temporaries: $(echo $stale)")
    for o in "${outputs[@]}"; do
      same "$ref/$o" "$run/$o" || problems+=("the run after the kills gave another $o")
    done
  else
    problems+=("the run after the kills exited $?: $(tail -1 "$dir/last.err")")
  fi
  local extra_note=""
  [ "$intermediate" = 0 ] || extra_note+=", $intermediate whole intermediate files"
  [ "$resumed" = 0 ] || extra_note+=", $resumed resumed from a killed run's checkpoint"
  local summary="$killed kills ($finished runs finished first) in a ${t} ms run, ${#outputs[@]} outputs, $left stale temporaries left, removed by the next run$extra_note"
  if [ ${#problems[@]} = 0 ]; then
    echo "$name: ok: $summary"
  else
    echo "$name: FAIL: $summary"
    printf '    %s\n' "${problems[@]}"
    failures=$((failures + 1))
  fi
}

# The pages (not robots.txt, fetched by every run) of a WARC's responses.
pages() { zcat "$1" | grep -a -A3 '^WARC-Type: response' | grep -a '^WARC-Target-URI: ' | tr -d '\r' | grep -v '/robots.txt$' | sort; }

# pc-crawl --state: the WARC is appended to and the state saved once a
# second; killed runs are resumed by the same command until one finishes.
# The test server answers in well under a millisecond, so the crawls here
# wait 30 ms between requests: a whole crawl (74 requests) lasts long
# enough for the kills to fall after state saves.
crawl_state_mode() {
  local name=pc-crawl.state dir=$work/pc-crawl.state
  [[ $name =~ ${ONLY:-.} ]] || return 0
  mkdir -p "$dir/ref" "$dir/run"
  local cmd=("$bin/pc-crawl" -q --delay 0.03 --host-connections 1 --state crawl.state -o site.warc.gz "$base/")
  local t0 t rc problems=() killed=0 finished=0
  t0=$(now_ms)
  (cd "$dir/ref" && "${cmd[@]}") 2>"$dir/ref.err" || {
    echo "$name: FAIL: the reference crawl exited $?: $(tail -1 "$dir/ref.err")"
    failures=$((failures + 1))
    return
  }
  t=$(($(now_ms) - t0))
  for k in $(seq "$KILLS"); do
    # Each kill comes within the part of the crawl a resumed run has left.
    local delay=$((t * (5 + RANDOM % 60) / 100 / k))
    (cd "$dir/run" && exec "${cmd[@]}") 2>"$dir/kill$k.err" &
    local pid=$!
    sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
    kill -KILL "$pid" 2>/dev/null
    { wait "$pid"; } 2>/dev/null
    rc=$?
    case $rc in
      137) killed=$((killed + 1)) ;;
      0) finished=$((finished + 1)) ;;
      *) problems+=("kill $k at ${delay} ms: exit $rc: $(tail -1 "$dir/kill$k.err")") ;;
    esac
  done
  if (cd "$dir/run" && "${cmd[@]}") 2>"$dir/last.err"; then
    zcat -t "$dir/run/site.warc.gz" 2>/dev/null || problems+=("the resumed WARC is not whole gzip data")
    "$bin/pc-ingest" -q --no-dedup "$dir/run/site.warc.gz" -o "$dir/docs.jsonl" 2>"$dir/ingest.err" ||
      problems+=("pc-ingest cannot read the resumed WARC: $(tail -1 "$dir/ingest.err")")
    "$bin/pc-ingest" -q --no-dedup "$dir/ref/site.warc.gz" -o "$dir/ref-docs.jsonl" 2>/dev/null
    # Documents carry the fetch date: compare their URL, language and text.
    docs() { /usr/bin/python3 -c 'import json,sys; [print(json.dumps([d["url"], d["lang"], d["text"]])) for d in map(json.loads, open(sys.argv[1]))]' "$1" | sort; }
    [ -s "$dir/docs.jsonl" ] && cmp -s <(docs "$dir/docs.jsonl") <(docs "$dir/ref-docs.jsonl") ||
      problems+=("the resumed crawl gives other documents than an uninterrupted one")
    cmp -s <(pages "$dir/run/site.warc.gz") <(pages "$dir/ref/site.warc.gz") ||
      problems+=("pages missing or fetched twice across the resumes: $(diff <(pages "$dir/ref/site.warc.gz") <(pages "$dir/run/site.warc.gz") | grep '^[<>]' | head -3 | tr '\n' ' ')")
    [ "$(zcat "$dir/run/site.warc.gz" | grep -a -c '^WARC-Type: warcinfo')" = 1 ] ||
      problems+=("the resumed WARC has $(zcat "$dir/run/site.warc.gz" | grep -a -c '^WARC-Type: warcinfo') warcinfo records")
    local stale
    stale=$(cd "$dir/run" && find . -name '*.tmp*' | sed 's|^\./||')
    [ -z "$stale" ] || problems+=("temporaries left: $(echo $stale)")
  else
    problems+=("the resumed crawl exited $?: $(tail -1 "$dir/last.err")")
  fi
  local summary="$killed kills ($finished runs finished first) in a ${t} ms crawl, resumed each time"
  if [ ${#problems[@]} = 0 ]; then
    echo "$name: ok: $summary; every page once, WARC readable"
  else
    echo "$name: FAIL: $summary"
    printf '    %s\n' "${problems[@]}"
    failures=$((failures + 1))
  fi
}

make_inputs
start_server

kill_mode pc-split - "$bin/pc-split" -q -l de "$in/para.txt" -o sentences.txt.gz
kill_mode pc-tmx.to-tmx - "$bin/pc-tmx" -q -s en -t xx "$in/huge.tsv" -o out.tmx.gz
kill_mode pc-tmx.to-tsv - "$bin/pc-tmx" -q "$in/big.tmx" -o out.tsv
kill_mode pc-ingest - "$bin/pc-ingest" -q --no-dedup "$samples/site" "$samples/site" "$samples/site" -o docs.jsonl.gz
kill_mode pc-ingest.split-by-lang - "$bin/pc-ingest" -q --no-dedup --split-by-lang langs "$samples/site" "$samples/site" "$samples/site"
kill_mode pc-ibm1.train - "$bin/pc-ibm1" train -q -o model.st "$in/all.tsv"
kill_mode pc-ibm1.align - "$bin/pc-ibm1" align -q -m "$in/ibm1.st" "$in/big.tsv" -o align.txt.gz
kill_mode pc-ibm1.score - "$bin/pc-ibm1" score -q -m "$in/ibm1.st" "$in/big.tsv" -o scores.tsv.gz
kill_mode pc-ibm1.translate - "$bin/pc-ibm1" translate -q -m "$in/ibm1.st" "$in/src.txt" -o out.txt.gz
kill_mode pc-ibm1.lexicon - "$bin/pc-ibm1" lexicon -q -m "$in/ibm1.st" -o lex.txt.gz
kill_mode pc-nmt.train replaces,resume "$bin/pc-nmt" train "${NMT_TINY[@]}" --max-steps 80 --valid-every 10 --log-every 5 \
  --valid "$tdata/nmt/valid.tsv" -q -o model.st "$tdata/nmt/train.tsv"
kill_mode pc-nmt.translate - "$bin/pc-nmt" translate -q -m "$in/nmt.st" "$in/nmt-src.txt" -o out.txt
kill_mode pc-nmt.inspect - "$bin/pc-nmt" inspect --vocab -m "$in/nmt.st" -o vocab.tsv
kill_mode pc-nmt.import-marian - "$bin/pc-nmt" import-marian -q -o model.st "$tdata/marian"
kill_mode pc-eval.bleu,chrf - "$bin/pc-eval" bleu,chrf --sentence -q -r "$in/ref-big.txt" "$in/src-big.txt" -o scores.txt
kill_mode pc-eval.mining - "$bin/pc-eval" mining -q -g "$in/mine.gold" "$in/mine.cand" -o mining.tsv
kill_mode pc-eval.align - "$bin/pc-eval" align -q -g "$in/wa.gold" "$in/wa.test" -o aer.tsv
kill_mode pc-clean - "$bin/pc-clean" -q -s en -t de --rejected rejected.tsv.gz "$in/huge.tsv" -o kept.tsv.gz
kill_mode pc-embed.train - "$bin/pc-embed" train -q "${EMBED_SMALL[@]}" -o enc.st "$in/all.tsv"
kill_mode pc-embed.encode - "$bin/pc-embed" encode -q -m "$in/enc.st" -o vectors.npy "$in/src.txt"
kill_mode pc-embed.score - "$bin/pc-embed" score -q -m "$in/enc.st" "$in/big.tsv" -o scored.tsv.gz
# The inputs of the mining and alignment tools.
cut -f1 "$in/all.tsv" >"$in/mine-src.txt"
cut -f2 "$in/all.tsv" >"$in/mine-trg.txt"
for _ in $(seq 200); do cat "$tdata/sentalign/pairs.jsonl"; done >"$in/doc-pairs.jsonl"
"$bin/pc-ingest" -q --no-dedup "$samples/site" "$samples/site" "$samples/site" "$samples/site" -o "$in/site-docs.jsonl"
kill_mode pc-mine - "$bin/pc-mine" mine -q --encoder "$in/enc.st" --src "$in/mine-src.txt" --trg "$in/mine-trg.txt" -o mined.tsv.gz
kill_mode pc-docalign - "$bin/pc-docalign" -q -s en -t de --encoder "$in/enc.st" "$in/site-docs.jsonl" -o pairs.jsonl.gz
kill_mode pc-align - "$bin/pc-align" -q --encoder "$in/enc.st" "$in/doc-pairs.jsonl" -o aligned.tsv.gz
kill_mode pc-crawl - "$bin/pc-crawl" -q --delay 0.03 --host-connections 1 --max-pages 20 -o site.warc.gz "$base/"
crawl_state_mode

[ "$failures" = 0 ] || { echo "$failures tools or modes failed"; exit 1; }
