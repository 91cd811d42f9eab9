"""Fixtures of the SDK suite: the TrainerClient of a fresh namespace of the cluster the JUnit runner started.

The runner passes the cluster's kubeconfig in KUBECONFIG and names it in TRAINER_SDK_TARGET: `local` (KubeflowSdkTest,
the default) or `lab` (trainer-deploy's KubeflowSdkOnKubernetesIT: real Kubernetes with the chart installed, whose kwok
pods run no process). Each test module gets a namespace of its own, made with the Kubernetes client the SDK depends
on; the TrainerClient is built exactly as a notebook builds it.

A case that needs the TrainJob's code to run (its logs, what it prints or reports) is marked
`@pytest.mark.runs_code("why")` and skipped on the lab with that reason.
"""

import os
import time
import uuid

import pytest
from kubernetes import client as k8s
from kubernetes import config as k8s_config

from kubeflow.common.types import KubernetesBackendConfig
from kubeflow.trainer import TrainerClient

# what a wait in a test may take at most: a 2-node DDP training on 2 busy cores takes 20 to 40 s
TIMEOUT = 240

TARGET = os.environ.get("TRAINER_SDK_TARGET", "local")
if TARGET not in ("local", "lab"):
    raise ValueError(f"TRAINER_SDK_TARGET is {TARGET!r}: local or lab")
ON_LAB = TARGET == "lab"

# how long kube-apiserver's RBAC authorizer may take to see a RoleBinding or ClusterRoleBinding written (its informer)
RBAC_PROPAGATION = 30


def eventually(check, timeout=RBAC_PROPAGATION, errors=(AssertionError, RuntimeError, k8s.ApiException)):
    """check()'s result once it stops raising one of errors, or its last error after timeout seconds.

    kube-apiserver authorizes from informers: a binding written a moment ago may not count yet (`local` applies it at
    once)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return check()
        except errors:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


# kwok's annotation (the lab's pod-complete stage honours it): how long a Job's pod stays Running before it Succeeds
KWOK_COMPLETION_DELAY = "pod-complete.stage.kwok.x-k8s.io/delay"
# kwok's chaos stage: a pod with this label fails with exit code 1 once Running
KWOK_FAIL = "pod-container-running-failed.stage.kwok.x-k8s.io"


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "runs_code(reason): needs the TrainJob's code to run; skipped on the lab (kwok runs no process)")


def pytest_collection_modifyitems(config, items):
    if not ON_LAB:
        return
    for item in items:
        marker = item.get_closest_marker("runs_code")
        if marker:
            item.add_marker(pytest.mark.skip(reason="on the lab, kwok's pods run no process: " + marker.args[0]))


def node_pods(metadata):
    """A RuntimePatch of the node replicated job's pod template's metadata."""
    from kubeflow.trainer.options import (
        JobSetSpecPatch, JobSetTemplatePatch, JobSpecPatch, JobTemplatePatch, PodTemplatePatch, ReplicatedJobPatch,
        RuntimePatch, TrainingRuntimeSpecPatch)

    node = ReplicatedJobPatch(name="node", template=JobTemplatePatch(spec=JobSpecPatch(
        template=PodTemplatePatch(metadata=metadata))))
    return RuntimePatch(training_runtime_spec=TrainingRuntimeSpecPatch(
        template=JobSetTemplatePatch(spec=JobSetSpecPatch(replicated_jobs=[node]))))


def as_a_training(seconds=4):
    """On the lab, the options that keep the node pods Running `seconds` before they Succeed, as a training would
    (kwok ends a Job's pod the moment it runs); on local none: the code runs."""
    return [node_pods({"annotations": {KWOK_COMPLETION_DELAY: f"{seconds}s"}})] if ON_LAB else []


def failing_on_the_lab():
    """On the lab, the options that make the node pods fail (exit code 1, kwok's chaos stage); on local none."""
    return [node_pods({"labels": {KWOK_FAIL: "true"}})] if ON_LAB else []


@pytest.fixture(scope="session")
def kubeconfig():
    path = os.environ.get("KUBECONFIG")
    if not path or not os.path.exists(path):
        pytest.skip("no KUBECONFIG of a running local (the suite is run by KubeflowSdkTest)")
    return path


@pytest.fixture(scope="session")
def api_client(kubeconfig):
    return k8s_config.new_client_from_config(config_file=kubeconfig)


@pytest.fixture(scope="module")
def namespace(api_client, request):
    name = "sdk-" + request.module.__name__.replace("test_", "").replace("_", "-")[:40] + "-" + uuid.uuid4().hex[:5]
    k8s.CoreV1Api(api_client).create_namespace(k8s.V1Namespace(metadata=k8s.V1ObjectMeta(name=name)))
    return name


@pytest.fixture(scope="module")
def trainer_client(kubeconfig, namespace):
    return TrainerClient(backend_config=KubernetesBackendConfig(config_file=kubeconfig, namespace=namespace))


@pytest.fixture(scope="module")
def custom_objects(api_client):
    return k8s.CustomObjectsApi(api_client)


@pytest.fixture(scope="module")
def core(api_client):
    return k8s.CoreV1Api(api_client)
