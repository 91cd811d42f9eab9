package io.kftrainer.framework.runner;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.api.v1alpha1.RunPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.ComponentBuilder;
import io.kftrainer.framework.spi.CustomValidation;
import io.kftrainer.framework.spi.EnforceMLPolicy;
import io.kftrainer.framework.spi.EnforcePodGroupPolicy;
import io.kftrainer.framework.spi.EnforcePodSpec;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.PreBuildSync;
import io.kftrainer.framework.spi.StatusContext;
import io.kftrainer.framework.spi.TerminalCondition;
import io.kftrainer.framework.spi.ValidationContext;
import io.kftrainer.framework.spi.Watch;
import io.kftrainer.framework.spi.WatchExtension;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Calls the plugins in phase order. The four phases:
 *
 * <ol>
 *   <li><b>Start-up</b> (the constructor, once): sorts the plugins by extension point and by
 *       {@link Plugin#order()} then name, rejects duplicate names and a second {@link TerminalCondition}, and
 *       collects the {@link WatchExtension} declarations.</li>
 *   <li><b>Pre-execution</b> ({@link #runPreExecution}): every {@link CustomValidation}, errors and warnings
 *       aggregated.</li>
 *   <li><b>Build</b> ({@link #runBuild}): runtime info from the runtime and the TrainJob, then every
 *       {@link EnforceMLPolicy}, every {@link EnforcePodGroupPolicy}, every {@link EnforcePodSpec}, every
 *       {@link PreBuildSync}, and finally every {@link ComponentBuilder}, whose objects are concatenated. Enforce
 *       steps stop at the first failure.</li>
 *   <li><b>Post-execution</b> ({@link #runPostExecution}): the {@code Suspended} condition (and {@code Created}
 *       with {@link StatusConditions#WITH_CREATED}), the {@link TerminalCondition}, the active deadline.</li>
 * </ol>
 *
 * <p>A plugin that throws, returns an invalid object or (with a timeout, {@link #withCalls}) does not return in
 * time is reported as a {@link PluginException} naming it and the phase; the phase then returns nothing, never half
 * a result. Thread-safe when the plugins are.
 */
public final class PhaseRunner {

  private static final Comparator<Plugin> PHASE_ORDER =
      Comparator.comparingInt(Plugin::order).thenComparing(Plugin::name);

  private final List<Plugin> plugins;
  private final List<CustomValidation> validations;
  private final List<EnforceMLPolicy> mlPolicies;
  private final List<EnforcePodGroupPolicy> podGroupPolicies;
  private final List<EnforcePodSpec> podSpecs;
  private final List<PreBuildSync> preBuildSyncs;
  private final List<ComponentBuilder> builders;
  private final List<Watch> watches;
  private final PostExecution postExecution;
  private final RuntimeInfoFactory infoFactory = new RuntimeInfoFactory();
  private final PluginCalls calls;

  /** The start-up phase, writing upstream's condition types ({@link StatusConditions#UPSTREAM}). */
  public PhaseRunner(Collection<? extends Plugin> plugins) {
    this(plugins, StatusConditions.UPSTREAM);
  }

  /** The start-up phase, writing the condition types {@code conditions}. */
  public PhaseRunner(Collection<? extends Plugin> plugins, StatusConditions conditions) {
    this.calls = PluginCalls.direct();
    this.plugins = plugins.stream().map(Plugin.class::cast).sorted(PHASE_ORDER).toList();
    rejectDuplicateNames(this.plugins);
    this.validations = implementing(CustomValidation.class);
    this.mlPolicies = implementing(EnforceMLPolicy.class);
    this.podGroupPolicies = implementing(EnforcePodGroupPolicy.class);
    this.podSpecs = implementing(EnforcePodSpec.class);
    this.preBuildSyncs = implementing(PreBuildSync.class);
    this.builders = implementing(ComponentBuilder.class);
    this.watches = Watches.merge(implementing(WatchExtension.class).stream()
        .flatMap(plugin -> plugin.watches().stream())
        .toList());
    List<TerminalCondition> terminalConditions = implementing(TerminalCondition.class);
    if (terminalConditions.size() > 1) {
      throw new PluginSetupException("too many TerminalCondition plugins: "
          + terminalConditions.stream().map(Plugin::name).toList() + "; at most one may be loaded");
    }
    this.postExecution = new PostExecution(terminalConditions.stream().findFirst(), conditions);
  }

  /** This runner calling its plugins through {@code pluginCalls} (e.g. with a timeout). */
  public PhaseRunner withCalls(PluginCalls pluginCalls) {
    return new PhaseRunner(this, pluginCalls);
  }

  private PhaseRunner(PhaseRunner other, PluginCalls calls) {
    this.calls = calls;
    this.plugins = other.plugins;
    this.validations = other.validations;
    this.mlPolicies = other.mlPolicies;
    this.podGroupPolicies = other.podGroupPolicies;
    this.podSpecs = other.podSpecs;
    this.preBuildSyncs = other.preBuildSyncs;
    this.builders = other.builders;
    this.watches = other.watches;
    this.postExecution = other.postExecution;
  }

  /** Every plugin, in phase order. */
  public List<Plugin> plugins() {
    return plugins;
  }

  /**
   * The resources the operator must watch, from every {@link WatchExtension}: one watch per kind and relation,
   * whose mapper is the union of the plugins' mappers.
   */
  public List<Watch> watches() {
    return watches;
  }

  /** Fails start-up unless a plugin of each name is loaded. */
  public void requirePlugins(Collection<String> names) {
    Set<String> loaded = new HashSet<>(plugins.stream().map(Plugin::name).toList());
    List<String> missing = names.stream().filter(n -> !loaded.contains(n)).toList();
    if (!missing.isEmpty()) {
      throw new PluginSetupException("required plugins are not loaded: " + missing + " (loaded: "
          + plugins.stream().map(Plugin::name).toList() + ")");
    }
  }

  /**
   * The pre-execution phase: every {@link CustomValidation} on the TrainJob (and its previous version on
   * update), with errors and warnings of all plugins aggregated in plugin order.
   *
   * @param oldTrainJob the stored TrainJob on update, null on create
   */
  public ValidationResult runPreExecution(RuntimeSource runtime, TrainJob oldTrainJob, TrainJob trainJob,
      ObjectLookup cluster) {
    return calls.run(session -> {
      RuntimeInfo info = infoFactory.newRuntimeInfo(runtime, trainJob);
      ValidationContext context = new ValidationContext(trainJob, oldTrainJob, info, cluster);
      ValidationResult result = ValidationResult.ok();
      for (CustomValidation plugin : validations) {
        ValidationResult own = session.call(plugin, "CustomValidation", () -> plugin.validate(context));
        result = result.and(own);
      }
      return result;
    });
  }

  /**
   * The build phase (follows a successful pre-execution): the objects to apply for the TrainJob, each marked as
   * its child ({@link ChildObjects}).
   */
  public BuildResult runBuild(RuntimeSource runtime, TrainJob trainJob, ObjectLookup cluster) {
    return calls.run(session -> {
      RuntimeInfo info = infoFactory.newRuntimeInfo(runtime, trainJob);
      BuildContext context = new BuildContext(trainJob, info, cluster);
      runEach(session, mlPolicies, "EnforceMLPolicy", plugin -> plugin.enforceMLPolicy(context));
      runEach(session, podGroupPolicies, "EnforcePodGroupPolicy", plugin -> plugin.enforcePodGroupPolicy(context));
      runEach(session, podSpecs, "EnforcePodSpec", plugin -> plugin.enforcePodSpec(context));
      runEach(session, preBuildSyncs, "PreBuildSync", plugin -> plugin.preBuildSync(context));
      List<HasMetadata> objects = new ArrayList<>();
      List<String> builtBy = new ArrayList<>();
      for (ComponentBuilder plugin : builders) {
        List<? extends HasMetadata> built = session.call(plugin, "ComponentBuilder", () -> plugin.build(context));
        objects.addAll(BuiltObjects.checked(plugin, built));
        builtBy.addAll(Collections.nCopies(built.size(), plugin.name()));
      }
      objects.forEach(object -> ChildObjects.adopt(trainJob, object));
      return new BuildResult(objects, info, builtBy);
    });
  }

  /**
   * The post-execution phase (follows the build and the apply): the TrainJob's new status from what happened to
   * its children and from what the {@link TerminalCondition} observes.
   */
  public PostExecutionResult runPostExecution(TrainJob trainJob, BuildOutcome outcome, ObjectLookup cluster,
      Instant now) {
    return runPostExecution(trainJob, outcome, cluster, now, null);
  }

  /**
   * The post-execution phase with the defaults of the TrainJob's runtime ({@code spec.runPolicy}, KEP-2899): its
   * {@code activeDeadlineSeconds} applies when the TrainJob sets none.
   *
   * @param runPolicy the runtime's {@code runPolicy}, or null
   */
  public PostExecutionResult runPostExecution(TrainJob trainJob, BuildOutcome outcome, ObjectLookup cluster,
      Instant now, RunPolicy runPolicy) {
    return calls.run(session -> postExecution.run(new StatusContext(trainJob, cluster), outcome, now, session,
        runPolicy));
  }

  private static <T extends Plugin> void runEach(PluginCalls.Session session, List<T> phasePlugins, String phase,
      Consumer<T> call) {
    for (T plugin : phasePlugins) {
      session.call(plugin, phase, () -> call.accept(plugin));
    }
  }

  private <T> List<T> implementing(Class<T> type) {
    return plugins.stream().filter(type::isInstance).map(type::cast).toList();
  }

  private static void rejectDuplicateNames(List<Plugin> plugins) {
    Set<String> seen = new HashSet<>();
    for (Plugin plugin : plugins) {
      if (!seen.add(plugin.name())) {
        List<String> classes = plugins.stream().filter(p -> p.name().equals(plugin.name()))
            .map(p -> p.getClass().getName()).toList();
        throw new PluginSetupException("duplicate plugin name \"" + plugin.name() + "\": " + classes);
      }
    }
  }

  /** Whether the TrainJob has a true {@code Complete} or {@code Failed} condition. */
  public static boolean isFinished(TrainJob trainJob) {
    return trainJob.getStatus() != null && PostExecution.isFinished(trainJob.getStatus().getConditions());
  }

  /**
   * The runtime info a build starts from, before any plugin ran: the runtime template with the TrainJob's runtime
   * patches and resources per node merged. For tools and tests.
   */
  public RuntimeInfo newRuntimeInfo(RuntimeSource runtime, TrainJob trainJob) {
    return infoFactory.newRuntimeInfo(runtime, trainJob);
  }
}
