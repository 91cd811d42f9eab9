package io.kftrainer.operator.metrics;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.kftrainer.framework.runner.PluginException;
import io.kftrainer.webhook.AdmissionHandler;
import io.kftrainer.webhook.UndecodableObjectException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The admission webhooks' decisions, counted around their handlers:
 *
 * <ul>
 *   <li>{@code kubeflow_trainer_webhook_validation_total{resource,operation,result}} (upstream PR #3433): each
 *       validating webhook's answers, {@code resource} the kind it validates ({@code TrainJob},
 *       {@code TrainingRuntime}, {@code ClusterTrainingRuntime}), {@code operation} the request's in lower case
 *       ({@code create}, {@code update}), {@code result} {@code success} (allowed) or {@code error} (denied);</li>
 *   <li>{@code controller_runtime_webhook_panics_total}: a handler failing on a bug (an exception that is neither a
 *       plugin's failure nor an undecodable object), which controller-runtime's recovered panic is; and
 *       {@code controller_runtime_conversion_webhook_panics_total}, always 0: there is no conversion webhook.</li>
 * </ul>
 */
public final class AdmissionMetrics {

  static final String SUCCESS = "success";
  static final String ERROR = "error";

  private final MeterRegistry registry;
  private final Counter panics;

  public AdmissionMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.panics = Counter.builder("controller.runtime.webhook.panics").description("Total number of webhook panics")
        .register(registry);
    Counter.builder("controller.runtime.conversion.webhook.panics")
        .description("Total number of conversion webhook panics").register(registry);
  }

  /**
   * The handlers, each counted: the validating ones' decisions by the kind {@code validatedKinds} gives their path
   * (the others' are not), every one's failures.
   */
  public Map<String, AdmissionHandler> observe(Map<String, AdmissionHandler> handlers,
      Map<String, String> validatedKinds) {
    Map<String, AdmissionHandler> observed = new LinkedHashMap<>();
    handlers.forEach((path, handler) -> observed.put(path, observe(handler, validatedKinds.get(path))));
    return observed;
  }

  private AdmissionHandler observe(AdmissionHandler handler, String resource) {
    return request -> {
      AdmissionResponse response;
      try {
        response = handler.admit(request);
      } catch (PluginException | UndecodableObjectException e) {
        count(resource, request, false);
        throw e;
      } catch (RuntimeException e) {
        panics.increment();
        count(resource, request, false);
        throw e;
      }
      count(resource, request, response != null && Boolean.TRUE.equals(response.getAllowed()));
      return response;
    };
  }

  private void count(String resource, AdmissionRequest request, boolean allowed) {
    if (resource == null) {
      return;
    }
    String operation = request.getOperation() == null ? "" : request.getOperation().toLowerCase(Locale.ROOT);
    Counter.builder("kubeflow.trainer.webhook.validation")
        .description("Total number of webhook validation calls by resource, operation, and result.")
        .tag("resource", resource).tag("operation", operation).tag("result", allowed ? SUCCESS : ERROR)
        .register(registry).increment();
  }
}
