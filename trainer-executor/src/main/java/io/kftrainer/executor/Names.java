package io.kftrainer.executor;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Label, annotation and condition names of batch/v1 Jobs and of JobSet v0.x that the controllers write. */
final class Names {

  static final String JOB_NAME = "batch.kubernetes.io/job-name";
  static final String LEGACY_JOB_NAME = "job-name";
  static final String CONTROLLER_UID = "batch.kubernetes.io/controller-uid";
  static final String LEGACY_CONTROLLER_UID = "controller-uid";
  static final String COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";
  static final String RESTART_ATTEMPT = "jobset.sigs.k8s.io/restart-attempt";

  static final String FIELD_MANAGER = "local-executor";

  private Names() {
  }

  /** JobSet's job key: the SHA-1 of {@code namespace/jobName}, hex. */
  static String jobKey(String namespace, String jobName) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-1")
          .digest((namespace + "/" + jobName).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
