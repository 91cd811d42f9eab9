"""TrainerClient.train with CustomTrainerContainer and BuiltinTrainer against local (and the lab), and the Kubernetes
options (TrainerCommand, TrainerArgs, Labels, Annotations, RuntimePatch)."""

import pytest

from conftest import ON_LAB, TIMEOUT
from kubeflow.trainer import BuiltinTrainer, CustomTrainerContainer, DataType, TorchTuneConfig
from kubeflow.trainer.options import Annotations, Labels, TrainerArgs, TrainerCommand

GROUP, VERSION = "trainer.kubeflow.org", "v1alpha1"


def trainjob(custom_objects, namespace, name):
    return custom_objects.get_namespaced_custom_object(GROUP, VERSION, namespace, "trainjobs", name)


def jobset(custom_objects, namespace, name):
    return custom_objects.get_namespaced_custom_object("jobset.x-k8s.io", "v1alpha2", namespace, "jobsets", name)


def test_a_container_trainer_with_a_command_and_args_option_runs_and_keeps_labels_and_annotations(
        trainer_client, custom_objects, namespace):
    name = trainer_client.train(
        runtime="torch-distributed",
        trainer=CustomTrainerContainer(image="pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime", num_nodes=2,
                                       env={"GREETING": "hello"}),
        options=[TrainerCommand(command=["bash", "-c"]),
                 TrainerArgs(args=['echo "$GREETING from node $PET_NODE_RANK of $PET_NNODES"']),
                 Labels({"team": "sdk-tests"}), Annotations({"sdk-tests/purpose": "options"})])

    job = trainer_client.wait_for_job_status(name, timeout=TIMEOUT, polling_interval=1)

    assert job.status == "Complete"
    if not ON_LAB:  # on the lab kwok's pods printed nothing
        assert list(trainer_client.get_job_logs(name)) == ["hello from node 0 of 2"]
        assert list(trainer_client.get_job_logs(name, step="node-1")) == ["hello from node 1 of 2"]
    stored = trainjob(custom_objects, namespace, name)
    assert stored["metadata"]["labels"]["team"] == "sdk-tests"
    assert stored["metadata"]["annotations"]["sdk-tests/purpose"] == "options"
    assert stored["spec"]["trainer"]["image"] == "pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime"
    trainer_client.delete_job(name)


@pytest.mark.skipif(ON_LAB, reason="local's own: on a cluster the image's entrypoint runs")
def test_a_container_trainer_without_a_command_fails_at_once_as_local_runs_no_image_entrypoint(trainer_client):
    # the torch runtime's node container has no command: on a cluster the image's entrypoint runs; here, where
    # images are not pulled, the pod fails before anything runs and the TrainJob says why
    name = trainer_client.train(
        runtime="torch-distributed",
        trainer=CustomTrainerContainer(image="pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime"))

    job = trainer_client.wait_for_job_status(name, status={"Failed"}, timeout=TIMEOUT, polling_interval=1)

    assert job.status == "Failed"
    messages = "\n".join(e.message for e in trainer_client.get_job_events(name))
    assert "runs no image entrypoint" in messages
    trainer_client.delete_job(name)


