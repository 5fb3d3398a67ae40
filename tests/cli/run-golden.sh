#!/usr/bin/env bash
# Runs one row of a CLI golden table (htslib test/*.tst style).
#
#   run-golden.sh --list TABLE      print the test names of TABLE
#   run-golden.sh TABLE NAME        run the row NAME
#
# A table row is five TAB-separated fields; everything after the fourth TAB is
# the command (run with bash -o pipefail, in a fresh temporary directory):
#   NAME  EXIT  STDOUT  STDERR  COMMAND
# STDOUT / STDERR checks:
#   -          not checked
#   empty      must be empty
#   @FILE      must equal tests/cli/expected/FILE byte for byte
#   ~REGEX     must contain a line matching the extended regex (\t = TAB)
#   !REGEX     must contain no line matching it
# Blank lines and lines starting with # are comments.
# In the command: $PC_BIN holds the tools (also on PATH), $DATA is tests/data,
# $SAMPLES is data/samples, $EXPECTED is tests/cli/expected, and $PC_ASAN is 1
# in a sanitizer build (where `ulimit -v` cannot be used) and empty otherwise.
set -u

if [ "${1:-}" = "--list" ]; then
  awk -F'\t' '!/^#/ && NF >= 5 { print $1 }' "$2"
  exit 0
fi

table=$1
name=$2
here=$(cd "$(dirname "$0")" && pwd)
row=$(awk -F'\t' -v n="$name" '!/^#/ && $1 == n { print; exit }' "$table")
if [ -z "$row" ]; then
  echo "no test named $name in $table" >&2
  exit 2
fi
IFS=$'\t' read -r _ want_exit want_out want_err cmd <<<"$row"

: "${PC_BIN:?set PC_BIN to the folder of the built tools}"
: "${PC_SRC:=$(cd "$here/../.." && pwd)}"
export PC_BIN PATH="$PC_BIN:$PATH"
export DATA="$PC_SRC/tests/data" SAMPLES="$PC_SRC/data/samples" EXPECTED="$here/expected" PC_ASAN="${PC_ASAN:-}"
# pc-clean's spell rule reads these made-up dictionaries, not the machine's.
export DICPATH="$DATA/clean/dict"
# cached FILE TOOL ARG...: runs TOOL ARG... with FILE, where it stands among
# the arguments, replaced by a temporary name, and keeps what it wrote in
# build/tests/golden-cache; the next row with the same command copies it. The
# key is the tool's size and modification time, the arguments, and the bytes
# of every argument that is a file: the models these rows train are seeded
# and come out the same on every run. Many rows start from the same small
# model (pc-nmt and pc-embed training: 2-3 s each under AddressSanitizer).
cached() {
  local file=$1 tool=$2 cache="$PC_BIN/../tests/golden-cache" key tmp a args=()
  shift
  key=$( { stat -c '%s-%Y' "$(command -v "$tool")" && printf '%s\0' "$@" &&
           for a in "$@"; do if [ "$a" != "$file" ] && [ -f "$a" ]; then sha1sum <"$a"; fi; done; } | sha1sum | cut -c1-40) || return 1
  if [ ! -s "$cache/$key" ]; then
    mkdir -p "$cache" && tmp=$(mktemp -d "$cache/.run.XXXXXX") || return 1
    for a in "$@"; do [ "$a" = "$file" ] && args+=("$tmp/out") || args+=("$a"); done
    "${args[@]}" && mv -f "$tmp/out" "$cache/$key"
    local rc=$?
    rm -rf "$tmp"
    [ "$rc" = 0 ] || return "$rc"
  fi
  cp "$cache/$key" "$file"
}
# tiny_nmt STEPS: m.safetensors in the current folder, the tiny model 42
# rows of pc-nmt.tst start from.
tiny_nmt() {
  cached m.safetensors pc-nmt train --arch tiny --dim 16 --ffn-dim 32 --enc-layers 1 --dec-layers 1 --vocab-size 120 \
    --batch-tokens 512 --warmup 2 --max-steps "$1" -q -o m.safetensors "$DATA/nmt/train.tsv"
}
export -f cached tiny_nmt
work=$(mktemp -d "${TMPDIR:-/tmp}/pc-golden.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/cwd" && cd "$work/cwd" || exit 2

bash -o pipefail -c "$cmd" >"$work/.stdout" 2>"$work/.stderr" </dev/null
got_exit=$?

fail=0
check() {  # what file spec
  local what=$1 file=$2 spec=$3
  case "$spec" in
    -) ;;
    empty) [ ! -s "$file" ] || { echo "FAIL: $what should be empty"; fail=1; } ;;
    @*) cmp -s "$file" "$EXPECTED/${spec#@}" || { echo "FAIL: $what differs from expected/${spec#@}:"; diff "$EXPECTED/${spec#@}" "$file" | head -20; fail=1; } ;;
    ~*) pat=${spec#\~}; pat=${pat//\\t/$'\t'}
        grep -qE -- "$pat" "$file" || { echo "FAIL: $what has no line matching /${spec#\~}/"; fail=1; } ;;
    !*) pat=${spec#!}; pat=${pat//\\t/$'\t'}
        ! grep -qE -- "$pat" "$file" || { echo "FAIL: $what has a line matching /${spec#!}/"; fail=1; } ;;
    *) echo "FAIL: bad check spec '$spec'"; fail=1 ;;
  esac
}
[ "$got_exit" = "$want_exit" ] || { echo "FAIL: exit $got_exit, expected $want_exit"; fail=1; }
check stdout "$work/.stdout" "$want_out"
check stderr "$work/.stderr" "$want_err"
if [ $fail -ne 0 ]; then
  echo "command: $cmd"
  echo "--- stdout (head) ---"; head -c 2000 "$work/.stdout"; echo
  echo "--- stderr (head) ---"; head -c 2000 "$work/.stderr"; echo
  exit 1
fi
echo "ok: $name"
