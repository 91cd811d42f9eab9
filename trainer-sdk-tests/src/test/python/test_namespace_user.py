"""TrainerClient as a user whose kubeconfig grants one namespace's rights, as docs/kubeflow-sdk.md makes one against
local: a ServiceAccount bound in its namespace to upstream's ClusterRole kubeflow-trainer-edit (or -view), and a token
from TokenRequest in a kubeconfig of its own. Every call a notebook makes works there; outside its rights the SDK's
error carries the API server's 403, which names the user, the verb, the resource and the namespace."""

import logging
import os
import subprocess
import sys

import pytest
import yaml
from kubernetes import client as k8s
from kubernetes import config as k8s_config
from kubernetes.client.exceptions import ApiException

from conftest import ON_LAB, TIMEOUT, eventually
from kubeflow.common.types import KubernetesBackendConfig
from kubeflow.trainer import CustomTrainer, TrainerClient


def hello_from_a_namespace():
    import os

    print(f"hello from {os.environ.get('HOSTNAME', 'a node')}", flush=True)


def user_kubeconfig(admin_kubeconfig, namespace, user, token, path):
    """The admin's kubeconfig with the user's token and namespace instead of the admin's credentials."""
    with open(admin_kubeconfig) as f:
        config = yaml.safe_load(f)
    context = next(c for c in config["contexts"] if c["name"] == config["current-context"])
    cluster = next(c for c in config["clusters"] if c["name"] == context["context"]["cluster"])
    path.write_text(yaml.safe_dump({
        "apiVersion": "v1", "kind": "Config", "current-context": user,
        "clusters": [cluster],
        "users": [{"name": user, "user": {"token": token}}],
        "contexts": [{"name": user, "context": {"cluster": cluster["name"], "user": user, "namespace": namespace}}],
    }))
    path.chmod(0o600)
    return str(path)


def bound_user(api_client, kubeconfig, namespace, name, cluster_role, tmp_path_factory):
    """kubectl create serviceaccount, kubectl create rolebinding --clusterrole, kubectl create token: its kubeconfig."""
    core = k8s.CoreV1Api(api_client)
    core.create_namespaced_service_account(namespace, k8s.V1ServiceAccount(metadata=k8s.V1ObjectMeta(name=name)))
    k8s.RbacAuthorizationV1Api(api_client).create_namespaced_role_binding(namespace, k8s.V1RoleBinding(
        metadata=k8s.V1ObjectMeta(name=name),
        role_ref=k8s.V1RoleRef(api_group="rbac.authorization.k8s.io", kind="ClusterRole", name=cluster_role),
        subjects=[k8s.RbacV1Subject(kind="ServiceAccount", name=name, namespace=namespace)]))
    token = core.create_namespaced_service_account_token(name, namespace, k8s.AuthenticationV1TokenRequest(
        spec=k8s.V1TokenRequestSpec(audiences=[], expiration_seconds=3600))).status.token
    path = user_kubeconfig(kubeconfig, namespace, name, token, tmp_path_factory.mktemp(name) / "kubeconfig")
    # both roles grant reading TrainJobs: the binding counts once that is allowed
    as_user = k8s_config.new_client_from_config(config_file=path)
    eventually(lambda: k8s.CustomObjectsApi(as_user).list_namespaced_custom_object(
        "trainer.kubeflow.org", "v1alpha1", namespace, "trainjobs"))
    return path


@pytest.fixture(scope="module")
def editor_kubeconfig(api_client, kubeconfig, namespace, tmp_path_factory):
    return bound_user(api_client, kubeconfig, namespace, "alice", "kubeflow-trainer-edit", tmp_path_factory)


@pytest.fixture(scope="module")
def editor(editor_kubeconfig, namespace):
    return TrainerClient(backend_config=KubernetesBackendConfig(config_file=editor_kubeconfig, namespace=namespace))


def test_a_notebook_started_with_the_users_kubeconfig_works_in_its_namespace(editor_kubeconfig, namespace):
    # KUBECONFIG is read when the kubernetes package is imported: a Python started with it, as a notebook is
    code = ("from kubeflow.trainer import TrainerClient; c = TrainerClient(); "
            "print(c.backend.namespace, len(c.list_jobs()), len(c.list_runtimes()) > 0)")
    env = dict(os.environ, KUBECONFIG=editor_kubeconfig)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [namespace, "0", "True"]


def test_the_sdk_takes_the_namespace_from_KUBECONFIG_not_from_config_file(editor_kubeconfig, kubeconfig):
    # kubeflow 0.5.0's common.utils.get_default_target_namespace reads the contexts of $KUBECONFIG (here the
    # admin's, namespace default), not of config_file: name the namespace, or start Python with KUBECONFIG set
    client = TrainerClient(backend_config=KubernetesBackendConfig(config_file=editor_kubeconfig))
    assert client.backend.namespace == "default"


def forbidden(error):
    """The API server's 403 behind the SDK's RuntimeError."""
    cause = error.value.__cause__
    assert isinstance(cause, ApiException), repr(error.value)
    assert cause.status == 403, cause
    return cause.body


def test_the_users_client_starts_without_a_warning(editor_kubeconfig, caplog):
    # TrainerClient() reads kubeflow-system/kubeflow-trainer-public, which every authenticated user may read
    with caplog.at_level(logging.WARNING, logger="kubeflow"):
        TrainerClient(backend_config=KubernetesBackendConfig(config_file=editor_kubeconfig, namespace="x"))
    assert [r.getMessage() for r in caplog.records] == []


