"""The same training function, the same machine: the Kubeflow SDK's own local backend (LocalProcessBackendConfig)
against `local` (TrainerClient's Kubernetes backend), alternated, with the figures docs/kubeflow-sdk.md reports.

  .tools/sdk-venv/bin/python trainer-sdk-tests/benchmark/local_vs_sdk_local.py [--runs 3] [--wheelhouse DIR]

Per run, for each side in turn (the order alternates): the time from train() to the function's first line in
get_job_logs, and to Complete in get_job (both polled every 50 ms). Then, once each: a 2-node TrainJob (what
WORLD_SIZE the function sees), what a new client (a restarted notebook kernel) still lists, and, for `local`, what a
restart of `local` itself keeps (its TrainJob, status and log) and what kubectl shows.

The SDK's local backend has one runtime, torch-distributed, which runs `<fresh venv>/bin/torchrun`: every TrainJob
makes a virtual environment, and torch is in it only with packages_to_install=["torch"], a pip install from PyPI
(torch and its CUDA wheels, about 2.8 GB) into each new venv. --wheelhouse DIR (made once with
`pip download -d DIR torch`) makes that install local (PIP_NO_INDEX, PIP_FIND_LINKS), the SDK's best case; without
it every run downloads. `local` runs the function with the machine's Python and Debian's torch (python3-torch).

Needs trainer-cli/target/trainer.jar (./mvnw -pl trainer-cli -am install -DskipTests), kubectl on PATH, and the
SDK's virtual environment (.ci/install-sdk). Run it on a quiet machine: it prints the machine's CPUs and load.
"""

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kubeflow.common.types import KubernetesBackendConfig
from kubeflow.trainer import CustomTrainer, LocalProcessBackendConfig, TrainerClient

ROOT = Path(__file__).resolve().parents[2]
POLL = 0.05
MARKER = "train: started"


def train():
    # the function both sides run: a first line at once, then a small DDP-ready training with torch on CPUs
    import os

    rank, world = int(os.environ.get("RANK", "0")), int(os.environ.get("WORLD_SIZE", "1"))
    print(f"train: started, rank {rank} of {world}", flush=True)
    import torch

    if world > 1:
        import torch.distributed as dist

        dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 1)
    if world > 1:
        model = torch.nn.parallel.DistributedDataParallel(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(256, 8)
    y = x.sum(dim=1, keepdim=True)
    for step in range(200):
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
    print(f"train: done, rank {rank} of {world}, torch {torch.__version__}, loss {loss.item():.4f}", flush=True)


def lines(client, name):
    try:
        return list(client.get_job_logs(name))
    except Exception:  # no pod yet (local), no output yet
        return []


def timed_run(client, trainer, timeout=900):
    """train(), then the time to the function's first line and to Complete (or Failed), in seconds."""
    started = time.monotonic()
    name = client.train(runtime="torch-distributed", trainer=trainer)
    first_line = None
    while time.monotonic() - started < timeout:
        if first_line is None and any(MARKER in line for line in lines(client, name)):
            first_line = time.monotonic() - started
        status = client.get_job(name).status
        if status in ("Complete", "Failed"):
            if first_line is None and any(MARKER in line for line in lines(client, name)):
                first_line = time.monotonic() - started
            return name, first_line, time.monotonic() - started, status
        time.sleep(POLL)
    raise TimeoutError(f"{name} did not end within {timeout} s")


class Local:
    """trainer.jar local as a process: its banner's kubeconfig, stopped with SIGTERM (Ctrl-C)."""

    def __init__(self, work, data_dir=None):
        self.kubeconfig = work / "kubeconfig"
        banner, log = "Kubeflow Trainer is running locally", work / "local.log"
        banners = log.read_text().count(banner) if log.exists() else 0
        self.log = open(log, "a")
        state = ["--data-dir", str(data_dir)] if data_dir else ["--ephemeral"]
        if self.kubeconfig.exists():
            self.kubeconfig.unlink()
        started = time.monotonic()
        self.process = subprocess.Popen(
            ["java", "-jar", str(ROOT / "trainer-cli/target/trainer.jar"), "local", "--port", "0",
             "--kubeconfig-out", str(self.kubeconfig), *state], stdout=self.log, stderr=subprocess.STDOUT)
        while log.read_text().count(banner) == banners or not self.kubeconfig.exists():
            if self.process.poll() is not None or time.monotonic() - started > 120:
                raise RuntimeError("local did not start: " + log.read_text()[-2000:])
            time.sleep(POLL)
        self.ready = time.monotonic() - started

    def client(self):
        return TrainerClient(backend_config=KubernetesBackendConfig(config_file=str(self.kubeconfig),
                                                                    namespace="default"))

    def stop(self):
        self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=60)
        self.log.close()


