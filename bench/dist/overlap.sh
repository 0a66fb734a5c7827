#!/usr/bin/env bash
# Communication per data-parallel step, with and without buckets (issue 26):
#   bench/dist/overlap.sh [BUILD_DIR] [NP]      (defaults: build, 2)
# Trains bench/dist/mlp_step.tg (256-512-512-10, f32, 1.6 MB of gradients)
# on NP ranks under scripts/mpirun-local, ROUNDS times (default 3) per
# setting, alternating, and prints per setting the median over rounds of:
# the step time, the collectives and bytes per step, and the time rank 0
# waited in them per step (`tcc run --stats`): --bucket-bytes=0 is one
# blocking all_reduce per gradient; 256 KiB and 25 MiB buckets start each
# reduction as soon as its last gradient is written and wait before the
# update that reads it. The bucketed settings run twice: without and with
# the runtime's MPI progress thread (TCC_MPI_PROGRESS_THREAD=1, "+thread"),
# since Open MPI moves a started all_reduce on only inside MPI calls. Then
# tcc-bench-progress shows the same for one all_reduce alone.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tcc="${1:-$root/build}/bin/tcc"
np="${2:-2}"
rounds="${ROUNDS:-3}"
python="${TCC_TEST_PYTHON:-/usr/bin/python3}" # with numpy (python3-numpy)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$python" - "$work" <<'PY'
import sys, numpy as np
r = np.random.default_rng(0)
x = r.normal(size=(1024, 256)).astype(np.float32)
y = np.eye(10, dtype=np.float32)[r.integers(0, 10, 1024)]
np.savez(f"{sys.argv[1]}/data.npz", x=x, y=y)
np.save(f"{sys.argv[1]}/lr.npy", np.array(0.1, np.float32))
PY
settings="0:0 262144:0 262144:1 26214400:0 26214400:1"
for round in $(seq "$rounds"); do
  for setting in $settings; do
    size="${setting%:*}"
    thread="${setting#*:}"
    TCC_MPI_PROGRESS_THREAD="$thread" \
    "$root/scripts/mpirun-local" -np "$np" "$tcc" run \
      "$root/bench/dist/mlp_step.tg" --function=step --data-parallel \
      --batches="$work/data.npz" --batch-size=256 --input=lr="$work/lr.npy" \
      --repeat="${REPEAT:-40}" --bucket-bytes="$size" --stats \
      --cache-dir="$work/cache" --output-dir="$work" |
      sed -n -e 's/.*, \([0-9.]*\) ms per call.*/step \1/p' \
        -e 's/.*: \([0-9]*\) collectives, \([0-9]*\) bytes per step; \([0-9.]*\) ms.*/comm \1 \2 \3/p' |
      tr '\n' ' ' | sed "s/^/$size $thread /"
    echo
  done
done >"$work/runs"
"$python" - "$work/runs" "$np" <<'PY'
import sys, statistics
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 8:
        continue
    rows.setdefault((int(f[0]), f[1] == "1"), []).append(
        (float(f[3]), int(f[5]), int(f[6]), float(f[7])))
print(f"data-parallel MLP step on {sys.argv[2]} ranks, batch 256 "
      f"(median of {max(len(v) for v in rows.values())} runs)")
print(f"{'--bucket-bytes':>22} {'ms/step':>9} {'collectives':>12} "
      f"{'bytes/step':>11} {'exposed ms':>11}")
for (size, thread), runs in sorted(rows.items()):
    step = statistics.median(r[0] for r in runs)
    exposed = statistics.median(r[3] for r in runs)
    name = f"{size}{' +thread' if thread else ''}"
    print(f"{name:>22} {step:>9.3f} {runs[0][1]:>12} {runs[0][2]:>11} "
          f"{exposed:>11.3f}")
PY
bench="$(dirname "$tcc")/tcc-bench-progress"
if [ -x "$bench" ]; then
  for thread in 0 1; do
    TCC_MPI_PROGRESS_THREAD="$thread" "$root/scripts/mpirun-local" -np "$np" \
      "$bench"
  done
fi
