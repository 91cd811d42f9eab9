package io.kftrainer.operator.command;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import org.slf4j.event.KeyValuePair;

/**
 * One JSON object per line in the shape of upstream's manager logs (controller-runtime's zap JSON encoder with
 * RFC 3339 nano timestamps), so that queries written for upstream's logs in a collector work on ours:
 * {@code level} ({@code debug}, {@code info}, {@code warn}, {@code error}), {@code ts}, {@code logger},
 * {@code msg}, then the MDC entries (JOSDK's {@code resource.name}, {@code resource.namespace}...) and SLF4J
 * key-value pairs as fields of their own, and for a throwable {@code error} (its message) and, at and above the
 * {@link StacktraceLevel}, {@code stacktrace}.
 * Logback's own {@code JsonEncoder} writes a different shape ({@code timestamp}, {@code loggerName},
 * {@code message}...); Jackson writes the JSON.
 */
public final class JsonLogEncoder extends EncoderBase<ILoggingEvent> {

  private static final JsonFactory JSON = new JsonFactory();
  private static final byte[] NEWLINE = "\n".getBytes(StandardCharsets.UTF_8);

  @Override
  public byte[] headerBytes() {
    return null;
  }

  @Override
  public byte[] encode(ILoggingEvent event) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator json = JSON.createGenerator(out)) {
      json.writeStartObject();
      json.writeStringField("level", level(event.getLevel()));
      json.writeStringField("ts", DateTimeFormatter.ISO_INSTANT.format(event.getInstant()));
      json.writeStringField("logger", event.getLoggerName());
      json.writeStringField("msg", event.getFormattedMessage());
      for (Map.Entry<String, String> entry : event.getMDCPropertyMap().entrySet()) {
        json.writeStringField(entry.getKey(), entry.getValue());
      }
      if (event.getKeyValuePairs() != null) {
        for (KeyValuePair pair : event.getKeyValuePairs()) {
          json.writeStringField(pair.key, String.valueOf(pair.value));
        }
      }
      IThrowableProxy throwable = event.getThrowableProxy();
      if (throwable != null) {
        json.writeStringField("error", throwable.getMessage() == null ? throwable.getClassName()
            : throwable.getMessage());
        if (StacktraceLevel.wanted(event.getLevel())) {
          json.writeStringField("stacktrace", ThrowableProxyUtil.asString(throwable));
        }
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.writeBytes(NEWLINE);
    return out.toByteArray();
  }

  @Override
  public byte[] footerBytes() {
    return null;
  }

  /** zap's level names. */
  private static String level(Level level) {
    return switch (level.toInt()) {
      case Level.ERROR_INT -> "error";
      case Level.WARN_INT -> "warn";
      case Level.INFO_INT -> "info";
      default -> "debug";
    };
  }
}
