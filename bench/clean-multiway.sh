#!/usr/bin/env bash
# What pc-clean's multi-way signal (--multiway, multiway_score, rule
# multiway=N) says about human translations: the clean test pairs of the
# package split (en-LANG.test.tsv of scripts/make-package-split.sh) scored
# against the bitexts of every other installed catalogue language (all of
# its packages, as a user would pass the other pairs' corpora), and the
# share of them rule multiway=N would reject for several N.
#   bench/clean-multiway.sh TOOLS_DIR WORK_DIR [LANG...]     (default: fr de es)
# The split is made in WORK_DIR/split unless it is there.
set -euo pipefail
tools=$1
work=$2
shift 2
langs=("$@")
[ ${#langs[@]} -gt 0 ] || langs=(fr de es)
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work/other"
[ -f "$work/split/en-${langs[0]}.test.tsv" ] || bash "$here/../scripts/make-package-split.sh" "$work/split" "${langs[@]}" >/dev/null
# One bitext per installed locale with at least 1,000 pairs: every singular
# msgid/msgstr pair of its catalogues, normalised as the split is.
/usr/bin/python3 - "$here/../scripts" "$work/other" <<'EOF'
import glob, os, sys
sys.path.insert(0, sys.argv[1])
import gettext_catalogues as g
out = sys.argv[2]
for d in sorted(glob.glob("/usr/share/locale/*/LC_MESSAGES")):
    loc = d.split("/")[-2]
    if loc.startswith("en") or "@" in loc:
        continue
    rows = set(g.locale_pairs(loc, filtered=True))
    if len(rows) >= 1000:
        with open(os.path.join(out, f"en-{loc}.tsv"), "w") as f:
            f.write("src_text\ttrg_text\n")
            for s, t in sorted(rows):
                f.write(f"{s}\t{t}\n")
EOF
for lang in "${langs[@]}"; do
  others=$(ls "$work"/other/en-*.tsv | grep -v "/en-$lang\.tsv$" | grep -v "/en-${lang}_" | paste -sd,)
  n_other=$(echo "$others" | tr ',' '\n' | wc -l)
  "$tools/pc-clean" -q -s en -t "$lang" --chain 'fix=all' --multiway "$others" --annotate \
    "$work/split/en-$lang.test.tsv" -o "$work/mw-$lang.tsv"
  /usr/bin/python3 - "$work/mw-$lang.tsv" "$lang" "$n_other" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8"), delimiter="\t", quoting=csv.QUOTE_NONE))
v = sorted(int(r["multiway_score"]) for r in rows)
n = len(v)
print(f"en-{sys.argv[2]}: {n} clean test pairs, {int(sys.argv[3])} other languages; multiway_score "
      f"median {statistics.median(v):g}, quartiles {v[n // 4]} / {v[3 * n // 4]}, max {v[-1]}")
print("  share rule multiway=N rejects: " +
      ", ".join(f"N={t} {sum(x >= t for x in v) / n:.1%}" for t in (2, 3, 5, 10, 20, 40)))
EOF
done
