package io.kftrainer.operator.app;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.framework.runner.PhaseRunner;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.webhook.cert.WebhookCertificates;
import io.kftrainer.operator.plugins.OperatorPlugins;
import io.kftrainer.runtime.RuntimeResolver;
import io.kftrainer.statusserver.history.MetricHistory;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.BooleanSupplier;

/**
 * What {@link OperatorComponent}s get from the operator they run in.
 *
 * @param config the {@code run} options
 * @param client the operator's Kubernetes client (rate-limited; shared, do not close)
 * @param plugins the loaded plugins
 * @param runner the phase runner over them (validation for webhooks)
 * @param cluster the controller's informer caches; empty until the controller has started
 * @param runtimes runtimes resolved from those caches
 * @param meterRegistry where the controller's metrics are registered (for {@code /metrics})
 * @param readiness the process's readiness checks ({@code /readyz}); components add their own
 * @param liveness the process's liveness checks ({@code /healthz}): what, failing, only a restart mends
 * @param leader whether this process holds the leader-election Lease (always true without leader election)
 * @param webhookCertificates the webhook's TLS certificates, as {@code config} asks for them: started by the webhook
 *     server, and presented by the status server too
 * @param metricHistory where the status server keeps the metrics reported, and the UI reads them: by default the
 *     TrainJobs' ConfigMaps, written in batches
 */
public record OperatorContext(OperatorConfig config, KubernetesClient client, OperatorPlugins plugins,
    PhaseRunner runner, ObjectLookup cluster, RuntimeResolver runtimes, MeterRegistry meterRegistry,
    HealthChecks readiness, HealthChecks liveness, BooleanSupplier leader, WebhookCertificates webhookCertificates,
    MetricHistory metricHistory) {
}
