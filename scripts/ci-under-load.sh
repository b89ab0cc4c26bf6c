#!/usr/bin/env bash
# CI under load: clone this repository (committed HEAD) into a temporary directory, start two
# busy-loop processes beside it (two cores' worth of competition), and run `CI=true bash
# .ci/run` three times in a row. Each run's result and duration are appended to
# bench/ci-under-load.md in this checkout. The burners are killed on every exit path.
#
# Usage: bash scripts/ci-under-load.sh [runs]   (default 3)
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/ci-under-load.XXXXXX")"
out="$here/bench/ci-under-load.md"
burners=()

cleanup() {
  for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

git clone -q "$here" "$work/repo"
commit="$(git -C "$work/repo" rev-parse --short HEAD)"

for _ in 1 2; do
  node -e 'for (;;) {}' &
  burners+=("$!")
done

if [ ! -f "$out" ]; then
  {
    echo "# CI under load"
    echo
    echo "\`scripts/ci-under-load.sh\`: a clean clone, two busy-loop processes beside it,"
    echo "\`CI=true bash .ci/run\` run three times in a row. One table per invocation."
  } > "$out"
fi
{
  echo
  echo "## $(date -u +%Y-%m-%dT%H:%MZ), commit $commit, $(nproc) cores, 2 burners"
  echo
  echo "| run | result | duration (s) | failing tests |"
  echo "|---|---|---|---|"
} >> "$out"

failed=0
for i in $(seq 1 "$runs"); do
  log="$work/run-$i.log"
  started=$(date +%s)
  if (cd "$work/repo" && CI=true bash .ci/run) > "$log" 2>&1; then
    result=pass
  else
    result=fail
    failed=$((failed + 1))
  fi
  took=$(( $(date +%s) - started ))
  # node:test marks failing tests with ✖; keep the first few names for the table.
  failing="$(grep -E '^\s*✖ ' "$log" | sed -E 's/^\s*✖ //; s/ \([0-9.]+ms\)$//' | sort -u | head -5 | paste -sd ';' - | sed 's/|/\\|/g')"
  echo "| $i | $result | $took | ${failing:-} |" >> "$out"
  echo "run $i: $result in ${took}s"
  [ "$result" = fail ] && tail -40 "$log"
done

echo "results appended to $out"
exit "$failed"
