//go:build tools

// Package lab pins the etcd that .ci/build-lab builds.
package lab

import _ "go.etcd.io/etcd/server/v3"
