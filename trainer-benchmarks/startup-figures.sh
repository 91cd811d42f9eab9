#!/usr/bin/env bash
# Start-up figures (medians of RUNS, default 5) of the CLI jar, printed, not asserted:
#   local  `trainer.jar local --no-execute` until its banner ("Kubeflow Trainer is running locally")
#   run    `trainer.jar run` against the embedded API server of a `local` instance, until /readyz answers 200
# Each figure with and without the AppCDS archive (trainer-local/target/trainer.jsa), which the first, training
# run of `local` makes when it is missing (-XX:ArchiveClassesAtExit at its exit).
# Usage: trainer-benchmarks/startup-figures.sh [path/to/trainer.jar]   (after ./mvnw package -pl trainer-local -am)
set -euo pipefail
JAR=${1:-trainer-local/target/trainer.jar}
JSA=${JSA:-${JAR%.jar}.jsa}
RUNS=${RUNS:-5}
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

now_ms() { date +%s%3N; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# Starts `local` with JVM options $1; sets LOCAL_MS to the milliseconds to its banner and leaves it running as
# LOCAL_PID (no command substitution: the PID must reach this shell).
start_local() {
  local out t0 attempt
  for attempt in 1 2 3; do
    out="$WORK/local.$RANDOM.out"
    t0=$(now_ms)
    java $1 -jar "$JAR" local --no-execute --port 0 --kubeconfig-out "$WORK/kubeconfig" >"$out" 2>&1 &
    LOCAL_PID=$!
    until grep -q "Kubeflow Trainer is running locally" "$out"; do
      if ! kill -0 $LOCAL_PID 2>/dev/null; then
        echo "local failed to start (attempt $attempt): $(head -1 "$out")" >&2
        continue 2
      fi
      sleep 0.01
    done
    LOCAL_MS=$(( $(now_ms) - t0 ))
    return 0
  done
  exit 1
}

stop() { kill "$1"; wait "$1" 2>/dev/null || true; }

# `run` with JVM options $1 against the kubeconfig; echoes the milliseconds to /readyz 200.
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
  echo $(( $(now_ms) - t0 ))
  stop $pid
}

if [[ ! -f "$JSA" ]]; then
  echo "Training run: writing the AppCDS archive $JSA"
  start_local "-XX:ArchiveClassesAtExit=$JSA"
  stop $LOCAL_PID
fi

echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1), load $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in "no archive|-Xshare:auto" "AppCDS|-XX:SharedArchiveFile=$JSA"; do
  name=${mode%%|*}; opts=${mode#*|}
  local_ms=(); run_ms=()
  for _ in $(seq "$RUNS"); do
    start_local "$opts"; local_ms+=("$LOCAL_MS"); stop $LOCAL_PID
  done
  start_local ""
  for _ in $(seq "$RUNS"); do run_ms+=("$(time_run "$opts")"); done
  stop $LOCAL_PID
  printf '%-10s local to banner: median %5d ms (%s)   run to /readyz: median %5d ms (%s)\n' "$name" \
    "$(printf '%s\n' "${local_ms[@]}" | median)" "${local_ms[*]}" \
    "$(printf '%s\n' "${run_ms[@]}" | median)" "${run_ms[*]}"
done
