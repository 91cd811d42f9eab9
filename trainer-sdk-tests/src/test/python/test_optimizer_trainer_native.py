"""OptimizerClient with the trainer-native backend against local: the OptimizationJob of trainer.kubeflow.org/v1alpha1,
hyperparameters in KUBEFLOW_TRAINER_OPT_<NAME>. Written against kubeflow/sdk's kubeflow/optimizer/backends/
trainer_native (TrainerNativeBackendConfig); no kubeflow release on PyPI has it yet (0.5.0 is the newest), so this
module reports itself skipped until the locked SDK does (test_optimizer.py covers what 0.5.0 has). Checked by hand on
2026-12-07 with kubeflow/sdk's trainer_native package (commit 731a8ae) laid over 0.5.0 on PYTHONPATH: 7 passed."""

import time

import pytest

pytest.importorskip("kubeflow.optimizer.backends.trainer_native.types",
                    reason="the locked kubeflow has no trainer-native optimizer backend (0.5.0, the newest on PyPI, "
                           "has Katib's only)")

from conftest import TIMEOUT  # noqa: E402
from kubeflow.optimizer import (  # noqa: E402
    GridSearch, Objective, OptimizerClient, RandomSearch, Search, TrainJobTemplate, TrialConfig)
from kubeflow.optimizer.backends.trainer_native.types import TrainerNativeBackendConfig  # noqa: E402
from kubeflow.trainer import CustomTrainer  # noqa: E402
from trials import trial  # noqa: E402


@pytest.fixture(scope="module")
def optimizer(kubeconfig, namespace):
    return OptimizerClient(TrainerNativeBackendConfig(config_file=kubeconfig, namespace=namespace))


@pytest.fixture(scope="module")
def random_search(optimizer):
    name = optimizer.optimize(
        TrainJobTemplate(trainer=CustomTrainer(func=trial, num_nodes=1), runtime="torch-distributed"),
        search_space={"lr": Search.loguniform(0.01, 0.3)},
        objectives=[Objective(metric="loss", direction="minimize")],
        algorithm=RandomSearch(random_state=7),
        trial_config=TrialConfig(num_trials=3, parallel_trials=2))
    return {"name": name, "done": optimizer.wait_for_job_status(name, timeout=TIMEOUT, polling_interval=1)}


def test_optimize_with_random_search_completes(random_search, optimizer):
    assert random_search["done"].status == "Complete"
    job = optimizer.get_job(random_search["name"])
    assert job.status == "Complete"
    assert job.trial_config.num_trials == 3 and job.trial_config.parallel_trials == 2
    assert isinstance(job.algorithm, RandomSearch) and job.algorithm.random_state == 7
    assert list(job.search_space) == ["lr"]


def test_list_jobs_lists_it(random_search, optimizer):
    assert random_search["name"] in [j.name for j in optimizer.list_jobs()]


def test_get_best_results_gives_the_best_trials_parameters(random_search, optimizer):
    result = optimizer.get_best_results(random_search["name"])
    assert 0.01 <= float(result.parameters["lr"]) <= 0.3


def test_get_job_logs_reads_the_best_trial(random_search, optimizer):
    lr = float(optimizer.get_best_results(random_search["name"]).parameters["lr"])
    assert any(line.startswith(f"trial lr={lr} ") for line in optimizer.get_job_logs(random_search["name"]))


def test_get_job_events_shows_the_trials_as_they_started_and_ended(random_search, optimizer):
    events = optimizer.get_job_events(random_search["name"])
    reasons = [e.reason for e in events if e.involved_object_kind == "OptimizationJob"]
    assert reasons.count("TrialStarted") == 3 and reasons.count("TrialSucceeded") == 3, reasons


def test_optimize_with_grid_search_finds_the_best_choice(optimizer):
    name = optimizer.optimize(
        TrainJobTemplate(trainer=CustomTrainer(func=trial, num_nodes=1), runtime="torch-distributed"),
        search_space={"lr": Search.choice([0.2, 0.1])}, algorithm=GridSearch(),
        trial_config=TrialConfig(num_trials=2, parallel_trials=2))
    assert optimizer.wait_for_job_status(name, timeout=TIMEOUT, polling_interval=1).status == "Complete"
    assert optimizer.get_best_results(name).parameters == {"lr": "0.1"}


def test_delete_job_deletes_it(random_search, optimizer):
    optimizer.delete_job(random_search["name"])
    deadline = time.monotonic() + 60
    while random_search["name"] in [j.name for j in optimizer.list_jobs()]:
        assert time.monotonic() < deadline
        time.sleep(0.5)
