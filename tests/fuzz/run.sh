#!/bin/bash
# Runs libFuzzer targets on copies of their seed corpora and prints one line
# per target: executions, executions per second, coverage (cov: edges, ft:
# features) from libFuzzer's final status line, and the crashes, leaks,
# timeouts and out-of-memory inputs it found.
#
#   tests/fuzz/run.sh [SECONDS] [TARGET...]      (default 10 s, every target)
#
# FUZZ_BIN: folder of the fuzz_* binaries [build/fuzz/tests/fuzz]
# FUZZ_WORK: folder for corpora, logs and reproducers [a new /tmp folder]
# FUZZ_ARGS: more libFuzzer options (e.g. -jobs=2 -workers=2)
# The seed corpus in the source tree is never written to. A run that found
# something keeps its folder and names it; exit status 1 then.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seconds=10
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
  seconds=$1
  shift
fi
bin=${FUZZ_BIN:-$root/build/fuzz/tests/fuzz}
work=${FUZZ_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/paracorp-fuzz.XXXXXX")}
mkdir -p "$work"

declare -A max_len seeds_also
all=()
while read -r name lib len also; do
  [[ -z $name || $name == \#* ]] && continue
  max_len[$name]=$len
  seeds_also[$name]=${also:-}
  all+=("$name")
done < "$here/targets.txt"
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=("${all[@]}")

# UBSan reports become crashes (the fuzzer would only print them), with a
# stack; leaks are reported by AddressSanitizer at the end of each input.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}

status=0
for t in "${targets[@]}"; do
  if [[ -z ${max_len[$t]:-} ]]; then
    echo "run.sh: unknown target '$t' (see tests/fuzz/targets.txt)" >&2
    status=1
    continue
  fi
  exe=$bin/fuzz_$t
  if [[ ! -x $exe ]]; then
    echo "run.sh: $exe is missing: build it (docs/fuzzing.md)" >&2
    status=1
    continue
  fi
  dir=$work/$t
  rm -rf "$dir"
  mkdir -p "$dir/corpus" "$dir/artifacts" "$dir/tmp"
  cp "$here/corpus/$t"/* "$dir/corpus/"
  for other in ${seeds_also[$t]//,/ }; do cp "$here/corpus/$other"/* "$dir/corpus/"; done
  # TMPDIR: the targets that need a file write it there.
  TMPDIR=$dir/tmp "$exe" "$dir/corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len="${max_len[$t]}" -print_final_stats=1 -artifact_prefix="$dir/artifacts/" ${FUZZ_ARGS:-} \
    > "$dir/log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -1)
  last=$(grep -E '^#[0-9]+.*cov: ' "$dir/log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
  # Fork mode (FUZZ_ARGS=-fork=1 -ignore_crashes=1, to go on after a
  # finding) prints no final stats: take them from its last status line.
  [[ -z $runs ]] && runs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<< "$last")
  [[ -z $speed ]] && speed=$(sed -n 's/.* exec\/s:\? \([0-9]*\).*/\1/p' <<< "$last")
  count() { find "$dir/artifacts" -name "$1-*" | wc -l; }
  crashes=$(count crash) leaks=$(count leak) timeouts=$(count timeout) ooms=$(count oom)
  # An abort without an artifact (the fuzzer itself failed) is a finding too.
  if [[ $rc -ne 0 && $crashes$leaks$timeouts$ooms == 0000 ]]; then crashes=1; fi
  printf '%-12s runs %9s  exec/s %7s  cov %6s  ft %7s  crashes %s  leaks %s  timeouts %s  ooms %s\n' \
    "$t" "${runs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}" "$crashes" "$leaks" "$timeouts" "$ooms"
  if [[ $crashes$leaks$timeouts$ooms != 0000 ]]; then
    echo "  found: $dir/artifacts (log: $dir/log)"
    status=1
  fi
  rm -rf "$dir/tmp"
done
if [[ $status -eq 0 && -z ${FUZZ_WORK:-} ]]; then rm -rf "$work"; fi
exit $status
