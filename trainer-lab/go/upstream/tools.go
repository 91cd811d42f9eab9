//go:build tools

// Package lab pins upstream Kubeflow Trainer's controller manager that .ci/build-lab builds.
package lab

import _ "github.com/kubeflow/trainer/v2/cmd/trainer-controller-manager"