def sdk_trainer(args, num_nodes=1):
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp"),
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    if args.wheelhouse:
        env.update(PIP_NO_INDEX="1", PIP_FIND_LINKS=str(Path(args.wheelhouse).resolve()))
    return CustomTrainer(func=train, num_nodes=num_nodes, packages_to_install=["torch"], env=env)


def median(values):
    values = [v for v in values if v is not None]
    return f"{statistics.median(values):6.2f}" if values else "     -"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--wheelhouse", help="a directory of wheels with torch and its dependencies")
    parser.add_argument("--python", default="/usr/bin/python3",
                        help="the Python the SDK's backend makes its venvs with (it takes `python` on PATH)")
    args = parser.parse_args()
    shims = Path(tempfile.mkdtemp(prefix="python-"))
    (shims / "python").symlink_to(args.python)
    os.environ["PATH"] = f"{shims}:{os.environ['PATH']}"
    if not shutil.which("kubectl"):
        sys.exit("kubectl is not on PATH")

    import kubeflow

    print(f"machine: {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}; kubeflow {kubeflow.__version__}"
          f" ({sys.executable}); torch for the SDK's backend: "
          f"{'wheelhouse ' + args.wheelhouse if args.wheelhouse else 'PyPI, each run'}; venvs of {args.python}",
          flush=True)
    work = Path(tempfile.mkdtemp(prefix="local-vs-sdk-"))
    local = Local(work)
    print(f"local: ready in {local.ready:.1f} s (--ephemeral)", flush=True)
    ours, sdk = local.client(), TrainerClient(backend_config=LocalProcessBackendConfig())
    results = {"sdk": [], "local": []}
    try:
        for run in range(args.runs):
            order = ["sdk", "local"] if run % 2 == 0 else ["local", "sdk"]
            for side in order:
                if side == "sdk":
                    name, first, done, status = timed_run(sdk, sdk_trainer(args))
                else:
                    name, first, done, status = timed_run(ours, CustomTrainer(func=train, num_nodes=1))
                results[side].append((first, done))
                print(f"run {run + 1} {side:5}: first line {first if first is None else round(first, 2)} s, "
                      f"{status} {done:.2f} s ({name})", flush=True)
        print("\nmedians over", args.runs, "runs   first line   Complete")
        for side in ("sdk", "local"):
            print(f"  {side:24} {median([f for f, _ in results[side]])} s   {median([d for _, d in results[side]])} s")

        print("\n2 nodes:")
        name, _, done, status = timed_run(ours, CustomTrainer(func=train, num_nodes=2))
        print(f"  local: {status} in {done:.2f} s: " + "; ".join(
            line for step in ("node-0", "node-1") for line in ours.get_job_logs(name, step=step) if "done" in line))
        name, _, done, status = timed_run(sdk, sdk_trainer(args, num_nodes=2))
        print(f"  sdk:   {status} in {done:.2f} s: " + "; ".join(
            line.strip() for line in sdk.get_job_logs(name) if "train: done" in line))

        print("\na new client (a restarted notebook kernel) lists:")
        print(f"  local: {len(local.client().list_jobs())} TrainJobs")
        print(f"  sdk:   {len(TrainerClient(backend_config=LocalProcessBackendConfig()).list_jobs())} TrainJobs")
        print("kubectl get trainjobs (local):")
        print(subprocess.run(["kubectl", "--kubeconfig", str(local.kubeconfig), "get", "trainjobs"],
                             capture_output=True, text=True).stdout.rstrip())
    finally:
        local.stop()

    print("\na restart of local with --data-dir:")
    data = work / "data"
    local = Local(work, data)
    try:
        name, _, done, status = timed_run(local.client(), CustomTrainer(func=train, num_nodes=1))
    finally:
        local.stop()
    local = Local(work, data)
    try:
        client = local.client()
        kept = client.get_job(name)
        log = [line for line in lines(client, name) if "train: done" in line]
        print(f"  ready again in {local.ready:.1f} s; {name}: {kept.status}, its log kept: {bool(log)}")
    finally:
        local.stop()
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(shims, ignore_errors=True)


if __name__ == "__main__":
    main()
