#!/usr/bin/env bash
# The operator image's AppCDS training run (Dockerfile): `run` started with -XX:ArchiveClassesAtExit against the
# embedded API server of the CLI jar (`trainer.jar apiserver`, CRDs, webhook configurations and runtimes installed),
# ready, one TrainJob created through its webhooks and reconciled to a JobSet, then stopped with SIGTERM as Kubernetes
# stops it: the JVM writes the archive as it exits. The archive so holds what `run` loads before it is ready and for
# its first reconcile (client, informers, JOSDK, webhook server and certificates, plugins).
# Only bash and java are needed (HTTP through bash's /dev/tcp): the JRE image has no curl.
# Usage: appcds-training.sh OPERATOR_JAR ARCHIVE TRAINER_JAR TRAINJOB_YAML
set -euo pipefail
operator_jar=$1 archive=$2 trainer_jar=$3 trainjob=$4
work=$(mktemp -d)
pids=()
auth=""
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT

fail() { echo "AppCDS training: $1" >&2; tail -20 "$work"/*.log >&2 || true; exit 1; }

# METHOD HOST:PORT PATH [CONTENT_TYPE FILE]: echoes the HTTP status (000 when nothing listens)
status() {
  local host=${2%:*} port=${2#*:} code
  { exec 3<>"/dev/tcp/$host/$port"; } 2>/dev/null || { echo 000; return; }
  if [[ $# -gt 3 ]]; then
    printf '%s %s HTTP/1.0\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n%s\r\n' \
      "$1" "$3" "$host" "$4" "$(wc -c <"$5")" "$auth" >&3
    cat "$5" >&3
  else
    printf '%s %s HTTP/1.0\r\nHost: %s\r\n%s\r\n' "$1" "$3" "$host" "$auth" >&3
  fi
  read -r _ code _ <&3 || code=000
  exec 3<&-
  echo "$code"
}

# waits until command "$@" prints 2xx, for at most 120 s, while process $pid lives
await() {
  local pid=$1; shift
  for _ in $(seq 1200); do
    [[ $("$@") == 2* ]] && return 0
    kill -0 "$pid" 2>/dev/null || fail "process $pid ended"
    sleep 0.1
  done
  fail "timed out: $*"
}

java -jar "$trainer_jar" apiserver --plain-http --port 0 --kubeconfig-out "$work/kubeconfig" \
  --webhook-address 127.0.0.1:9443 >"$work/apiserver.log" 2>&1 &
pids+=($!)
for _ in $(seq 1200); do [[ -s $work/kubeconfig ]] && break; sleep 0.1; done
server=$(sed -n 's#^ *server: *http://##p' "$work/kubeconfig")
[[ -n $server ]] || fail "no server in the kubeconfig"
token=$(sed -n 's#^ *token: *##p' "$work/kubeconfig")
[[ -n $token ]] || fail "no token in the kubeconfig"
auth="Authorization: Bearer $token"$'\r\n'

java -XX:ArchiveClassesAtExit="$archive" -jar "$operator_jar" run --kubeconfig "$work/kubeconfig" \
  --leader-elect=false --bind-address 127.0.0.1 --webhook-port 9443 --health-port 8081 --metrics-port 8080 \
  >"$work/run.log" 2>&1 &
operator=$!
pids+=("$operator")
await "$operator" status GET 127.0.0.1:8081 /readyz

name=$(sed -n 's/^  name: *//p' "$trainjob" | head -1)
[[ $(status POST "$server" /apis/trainer.kubeflow.org/v1alpha1/namespaces/default/trainjobs application/yaml \
  "$trainjob") == 201 ]] || fail "creating the TrainJob of $trainjob failed"
await "$operator" status GET "$server" "/apis/jobset.x-k8s.io/v1alpha2/namespaces/default/jobsets/$name"

kill -TERM "$operator"
wait "$operator" || true
[[ -s $archive ]] || fail "no archive written"
echo "AppCDS training: wrote $archive"
