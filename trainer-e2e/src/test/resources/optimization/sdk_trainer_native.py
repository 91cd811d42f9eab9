"""The calls of the Kubeflow SDK's trainer-native optimizer backend
(kubeflow/sdk kubeflow/optimizer/backends/trainer_native/backend.py and utils.py), made the same way with the
official Kubernetes Python client, against local mode:

  optimize()             the create body (a random name, objectives, searchAlgorithm, parameters as
                         utils.get_crd_parameters writes them, numTrials, parallelTrials, trainJobTemplate.spec)
  wait_for_job_status()  get every 2 s, Complete/Failed from the conditions that are True, else Created
  get_best_results()     status.result (trainJobName, parameters), then the best trial's TrainJob
  get_job_events()       the namespace's Events about the OptimizationJob and its best trial

Usage: sdk_trainer_native.py KUBECONFIG NAMESPACE API_SERVER TRAIN_SCRIPT
"""
import random
import string
import sys
import time
import uuid

from kubernetes import client, config

GROUP, VERSION, PLURAL = "trainer.kubeflow.org", "v1alpha1", "optimizationjobs"

kubeconfig, namespace, api_server, train_script = sys.argv[1:5]
config.load_kube_config(config_file=kubeconfig)
api_client = client.ApiClient()
custom_api = client.CustomObjectsApi(api_client)
core_api = client.CoreV1Api(api_client)

# optimize(): Search.loguniform(0.01, 0.3) for "lr", Objective() (loss, minimize), RandomSearch(random_state=7),
# TrialConfig(num_trials=3, parallel_trials=2); the trial template is a TrainJob spec as the trainer backend's
# _get_trainjob_spec(...).to_dict() writes it (camelCase, plain env values)
name = random.choice(string.ascii_lowercase) + uuid.uuid4().hex[:11]
optimization_job = {
    "apiVersion": f"{GROUP}/{VERSION}",
    "kind": "OptimizationJob",
    "metadata": {"name": name},
    "spec": {
        "objectives": [{"metric": "loss", "direction": "Minimize"}],
        "searchAlgorithm": {"random": {"seed": 7}},
        "parameters": [{"name": "lr", "searchSpace": {"logUniform": {"min": "0.01", "max": "0.3", "type": "Float"}}}],
        "numTrials": 3,
        "parallelTrials": 2,
        "trainJobTemplate": {
            "spec": {
                "runtimeRef": {"name": "torch-distributed"},
                "trainer": {
                    "command": ["python3", "-c", train_script],
                    "numNodes": 1,
                    "env": [{"name": "E2E_API_SERVER", "value": api_server},
                            {"name": "E2E_NAMESPACE", "value": namespace},
                            {"name": "E2E_STEPS", "value": "5"}],
                },
            },
        },
    },
}
custom_api.create_namespaced_custom_object(GROUP, VERSION, namespace, PLURAL, optimization_job)
print(f"created {name}", flush=True)


def job_status(cr):
    metadata, spec = cr.get("metadata") or {}, cr.get("spec") or {}
    if not (metadata.get("name") and metadata.get("creationTimestamp") and spec.get("parameters")
            and spec.get("objectives")):
        raise ValueError(f"OptimizationJob CR is invalid: {cr}")
    status = "Created"
    for c in (cr.get("status") or {}).get("conditions") or []:
        if c.get("status") != "True":
            continue
        if c.get("type") == "Complete":
            status = "Complete"
        elif c.get("type") == "Failed":
            status = "Failed"
    return status


# wait_for_job_status(name, {"Complete"}, timeout=200, polling_interval=2)
for _ in range(100):
    status = job_status(custom_api.get_namespaced_custom_object(GROUP, VERSION, namespace, PLURAL, name))
    if status == "Failed":
        raise RuntimeError(f"OptimizationJob {name} is Failed")
    if status == "Complete":
        break
    time.sleep(2)
print(f"status: {status}", flush=True)

# get_best_results(name)
cr = custom_api.get_namespaced_custom_object(GROUP, VERSION, namespace, PLURAL, name)
result = (cr.get("status") or {}).get("result") or {}
best = result.get("trainJobName")
parameters = {pa["name"]: pa["value"] for pa in result.get("parameters", [])
              if pa.get("name") is not None and pa.get("value") is not None}
trainjob = custom_api.get_namespaced_custom_object(GROUP, VERSION, namespace, "trainjobs", best)
trainjob_status = "Created"
for c in (trainjob.get("status") or {}).get("conditions") or []:
    if c.get("status") == "True" and c.get("type") in ("Complete", "Failed"):
        trainjob_status = c["type"]
print(f"best trial: {best} {parameters} trainjob {trainjob_status}", flush=True)

# get_job_events(name)
events = []
for event in core_api.list_namespaced_event(namespace=namespace).items:
    if not (event.metadata and event.involved_object and event.first_timestamp):
        continue
    obj = event.involved_object
    if obj.kind in ("OptimizationJob", "TrainJob") and obj.name in (name, best):
        events.append((event.first_timestamp, obj.kind, event.reason))
events.sort(key=lambda e: e[0])
reasons = sorted({f"{kind} {reason}" for _, kind, reason in events if kind == "OptimizationJob"})
print("events: " + ", ".join(reasons), flush=True)
