# Sourced by scripts whose help is their header comment:
#   header_usage MIN_ARGS "$@"
# prints the script's comment lines from line 2 to `set -euo` (without "# ")
# and exits, 2 with fewer than MIN_ARGS arguments, 0 for -h or --help.
header_usage() {
  local min=$1
  shift
  if [ $# -lt "$min" ] || [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    [ $# -lt "$min" ] && exit 2 || exit 0
  fi
}