def test_a_builtin_torchtune_trainer_is_accepted_and_its_children_are_built(
        trainer_client, custom_objects, namespace):
    name = trainer_client.train(
        runtime="torchtune-llama3.2-1b",
        trainer=BuiltinTrainer(config=TorchTuneConfig(dtype=DataType.BF16, batch_size=2, epochs=1, num_nodes=1)))

    stored = trainjob(custom_objects, namespace, name)
    assert stored["spec"]["runtimeRef"]["name"] == "torchtune-llama3.2-1b"
    assert stored["spec"]["trainer"]["command"] == ["tune", "run"]
    assert stored["spec"]["trainer"]["args"] == ["dtype=bf16", "batch_size=2", "epochs=1"]
    # the operator builds the JobSet as upstream builds it: the initializers, then the node with the recipe and
    # config the torch plugin chose, the SDK's overrides after them
    built = wait_for(lambda: jobset(custom_objects, namespace, name))
    replicated = {r["name"]: r for r in built["spec"]["replicatedJobs"]}
    assert set(replicated) == {"dataset-initializer", "model-initializer", "node"}
    node = replicated["node"]["template"]["spec"]["template"]["spec"]["containers"][0]
    command = node["command"] + node.get("args", [])
    assert command[:2] == ["tune", "run"]
    assert "full_finetune_distributed" in command
    assert {"dtype=bf16", "batch_size=2", "epochs=1"} <= set(command)
    assert [t["metadata"]["name"] for t in built["spec"]["volumeClaimPolicies"][0]["templates"]] == ["initializer"]
    if ON_LAB:
        # kwok's nodes have GPUs and the lab's volumes bind the claim: it runs to Complete, initializers first
        job = trainer_client.wait_for_job_status(name, timeout=TIMEOUT, polling_interval=1)
        assert {s.name for s in job.steps} == {"dataset-initializer", "model-initializer", "node-0"}
    else:
        # it cannot run here (no command in the initializers' images, no GPU): it fails, and the SDK shows it
        job = trainer_client.wait_for_job_status(name, status={"Failed"}, timeout=TIMEOUT, polling_interval=1)
        assert job.status == "Failed"
    trainer_client.delete_job(name)


def wait_for(read, timeout=60):
    import time

    from kubernetes.client.exceptions import ApiException

    deadline = time.monotonic() + timeout
    while True:
        try:
            return read()
        except ApiException as e:
            if e.status != 404 or time.monotonic() > deadline:
                raise
        time.sleep(0.5)


def print_patched_env():
    import os

    print(f"PATCHED={os.environ.get('PATCHED')}", flush=True)


def test_a_runtime_patch_labels_the_node_pods_and_the_trainers_env_reaches_them(trainer_client, core, namespace):
    from kubeflow.trainer import CustomTrainer

    patch = runtime_patch(metadata={"labels": {"sdk-tests/patched": "yes"}})
    name = trainer_client.train(
        runtime="torch-distributed",
        trainer=CustomTrainer(func=print_patched_env, num_nodes=1, env={"PATCHED": "by-the-sdk"}), options=[patch])

    job = trainer_client.wait_for_job_status(name, timeout=TIMEOUT, polling_interval=1)

    assert job.status == "Complete"
    if not ON_LAB:  # on the lab kwok's pod printed nothing
        assert "PATCHED=by-the-sdk" in list(trainer_client.get_job_logs(name))
    pod = core.read_namespaced_pod(job.steps[0].pod_name, namespace)
    assert pod.metadata.labels["sdk-tests/patched"] == "yes"
    trainer_client.delete_job(name)


def test_a_runtime_patch_of_the_node_containers_env_is_refused_as_upstream_refuses_it(trainer_client):
    # the SDK lets ContainerPatch set env on any container; upstream's TrainJob webhook refuses it for the node and
    # initializer containers (their env belongs to spec.trainer and spec.initializer), and so does this one
    from kubeflow.trainer import CustomTrainer
    from kubeflow.trainer.options import ContainerPatch, PodSpecPatch

    patch = runtime_patch(spec=PodSpecPatch(containers=[ContainerPatch(
        name="node", env=[{"name": "PATCHED", "value": "by-the-sdk"}])]))

    with pytest.raises(RuntimeError) as refused:
        trainer_client.train(runtime="torch-distributed",
                             trainer=CustomTrainer(func=print_patched_env, num_nodes=1), options=[patch])
    assert "must not have envs for the dataset-initializer, model-initializer, node containers" in str(
        refused.value.__cause__.body)


def runtime_patch(metadata=None, spec=None):
    """A RuntimePatch of the node replicated job's pod template."""
    from kubeflow.trainer.options import (
        JobSetSpecPatch, JobSetTemplatePatch, JobSpecPatch, JobTemplatePatch, PodTemplatePatch, ReplicatedJobPatch,
        RuntimePatch, TrainingRuntimeSpecPatch)

    pod = PodTemplatePatch(metadata=metadata, spec=spec)
    node = ReplicatedJobPatch(name="node", template=JobTemplatePatch(spec=JobSpecPatch(template=pod)))
    return RuntimePatch(training_runtime_spec=TrainingRuntimeSpecPatch(
        template=JobSetTemplatePatch(spec=JobSetSpecPatch(replicated_jobs=[node]))))
