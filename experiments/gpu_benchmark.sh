#!/usr/bin/env bash
# The GPU benchmark (docs/benchmarks.md): the kernel benchmarks and a 10^7-shot shot map on
# one GPU, with the goal of under 5 minutes for all of it. Needs carromlab[gpu] (JAX with
# CUDA). Writes JSON lines to OUT/gpu.jsonl (default out/gpu) and prints them.
#
#   bash experiments/gpu_benchmark.sh [OUT]
#
# DEVICE=cpu BATCH=2000 N=2 bash experiments/gpu_benchmark.sh /tmp/g   checks the script on
# a CPU at a small size.
#
# The GPU figures are not yet measured: docs/benchmarks.md has none, and a CPU run of this
# script says so in its output (its figures are the script's check, not a GPU result).
set -euo pipefail
OUT=${1:-out/gpu}
DEVICE=${DEVICE:-gpu}
BATCH=${BATCH:-1000000}
N=${N:-12611}
mkdir -p "$OUT"
LOG="$OUT/gpu.jsonl"
: > "$LOG"
if [ "$DEVICE" = gpu ]; then
  export JAX_PLATFORMS=cuda
else
  export JAX_PLATFORMS=cpu
  echo "NOTE: DEVICE=$DEVICE: a check of this script on the CPU, not a GPU measurement;" \
       "the GPU figures are not yet measured (docs/benchmarks.md)." >&2
fi
start=$(date +%s.%N)
python3 -c "import carromlab.physics, jax; print({'devices': [str(d) for d in jax.devices()]})"
for scenario in cut break; do
  carromlab bench --device "$DEVICE" --scenario "$scenario" --batch "$BATCH" --chunk 131072 --json \
    | tee -a "$LOG"
done
# 13 placements x 61 angles = 793 cells x 12,611 shots = 10,000,523 shots
t0=$(date +%s.%N)
carromlab shotmap --position icf-midgame --placements=-0.18:0.18:13 --angles 30:150:61 \
  --speeds 2.0 --n "$N" --chunk 262144 --out "$OUT/shotmap" --json | tee -a "$LOG"
t1=$(date +%s.%N)
python3 - "$start" "$t0" "$t1" "$N" "$DEVICE" <<'PY' | tee -a "$LOG"
import json, sys, time
start, t0, t1, n = map(float, sys.argv[1:5])
device = sys.argv[5]
total, shots = time.time() - start, int(793 * n)
out = {"device": device, "shotmap_shots": shots, "shotmap_s": round(t1 - t0, 1),
       "shotmap_shots_per_s": round(shots / (t1 - t0)),
       "total_s": round(total, 1), "goal_5_min": total < 300}
if device != "gpu":
    out["gpu_figures"] = "not yet measured: this run checks the script on the CPU"
print(json.dumps(out))
PY
