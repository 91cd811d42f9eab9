"""The calls of the Kubeflow SDK's Kubernetes backend, made with the Kubernetes Python client.

Usage: sdk_flow.py KUBECONFIG NAME. Prints one line per step; exits non-zero on the first surprise.
"""
import sys
import time

from kubernetes import client, config

kubeconfig, name = sys.argv[1], sys.argv[2]
config.load_kube_config(config_file=kubeconfig)
custom, core = client.CustomObjectsApi(), client.CoreV1Api()
group, version, ns = "trainer.kubeflow.org", "v1alpha1", "default"

runtimes = custom.list_cluster_custom_object(group, version, "clustertrainingruntimes")
print("runtimes:", ",".join(sorted(r["metadata"]["name"] for r in runtimes["items"])), flush=True)

custom.create_namespaced_custom_object(group, version, ns, "trainjobs", {
    "apiVersion": f"{group}/{version}", "kind": "TrainJob", "metadata": {"name": name},
    "spec": {"runtimeRef": {"name": "torch-distributed"},
             "trainer": {"numNodes": 2, "command": ["sh", "-c", 'echo "hello from node $PET_NODE_RANK"']}}})
print("created", name, flush=True)

deadline = time.time() + 120
while True:
    job = custom.get_namespaced_custom_object(group, version, ns, "trainjobs", name)
    types = [c["type"] for c in job.get("status", {}).get("conditions", []) if c["status"] == "True"]
    if "Complete" in types or "Failed" in types:
        break
    if time.time() > deadline:
        sys.exit(f"timed out, conditions {types}")
    time.sleep(0.5)
print("state:", "Complete" if "Complete" in types else "Failed", flush=True)

# a pod of the same JobSet outside the SDK's replicated jobs: only the set-based part of the selector excludes it
core.create_namespaced_pod(ns, {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": f"{name}-evaluator", "labels": {"jobset.sigs.k8s.io/jobset-name": name,
                                                          "jobset.sigs.k8s.io/replicatedjob-name": "evaluator"}},
    "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox", "command": ["true"]}]}})

selector = (f"jobset.sigs.k8s.io/jobset-name={name},jobset.sigs.k8s.io/replicatedjob-name in "
            "(dataset-initializer, model-initializer, launcher, node)")
pods = core.list_namespaced_pod(ns, label_selector=selector).items
print("pods:", ",".join(sorted(p.metadata.name.rsplit("-", 1)[0] for p in pods)), flush=True)
node0 = next(p for p in pods
             if p.metadata.labels.get("batch.kubernetes.io/job-completion-index") == "0")
print("log:", core.read_namespaced_pod_log(node0.metadata.name, ns, container="node").strip(), flush=True)

core.delete_namespaced_pod(f"{name}-evaluator", ns)
custom.delete_namespaced_custom_object(group, version, ns, "trainjobs", name)
print("deleted", name, flush=True)
