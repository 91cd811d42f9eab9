package io.kftrainer.plugins.coscheduling;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The PodGroup of the coscheduling plugin of kubernetes-sigs/scheduler-plugins
 * ({@code scheduling.x-k8s.io/v1alpha1}): the scheduler binds none of the pods labelled
 * {@value CoschedulingPlugin#POD_GROUP_LABEL} with the group's name until {@code minMember} of them fit at once.
 *
 * <p>Written by hand with only the fields this plugin sets and reads, so the plugin needs no scheduler-plugins
 * client; unknown fields of newer scheduler versions are ignored when reading.
 */
@Group(PodGroup.GROUP)
@Version(PodGroup.VERSION)
@Kind("PodGroup")
@Plural("podgroups")
public class PodGroup extends CustomResource<PodGroupSpec, PodGroupStatus> implements Namespaced {

  public static final String GROUP = "scheduling.x-k8s.io";
  public static final String VERSION = "v1alpha1";
}
