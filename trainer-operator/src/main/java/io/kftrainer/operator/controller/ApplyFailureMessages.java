package io.kftrainer.operator.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The message of a child that could not be applied:
 * {@code apply <Kind> <namespace>/<name> (built by plugin <Name>): <cause>}, for the
 * {@code Created} condition and the Warning Event, where the TrainJob's owner reads it.
 *
 * <p>The cause is the API server's answer when there is one ({@code <code> <reason>: <message>} of its Status), else
 * the deepest cause that says something ({@code HttpTimeoutException: request timed out}): fabric8 wraps transport
 * failures in exceptions whose own message is generic ({@value #GENERIC}, {@code Operation: [patch] for kind: ...
 * failed.}), which alone hides why the write failed. The result is not yet an Event message: it goes through
 * {@link EventMessages#of} like every quoted error.
 */
public final class ApplyFailureMessages {

  /** fabric8's message for a failure it did not describe. */
  static final String GENERIC = "An error has occurred.";

  private static final Pattern OPERATION_FAILED = Pattern.compile("Operation: \\[.*] .*failed\\.", Pattern.DOTALL);
  private static final int MAX_CAUSES = 16;

  private ApplyFailureMessages() {
  }

  static String of(HasMetadata object, KubernetesClientException e) {
    return of(object, "", e);
  }

  /** The message naming {@code builder}, the plugin that built the object (none when empty). */
  static String of(HasMetadata object, String builder, KubernetesClientException e) {
    String builtBy = builder.isEmpty() ? "" : " (built by plugin " + builder + ")";
    return "apply " + object.getKind() + " " + nameOf(object) + builtBy + ": " + causeOf(e);
  }

  private static String nameOf(HasMetadata object) {
    String namespace = object.getMetadata().getNamespace();
    String name = object.getMetadata().getName();
    return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
  }

  /**
   * Why {@code e} happened: the API server's answer ({@code <code> <reason>: <message>}), else the deepest cause that
   * says something.
   */
  public static String causeOf(KubernetesClientException e) {
    Status status = e.getStatus();
    if (status != null && (e.getCode() > 0 || hasText(status.getMessage()))) {
      return statusText(e.getCode(), status);
    }
    List<Throwable> chain = chainOf(e);
    for (int i = chain.size() - 1; i >= 0; i--) {
      Throwable cause = chain.get(i);
      if (hasText(cause.getMessage()) && !isGeneric(cause.getMessage())) {
        return cause == e ? cause.getMessage() : cause.getClass().getSimpleName() + ": " + cause.getMessage();
      }
    }
    Throwable deepest = chain.get(chain.size() - 1);
    return deepest == e ? (hasText(e.getMessage()) ? e.getMessage() : e.getClass().getSimpleName())
        : deepest.getClass().getSimpleName();
  }

  private static String statusText(int code, Status status) {
    List<String> head = new ArrayList<>();
    if (code > 0) {
      head.add(Integer.toString(code));
    }
    if (hasText(status.getReason())) {
      head.add(status.getReason());
    }
    String prefix = String.join(" ", head);
    if (!hasText(status.getMessage())) {
      return prefix;
    }
    return prefix.isEmpty() ? status.getMessage() : prefix + ": " + status.getMessage();
  }

  private static List<Throwable> chainOf(Throwable e) {
    List<Throwable> chain = new ArrayList<>();
    for (Throwable t = e; t != null && chain.size() < MAX_CAUSES && !chain.contains(t); t = t.getCause()) {
      chain.add(t);
    }
    return chain;
  }

  private static boolean isGeneric(String message) {
    return GENERIC.equals(message.trim()) || OPERATION_FAILED.matcher(message.trim()).matches();
  }

  private static boolean hasText(String text) {
    return text != null && !text.isBlank();
  }
}
