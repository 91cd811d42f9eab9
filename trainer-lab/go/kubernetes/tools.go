//go:build tools

// Package lab pins the commands .ci/build-lab builds from k8s.io/kubernetes.
package lab

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
)
