"""Measures the local executor: time from creating a TrainJob to its first process, and the CPU time and memory
of the `local` JVM per pod, compared with `--no-execute` (same TrainJob, no pods run).

Usage (from the repository root, after ./mvnw -B -q -DskipTests package; needs python3-kubernetes):
  /usr/bin/python3 trainer-local/scripts/measure-executor.py [PODS]
"""
import os
import subprocess
import sys
import tempfile
import time

from kubernetes import client, config

PODS = int(sys.argv[1]) if len(sys.argv) > 1 else 4
JAR = "trainer-local/target/trainer.jar"
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_mib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def train(custom, core, name, execute, pid, peak):
    t0 = time.monotonic()
    custom.create_namespaced_custom_object("trainer.kubeflow.org", "v1alpha1", "default", "trainjobs", {
        "apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob", "metadata": {"name": name},
        "spec": {"runtimeRef": {"name": "torch-distributed"},
                 "trainer": {"numNodes": PODS, "command": ["sh", "-c", "sleep 10"]}}})
    first = None
    deadline = t0 + 60
    while time.monotonic() < deadline:
        peak = max(peak, rss_mib(pid))
        if execute and first is None:
            for pod in core.list_namespaced_pod("default", label_selector=f"jobset.sigs.k8s.io/jobset-name={name}").items:
                statuses = (pod.status.container_statuses if pod.status else None) or []
                if any(s.state.running or s.state.terminated for s in statuses):
                    first = time.monotonic() - t0
                    break
        job = custom.get_namespaced_custom_object("trainer.kubeflow.org", "v1alpha1", "default", "trainjobs", name)
        done = any(c["type"] == "Complete" and c["status"] == "True"
                   for c in job.get("status", {}).get("conditions", []))
        if done or (not execute and time.monotonic() - t0 > 12):
            break
        time.sleep(0.02)
    return first, peak


def run(execute):
    started = {}
    try:
        return measure(execute, lambda process: started.update(process=process))
    finally:
        if started.get("process") and started["process"].poll() is None:
            started["process"].terminate()
            started["process"].wait()


def measure(execute, remember):
    work = tempfile.mkdtemp(prefix="measure-")
    kubeconfig = os.path.join(work, "kubeconfig")
    args = ["java", "-jar", JAR, "local", "--port", "0", "--kubeconfig-out", kubeconfig, "--max-pods", str(PODS)]
    if not execute:
        args.append("--no-execute")
    local = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    remember(local)
    for line in local.stdout:
        if line.startswith("TrainJob progress"):
            break
    time.sleep(5)  # let start-up's JIT settle
    config.load_kube_config(config_file=kubeconfig)
    custom, core = client.CustomObjectsApi(), client.CoreV1Api()
    cpu0, rss0 = cpu_seconds(local.pid), rss_mib(local.pid)
    firsts, peak = [], rss0
    for name in ("measure-cold", "measure-warm"):
        first, peak = train(custom, core, name, execute, local.pid, peak)
        firsts.append(first)
    cpu = cpu_seconds(local.pid) - cpu0
    local.terminate()
    local.wait()
    return firsts, cpu, peak - rss0


firsts, cpu_exec, rss_exec = run(True)
_, cpu_plain, rss_plain = run(False)
print(f"pods: {PODS}")
print(f"create -> first process: {firsts[0] * 1000:.0f} ms first TrainJob, {firsts[1] * 1000:.0f} ms second "
      "(measured by a client polling every 20 ms)")
print(f"local JVM CPU: {cpu_exec:.2f} s executing, {cpu_plain:.2f} s with --no-execute: "
      f"{(cpu_exec - cpu_plain) / (2 * PODS) * 1000:.0f} ms per pod (two TrainJobs of 10 s pods, run to completion)")
print(f"local JVM RSS growth: {rss_exec:.0f} MiB executing, {rss_plain:.0f} MiB with --no-execute: "
      f"{(rss_exec - rss_plain) / PODS:.1f} MiB per pod")
