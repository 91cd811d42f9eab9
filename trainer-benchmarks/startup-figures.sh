#!/usr/bin/env bash
# Start-up figures (medians of RUNS, default 5) of the CLI jar, printed, not asserted:
#   local  `trainer.jar local --no-execute` until its banner ("Kubeflow Trainer is running locally")
#   run    `trainer.jar run` against the embedded API server of a `local` instance, until /readyz answers 200
# Each as wall time and as CPU time (user + sys of the process from /proc/<pid>/stat when it is ready: on a shared
# machine the wall time follows the other processes' load, the CPU time much less), for three JVM settings: none,
# the AppCDS archive (trainer-cli/target/trainer.jsa, made by the build's training run AppCdsTraining, made here
# when missing), and the archive with C1 only (-XX:TieredStopAtLevel=1), which is what bin/trainer runs.
# Usage: [RUNS=5] trainer-benchmarks/startup-figures.sh [path/to/trainer.jar]
#        (after ./mvnw -DskipTests package -pl trainer-local -am)
set -euo pipefail
JAR=${1:-trainer-cli/target/trainer.jar}
JSA=${JSA:-${JAR%.jar}.jsa}
RUNS=${RUNS:-5}
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

now_ms() { date +%s%3N; }
# user + sys CPU milliseconds of process $1 so far
cpu_ms() { local st; read -ra st < "/proc/$1/stat"; echo $(( (st[13] + st[14]) * 1000 / $(getconf CLK_TCK) )); }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# Starts `local` with JVM options $1; sets LOCAL_MS and LOCAL_CPU to the wall and CPU milliseconds to its banner
# and leaves it running as LOCAL_PID (no command substitution: the PID must reach this shell).
start_local() {
  local out t0 attempt
  for attempt in 1 2 3; do
    out="$WORK/local.$RANDOM.out"
    t0=$(now_ms)
    java $1 -jar "$JAR" local --no-execute --port 0 --kubeconfig-out "$WORK/kubeconfig" >"$out" 2>&1 &
    LOCAL_PID=$!
    until grep -qs "Kubeflow Trainer is running locally" "$out"; do
      if ! kill -0 $LOCAL_PID 2>/dev/null; then
        echo "local failed to start (attempt $attempt): $(head -1 "$out")" >&2
        continue 2
      fi
      sleep 0.01
    done
    LOCAL_MS=$(( $(now_ms) - t0 ))
    LOCAL_CPU=$(cpu_ms $LOCAL_PID)
    return 0
  done
  exit 1
}

stop() { kill "$1"; wait "$1" 2>/dev/null || true; }

# `run` with JVM options $1 against the kubeconfig; echoes the wall and CPU milliseconds to /readyz 200.
time_run() {
  local health metrics webhook t0 pid
  health=$(free_port); metrics=$(free_port); webhook=$(free_port)
  t0=$(now_ms)
  java $1 -jar "$JAR" run --kubeconfig "$WORK/kubeconfig" --leader-elect=false --health-port "$health" \
    --metrics-port "$metrics" --webhook-port "$webhook" >"$WORK/run.out" 2>&1 &
  pid=$!
  until curl -fs "http://127.0.0.1:$health/readyz" >/dev/null 2>&1; do
    kill -0 $pid 2>/dev/null || { cat "$WORK/run.out" >&2; exit 1; }
    sleep 0.01
  done
  echo "$(( $(now_ms) - t0 )) $(cpu_ms $pid)"
  stop $pid
}

if [[ ! -f "$JSA" ]]; then
  echo "Training run: writing the AppCDS archive $JSA"
  java -XX:ArchiveClassesAtExit="$JSA" -cp "$JAR" io.kftrainer.cli.AppCdsTraining \
    "$(dirname "$0")/../examples/torch-trainjob.yaml" >"$WORK/training.out" 2>&1 || { cat "$WORK/training.out" >&2; exit 1; }
fi

median_of() { printf '%s\n' "$@" | median; }
echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-24s %-44s %-44s\n' "JVM options" "local to banner: wall ms / CPU ms (runs)" "run to /readyz: wall ms / CPU ms (runs)"
for mode in "none|-Xshare:auto" "AppCDS|-XX:SharedArchiveFile=$JSA" \
    "AppCDS + C1 (bin/trainer)|-XX:SharedArchiveFile=$JSA -XX:TieredStopAtLevel=1"; do
  name=${mode%%|*}; opts=${mode#*|}
  local_ms=(); local_cpu=(); run_ms=(); run_cpu=()
  for _ in $(seq "$RUNS"); do
    start_local "$opts"; local_ms+=("$LOCAL_MS"); local_cpu+=("$LOCAL_CPU"); stop $LOCAL_PID
  done
  start_local ""
  for _ in $(seq "$RUNS"); do
    read -r wall cpu < <(time_run "$opts"); run_ms+=("$wall"); run_cpu+=("$cpu")
  done
  stop $LOCAL_PID
  printf '%-24s %5d / %5d (%s)   %5d / %5d (%s)\n' "$name" \
    "$(median_of "${local_ms[@]}")" "$(median_of "${local_cpu[@]}")" "${local_ms[*]}" \
    "$(median_of "${run_ms[@]}")" "$(median_of "${run_cpu[@]}")" "${run_ms[*]}"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
