package io.kftrainer.operator.metrics;

import io.kftrainer.webhook.cert.WebhookCertificates;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * controller-runtime's certificate watcher's counters, under its names, for the serving certificate the webhook,
 * metrics and status servers present: {@code certwatcher_read_certificate_total} (a certificate loaded: generated,
 * renewed, or read from the mounted directory) and {@code certwatcher_read_certificate_errors_total} (a mounted
 * certificate that could not be read, the one served being kept); and ours,
 * {@code kubeflow_trainer_webhook_certificate_expiration_timestamp_seconds}: when the certificate served now expires
 * (absent before there is one), for an alert before a renewal that keeps failing leaves the webhooks unreachable.
 */
public final class CertificateMetrics {

  private CertificateMetrics() {
  }

  public static void register(MeterRegistry registry, WebhookCertificates certificates) {
    FunctionCounter.builder("certwatcher.read.certificate", certificates, source -> source.keyManager().swaps())
        .description("Total number of certificate reads").register(registry);
    FunctionCounter.builder("certwatcher.read.certificate.errors", certificates, WebhookCertificates::failedReads)
        .description("Total number of certificate read errors").register(registry);
    Gauge.builder("kubeflow.trainer.webhook.certificate.expiration.timestamp.seconds", certificates,
            source -> source.keyManager().current().map(c -> (double) c.notAfter().getEpochSecond()).orElse(Double.NaN))
        .description("When the serving certificate of the webhook, metrics and status servers expires, in seconds "
            + "since the epoch.")
        .register(registry);
  }
}
