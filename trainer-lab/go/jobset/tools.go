//go:build tools

// Package lab pins the JobSet controller that .ci/build-lab builds.
package lab

import _ "sigs.k8s.io/jobset"
