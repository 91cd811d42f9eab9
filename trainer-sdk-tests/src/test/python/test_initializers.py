"""TrainerClient.train(..., initializer=Initializer(...)): the SDK's dataset and model initializers against local.

On the shipped torchtune runtimes the TrainJob is accepted and its JobSet is built as upstream builds it (each
initializer's STORAGE_URI and env on its container, the shared `initializer` claim, the node after both); it cannot
run here (the initializers' images download from Hugging Face through their entrypoints, which local does not run),
so it fails at once saying so. On a runtime without initializer jobs the TrainJob is refused, as upstream refuses it.
On a runtime of one's own whose initializers have a command, they run before the node, with the SDK's values, and
share the volume with it. On the lab (kwok's nodes have GPUs, its volumes bind the claim) the torchtune TrainJob runs to
Complete, the initializers first; what the pods print is checked on local only."""

import time

import pytest

from conftest import ON_LAB, TIMEOUT
from kubeflow.trainer import (
    BuiltinTrainer, CustomTrainer, DataCacheInitializer, DataType, HuggingFaceDatasetInitializer,
    HuggingFaceModelInitializer, Initializer, S3DatasetInitializer, S3ModelInitializer, TorchTuneConfig)

GROUP, VERSION = "trainer.kubeflow.org", "v1alpha1"
# how soon a TrainJob that cannot run here must say so: local fails it within seconds, the rest is a busy machine
FAILS_WITHIN = 60


def trainjob(custom_objects, namespace, name):
    return custom_objects.get_namespaced_custom_object(GROUP, VERSION, namespace, "trainjobs", name)


def wait_for(read, timeout=60):
    from kubernetes.client.exceptions import ApiException

    deadline = time.monotonic() + timeout
    while True:
        try:
            return read()
        except ApiException as e:
            if e.status != 404 or time.monotonic() > deadline:
                raise
        time.sleep(0.5)


def jobset(custom_objects, namespace, name):
    return wait_for(lambda: custom_objects.get_namespaced_custom_object(
        "jobset.x-k8s.io", "v1alpha2", namespace, "jobsets", name))


def container(replicated_job, name):
    pod = replicated_job["template"]["spec"]["template"]["spec"]
    return next(c for c in pod["containers"] if c["name"] == name)


def env(c):
    return {e["name"]: e.get("value") for e in c.get("env", [])}


HF_DATASET = "hf://tatsu-lab/alpaca/data"
HF_MODEL = "hf://meta-llama/Llama-3.2-1B-Instruct"


@pytest.fixture(scope="module")
def torchtune_with_initializers(trainer_client, custom_objects, namespace):
    """A BuiltinTrainer on torchtune-llama3.2-1b with Hugging Face dataset and model initializers, as upstream's
    fine-tuning notebook writes it; the TrainJob, its JobSet, the time to Failed and the SDK's view of it."""
    initializer = Initializer(
        dataset=HuggingFaceDatasetInitializer(storage_uri=HF_DATASET),
        model=HuggingFaceModelInitializer(storage_uri=HF_MODEL, access_token="hf_not_a_real_token"))
    start = time.monotonic()
    name = trainer_client.train(
        runtime=trainer_client.get_runtime("torchtune-llama3.2-1b"), initializer=initializer,
        trainer=BuiltinTrainer(config=TorchTuneConfig(dtype=DataType.BF16, batch_size=2, epochs=1, num_nodes=1)))
    stored = trainjob(custom_objects, namespace, name)
    built = jobset(custom_objects, namespace, name)
    ended = trainer_client.wait_for_job_status(name, status={"Complete" if ON_LAB else "Failed"},
                                               timeout=TIMEOUT if ON_LAB else FAILS_WITHIN, polling_interval=1)
    took = time.monotonic() - start
    print(f"torchtune with initializers: {ended.status} {took:.1f} s after train()")
    yield {"name": name, "stored": stored, "jobset": built, "ended": ended, "took": took}
    trainer_client.delete_job(name)


def test_the_sdks_initializers_reach_the_trainjob_as_it_writes_them(torchtune_with_initializers):
    spec = torchtune_with_initializers["stored"]["spec"]

    assert spec["initializer"]["dataset"]["storageUri"] == HF_DATASET
    assert spec["initializer"]["model"]["storageUri"] == HF_MODEL
    model_env = {e["name"]: e["value"] for e in spec["initializer"]["model"]["env"]}
    # the SDK passes the token and its default ignore patterns as env, in the clear (no Secret)
    assert model_env == {"IGNORE_PATTERNS": "*.msgpack,*.h5,*.bin,*.pt,*.pth", "ACCESS_TOKEN": "hf_not_a_real_token"}
    # and points torchtune at the directory the dataset initializer downloads into
    assert "dataset.data_dir=/workspace/dataset/data" in spec["trainer"]["args"]


