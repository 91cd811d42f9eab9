//go:build tools

// Package lab pins the Kueue that .ci/build-lab builds.
package lab

import _ "sigs.k8s.io/kueue/cmd/kueue"
