"""OptimizerClient against local, with what kubeflow 0.5.0 (the newest on PyPI) has.

0.5.0's OptimizerClient has one backend, Katib's: optimize() creates a Katib Experiment (kubeflow.org/v1beta1), which
local does not serve, so every call fails at once naming the OptimizationJob, the API server's 404 behind it. The
trainer-native backend (kubeflow/sdk kubeflow/optimizer/backends/trainer_native, not released yet) creates an
OptimizationJob of trainer.kubeflow.org/v1alpha1 instead: test_optimizer_trainer_native.py drives it once a release
has it. Until then the cases below make its OptimizationJob from 0.5.0's own pieces (the Search and algorithm types,
CustomTrainer, and the TrainJob spec the trainer backend writes for it, _get_trainjob_spec(...).to_dict(), which the
trainer-native backend sends as trainJobTemplate.spec) and read the trials with TrainerClient: the SDK's function runs
as each trial, with its hyperparameters in KUBEFLOW_TRAINER_OPT_<NAME>."""

import time

import pytest
from kubernetes.client.exceptions import ApiException

from conftest import TIMEOUT
from kubeflow.common.types import KubernetesBackendConfig
from kubeflow.optimizer import GridSearch, OptimizerClient, RandomSearch, Search, TrainJobTemplate, TrialConfig
from kubeflow.trainer import CustomTrainer
from trials import trial

GROUP, VERSION, PLURAL = "trainer.kubeflow.org", "v1alpha1", "optimizationjobs"


def test_kubeflow_0_5s_optimizer_client_needs_katib_and_says_so(kubeconfig, namespace):
    client = OptimizerClient(KubernetesBackendConfig(config_file=kubeconfig, namespace=namespace))

    with pytest.raises(RuntimeError, match=f"Failed to create OptimizationJob: {namespace}/") as error:
        client.optimize(TrainJobTemplate(trainer=CustomTrainer(func=trial), runtime="torch-distributed"),
                        search_space={"lr": Search.loguniform(0.01, 0.3)}, trial_config=TrialConfig(num_trials=2))
    cause = error.value.__cause__
    assert isinstance(cause, ApiException) and cause.status == 404, cause
    assert "/apis/kubeflow.org/v1beta1/" in str(cause.headers) or cause.reason == "Not Found"

    with pytest.raises(RuntimeError, match=f"Failed to list OptimizationJobs in namespace: {namespace}"):
        client.list_jobs()


def crd_parameters(search_space):
    """spec.parameters for the SDK's Search specs, as the trainer-native backend writes them: min and max as decimal
    strings, type Float; a choice as categorical choices."""
    parameters = []
    for name, spec in search_space.items():
        space = spec.feasible_space
        if spec.parameter_type == "categorical":
            parameters.append({"name": name, "searchSpace": {"categorical": {"choices": [str(v) for v in space.list]}}})
        else:
            distribution = "logUniform" if space.distribution == "logUniform" else "uniform"
            parameters.append({"name": name, "searchSpace": {
                distribution: {"min": str(space.min), "max": str(space.max), "type": "Float"}}})
    return parameters


def crd_algorithm(algorithm):
    if isinstance(algorithm, GridSearch):
        return {"grid": {}}
    return {"random": {} if algorithm.random_state is None else {"seed": algorithm.random_state}}


def optimize(trainer_client, custom_objects, namespace, search_space, algorithm, trial_config):
    """What the trainer-native backend's optimize() creates, from 0.5.0's types; returns the name."""
    name = "opt-" + time.strftime("%H%M%S") + "-" + type(algorithm).__name__.lower()
    template = trainer_client.backend._get_trainjob_spec(runtime="torch-distributed",
                                                         trainer=CustomTrainer(func=trial, num_nodes=1))
    custom_objects.create_namespaced_custom_object(GROUP, VERSION, namespace, PLURAL, {
        "apiVersion": f"{GROUP}/{VERSION}", "kind": "OptimizationJob", "metadata": {"name": name},
        "spec": {
            "objectives": [{"metric": "loss", "direction": "Minimize"}],
            "searchAlgorithm": crd_algorithm(algorithm),
            "parameters": crd_parameters(search_space),
            "numTrials": trial_config.num_trials,
            "parallelTrials": trial_config.parallel_trials,
            "trainJobTemplate": {"spec": template.to_dict()},
        }})
    return name