def test_the_jobset_has_the_initializer_jobs_with_the_sdks_values_as_upstream_builds_it(torchtune_with_initializers):
    built = torchtune_with_initializers["jobset"]
    replicated = {r["name"]: r for r in built["spec"]["replicatedJobs"]}

    assert list(replicated) == ["dataset-initializer", "model-initializer", "node"]
    dataset = container(replicated["dataset-initializer"], "dataset-initializer")
    model = container(replicated["model-initializer"], "model-initializer")
    # STORAGE_URI is the TrainJob's, replacing the runtime's; the SDK's env beside it
    assert env(dataset) == {"STORAGE_URI": HF_DATASET}
    assert env(model) == {"STORAGE_URI": HF_MODEL, "IGNORE_PATTERNS": "*.msgpack,*.h5,*.bin,*.pt,*.pth",
                          "ACCESS_TOKEN": "hf_not_a_real_token"}
    for c in (dataset, model):
        assert {"name": "initializer", "mountPath": "/workspace"} in c["volumeMounts"]
    for r in ("dataset-initializer", "model-initializer"):
        assert replicated[r]["replicas"] == 1
        assert replicated[r]["template"]["metadata"]["labels"]["trainer.kubeflow.org/trainjob-ancestor-step"] == r
    # the node starts once both have completed, reads what they wrote, and gets the SDK's args
    node = replicated["node"]
    assert node["dependsOn"] == [{"name": "dataset-initializer", "status": "Complete"},
                                 {"name": "model-initializer", "status": "Complete"}]
    trainer = container(node, "node")
    assert {"name": "initializer", "mountPath": "/workspace"} in trainer["volumeMounts"]
    assert "dataset.data_dir=/workspace/dataset/data" in trainer["command"] + trainer.get("args", [])
    assert [t["metadata"]["name"] for t in built["spec"]["volumeClaimPolicies"][0]["templates"]] == ["initializer"]


@pytest.mark.skipif(ON_LAB, reason="local's own: on a cluster the initializers' images run (here kwok's pods)")
def test_it_cannot_download_here_and_fails_at_once_saying_why(trainer_client, torchtune_with_initializers):
    name = torchtune_with_initializers["name"]

    assert torchtune_with_initializers["ended"].status == "Failed"
    assert torchtune_with_initializers["took"] < FAILS_WITHIN
    messages = "\n".join(e.message for e in trainer_client.get_job_events(name))
    assert "the local executor runs no image entrypoint" in messages, messages
    assert "dataset-initializer" in messages or "model-initializer" in messages, messages
    # the SDK lists the initializers as the TrainJob's steps, failed; the node never started
    steps = {s.name: s.status for s in trainer_client.get_job(name).steps}
    assert "node-0" not in steps, steps
    assert set(steps) <= {"dataset-initializer", "model-initializer"} and steps, steps


@pytest.mark.skipif(not ON_LAB, reason="the lab's: local cannot download (the case above)")
def test_on_a_cluster_the_initializers_run_then_the_node(trainer_client, torchtune_with_initializers):
    assert torchtune_with_initializers["ended"].status == "Complete"
    steps = {s.name: s.status for s in trainer_client.get_job(torchtune_with_initializers["name"]).steps}
    assert steps == {"dataset-initializer": "Succeeded", "model-initializer": "Succeeded", "node-0": "Succeeded"}


def test_s3_and_data_cache_initializers_reach_their_containers_as_the_sdk_writes_them(
        trainer_client, custom_objects, namespace):
    # the SDK's other initializer types: each optional field an env var of its name in capitals, DataCache's node
    # count as CLUSTER_SIZE (its data nodes and the head)
    initializer = Initializer(
        dataset=DataCacheInitializer(storage_uri="cache://sales/orders", metadata_loc="s3://bucket/metadata.json",
                                     num_data_nodes=2, head_cpu="2", worker_mem="8Gi"),
        model=S3ModelInitializer(storage_uri="s3://bucket/models/llama", endpoint="https://s3.example.com",
                                 access_key_id="AKIAEXAMPLE", secret_access_key="not-a-secret", region="eu-west-1"))
    name = trainer_client.train(runtime="torchtune-llama3.2-1b", initializer=initializer,
                                trainer=BuiltinTrainer(config=TorchTuneConfig(num_nodes=1)))
    try:
        replicated = {r["name"]: r for r in jobset(custom_objects, namespace, name)["spec"]["replicatedJobs"]}

        assert env(container(replicated["dataset-initializer"], "dataset-initializer")) == {
            "STORAGE_URI": "cache://sales/orders", "CLUSTER_SIZE": "3", "METADATA_LOC": "s3://bucket/metadata.json",
            "HEAD_CPU": "2", "WORKER_MEM": "8Gi"}
        assert env(container(replicated["model-initializer"], "model-initializer")) == {
            "STORAGE_URI": "s3://bucket/models/llama", "IGNORE_PATTERNS": "*.msgpack,*.h5,*.bin,*.pt,*.pth",
            "ENDPOINT": "https://s3.example.com", "ACCESS_KEY_ID": "AKIAEXAMPLE",
            "SECRET_ACCESS_KEY": "not-a-secret", "REGION": "eu-west-1"}
    finally:
        trainer_client.delete_job(name)


