"""A trial of the e2e OptimizationJobs: trains a linear model with torch at the trial's learning rate
(KUBEFLOW_TRAINER_OPT_LR) and reports its progress and loss after every step.

It reports the way upstream's training code does when the TrainJob has a status server
(KUBEFLOW_TRAINER_SERVER_URL: POST {"trainerStatus": ...} with the mounted token and CA). Without one
(local mode before the TrainJobStatus plugin), it writes the same trainerStatus with a JSON merge patch of
the TrainJob's status subresource through the API server at E2E_API_SERVER, local mode's loopback server,
which needs no credentials; the TrainJob's name and namespace come from the env (fieldRef or values), else from
the pod's hostname.
"""
import json
import os
import ssl
import time
import urllib.error
import urllib.request
from datetime import datetime, timezone

import torch


def report(percent, loss, final=False):
    status = {"progressPercentage": int(percent), "metrics": [{"name": "loss", "value": f"{loss:.6f}"}],
              "lastUpdatedTime": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    url = os.environ.get("KUBEFLOW_TRAINER_SERVER_URL")
    if url:
        with open(os.environ["KUBEFLOW_TRAINER_SERVER_TOKEN"]) as f:
            token = f.read().strip()
        request = urllib.request.Request(url, json.dumps({"trainerStatus": status}).encode(), method="POST",
                                         headers={"Authorization": "Bearer " + token,
                                                  "Content-Type": "application/json"})
        context = ssl.create_default_context(cafile=os.environ["KUBEFLOW_TRAINER_SERVER_CA_CERT"])
    else:
        # the pod's hostname is <trainjob>-node-0-0 when the env does not name the TrainJob
        trainjob = os.environ.get("E2E_TRAINJOB") or os.environ["HOSTNAME"].rsplit("-node-", 1)[0]
        url = "%s/apis/trainer.kubeflow.org/v1alpha1/namespaces/%s/trainjobs/%s/status" % (
            os.environ["E2E_API_SERVER"], os.environ["E2E_NAMESPACE"], trainjob)
        request = urllib.request.Request(url, json.dumps({"status": {"trainerStatus": status}}).encode(),
                                         method="PATCH", headers={"Content-Type": "application/merge-patch+json"})
        context = None
    for attempt in range(20):
        try:
            urllib.request.urlopen(request, context=context, timeout=10).close()
            return
        except urllib.error.HTTPError as e:
            if e.code != 429 or not final:
                if e.code != 429:
                    print(f"progress not reported: HTTP {e.code} {e.read()[:300]!r}", flush=True)
                return
            time.sleep(float(e.headers.get("Retry-After", "1")))


lr = float(os.environ["KUBEFLOW_TRAINER_OPT_LR"])
steps = int(os.environ.get("E2E_STEPS", "20"))
pause = float(os.environ.get("E2E_PAUSE", "0"))
torch.manual_seed(0)
model = torch.nn.Linear(10, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=lr)
w = torch.arange(10, dtype=torch.float32) / 10
print(f"training with lr {lr}", flush=True)
for step in range(steps):
    x = torch.randn(64, 10)
    loss = torch.nn.functional.mse_loss(model(x).squeeze(1), x @ w)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    report(100 * (step + 1) / steps, loss.item(), final=step == steps - 1)
    time.sleep(pause)
print(f"final loss {loss.item():.6f}", flush=True)
