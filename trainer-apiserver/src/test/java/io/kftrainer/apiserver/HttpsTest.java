package io.kftrainer.apiserver;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HttpsTest {

  @Test
  void httpsWorksForTheClient() {
    try (EmbeddedApiServer https = EmbeddedApiServer.builder().https(true).start()) {
      assertThat(https.url()).startsWith("https://");
      https.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("tls").endMetadata()
          .build()).create();
      assertThat(https.client().namespaces().withName("tls").get()).isNotNull();
    }
  }
}
