{{/*
Names and labels, as upstream's chart names them: with the release `kubeflow-trainer` (the documented one), the
objects have the names of manifests/base (kubeflow-trainer-controller-manager, kubeflow-trainer-webhook-cert, ...).
*/}}

{{- define "trainer.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release name, or release-chart when the release name does not contain the chart's; at most 63 characters. */}}
{{- define "trainer.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "trainer.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "trainer.selectorLabels" -}}
app.kubernetes.io/name: {{ include "trainer.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* The labels of every object: the chart's, then commonLabels. */}}
{{- define "trainer.labels" -}}
helm.sh/chart: {{ include "trainer.chart" . }}
{{ include "trainer.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: kubeflow
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* The version the Kubeflow SDK reads from the kubeflow-trainer-public ConfigMap, as upstream writes it. */}}
{{- define "trainer.version" -}}
{{- printf "v%s" .Chart.AppVersion }}
{{- end }}

{{/* Upstream's manager image, which a values file written for upstream's chart names: a Go binary without `run`. */}}
{{- define "trainer.upstreamImageRepository" -}}
kubeflow/trainer/trainer-controller-manager
{{- end }}

{{/* The image; upstream's repository is replaced by this chart's (NOTES.txt says so). */}}
{{- define "trainer.image" -}}
{{- $registry := .Values.image.registry }}
{{- $repository := .Values.image.repository }}
{{- if eq $repository (include "trainer.upstreamImageRepository" .) }}
{{- $repository = "kftrainer/trainer-operator" }}
{{- end }}
{{- $tag := .Values.image.tag | default .Chart.AppVersion }}
{{- if $registry }}
{{- printf "%s/%s:%s" $registry $repository $tag }}
{{- else }}
{{- printf "%s:%s" $repository $tag }}
{{- end }}
{{- end }}

{{/* ---- the manager ---------------------------------------------------------------------------------------- */}}

{{- define "trainer.manager.name" -}}
{{ include "trainer.fullname" . }}-controller-manager
{{- end }}

{{- define "trainer.manager.labels" -}}
{{ include "trainer.labels" . }}
app.kubernetes.io/component: manager
{{- with .Values.manager.labels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "trainer.manager.selectorLabels" -}}
{{ include "trainer.selectorLabels" . }}
app.kubernetes.io/part-of: kubeflow
app.kubernetes.io/component: manager
{{- with .Values.manager.selectorLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "trainer.manager.configmap.name" -}}
{{ include "trainer.fullname" . }}-config
{{- end }}

{{- define "trainer.manager.pluginConfig.name" -}}
{{ include "trainer.fullname" . }}-plugin-config
{{- end }}

{{/* The webhook Service: certManagement.webhookServiceName, or its later upstream name serviceName, or the chart's. */}}
{{- define "trainer.webhook.service.name" -}}
{{- $certs := .Values.manager.config.certManagement }}
{{- $certs.webhookServiceName | default $certs.serviceName | default (include "trainer.manager.name" .) }}
{{- end }}

{{/*
A webhook's clientConfig for path (list $ path): the webhook Service, or webhook.url followed by path when it is set
(an API server outside the cluster's network, or an operator run outside the cluster).
*/}}
{{- define "trainer.webhook.clientConfig" -}}
{{- $root := index . 0 -}}
{{- $path := index . 1 -}}
{{- if $root.Values.webhook.url -}}
url: {{ printf "%s%s" (trimSuffix "/" $root.Values.webhook.url) $path | quote }}
{{- else -}}
service:
  name: {{ include "trainer.webhook.service.name" $root }}
  namespace: {{ $root.Release.Namespace }}
  path: {{ $path }}
  port: 443
{{- end }}
{{- end }}

{{/* The webhook certificate's Secret: certManagement.webhookSecretName, or its later upstream name secretName. */}}
{{- define "trainer.webhook.secret.name" -}}
{{- $certs := .Values.manager.config.certManagement }}
{{- $certs.webhookSecretName | default $certs.secretName | default (printf "%s-webhook-cert" (include "trainer.name" .)) }}
{{- end }}

{{- define "trainer.leaderElection.namespace" -}}
{{- .Values.manager.config.leaderElection.resourceNamespace | default .Release.Namespace }}
{{- end }}

{{/*
The port of an address ":8081", "0.0.0.0:8443", "[::]:9443": what the container exposes and the probes use.
*/}}
{{- define "trainer.port" -}}
{{- regexReplaceAll "^.*:" (toString .) "" }}
{{- end }}

{{/*
The Configuration the manager reads (config.trainer.kubeflow.org/v1alpha1), from manager.config: upstream's
groupKindConcurrency keys, the webhook Service and Secret named after the release unless given.
*/}}
{{- define "trainer.manager.config" -}}
{{- $config := deepCopy .Values.manager.config }}
{{- $gkc := $config.controller.groupKindConcurrency }}
{{- $_ := set $config.controller "groupKindConcurrency" (dict
      "TrainJob.trainer.kubeflow.org" $gkc.trainJob
      "TrainingRuntime.trainer.kubeflow.org" $gkc.trainingRuntime
      "ClusterTrainingRuntime.trainer.kubeflow.org" $gkc.clusterTrainingRuntime) }}
{{- $_ := set $config.certManagement "webhookServiceName" (include "trainer.webhook.service.name" .) }}
{{- $_ := set $config.certManagement "webhookSecretName" (include "trainer.webhook.secret.name" .) }}
{{- $_ := unset $config.certManagement "serviceName" }}
{{- $_ := unset $config.certManagement "secretName" }}
{{- if not $config.featureGates }}
{{- $_ := unset $config "featureGates" }}
{{- end }}
apiVersion: config.trainer.kubeflow.org/v1alpha1
kind: Configuration
{{ toYaml $config }}
{{- end }}

{{/*
JAVA_TOOL_OPTIONS in manager.env would replace the image's (its class-data archive, its heap size): refused.
*/}}
{{- define "trainer.manager.checkEnv" -}}
{{- range .Values.manager.env }}
{{- if eq .name "JAVA_TOOL_OPTIONS" }}
{{- fail "manager.env: JAVA_TOOL_OPTIONS would replace the image's (-XX:SharedArchiveFile=/app/trainer-operator.jsa -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError); put JVM options in JDK_JAVA_OPTIONS, which the java launcher adds to them" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Leader election on the Lease manager.config.leaderElection.resourceName. */}}
{{- define "trainer.manager.leaseRules" -}}
# Leader election. "create" cannot be limited by name (see above).
- apiGroups: ["coordination.k8s.io"]
  resources: ["leases"]
  verbs: ["create"]
# fabric8's LeaseLock renews the Lease with a merge patch; a standby watches it to take it once released
- apiGroups: ["coordination.k8s.io"]
  resources: ["leases"]
  resourceNames: [{{ .Values.manager.config.leaderElection.resourceName | quote }}]
  verbs: ["get", "list", "watch", "update", "patch"]
{{- end }}

{{/* "true" when a default runtime is switched on, else empty. */}}
{{- define "trainer.runtimes.any" -}}
{{- if include "trainer.runtimes" . | fromYamlArray }}true{{ end }}
{{- end }}

{{/*
The default runtimes switched on (manifests/runtimes, copied to files/runtimes), with their labels and images: a
YAML list, read with fromYamlArray.
*/}}
{{- define "trainer.runtimes" -}}
{{- $all := list }}
{{- $runtimes := list
      (list "torch-distributed" .Values.runtimes.torchDistributed.enabled dict)
      (list "deepspeed-distributed" .Values.runtimes.deepspeedDistributed.enabled .Values.runtimes.deepspeedDistributed.image)
      (list "mlx-distributed" .Values.runtimes.mlxDistributed.enabled .Values.runtimes.mlxDistributed.image)
      (list "jax-distributed" .Values.runtimes.jaxDistributed.enabled dict)
      (list "xgboost-distributed" .Values.runtimes.xgboostDistributed.enabled .Values.runtimes.xgboostDistributed.image)
      (list "torchtune-llama3.2-1b" .Values.runtimes.torchtuneDistributed.llama3_2_1B.enabled .Values.runtimes.torchtuneDistributed.image)
      (list "torchtune-llama3.2-3b" .Values.runtimes.torchtuneDistributed.llama3_2_3B.enabled .Values.runtimes.torchtuneDistributed.image)
      (list "torchtune-qwen2.5-1.5b" .Values.runtimes.torchtuneDistributed.qwen2_5_1_5B.enabled .Values.runtimes.torchtuneDistributed.image) }}
{{- range $runtimes }}
{{- $name := index . 0 }}
{{- $image := index . 2 }}
{{- if or (index . 1) $.Values.runtimes.defaultEnabled }}
{{- $text := $.Files.Get (printf "files/runtimes/%s.yaml" $name) }}
{{- if $image.repository }}
{{- /* the image of the shipped runtime (the last path segment of the repository names it), replaced */ -}}
{{- $shipped := regexFind (printf "[^\\s\"']*/%s:[A-Za-z0-9._-]+" (base $image.repository)) $text }}
{{- if $shipped }}
{{- $tag := $image.tag | default (regexReplaceAll "^.*:" $shipped "") }}
{{- $wanted := printf "%s:%s" (ternary (printf "%s/%s" $image.registry $image.repository) $image.repository (ne $image.registry "")) $tag }}
{{- $text = replace $shipped $wanted $text }}
{{- end }}
{{- end }}
{{- $runtime := fromYaml $text }}
{{- $labels := merge (dict) ($runtime.metadata.labels | default dict) $.Values.runtimes.commonLabels (include "trainer.labels" $ | fromYaml) }}
{{- $_ := set $runtime.metadata "labels" $labels }}
{{- $all = append $all $runtime }}
{{- end }}
{{- end }}
{{- toYaml $all }}
{{- end }}

{{/*
The installer's image: the operator's (its `install-runtimes` command), unless runtimes.installer.image names another
repository than upstream's alpine, a mirror of the operator's image.
*/}}
{{- define "trainer.runtimes.installer.image" -}}
{{- $image := .Values.runtimes.installer.image }}
{{- if or (not $image.repository) (eq $image.repository "alpine") }}
{{- include "trainer.image" . }}
{{- else }}
{{- $tag := $image.tag | default .Chart.AppVersion }}
{{- if $image.registry }}
{{- printf "%s/%s:%s" $image.registry $image.repository $tag }}
{{- else }}
{{- printf "%s:%s" $image.repository $tag }}
{{- end }}
{{- end }}
{{- end }}

{{/* ---- webhook certificates from cert-manager ---------------------------------------------------------------- */}}

{{- define "trainer.webhook.certificate.name" -}}
{{ include "trainer.webhook.secret.name" . }}
{{- end }}

{{- define "trainer.webhook.issuer.name" -}}
{{ include "trainer.name" . }}-webhook-issuer
{{- end }}

{{/* The host of webhook.url ("" without one): an IP address ([::1] unbracketed) or a DNS name. */}}
{{- define "trainer.webhook.urlHost" -}}
{{- with .Values.webhook.url }}
{{- $host := regexReplaceAll "^https://([^/?#]+).*$" . "${1}" }}
{{- if hasPrefix "[" $host }}
{{- regexReplaceAll "^\\[(.*)\\].*$" $host "${1}" }}
{{- else }}
{{- regexReplaceAll ":[0-9]+$" $host "" }}
{{- end }}
{{- end }}
{{- end }}

{{/* The webhook configurations' annotations: cert-manager's CA injection from the chart's Certificate. */}}
{{- define "trainer.webhook.annotations" -}}
{{- if .Values.webhook.certManager.enable }}
annotations:
  cert-manager.io/inject-ca-from: {{ printf "%s/%s" .Release.Namespace (include "trainer.webhook.certificate.name" .) }}
{{- end }}
{{- end }}

{{/* cert-manager issues the certificate the manager would otherwise make: both cannot be on. */}}
{{- define "trainer.webhook.checkCertManager" -}}
{{- if and .Values.webhook.certManager.enable .Values.manager.config.certManagement.enable }}
{{- fail "webhook.certManager.enable: set manager.config.certManagement.enable=false as well (the manager would make and renew its own certificate in the Secret cert-manager writes)" }}
{{- end }}
{{- end }}

{{/*
The namespaceSelector of the webhooks of namespaced kinds when manager.watchNamespaces is set: the API server calls
them for objects of those namespaces only (the manager reconciles no other), so elsewhere neither a manager outage
nor its refusals get in the way.
*/}}
{{- define "trainer.webhook.namespaceSelector" -}}
{{- with .Values.manager.watchNamespaces }}
namespaceSelector:
  matchExpressions:
    - key: kubernetes.io/metadata.name
      operator: In
      values: {{ toJson . }}
{{- end }}
{{- end }}
