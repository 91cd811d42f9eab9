"""The training function of the OptimizerClient cases: one trial of a hyperparameter search.

It reads its hyperparameters as the OptimizationJob gives them (KUBEFLOW_TRAINER_OPT_<NAME>), computes a loss that
is smallest at lr = 0.1, prints it and reports it to the TrainJob status server (docs/training-progress.md), from
where the OptimizationJob reads each trial's result. Self-contained: the SDK ships its source to the pods."""


def trial():
    import json
    import os
    import ssl
    import urllib.request
    from datetime import datetime, timezone

    lr = float(os.environ["KUBEFLOW_TRAINER_OPT_LR"])
    batch_size = int(os.environ.get("KUBEFLOW_TRAINER_OPT_BATCH_SIZE", "32"))
    loss = (lr - 0.1) ** 2 + (0.0001 if batch_size != 32 else 0.0)
    print(f"trial lr={lr} batch_size={batch_size} loss={loss:.6f}", flush=True)
    if os.environ.get("RANK", "0") == "0":
        status = {"progressPercentage": 100, "metrics": [{"name": "loss", "value": f"{loss:.6f}"}],
                  "lastUpdatedTime": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
        with open(os.environ["KUBEFLOW_TRAINER_SERVER_TOKEN"]) as f:
            token = f.read().strip()
        request = urllib.request.Request(
            os.environ["KUBEFLOW_TRAINER_SERVER_URL"], json.dumps({"trainerStatus": status}).encode(),
            method="POST", headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
        tls = ssl.create_default_context(cafile=os.environ["KUBEFLOW_TRAINER_SERVER_CA_CERT"])
        urllib.request.urlopen(request, context=tls, timeout=30).close()
