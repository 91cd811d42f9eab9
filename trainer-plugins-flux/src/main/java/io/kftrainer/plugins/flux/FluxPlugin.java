package io.kftrainer.plugins.flux;

import com.google.auto.service.AutoService;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.ComponentBuilder;
import io.kftrainer.framework.spi.CustomValidation;
import io.kftrainer.framework.spi.EnforceMLPolicy;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.ValidationContext;
import io.kftrainer.framework.spi.Watch;
import io.kftrainer.framework.spi.WatchExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Runs the trainer nodes of a runtime with {@code mlPolicy.flux} under the Flux Framework resource manager
 * (upstream's {@code Flux} plugin, KEP-2841): every node pod runs a Flux broker, installed at start by the
 * {@code flux-installer} init container from a Flux view image, and the lead broker runs the trainer's command with
 * {@code flux run} across all of them.
 *
 * <ul>
 *   <li>{@link #validate}: {@link FluxValidation};</li>
 *   <li>{@link #enforceMLPolicy}: node count and {@code trainer.env}, volumes, init container, mounts and the
 *       wrapped command ({@link FluxPodSet});</li>
 *   <li>{@link #build}: the {@link EntrypointConfigMap} with the scripts and broker configuration, and the
 *       {@link CurveSecret} while it does not exist;</li>
 *   <li>{@link #watches}: both kinds, owned.</li>
 * </ul>
 *
 * <p>Does nothing for a runtime without {@code mlPolicy.flux}. Stateless: a build that needs a certificate generates
 * its own.
 */
@AutoService(Plugin.class)
public final class FluxPlugin implements CustomValidation, EnforceMLPolicy, ComponentBuilder, WatchExtension {

  public static final String NAME = "Flux";

  private final Supplier<CurveCertificate> certificates;

  public FluxPlugin() {
    this(CurveCertificate::generate);
  }

  /** With a certificate source other than fresh random keys, for tests. */
  FluxPlugin(Supplier<CurveCertificate> certificates) {
    this.certificates = Objects.requireNonNull(certificates, "certificates");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int order() {
    return 150;
  }

  @Override
  public ValidationResult validate(ValidationContext context) {
    return context.info().mlPolicy().map(MLPolicy::getFlux).isPresent()
        ? FluxValidation.validate(context) : ValidationResult.ok();
  }

  @Override
  public void enforceMLPolicy(BuildContext context) {
    FluxJob.of(context.info(), context.trainJob())
        .ifPresent(job -> FluxPodSet.enforce(context.info(), context.trainJob(), job));
  }

  /** The entrypoint ConfigMap, and the curve Secret only while absent (it is immutable). */
  @Override
  public List<HasMetadata> build(BuildContext context) {
    var found = FluxJob.of(context.info(), context.trainJob());
    if (found.isEmpty()) {
      return List.of();
    }
    TrainJob trainJob = context.trainJob();
    String name = trainJob.getMetadata().getName();
    List<HasMetadata> objects = new ArrayList<>(2);
    objects.add(EntrypointConfigMap.build(found.get()));
    if (context.cluster().get(Secret.class, trainJob.getMetadata().getNamespace(), CurveSecret.name(name))
        .isEmpty()) {
      objects.add(CurveSecret.build(name, certificates.get()));
    }
    return objects;
  }

  @Override
  public List<Watch> watches() {
    return List.of(Watch.owned(ConfigMap.class), Watch.owned(Secret.class));
  }
}
