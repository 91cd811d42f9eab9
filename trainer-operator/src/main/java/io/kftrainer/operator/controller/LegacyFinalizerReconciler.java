package io.kftrainer.operator.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Upstream's TrainingRuntime and ClusterTrainingRuntime controllers since v2.3 (#3716): up to v2.2 they put the
 * finalizer {@value #FINALIZER} on every runtime a TrainJob used, so that it could not be deleted while in use;
 * since runtimes are snapshotted per TrainJob, nothing needs it, and a runtime that an older version marked would
 * never go away. These controllers only take that finalizer off: one JSON patch per marked runtime (a test of the
 * finalizer's position, then its removal, so that a concurrent change of the list fails the patch and the retry
 * reads the new list), nothing for the others (the informer's filters pass only marked runtimes on), and nothing
 * else about runtimes.
 *
 * <p>Runtimes being deleted are reconciled too (JOSDK skips a primary marked for deletion unless it has a finalizer
 * of the controller's own), since that is when the finalizer blocks.
 */
public abstract class LegacyFinalizerReconciler<R extends HasMetadata> implements Reconciler<R> {

  /** The finalizer of upstream's runtime controllers up to v2.2. */
  public static final String FINALIZER = "trainer.kubeflow.org/resource-in-use";

  /**
   * Reconciles of one runtime kind at once: upstream's {@code groupKindConcurrency} for both runtime kinds, which
   * JOSDK's shared reconcile threads would otherwise exceed ({@code controller_runtime_max_concurrent_reconciles}
   * says it).
   */
  public static final int MAX_CONCURRENT_RECONCILES = 1;

  private static final Logger LOG = LoggerFactory.getLogger(LegacyFinalizerReconciler.class);

  private final KubernetesClient client;
  private final Semaphore reconciling = new Semaphore(MAX_CONCURRENT_RECONCILES);

  private LegacyFinalizerReconciler(KubernetesClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /** The TrainingRuntime controller. */
  public static LegacyFinalizerReconciler<TrainingRuntime> trainingRuntimes(KubernetesClient client) {
    return new TrainingRuntimes(client);
  }

  /** The ClusterTrainingRuntime controller. */
  public static LegacyFinalizerReconciler<ClusterTrainingRuntime> clusterTrainingRuntimes(KubernetesClient client) {
    return new ClusterTrainingRuntimes(client);
  }

  /** A named subclass per kind: JOSDK reads the reconciled type from it, and registers it by its class name. */
  static final class TrainingRuntimes extends LegacyFinalizerReconciler<TrainingRuntime> {
    TrainingRuntimes(KubernetesClient client) {
      super(client);
    }
  }

  static final class ClusterTrainingRuntimes extends LegacyFinalizerReconciler<ClusterTrainingRuntime> {
    ClusterTrainingRuntimes(KubernetesClient client) {
      super(client);
    }
  }

  /**
   * The controller's settings: named as controller-runtime names upstream's ({@code trainingruntime}), every event
   * of a marked runtime (deletion included, finalizer changes included: they do not change the generation), and
   * no other runtime.
   */
  public static <R extends HasMetadata> void configure(ControllerConfigurationOverrider<R> controller, String kind) {
    controller.withName(controllerName(kind))
        .withGenerationAware(false)
        .withTriggerReconcilerOnAllEvents(true)
        .withOnAddFilter(LegacyFinalizerReconciler::isMarked)
        .withOnUpdateFilter((updated, previous) -> isMarked(updated))
        .withGenericFilter(LegacyFinalizerReconciler::isMarked)
        .withItemStore(CompactObjects.itemStore());
  }

  /** Whether {@code controller} names one of the runtime controllers ({@link #configure} names them). */
  public static boolean isRuntimeController(String controller) {
    return controllerName(TrainerConstants.TRAINING_RUNTIME_KIND).equals(controller)
        || controllerName(TrainerConstants.CLUSTER_TRAINING_RUNTIME_KIND).equals(controller);
  }

  private static String controllerName(String kind) {
    return ControllerNames.of(kind);
  }

  static boolean isMarked(HasMetadata runtime) {
    List<String> finalizers = runtime.getMetadata().getFinalizers();
    return finalizers != null && finalizers.contains(FINALIZER);
  }

  @Override
  public UpdateControl<R> reconcile(R runtime, Context<R> context) {
    if (context.isPrimaryResourceDeleted() || !isMarked(runtime)) {
      return UpdateControl.noUpdate();
    }
    reconciling.acquireUninterruptibly();
    try {
      removeFinalizer(runtime);
    } finally {
      reconciling.release();
    }
    return UpdateControl.noUpdate();
  }

  private void removeFinalizer(R runtime) {
    int index = runtime.getMetadata().getFinalizers().indexOf(FINALIZER);
    String patch = "[{\"op\":\"test\",\"path\":\"/metadata/finalizers/" + index + "\",\"value\":\"" + FINALIZER
        + "\"},{\"op\":\"remove\",\"path\":\"/metadata/finalizers/" + index + "\"}]";
    client.resource(runtime).patch(PatchContext.of(PatchType.JSON), patch);
    LOG.info("Removed the legacy finalizer {} from {} {}", FINALIZER, runtime.getKind(),
        runtime.getMetadata().getNamespace() == null ? runtime.getMetadata().getName()
            : runtime.getMetadata().getNamespace() + "/" + runtime.getMetadata().getName());
  }
}
