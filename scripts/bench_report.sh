#!/usr/bin/env bash
# Regenerate results/bench.md from a fresh `ecarte-sim bench` run on this machine.
# Usage: scripts/bench_report.sh [extra bench options, e.g. --deals 4000000]
set -euo pipefail
cd "$(dirname "$0")/.."
out=results/bench.md
{
  echo "# ecarte-sim bench"
  echo
  echo "Measured $(date -u +%Y-%m-%d) on $(uname -m), $(nproc) cores, commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)."
  echo "Command: \`ecarte-sim bench $*\`"
  echo
  echo '```'
  ecarte-sim bench "$@"
  echo '```'
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
