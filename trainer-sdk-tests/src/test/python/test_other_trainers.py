"""TrainerClient.train with CustomTrainerContainer and BuiltinTrainer against local, and the Kubernetes options."""

import pytest

from conftest import TIMEOUT
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
    assert list(trainer_client.get_job_logs(name)) == ["hello from node 0 of 2"]
    assert list(trainer_client.get_job_logs(name, step="node-1")) == ["hello from node 1 of 2"]
    stored = trainjob(custom_objects, namespace, name)
    assert stored["metadata"]["labels"]["team"] == "sdk-tests"
    assert stored["metadata"]["annotations"]["sdk-tests/purpose"] == "options"
    assert stored["spec"]["trainer"]["image"] == "pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime"
    trainer_client.delete_job(name)


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
