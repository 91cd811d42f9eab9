//go:build tools

// Package lab pins the kwok that .ci/build-lab builds.
package lab

import _ "sigs.k8s.io/kwok/cmd/kwok"
