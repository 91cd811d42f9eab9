#!/usr/bin/python3
"""Sends 8 concurrent 64 MiB request bodies (half with Content-Length, half chunked) to an embedded API server
started by `trainer.jar apiserver --kubeconfig-out KUBECONFIG`, with the kubeconfig's token and CA, and prints the
status lines. Run it twice and read the server's VmRSS in /proc/PID/status around it: the bodies are refused with 413
before they are read, so the resident memory stays flat.
Usage: oversized-bodies.py KUBECONFIG"""
import ssl, socket, sys, threading, base64, re, time, os
kc = open(sys.argv[1]).read()
server = re.search(r'server: https://([\d.]+):(\d+)', kc)
host, port = server.group(1), int(server.group(2))
token = re.search(r'token: (\S+)', kc).group(1)
ca = base64.b64decode(re.search(r'certificate-authority-data: (\S+)', kc).group(1)).decode()
ctx = ssl.create_default_context(cadata=ca)
chunk = b'{"metadata":{"name":"x"},"data":{"v":"' + b'a' * (1 << 20)
results = []
def send(chunked):
    s = ctx.wrap_socket(socket.create_connection((host, port)), server_hostname=host)
    hdr = f"POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\n"
    hdr += "Transfer-Encoding: chunked\r\n\r\n" if chunked else f"Content-Length: {64 << 20}\r\n\r\n"
    s.sendall(hdr.encode())
    try:
        for i in range(64):
            if chunked:
                s.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
            else:
                s.sendall(chunk)
    except OSError as e:
        pass
    try:
        results.append(s.recv(200).split(b"\r\n")[0].decode())
    except OSError as e:
        results.append("error " + str(e))
threads = [threading.Thread(target=send, args=(i % 2 == 1,)) for i in range(8)]
[t.start() for t in threads]; [t.join() for t in threads]
print(results)
