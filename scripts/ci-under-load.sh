#!/usr/bin/env bash
# The suite must survive a busy machine. Clones this checkout to a temporary directory, starts
# two busy-loop processes (one per core here), runs `CI=true bash .ci/run` three times in a
# row on the clone, and appends the results (pass/fail, duration, load) to bench/ci-under-load.md.
#   bash scripts/ci-under-load.sh            three runs
#   RUNS=1 bash scripts/ci-under-load.sh     one run
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${RUNS:-3}"
work="$(mktemp -d)"
burners=()
cleanup() {
  for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

git clone -q "$root" "$work/p"
commit=$(git -C "$work/p" rev-parse --short HEAD)
for _ in 1 2; do
  node -e 'for (;;) {}' &
  burners+=("$!")
done

results=()
failed=0
for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  if (cd "$work/p" && CI=true bash .ci/run > "$work/run-$i.log" 2>&1); then status=passed; else status=FAILED; failed=1; fi
  secs=$(( $(date +%s) - start ))
  summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' "$work/run-$i.log" | tail -1)
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  results+=("| $i | $status | ${secs} s | ${summary:-no summary} | $load |")
  echo "run $i: $status in ${secs}s (${summary:-no summary}; load $load)"
  [ "$status" = FAILED ] && tail -40 "$work/run-$i.log"
done

{
  echo
  echo "## $(date -u +%Y-%m-%dT%H:%MZ) on ${commit}, two busy loops beside the suite, $(nproc) cores"
  echo
  echo "| run | result | wall time | tests | load (1/5/15 min) |"
  echo "|---|---|---|---|---|"
  printf '%s\n' "${results[@]}"
} >> "$root/bench/ci-under-load.md"
exit $failed
