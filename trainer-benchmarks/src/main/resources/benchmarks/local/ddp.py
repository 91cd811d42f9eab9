# A short PyTorch DDP training on CPUs, 2 nodes x 2 processes: examples/torch-trainjob.yaml without the progress
# reports (the bare run it is compared with has no status server). Reads torchrun's PET_* contract and starts its
# local ranks itself (Debian's torch 1.13 torchrun fails under Python 3.11).
import os
import socket
import time
import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def await_store(addr, port):
    # torch 1.13 retries a refused store connection after a whole second: whichever rank started first, bare or in
    # local, some runs lost up to 1 s and some none, and medians of a few runs differed by that second. Waiting for
    # rank 0's store to listen (10 ms polls) keeps what is compared: the processes' start, training and exit.
    while True:
        try:
            socket.create_connection((addr, int(port)), timeout=1).close()
            return
        except OSError:
            time.sleep(0.01)


def train(local_rank, node_rank, nproc, nnodes, addr, port):
    rank, world = node_rank * nproc + local_rank, nnodes * nproc
    if rank != 0:
        await_store(addr, port)
    dist.init_process_group("gloo", init_method=f"tcp://{addr}:{port}", rank=rank, world_size=world)
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(10, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    torch.manual_seed(rank)
    w = torch.arange(10, dtype=torch.float32) / 10
    for step in range(30):
        x = torch.randn(64, 10)
        loss = torch.nn.functional.mse_loss(model(x).squeeze(1), x @ w)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if rank == 0:
        print(f"loss {loss.item():.4f} (world size {world})", flush=True)
    dist.destroy_process_group()


env = os.environ
nproc, nnodes = int(env["PET_NPROC_PER_NODE"]), int(env["PET_NNODES"])
mp.start_processes(train, nprocs=nproc, start_method="fork",
                   args=(int(env["PET_NODE_RANK"]), nproc, nnodes, env["PET_MASTER_ADDR"], env["PET_MASTER_PORT"]))
