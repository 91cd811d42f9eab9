"""TrainerClient.train with CustomTrainer against local: a 2-node PyTorch DDP function on CPUs with Debian's torch,
then every call on the TrainJob (wait_for_job_status, get_job, list_jobs, get_job_logs with and without follow,
get_job_events, delete_job), and a failing function. On the lab (kwok's pods run no process) the same TrainJobs are
Running then Complete (or Failed) without the function running: what its output shows is checked on local only."""

import time

import pytest

from conftest import ON_LAB, TIMEOUT, as_a_training, failing_on_the_lab
from kubeflow.trainer import CustomTrainer


def ddp_train():
    # runs on each node under torchrun (2 nodes x 1 process): gloo on CPUs, the PET_* env of the torch plugin
    import torch
    import torch.distributed as dist

    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(8, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(256, 8)
    y = x.sum(dim=1, keepdim=True)
    for step in range(300):
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        if step % 50 == 0:
            print(f"rank {rank}/{world} step {step}: loss {loss.item():.4f}", flush=True)
    print(f"rank {rank}/{world} done: loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()


def failing_train():
    print("about to fail", flush=True)
    raise SystemExit(3)


@pytest.fixture(scope="module")
def ddp_job(trainer_client):
    """The DDP TrainJob, its statuses as wait_for_job_status saw them, and node 0's log followed while it ran."""
    name = trainer_client.train(runtime="torch-distributed", trainer=CustomTrainer(func=ddp_train, num_nodes=2),
                                options=as_a_training())
    seen = []
    running = trainer_client.wait_for_job_status(
        name, status={"Running", "Complete"}, timeout=TIMEOUT, polling_interval=1,
        callbacks=[lambda job: seen.append(job.status)])
    followed = None if ON_LAB else list(trainer_client.get_job_logs(name, follow=True))
    done = trainer_client.wait_for_job_status(
        name, timeout=TIMEOUT, polling_interval=1, callbacks=[lambda job: seen.append(job.status)])
    return {"name": name, "seen": seen, "running": running, "followed": followed, "done": done}


def test_wait_for_job_status_sees_the_ddp_trainjob_running_then_complete(ddp_job):
    seen = ddp_job["seen"]
    assert "Running" in seen, seen
    assert seen[-1] == "Complete"
    assert seen.index("Running") < seen.index("Complete")
    assert ddp_job["running"].status in ("Running", "Complete")
    assert ddp_job["done"].status == "Complete"


def test_get_job_shows_both_nodes_succeeded(trainer_client, ddp_job):
    job = trainer_client.get_job(ddp_job["name"])

    assert job.status == "Complete"
    assert job.num_nodes == 2
    assert job.runtime.name == "torch-distributed"
    assert sorted((s.name, s.status) for s in job.steps) == [("node-0", "Succeeded"), ("node-1", "Succeeded")]
    assert all(s.pod_name.startswith(ddp_job["name"] + "-node-0-") for s in job.steps)


def test_list_jobs_lists_it_and_filters_by_runtime(trainer_client, ddp_job):
    assert ddp_job["name"] in [j.name for j in trainer_client.list_jobs()]
    torch = trainer_client.get_runtime("torch-distributed")
    assert ddp_job["name"] in [j.name for j in trainer_client.list_jobs(runtime=torch)]
    xgboost = trainer_client.get_runtime("xgboost-distributed")
    assert ddp_job["name"] not in [j.name for j in trainer_client.list_jobs(runtime=xgboost)]


@pytest.mark.runs_code("no training output to read")
def test_get_job_logs_reads_each_nodes_training_output(trainer_client, ddp_job):
    node0 = list(trainer_client.get_job_logs(ddp_job["name"]))
    node1 = list(trainer_client.get_job_logs(ddp_job["name"], step="node-1"))

    assert "rank 0/2 step 0: loss" in "\n".join(node0)
    assert any(line.startswith("rank 0/2 done: loss") for line in node0), node0
    assert any(line.startswith("rank 1/2 done: loss") for line in node1), node1


@pytest.mark.runs_code("no training output to follow")
def test_get_job_logs_with_follow_streamed_node_0_to_its_end(ddp_job):
    followed = "\n".join(ddp_job["followed"])
    assert "rank 0/2 step 0: loss" in followed
    assert "rank 0/2 done: loss" in followed


def test_get_job_events_has_the_trainjobs_and_its_pods_events(trainer_client, core, namespace, ddp_job):
    events = trainer_client.get_job_events(ddp_job["name"])

    kinds = {e.involved_object_kind for e in events}
    reasons = {(e.involved_object_kind, e.reason) for e in events}
    assert [e.event_time for e in events] == sorted(e.event_time for e in events)
    if not ON_LAB:
        assert {"JobSet", "Pod"} <= kinds, reasons
        assert ("Pod", "Started") in reasons, reasons
        return
    # on Kubernetes: the operator's; the pods' are the kubelet's (kwok writes none) and kube-scheduler's, which the
    # SDK drops: it keeps only Events with firstTimestamp, and kube-scheduler writes through events.k8s.io/v1
    # (eventTime, no firstTimestamp), so a Scheduled, or a FailedScheduling saying why a pod waits, never shows
    assert ("TrainJob", "AllJobsCompleted") in reasons, reasons
    scheduled = [e for e in core.list_namespaced_event(namespace).items if e.reason == "Scheduled"
                 and e.involved_object.name.startswith(ddp_job["name"] + "-node-0-")]
    assert scheduled, "kube-scheduler's Scheduled Events of the node pods"
    assert all(e.first_timestamp is None and e.event_time is not None for e in scheduled), scheduled
    assert "Pod" not in kinds, reasons


def test_delete_job_deletes_the_trainjob_and_its_pods(trainer_client, core, namespace, ddp_job):
    name = ddp_job["name"]
    trainer_client.delete_job(name)

    with pytest.raises(RuntimeError, match=name):
        trainer_client.get_job(name)
    deadline = time.monotonic() + 60
    selector = f"jobset.sigs.k8s.io/jobset-name={name}"
    while core.list_namespaced_pod(namespace, label_selector=selector).items:
        assert time.monotonic() < deadline, "the TrainJob's pods are still there 60 s after delete_job"
        time.sleep(0.5)
    assert name not in [j.name for j in trainer_client.list_jobs()]


@pytest.fixture(scope="module")
def fail_fast_runtime(custom_objects, namespace):
    """A namespaced TrainingRuntime: torch-distributed whose node Job does not retry (backoffLimit 0, restartPolicy
    Never: the failed pod stays, and the TrainJob's Failed message names it).

    With the shipped runtime a failing function fails the TrainJob only after the Job's 6 retries and the kubelet's
    back-off between them (about 2 minutes here), as on a cluster.
    """
    shipped = custom_objects.get_cluster_custom_object(
        "trainer.kubeflow.org", "v1alpha1", "clustertrainingruntimes", "torch-distributed")
    for job in shipped["spec"]["template"]["spec"]["replicatedJobs"]:
        if job["name"] == "node":
            job["template"]["spec"]["backoffLimit"] = 0
            job["template"]["spec"]["template"]["spec"]["restartPolicy"] = "Never"
    runtime = {
        "apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainingRuntime",
        "metadata": {"name": "torch-fail-fast", "labels": {"trainer.kubeflow.org/framework": "torch"}},
        "spec": shipped["spec"],
    }
    custom_objects.create_namespaced_custom_object(
        "trainer.kubeflow.org", "v1alpha1", namespace, "trainingruntimes", runtime)
    return "torch-fail-fast"


def test_a_namespaced_runtime_is_listed_and_got_beside_the_cluster_ones(trainer_client, fail_fast_runtime):
    runtimes = {r.name: r.kind.value for r in trainer_client.list_runtimes()}
    assert runtimes[fail_fast_runtime] == "TrainingRuntime"
    assert runtimes["torch-distributed"] == "ClusterTrainingRuntime"
    assert trainer_client.get_runtime(fail_fast_runtime).kind.value == "TrainingRuntime"


def test_a_failing_function_reaches_failed_and_says_why(trainer_client, fail_fast_runtime):
    name = trainer_client.train(runtime=fail_fast_runtime, trainer=CustomTrainer(func=failing_train, num_nodes=1),
                                options=failing_on_the_lab())

    job = trainer_client.wait_for_job_status(name, status={"Failed"}, timeout=TIMEOUT, polling_interval=1)

    assert job.status == "Failed"
    # waiting for Complete raises at once on a Failed TrainJob
    with pytest.raises(RuntimeError, match=f"TrainJob {name} is Failed"):
        trainer_client.wait_for_job_status(name, timeout=10, polling_interval=1)
    messages = "\n".join(e.message for e in trainer_client.get_job_events(name))
    if ON_LAB:
        # the function did not run: kwok failed its pod (exit code 1), the Job gave up, JobSet's and ours say so
        assert "failed" in messages.lower(), messages
        trainer_client.delete_job(name)
        return
    # the Failed Event names the pod, the container and the last lines of its output: torchrun's report of the rank
    assert f"/{name}-node-0-0-" in messages
    assert "container node exited with code 1" in messages
    assert "exitcode  : 3" in messages
    trainer_client.delete_job(name)