def wait_until_ended(custom_objects, namespace, name):
    """The trainer-native backend's wait_for_job_status: Complete or Failed from the conditions that are True."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        job = custom_objects.get_namespaced_custom_object(GROUP, VERSION, namespace, PLURAL, name)
        ended = [c["type"] for c in (job.get("status") or {}).get("conditions") or []
                 if c.get("status") == "True" and c["type"] in ("Complete", "Failed")]
        if ended:
            return ended[0], job
        time.sleep(1)
    raise TimeoutError(f"OptimizationJob {name} did not end within {TIMEOUT} s")


@pytest.fixture(scope="module")
def random_search(trainer_client, custom_objects, namespace):
    name = optimize(trainer_client, custom_objects, namespace, {"lr": Search.loguniform(0.01, 0.3)},
                    RandomSearch(random_state=7), TrialConfig(num_trials=3, parallel_trials=2))
    state, job = wait_until_ended(custom_objects, namespace, name)
    return {"name": name, "state": state, "job": job}


@pytest.fixture(scope="module")
def grid_search(trainer_client, custom_objects, namespace):
    name = optimize(trainer_client, custom_objects, namespace,
                    {"lr": Search.choice([0.2, 0.1]), "batch_size": Search.choice([64, 32])},
                    GridSearch(), TrialConfig(num_trials=4, parallel_trials=2))
    state, job = wait_until_ended(custom_objects, namespace, name)
    return {"name": name, "state": state, "job": job}


@pytest.mark.runs_code("each trial's function reports its loss to the status server")
def test_a_random_search_runs_the_sdks_function_as_each_trial_and_keeps_the_best(random_search, trainer_client):
    status = random_search["job"]["status"]
    assert random_search["state"] == "Complete", status
    assert [t["state"] for t in status["trials"]] == ["Succeeded"] * 3
    best = min(status["trials"], key=lambda t: float(t["metrics"][0]["value"]))
    assert status["result"]["trainJobName"] == best["trainJobName"]
    assert status["result"]["parameters"] == best["parameters"]
    lrs = [float(t["parameters"][0]["value"]) for t in status["trials"]]
    assert all(0.01 <= lr <= 0.3 for lr in lrs) and len(set(lrs)) == 3, lrs

    # the trials are TrainJobs: TrainerClient reads them, and the best trial's log (the backend's get_job_logs)
    trial_job = trainer_client.get_job(best["trainJobName"])
    assert trial_job.status == "Complete" and trial_job.runtime.name == "torch-distributed"
    lr = best["parameters"][0]["value"]
    assert any(line.startswith(f"trial lr={float(lr)} ") for line in trainer_client.get_job_logs(trial_job.name))


@pytest.mark.runs_code("each trial's function reports its loss to the status server")
def test_a_grid_search_tries_each_combination_once_and_finds_the_best(grid_search):
    status = grid_search["job"]["status"]
    assert grid_search["state"] == "Complete", status
    tried = [{p["name"]: p["value"] for p in t["parameters"]} for t in status["trials"]]
    # in order, the last parameter varying fastest (itertools.product)
    assert tried == [{"lr": lr, "batch_size": b} for lr in ("0.2", "0.1") for b in ("64", "32")]
    assert {p["name"]: p["value"] for p in status["result"]["parameters"]} == {"lr": "0.1", "batch_size": "32"}


@pytest.mark.runs_code("the trials end once their function reports")
def test_deleting_the_optimization_job_deletes_its_trials(random_search, custom_objects, trainer_client, namespace):
    trials = [t["trainJobName"] for t in random_search["job"]["status"]["trials"]]
    custom_objects.delete_namespaced_custom_object(GROUP, VERSION, namespace, PLURAL, random_search["name"])

    deadline = time.monotonic() + 60
    while any(t in [j.name for j in trainer_client.list_jobs()] for t in trials):
        assert time.monotonic() < deadline, f"trials {trials} still there"
        time.sleep(0.5)
