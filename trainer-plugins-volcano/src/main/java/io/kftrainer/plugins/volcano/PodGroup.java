package io.kftrainer.plugins.volcano;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The PodGroup of the Volcano scheduler ({@code scheduling.volcano.sh/v1beta1}): Volcano binds none of the pods
 * annotated {@value VolcanoPlugin#GROUP_NAME_ANNOTATION} with the group's name until {@code minMember} of them fit
 * at once, in the group's queue.
 *
 * <p>Written by hand with only the fields this plugin sets and reads, so the plugin needs no Volcano client; unknown
 * fields of newer Volcano versions are ignored when reading.
 */
@Group(PodGroup.GROUP)
@Version(PodGroup.VERSION)
@Kind("PodGroup")
@Plural("podgroups")
public class PodGroup extends CustomResource<PodGroupSpec, PodGroupStatus> implements Namespaced {

  public static final String GROUP = "scheduling.volcano.sh";
  public static final String VERSION = "v1beta1";
}
