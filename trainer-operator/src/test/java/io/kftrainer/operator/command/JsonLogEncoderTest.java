package io.kftrainer.operator.command;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --zap-encoder=json}: one object per line with the field names of upstream's manager logs. */
class JsonLogEncoderTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void anEventIsOneLineWithZapsFieldsAndItsContext() throws Exception {
    LoggerContext context = new LoggerContext();
    LoggingEvent event = new LoggingEvent("test", context.getLogger("io.kftrainer.operator.Reconciler"), Level.WARN,
        "Cannot reconcile {}: \"quoted\"\nnext line", new IllegalStateException("boom"), new Object[] {"job"});
    event.setMDCPropertyMap(Map.of("resource.name", "job", "resource.namespace", "team-a"));
    JsonLogEncoder encoder = new JsonLogEncoder();
    encoder.setContext(context);
    encoder.start();

    String line = new String(encoder.encode(event), StandardCharsets.UTF_8);

    assertThat(line).endsWith("}\n").hasLineCount(1);
    JsonNode json = JSON.readTree(line);
    assertThat(json.get("level").asText()).isEqualTo("warn");
    assertThat(json.get("ts").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z");
    assertThat(json.get("logger").asText()).isEqualTo("io.kftrainer.operator.Reconciler");
    assertThat(json.get("msg").asText()).isEqualTo("Cannot reconcile job: \"quoted\"\nnext line");
    assertThat(json.get("resource.name").asText()).isEqualTo("job");
    assertThat(json.get("resource.namespace").asText()).isEqualTo("team-a");
    assertThat(json.get("error").asText()).isEqualTo("boom");
    assertThat(json.has("stacktrace")).as("a warning, below zap's default stacktrace level").isFalse();
  }

  @Test
  void anErrorCarriesItsStacktraceAsZapsDefaultStacktraceLevelWants() throws Exception {
    LoggerContext context = new LoggerContext();
    LoggingEvent event = new LoggingEvent("test", context.getLogger("io.kftrainer.operator.Reconciler"), Level.ERROR,
        "Cannot start", new IllegalStateException("boom"), new Object[0]);
    event.setMDCPropertyMap(Map.of());
    JsonLogEncoder encoder = new JsonLogEncoder();
    encoder.setContext(context);
    encoder.start();

    JsonNode json = JSON.readTree(new String(encoder.encode(event), StandardCharsets.UTF_8));

    assertThat(json.get("error").asText()).isEqualTo("boom");
    assertThat(json.get("stacktrace").asText()).startsWith("java.lang.IllegalStateException: boom");
  }
}
