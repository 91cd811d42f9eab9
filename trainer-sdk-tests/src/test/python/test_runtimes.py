"""TrainerClient's runtime calls against local: list_runtimes, get_runtime, get_runtime_packages."""

import logging

import pytest

from kubeflow.common.types import KubernetesBackendConfig
from kubeflow.trainer import TrainerClient, TrainerType

SHIPPED = {
    "torch-distributed": ("torch", TrainerType.CUSTOM_TRAINER),
    "deepspeed-distributed": ("deepspeed", TrainerType.CUSTOM_TRAINER),
    "mlx-distributed": ("mlx", TrainerType.CUSTOM_TRAINER),
    "jax-distributed": ("jax", TrainerType.CUSTOM_TRAINER),
    "xgboost-distributed": ("xgboost", TrainerType.CUSTOM_TRAINER),
    "torchtune-llama3.2-1b": ("torchtune", TrainerType.BUILTIN_TRAINER),
    "torchtune-llama3.2-3b": ("torchtune", TrainerType.BUILTIN_TRAINER),
    "torchtune-qwen2.5-1.5b": ("torchtune", TrainerType.BUILTIN_TRAINER),
}


def test_the_client_finds_the_trainer_version_without_a_warning(kubeconfig, namespace, caplog):
    # TrainerClient() reads kubeflow-system/kubeflow-trainer-public and warns when it cannot
    with caplog.at_level(logging.WARNING, logger="kubeflow"):
        TrainerClient(backend_config=KubernetesBackendConfig(config_file=kubeconfig, namespace=namespace))
    assert [r.getMessage() for r in caplog.records] == []


def test_list_runtimes_lists_the_shipped_runtimes_with_their_framework_and_trainer_type(trainer_client):
    runtimes = {r.name: r for r in trainer_client.list_runtimes()}

    assert set(runtimes) == set(SHIPPED)
    for name, (framework, trainer_type) in SHIPPED.items():
        assert (runtimes[name].trainer.framework, runtimes[name].trainer.trainer_type) == (framework, trainer_type)
        assert runtimes[name].kind.value == "ClusterTrainingRuntime"


def test_get_runtime_reads_the_torch_runtime_as_a_cluster_would_serve_it(trainer_client):
    runtime = trainer_client.get_runtime("torch-distributed")

    assert runtime.name == "torch-distributed"
    assert runtime.trainer.trainer_type == TrainerType.CUSTOM_TRAINER
    assert runtime.trainer.num_nodes == 1
    assert runtime.trainer.image.startswith("pytorch/pytorch:")
    # a torch runtime: the SDK runs the function with torchrun
    assert "torchrun" in runtime.trainer.command[-1]


def test_get_runtime_of_a_missing_runtime_fails_saying_so(trainer_client):
    with pytest.raises(RuntimeError, match="no-such-runtime"):
        trainer_client.get_runtime("no-such-runtime")


@pytest.mark.runs_code("get_runtime_packages prints the log of a TrainJob that runs pip list")
def test_get_runtime_packages_runs_a_trainjob_and_prints_the_nodes_python(trainer_client, capsys):
    runtime = trainer_client.get_runtime("torch-distributed")

    # a 1-node TrainJob with the SDK's print_packages function, waited for, its log printed, then deleted
    trainer_client.get_runtime_packages(runtime)

    out = capsys.readouterr().out
    assert "Python: 3." in out
    assert trainer_client.list_jobs() == []
