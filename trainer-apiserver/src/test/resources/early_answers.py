"""POSTs a ConfigMap of a given size to the embedded API server and prints what the client read, as one JSON line.

usage: early_answers.py URL CA_FILE TOKEN NAMESPACE NAME SIZE CLIENT

CLIENT "kubernetes": Debian's python3-kubernetes (create_namespaced_config_map: a Content-Length body sent whole
before the answer is read); "chunked": urllib3 streaming the body from a generator, chunk by chunk. An empty TOKEN
sends no credentials. Prints {"status", "reason", "message"} of the answer, or {"error"} naming the exception the
client raised instead.
"""
import json
import sys

import urllib3

url, ca_file, token, namespace, name, size, client = sys.argv[1:8]
size = int(size)
path = "/api/v1/namespaces/%s/configmaps" % namespace


def status(code, body):
    status = json.loads(body)
    return {"status": code, "reason": status.get("reason"), "message": status.get("message")}


def with_kubernetes():
    import kubernetes.client
    from kubernetes.client.rest import ApiException

    configuration = kubernetes.client.Configuration()
    configuration.host = url
    configuration.ssl_ca_cert = ca_file
    if token:
        configuration.api_key = {"authorization": "Bearer " + token}
    # what the client retries would hide the first answer
    configuration.retries = False
    api = kubernetes.client.CoreV1Api(kubernetes.client.ApiClient(configuration))
    body = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"v": "a" * size}}
    try:
        api.create_namespaced_config_map(namespace, body)
        return {"status": 201}
    except ApiException as e:
        return status(e.status, e.body)


def chunked():
    prefix = ('{"metadata":{"name":"%s"},"data":{"v":"' % name).encode()
    piece = b"a" * (64 * 1024)

    def body():
        yield prefix
        left = size
        while left > 0:
            yield piece[:left]
            left -= len(piece)
        yield b'"}}'

    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    http = urllib3.PoolManager(cert_reqs="CERT_REQUIRED", ca_certs=ca_file)
    answer = http.urlopen("POST", url + path, body=body(), headers=headers, chunked=True, retries=False)
    return status(answer.status, answer.data)


try:
    outcome = with_kubernetes() if client == "kubernetes" else chunked()
except Exception as e:  # the connection error a client reports instead of the answer
    outcome = {"error": "%s: %s" % (type(e).__name__, e)}
print(json.dumps(outcome))