def print_storage():
    import os

    for what in ("dataset", "model"):
        path = f"/workspace/{what}/uri"
        print(f"{what}: {open(path).read().strip() if os.path.exists(path) else 'missing'}", flush=True)


@pytest.fixture(scope="module")
def runtime_with_initializers(custom_objects, namespace):
    """torch-distributed with the torchtune runtimes' initializer jobs and claim, each initializer a command that
    writes its STORAGE_URI (and the SDK's env) into the shared volume instead of downloading."""
    shipped = custom_objects.get_cluster_custom_object(GROUP, VERSION, "clustertrainingruntimes", "torch-distributed")
    spec = shipped["spec"]
    template = spec["template"]["spec"]
    mount = {"name": "initializer", "mountPath": "/workspace"}

    def initializer_job(step):
        script = (f'mkdir -p /workspace/{step} && echo "$STORAGE_URI ${{IGNORE_PATTERNS:-}}" '
                  f'> /workspace/{step}/uri && echo "{step} $STORAGE_URI"')
        return {"name": f"{step}-initializer", "template": {
            "metadata": {"labels": {"trainer.kubeflow.org/trainjob-ancestor-step": f"{step}-initializer"}},
            "spec": {"backoffLimit": 0, "template": {"spec": {"containers": [{
                "name": f"{step}-initializer", "image": f"ghcr.io/kubeflow/trainer/{step}-initializer:v2.3.0",
                "command": ["bash", "-c", script], "volumeMounts": [mount]}]}}}}}

    node = next(j for j in template["replicatedJobs"] if j["name"] == "node")
    node["dependsOn"] = [{"name": "dataset-initializer", "status": "Complete"},
                         {"name": "model-initializer", "status": "Complete"}]
    node["template"]["spec"]["backoffLimit"] = 0
    for c in node["template"]["spec"]["template"]["spec"]["containers"]:
        c.setdefault("volumeMounts", []).append(mount)
    template["replicatedJobs"] = [initializer_job("dataset"), initializer_job("model"), node]
    template["volumeClaimPolicies"] = [{"templates": [{"metadata": {"name": "initializer"}, "spec": {
        "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}]}]
    custom_objects.create_namespaced_custom_object(GROUP, VERSION, namespace, "trainingruntimes", {
        "apiVersion": f"{GROUP}/{VERSION}", "kind": "TrainingRuntime",
        "metadata": {"name": "torch-with-initializers", "labels": {"trainer.kubeflow.org/framework": "torch"}},
        "spec": spec})
    return "torch-with-initializers"


def test_initializers_with_a_command_run_before_the_node_with_the_sdks_values(trainer_client, runtime_with_initializers):
    name = trainer_client.train(
        runtime=runtime_with_initializers,
        initializer=Initializer(dataset=HuggingFaceDatasetInitializer(storage_uri="hf://tatsu-lab/alpaca"),
                                model=HuggingFaceModelInitializer(storage_uri="hf://google/gemma-3-270m")),
        trainer=CustomTrainer(func=print_storage))

    job = trainer_client.wait_for_job_status(name, timeout=TIMEOUT, polling_interval=1)

    assert job.status == "Complete"
    steps = {s.name: s.status for s in trainer_client.get_job(name).steps}
    assert steps == {"dataset-initializer": "Succeeded", "model-initializer": "Succeeded", "node-0": "Succeeded"}
    if ON_LAB:  # kwok's pods printed nothing
        trainer_client.delete_job(name)
        return
    assert list(trainer_client.get_job_logs(name, step="dataset-initializer")) == [
        "dataset hf://tatsu-lab/alpaca"]
    # what each initializer wrote into the shared claim, read by the node that ran after both
    logs = list(trainer_client.get_job_logs(name))
    assert "dataset: hf://tatsu-lab/alpaca" in logs, logs
    assert "model: hf://google/gemma-3-270m *.msgpack,*.h5,*.bin,*.pt,*.pth" in logs, logs
    trainer_client.delete_job(name)


def test_an_initializer_on_a_runtime_without_its_job_is_refused_as_upstream_refuses_it(trainer_client):
    with pytest.raises(RuntimeError, match="Failed to create TrainJob") as refused:
        trainer_client.train(
            runtime="torch-distributed",
            initializer=Initializer(dataset=S3DatasetInitializer(storage_uri="s3://bucket/dataset")),
            trainer=CustomTrainer(func=print_storage))
    assert ("must have dataset-initializer job when trainJob is configured with input datasetConfig"
            in refused.value.__cause__.body), refused.value.__cause__.body
