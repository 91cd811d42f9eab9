// The pin of upstream Kubeflow Trainer for the lab: .ci/build-lab downloads this module (not built) and copies its
// examples/ for the cluster suite, which runs them as upstream's users would. The checksum is go.sum's.
module io.kftrainer/lab/upstream

go 1.25

require github.com/kubeflow/trainer/v2 v2.3.0
