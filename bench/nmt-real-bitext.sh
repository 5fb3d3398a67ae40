#!/usr/bin/env bash
# The real-bitext run: pc-nmt trained for at most an hour on the
# en->es pairs of this machine's gettext catalogues, scored on 1000 held-out
# pairs with pc-eval next to word-based `pc-ibm1 translate` (when built) and
# Apertium (Debian's apertium-eng-spa), and a copy-the-source floor.
#   data:  scripts/make-sample-bitext.sh with BITEXT_MAX_PAIRS=100000 -> en-es.tsv;
#          the last 1000 pairs are the test set, the 500 before them the
#          validation set, the rest (minus pairs whose English is in those)
#          the training set.
# Usage: bench/nmt-real-bitext.sh OUT_DIR [BUILD_DIR] [IBM1_BUILD_DIR] [MAX_SECONDS]
# Writes OUT_DIR/{train,valid,test}.tsv, the model, its log and SVG, the
# hypotheses and OUT_DIR/scores.tsv. Nothing is written into the repository.
set -euo pipefail
out=$1
build=${2:-build/release}
ibm1_build=${3:-$build}
max_time=${4:-2400}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=$(cd "$build" && pwd)/tools
mkdir -p "$out"
cd "$out"
BITEXT_OUT_DIR=$PWD/all BITEXT_MAX_PAIRS=100000 "$root/scripts/make-sample-bitext.sh" >/dev/null 2>&1
/usr/bin/python3 - <<'PY'
rows = [l.rstrip("\n").split("\t") for l in open("all/en-es.tsv", encoding="utf-8")][1:]
rows = [r for r in rows if len(r) == 2]
test, valid, train = rows[-1000:], rows[-1500:-1000], rows[:-1500]
held = {r[0] for r in test} | {r[0] for r in valid}
train = [r for r in train if r[0] not in held]
for name, rs in (("train.tsv", train), ("valid.tsv", valid), ("test.tsv", test)):
    with open(name, "w", encoding="utf-8") as f:
        f.write("src_text\ttrg_text\n" + "".join("\t".join(r) + "\n" for r in rs))
open("test.en", "w").write("".join(r[0] + "\n" for r in test))
open("test.es", "w").write("".join(r[1] + "\n" for r in test))
PY
"$bin/pc-nmt" train --arch tiny --vocab-size 8000 --max-len 128 \
  --batch-tokens 4096 --lr 0.001 --warmup 400 --dropout 0.2 --label-smoothing 0.1 \
  --valid valid.tsv --valid-every 400 --log-every 50 --patience 6 \
  --max-time "$max_time" -j2 --seed 1 --meta meta.json -o en-es.safetensors train.tsv
"$bin/pc-nmt" translate -m en-es.safetensors test.en > test.pc-nmt.es
apertium -u eng-spa < test.en > test.apertium.es || true
if [ -x "$ibm1_build/tools/pc-ibm1" ]; then
  "$ibm1_build/tools/pc-ibm1" train -q -o ibm1.st train.tsv
  "$ibm1_build/tools/pc-ibm1" translate -q -m ibm1.st test.en > test.pc-ibm1.es
fi
printf 'system\tBLEU\tchrF\n' > scores.tsv
for sys in "copy source:test.en" "pc-nmt (greedy):test.pc-nmt.es" "pc-ibm1 translate:test.pc-ibm1.es" \
           "Apertium eng-spa:test.apertium.es"; do
  f=${sys#*:}
  [ -s "$f" ] || continue
  printf '%s\t%s\n' "${sys%%:*}" "$("$bin/pc-eval" bleu,chrf -q --score-only -r test.es "$f" | paste -sd '\t')" >> scores.tsv
done
cat scores.tsv
