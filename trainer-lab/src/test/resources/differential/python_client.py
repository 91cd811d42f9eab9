"""One case of the differential suite with Python's kubernetes client; prints what the client saw as JSON.

    python3 python_client.py KUBECONFIG NAMESPACE CASE

CASE: create, get, conflict, not-found, forbidden (KUBECONFIG is then a ServiceAccount's without rights).
Printed: {"status": HTTP status, "reason": ..., "causes": [{"field", "reason"}], "message": ..., "object": {...}}.
"""
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException


def config_map(name, data):
    return client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name, labels={"client": "python"}), data=data)


def run(core, namespace, case):
    if case == "create":
        return core.create_namespaced_config_map_with_http_info(namespace, config_map("created", {"a": "1"}))
    if case == "get":
        core.create_namespaced_config_map(namespace, config_map("read", {"a": "1"}))
        return core.read_namespaced_config_map_with_http_info("read", namespace)
    if case == "conflict":
        created = core.create_namespaced_config_map(namespace, config_map("stale", {"a": "1"}))
        created.data = {"a": "2"}
        core.replace_namespaced_config_map("stale", namespace, created)
        created.data = {"a": "3"}
        return core.replace_namespaced_config_map_with_http_info("stale", namespace, created)
    if case == "not-found":
        return core.read_namespaced_config_map_with_http_info("absent", namespace)
    if case == "forbidden":
        return core.list_namespaced_secret_with_http_info(namespace)
    raise ValueError("unknown case " + case)


def main():
    kubeconfig, namespace, case = sys.argv[1:4]
    api = config.new_client_from_config(config_file=kubeconfig)
    core = client.CoreV1Api(api)
    try:
        data, status, _ = run(core, namespace, case)
        seen = {"status": status, "object": api.sanitize_for_serialization(data)}
    except ApiException as e:
        body = json.loads(e.body) if e.body else {}
        causes = [{"field": c.get("field", ""), "reason": c.get("reason", "")}
                  for c in (body.get("details") or {}).get("causes") or []]
        seen = {"status": e.status, "reason": body.get("reason", ""), "causes": causes,
                "message": body.get("message", "")}
    print(json.dumps(seen, sort_keys=True))


if __name__ == "__main__":
    main()
