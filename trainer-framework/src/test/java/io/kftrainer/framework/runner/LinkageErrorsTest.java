package io.kftrainer.framework.runner;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LinkageErrorsTest {

  @Test
  void aClassFileOfANewerJavaNamesBothJavaVersions() {
    assertThat(LinkageErrors.describe(new UnsupportedClassVersionError("org/acme/v21/Newer has been compiled by a "
        + "more recent version of the Java Runtime (class file version 65.0), this version of the Java Runtime only "
        + "recognizes class file versions up to 61.0")))
        .isEqualTo("org.acme.v21.Newer is built for Java 21, this operator runs Java " + Runtime.version().feature());
  }

  @Test
  void aMissingClassSaysWhoLacksIt() {
    assertThat(LinkageErrors.describe(new NoClassDefFoundError("io/kftrainer/framework/model/NewerHelper")))
        .isEqualTo("NoClassDefFoundError: io.kftrainer.framework.model.NewerHelper, which this trainer-framework ("
            + FrameworkVersion.current() + ") does not have: the plugin was built against a newer trainer-framework");
    assertThat(LinkageErrors.describe(new NoClassDefFoundError("com/google/common/base/Strings")))
        .isEqualTo("NoClassDefFoundError: com.google.common.base.Strings, which neither the plugin's jars nor the "
            + "operator have: put the library's jar in the plugin's directory");
    assertThat(LinkageErrors.describe(new NoClassDefFoundError("Could not initialize class org.acme.Config")))
        .isEqualTo("NoClassDefFoundError: org.acme.Config could not be initialized: its static initializer failed "
            + "earlier");
  }

  @Test
  void aMethodOfAnotherVersionSaysSo() {
    assertThat(LinkageErrors.describe(new NoSuchMethodError("'void org.acme.Lib.call()'")))
        .isEqualTo("NoSuchMethodError: 'void org.acme.Lib.call()': the plugin was built against another version "
            + "of that class");
  }

  @Test
  void aPluginExceptionOfALinkageErrorSaysItInWords() {
    assertThat(new PluginException("boom", "CustomValidation",
        new NoClassDefFoundError("io/kftrainer/framework/model/NewerHelper")).getMessage())
        .startsWith("plugin boom failed in CustomValidation: NoClassDefFoundError: "
            + "io.kftrainer.framework.model.NewerHelper, which this trainer-framework");
  }

  @Test
  void onlyALaterMajorOrMinorVersionIsNewer() {
    assertThat(FrameworkVersion.isNewer("0.2.0", "0.1.0-SNAPSHOT")).isTrue();
    assertThat(FrameworkVersion.isNewer("1.0.0", "0.9.3")).isTrue();
    assertThat(FrameworkVersion.isNewer("0.1.7", "0.1.0-SNAPSHOT")).isFalse();
    assertThat(FrameworkVersion.isNewer("0.1.0", "0.1.0-SNAPSHOT")).isFalse();
    assertThat(FrameworkVersion.isNewer("0.0.9", "0.1.0")).isFalse();
    assertThat(FrameworkVersion.isNewer("unknown", "0.1.0")).isFalse();
    assertThat(FrameworkVersion.current()).matches("\\d+\\.\\d+\\.\\d+.*");
  }
}
