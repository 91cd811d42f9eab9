package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.zjsonpatch.JsonPatch;
import io.fabric8.zjsonpatch.JsonPatchException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admission webhooks for the embedded API server: the part of kube-apiserver that reads the stored
 * Mutating- and ValidatingWebhookConfigurations and calls the webhooks they name, registered on the
 * {@link EmbeddedApiServer} as two {@link AdmissionHook}s (one per phase, so mutating webhooks run before
 * validating ones, as in the API server).
 *
 * <p>For each create or update, the webhooks of the phase whose rules and selectors match the request
 * ({@link RegisteredWebhook#matches}) are called in turn, ordered by configuration name, then by their position in
 * it, each with an AdmissionReview v1 ({@link WebhookCaller}); a mutating webhook sees the patches of those before
 * it. A webhook's answer is applied as the API server applies it:
 * <ul>
 *   <li>a denial becomes the request's error: the webhook's Status with code 400 if it had none below 400, and
 *       the message {@code admission webhook "<name>" denied the request: <message>}, causes kept, so that clients
 *       report it exactly as against a cluster;</li>
 *   <li>a mutating webhook's JSON patch is applied to the object;</li>
 *   <li>a call that fails (no answer, TLS not verified, timeout, malformed answer) is skipped with a warning under
 *       {@code failurePolicy: Ignore} and fails the request otherwise, with 500 and {@code Internal error
 *       occurred: failed calling webhook "<name>": ...};</li>
 *   <li>warnings go back to the client.</li>
 * </ul>
 *
 * <p>The configurations and the namespaces' labels are read from informer caches, never from the server during a
 * request: hooks run on the server's request thread, which must not wait for the server. The caches therefore lag
 * the server by a watch event, as an API server's do. Not supported: {@code matchConditions} (CEL; a webhook that
 * has them is called as if they held), {@code reinvocationPolicy: IfNeeded}, {@code matchPolicy} (only the request's
 * own group and version match).
 */
public final class WebhookDispatcher implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WebhookDispatcher.class);
  private static final UserInfo USER = new UserInfo(Map.of(), List.of("system:masters", "system:authenticated"),
      null, "local-admin");

  private final KubernetesClient client;
  private final KubernetesSerialization serialization;
  private final WebhookCaller caller;
  private final List<AdmissionHook> hooks = List.of(new PhaseHook(AdmissionHook.Phase.MUTATING),
      new PhaseHook(AdmissionHook.Phase.VALIDATING));
  private final Object changes = new Object();
  /** Bumped on every configuration change: the webhooks are read from the caches again after it. */
  private final AtomicLong generation = new AtomicLong();
  private final AtomicReference<Registered> registered = new AtomicReference<>();
  private SharedIndexInformer<ValidatingWebhookConfiguration> validating;
  private SharedIndexInformer<MutatingWebhookConfiguration> mutating;
  private SharedIndexInformer<Namespace> namespaces;
  private EmbeddedApiServer server;

  /**
   * @param client a client of the embedded server, for the informers (not called during requests)
   * @param services where Services referenced by webhook configurations are served
   */
  public WebhookDispatcher(KubernetesClient client, ServiceRoutes services) {
    this.client = Objects.requireNonNull(client, "client");
    this.serialization = client.getKubernetesSerialization();
    this.caller = new WebhookCaller(services, serialization);
  }

  /** Fills the caches, then registers the two hooks on {@code apiServer}. */
  public synchronized void start(EmbeddedApiServer apiServer) {
    ResourceEventHandler<Object> signal = new ResourceEventHandler<>() {
      @Override
      public void onAdd(Object obj) {
        signalChange();
      }

      @Override
      public void onUpdate(Object oldObj, Object newObj) {
        signalChange();
      }

      @Override
      public void onDelete(Object obj, boolean deletedFinalStateUnknown) {
        signalChange();
      }
    };
    validating = client.admissionRegistration().v1().validatingWebhookConfigurations().inform(signal);
    mutating = client.admissionRegistration().v1().mutatingWebhookConfigurations().inform(signal);
    namespaces = client.namespaces().inform();
    generation.incrementAndGet();
    this.server = apiServer;
    hooks.forEach(apiServer::addAdmissionHook);
  }

  /**
   * Waits until the named configurations are in the cache and each of their webhooks has a {@code caBundle}: until
   * the webhooks can be called (the certificate manager patches the bundle in at start-up).
   *
   * @return whether that happened within {@code timeout}
   */
  public boolean awaitCallable(Collection<String> configurations, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (changes) {
      while (!callable(configurations)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        changes.wait(Math.max(1, left / 1_000_000));
      }
      return true;
    }
  }

  private boolean callable(Collection<String> configurations) {
    List<RegisteredWebhook> all = webhooks().toList();
    return configurations.stream().allMatch(name -> all.stream().anyMatch(w -> w.configuration().equals(name)))
        && all.stream().filter(w -> configurations.contains(w.configuration()))
            .allMatch(w -> w.clientConfig() != null && w.clientConfig().getCaBundle() != null
                && !w.clientConfig().getCaBundle().isEmpty());
  }

  private void signalChange() {
    generation.incrementAndGet();
    synchronized (changes) {
      changes.notifyAll();
    }
  }

  /** The webhooks registered as of a generation of the configurations. */
  private record Registered(long generation, List<RegisteredWebhook> webhooks) {
  }

  /**
   * Every registered webhook, mutating ones first, each phase ordered by configuration name: read from the caches
   * and ordered once per configuration change, not three times per request.
   */
  Stream<RegisteredWebhook> webhooks() {
    long now = generation.get();
    Registered cached = registered.get();
    if (cached == null || cached.generation() != now) {
      // a change while this runs bumps the generation again: the next request reads the caches again
      cached = new Registered(now, readWebhooks().toList());
      registered.set(cached);
    }
    return cached.webhooks().stream();
  }

  private Stream<RegisteredWebhook> readWebhooks() {
    Stream<RegisteredWebhook> mutatingHooks = mutating == null ? Stream.empty()
        : mutating.getStore().list().stream()
            .sorted(Comparator.comparing((MutatingWebhookConfiguration c) -> c.getMetadata().getName()))
            .flatMap(c -> RegisteredWebhook.of(c).stream());
    Stream<RegisteredWebhook> validatingHooks = validating == null ? Stream.empty()
        : validating.getStore().list().stream()
            .sorted(Comparator.comparing((ValidatingWebhookConfiguration c) -> c.getMetadata().getName()))
            .flatMap(c -> RegisteredWebhook.of(c).stream());
    return Stream.concat(mutatingHooks, validatingHooks);
  }

  private List<RegisteredWebhook> matching(AdmissionHook.Phase phase, AdmissionRequest request) {
    Map<String, String> namespaceLabels = namespaceLabels(request.namespace());
    return webhooks().filter(w -> w.phase() == phase && w.matches(request, namespaceLabels)).toList();
  }

  private Map<String, String> namespaceLabels(String namespace) {
    if (namespace == null || namespaces == null) {
      return Map.of();
    }
    Namespace stored = namespaces.getStore().getByKey(namespace);
    return stored == null || stored.getMetadata().getLabels() == null ? Map.of() : stored.getMetadata().getLabels();
  }

  private AdmissionResponse admit(AdmissionHook.Phase phase, AdmissionRequest request) {
    List<RegisteredWebhook> webhooks = matching(phase, request);
    JsonNode object = serialization.convertValue(request.object(), JsonNode.class);
    boolean mutated = false;
    List<String> warnings = new ArrayList<>();
    for (RegisteredWebhook webhook : webhooks) {
      if (request.dryRun() && !webhook.supportsDryRun()) {
        return AdmissionResponse.deny(new StatusBuilder().withCode(400).withReason("BadRequest")
            .withMessage("admission webhook \"" + webhook.name() + "\" does not support dry run").build());
      }
      io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse answer;
      try {
        answer = caller.call(webhook, review(request, object));
      } catch (WebhookCaller.CallException e) {
        String error = "failed calling webhook \"" + webhook.name() + "\": " + e.getMessage();
        if (webhook.ignoresFailures()) {
          LOG.warn("Failed calling webhook, failing open {}: {}", webhook.name(), error);
          continue;
        }
        LOG.warn("Failed calling webhook, failing closed {}: {}", webhook.name(), error);
        return AdmissionResponse.deny(internalError(error)).withWarnings(warnings.toArray(String[]::new));
      }
      if (answer.getWarnings() != null) {
        warnings.addAll(answer.getWarnings());
      }
      if (!answer.getAllowed()) {
        return AdmissionResponse.deny(denial(webhook.name(), answer.getStatus()))
            .withWarnings(warnings.toArray(String[]::new));
      }
      if (phase == AdmissionHook.Phase.MUTATING && answer.getPatch() != null && !answer.getPatch().isEmpty()) {
        try {
          JsonNode patch = serialization.unmarshal(
              new String(Base64.getDecoder().decode(answer.getPatch()), StandardCharsets.UTF_8), JsonNode.class);
          object = JsonPatch.apply(patch, object);
          mutated = true;
        } catch (JsonPatchException | IllegalArgumentException e) {
          return AdmissionResponse.deny(internalError("the patch of webhook \"" + webhook.name()
              + "\" cannot be applied: " + e.getMessage()));
        }
      }
    }
    AdmissionResponse response = mutated
        ? AdmissionResponse.mutate(serialization.convertValue(object, GenericKubernetesResource.class))
        : AdmissionResponse.allow();
    return response.withWarnings(warnings.toArray(String[]::new));
  }

  private AdmissionReview review(AdmissionRequest request, JsonNode object) {
    GroupVersionKind kind = new GroupVersionKind(request.group(), request.kind(), request.version());
    GroupVersionResource resource = new GroupVersionResource(request.group(), request.resource(),
        request.version());
    io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest review =
        new io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest();
    review.setUid(request.uid());
    review.setKind(kind);
    review.setResource(resource);
    review.setSubResource(request.subResource());
    review.setRequestKind(kind);
    review.setRequestResource(resource);
    review.setRequestSubResource(request.subResource());
    review.setName(request.name());
    review.setNamespace(request.namespace());
    review.setOperation(request.operation().name());
    review.setUserInfo(USER);
    review.setObject(object);
    review.setOldObject(request.oldObject());
    review.setDryRun(request.dryRun());
    String options = request.operation() == AdmissionRequest.Operation.CREATE ? "CreateOptions" : "UpdateOptions";
    review.setOptions(Map.of("apiVersion", "meta.k8s.io/v1", "kind", options));
    return new AdmissionReview(WebhookCaller.API_VERSION, WebhookCaller.KIND, review, null);
  }

  /** The API server's error for a denial: the webhook's Status, sanitized, its message prefixed. */
  static Status denial(String webhook, Status result) {
    Status status = result == null ? new Status() : new StatusBuilder(result).build();
    if (status.getCode() == null || status.getCode() < 400) {
      status.setCode(400);
    }
    if (status.getStatus() == null || status.getStatus().isEmpty() || "Success".equals(status.getStatus())) {
      status.setStatus("Failure");
    }
    String deniedBy = "admission webhook \"" + webhook + "\" denied the request";
    if (status.getMessage() != null && !status.getMessage().isEmpty()) {
      status.setMessage(deniedBy + ": " + status.getMessage());
    } else if (status.getReason() != null && !status.getReason().isEmpty()) {
      status.setMessage(deniedBy + ": " + status.getReason());
    } else {
      status.setMessage(deniedBy + " without explanation");
    }
    return status;
  }

  /** {@code apierrors.NewInternalError}: 500, reason InternalError, the error as the one cause. */
  static Status internalError(String error) {
    return new StatusBuilder().withStatus("Failure").withCode(500).withReason("InternalError")
        .withMessage("Internal error occurred: " + error)
        .withNewDetails().withCauses(new StatusCause(null, error, null)).endDetails()
        .build();
  }

  @Override
  public synchronized void close() {
    if (server != null) {
      hooks.forEach(server::removeAdmissionHook);
      server = null;
    }
    Stream.of(validating, mutating, namespaces).filter(Objects::nonNull).forEach(SharedIndexInformer::close);
    validating = null;
    mutating = null;
    namespaces = null;
    generation.incrementAndGet();
  }

  /** One phase of the dispatcher as a hook of the embedded server. */
  private final class PhaseHook implements AdmissionHook {

    private final Phase phase;

    PhaseHook(Phase phase) {
      this.phase = phase;
    }

    @Override
    public boolean handles(AdmissionRequest request) {
      return !matching(phase, request).isEmpty();
    }

    @Override
    public AdmissionResponse admit(AdmissionRequest request) {
      return WebhookDispatcher.this.admit(phase, request);
    }

    @Override
    public Phase phase() {
      return phase;
    }

    @Override
    public String toString() {
      return "webhooks (" + phase.name().toLowerCase(java.util.Locale.ROOT) + ")";
    }
  }
}