def test_the_user_lists_and_gets_the_clusters_runtimes(editor):
    # kubeflow/trainer#3022's grant of ClusterTrainingRuntimes to every authenticated user
    assert "torch-distributed" in [r.name for r in editor.list_runtimes()]
    assert editor.get_runtime("torch-distributed").trainer.framework == "torch"


def test_the_user_trains_waits_reads_logs_and_events_and_deletes_in_its_namespace(editor, namespace):
    name = editor.train(runtime="torch-distributed", trainer=CustomTrainer(func=hello_from_a_namespace, num_nodes=1))

    job = editor.wait_for_job_status(name, timeout=TIMEOUT, polling_interval=1)
    assert job.status == "Complete"
    assert [(s.name, s.status) for s in editor.get_job(name).steps] == [("node-0", "Succeeded")]
    assert name in [j.name for j in editor.list_jobs()]
    if not ON_LAB:  # on the lab kwok's pod printed nothing
        assert any(line.startswith("hello from ") for line in editor.get_job_logs(name)), list(
            editor.get_job_logs(name))
    # on the lab only the operator's: kwok writes no pod Event, and the SDK drops kube-scheduler's (test_custom_trainer)
    assert ({"TrainJob"} if ON_LAB else {"TrainJob", "Pod"}) <= {e.involved_object_kind
                                                               for e in editor.get_job_events(name)}

    editor.delete_job(name)
    with pytest.raises(RuntimeError, match=name):
        editor.wait_for_job_status(name, timeout=30, polling_interval=1)


def test_another_namespace_is_refused_saying_who_may_not_do_what_where(editor_kubeconfig, namespace):
    elsewhere = TrainerClient(backend_config=KubernetesBackendConfig(config_file=editor_kubeconfig,
                                                                     namespace="default"))

    with pytest.raises(RuntimeError, match="Failed to list TrainJobs in namespace: default") as error:
        elsewhere.list_jobs()
    assert (f'User \\"system:serviceaccount:{namespace}:alice\\" cannot list resource \\"trainjobs\\" in API group '
            '\\"trainer.kubeflow.org\\" in the namespace \\"default\\"') in forbidden(error)

    # train() first looks for a TrainingRuntime of that name in that namespace: refused too
    with pytest.raises(RuntimeError, match="Failed to get .*default/torch-distributed") as error:
        elsewhere.train(runtime="torch-distributed", trainer=CustomTrainer(func=hello_from_a_namespace))
    assert 'cannot get resource \\"trainingruntimes\\"' in forbidden(error)


def test_a_viewer_lists_runtimes_but_cannot_train_nor_read_a_trainjobs_steps(api_client, kubeconfig, namespace,
                                                                           custom_objects, tmp_path_factory):
    viewer = TrainerClient(backend_config=KubernetesBackendConfig(config_file=bound_user(
        api_client, kubeconfig, namespace, "viewer", "kubeflow-trainer-view", tmp_path_factory), namespace=namespace))

    assert "torch-distributed" in [r.name for r in viewer.list_runtimes()]
    assert viewer.list_jobs() == []
    with pytest.raises(RuntimeError, match="Failed to create TrainJob") as error:
        viewer.train(runtime="torch-distributed", trainer=CustomTrainer(func=hello_from_a_namespace))
    assert (f'User \\"system:serviceaccount:{namespace}:viewer\\" cannot create resource \\"trainjobs\\"'
            in forbidden(error))

    # the SDK reads a TrainJob's steps from its pods, which kubeflow-trainer-view (as upstream's) does not grant
    custom_objects.create_namespaced_custom_object("trainer.kubeflow.org", "v1alpha1", namespace, "trainjobs", {
        "apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob", "metadata": {"name": "held"},
        "spec": {"runtimeRef": {"name": "torch-distributed"}, "suspend": True}})
    try:
        with pytest.raises(RuntimeError, match=f"Failed to list TrainJob's steps: {namespace}/held") as error:
            viewer.get_job("held")
        assert 'cannot list resource \\"pods\\"' in forbidden(error)
    finally:
        custom_objects.delete_namespaced_custom_object("trainer.kubeflow.org", "v1alpha1", namespace, "trainjobs",
                                                       "held")


def test_without_the_grant_of_cluster_runtimes_list_runtimes_is_refused_as_upstream_refused_it(api_client, editor):
    # upstream's roles before kubeflow/trainer#3022 (kubeflow/trainer#2747): a RoleBinding of kubeflow-trainer-edit
    # cannot grant the cluster-scoped ClusterTrainingRuntimes, and TrainerClient().list_runtimes() is refused
    rbac = k8s.RbacAuthorizationV1Api(api_client)
    grant = rbac.read_cluster_role_binding("kubeflow-trainer-view-cluster-runtimes")
    rbac.delete_cluster_role_binding(grant.metadata.name)

    def refused():
        # kubeflow 0.5.0 says "Failed to list RuntimeKind.CLUSTER_TRAINING_RUNTIMEs" (the enum, not its value)
        with pytest.raises(RuntimeError, match="Failed to list .*CLUSTER_TRAINING_RUNTIME|ClusterTrainingRuntime") \
                as error:
            editor.list_runtimes()
        return error

    try:
        error = eventually(refused, errors=(pytest.fail.Exception,))
        assert 'cannot list resource \\"clustertrainingruntimes\\" in API group \\"trainer.kubeflow.org\\" at the ' \
               'cluster scope' in forbidden(error)
    finally:
        rbac.create_cluster_role_binding(k8s.V1ClusterRoleBinding(
            metadata=k8s.V1ObjectMeta(name=grant.metadata.name, labels=grant.metadata.labels),
            role_ref=grant.role_ref, subjects=grant.subjects))
    assert "torch-distributed" in eventually(lambda: [r.name for r in editor.list_runtimes()])
