package io.kftrainer.apiserver;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Watches over HTTP streaming, as kube-apiserver serves them to client-go (kubectl) and to fabric8 (which this
 * server asks for HTTP watches, see {@link EmbeddedApiServer#config()}): a chunked {@code 200} response with one
 * JSON {@code {"type": ..., "object": ...}} per line.
 *
 * <ul>
 *   <li>{@code resourceVersion} unset or {@code 0}: an ADDED event per current object, then changes;
 *   {@code resourceVersion=N}: the changes after N, or a single ERROR event with a 410 {@code Expired} Status when N
 *   is older than the server's history.</li>
 *   <li>{@code sendInitialEvents=true}: the current objects, then a BOOKMARK annotated
 *   {@code k8s.io/initial-events-end}.</li>
 *   <li>{@code allowWatchBookmarks=true}: a BOOKMARK with the current resourceVersion once the backlog is sent,
 *   then at a fixed interval.</li>
 *   <li>Label and field selectors: an object that starts matching is ADDED, one that stops matching DELETED.</li>
 *   <li>{@code timeoutSeconds} (default 30 minutes) ends the stream.</li>
 *   <li>WebSocket upgrade requests get 200 with a Status, which fabric8 takes as "use HTTP watches" at once. (It
 *   also falls back on 503, but only after retrying that server error with back-off, about 20 s per informer.)</li>
 * </ul>
 */
final class WatchStreams {

  private static final long DEFAULT_TIMEOUT_SECONDS = 1800;
  /** See {@link #write}. */
  private static final ObjectWriter WATCH_LINES = Json.MAPPER.writer().with(JsonWriteFeature.ESCAPE_NON_ASCII);

  private final Store store;
  private final ApiHandler api;
  private final long bookmarkIntervalMillis;

  WatchStreams(Store store, ApiHandler api, long bookmarkIntervalMillis) {
    this.store = store;
    this.api = api;
    this.bookmarkIntervalMillis = bookmarkIntervalMillis;
  }

  void serve(HttpExchange exchange, Target target, boolean table) throws IOException {
    if ("websocket".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Upgrade"))) {
      reject(exchange, Response.status(200, "ServiceUnavailable",
          "this server serves watches over HTTP streaming, not WebSocket"));
      return;
    }
    ResourcePath rp = target.rp();
    Selection selection = Selection.of(target, store);
    String version = rp.query().getOrDefault("resourceVersion", "");
    boolean initialEvents = QueryBool.of(rp.query().get("sendInitialEvents"));
    boolean bookmarks = QueryBool.of(rp.query().get("allowWatchBookmarks"));
    long timeoutSeconds;
    Long from;
    try {
      timeoutSeconds = Long.parseLong(rp.query().getOrDefault("timeoutSeconds", "0"));
      from = initialEvents || version.isEmpty() || version.equals("0") ? null : Long.valueOf(version);
    } catch (NumberFormatException e) {
      reject(exchange, Response.status(400, "BadRequest", "invalid resource version or timeout: " + e.getMessage()));
      return;
    }
    long deadline = System.nanoTime()
        + TimeUnit.SECONDS.toNanos(timeoutSeconds > 0 ? timeoutSeconds : DEFAULT_TIMEOUT_SECONDS);
    exchange.getResponseHeaders().set("Content-Type", Response.JSON);
    exchange.sendResponseHeaders(200, 0);
    OutputStream out = exchange.getResponseBody();
    // kube-apiserver sends the headers at once; clients (fabric8's informers) count a watch as open only then,
    // and without a flush the JDK server holds them until the first event or bookmark, up to 10 s later
    out.flush();
    Store.Watch watch;
    try {
      watch = store.watch(target.kind(), from);
    } catch (Store.ExpiredException e) {
      ObjectNode event = JsonNodeFactory.instance.objectNode().put("type", "ERROR");
      event.set("object", Json.MAPPER.valueToTree(Response.failure(410, "Expired", e.getMessage(), null)));
      write(out, event);
      out.close();
      return;
    }
    try (watch) {
      if (initialEvents) {
        drainInitial(watch, selection, rp, table, out);
        write(out, bookmark(target, store.resourceVersion(), true));
      }
      // The first BOOKMARK goes out as soon as the backlog is sent, the next ones at the interval. Clients may get a
      // bookmark at any time; fabric8's HTTP watch counts as watching (informer healthy, operator ready) only once
      // it has read a first line, which otherwise came a whole interval later on a quiet kind.
      long nextBookmark = System.nanoTime();
      RequestFilter.WatchLimit limit = api.filter().watchLimit();
      while (true) {
        long now = System.nanoTime();
        long end = limit.end(deadline);
        if (now >= end) {
          break;
        }
        long wait = Math.min(Math.min(end, bookmarks ? nextBookmark : end) - now, limit.checkNanos());
        Store.Event event = watch.poll(Math.max(1, wait), TimeUnit.NANOSECONDS);
        if (event != null) {
          ObjectNode line = toLine(event, selection, rp, table);
          if (line != null) {
            write(out, line);
          }
        } else if (bookmarks && System.nanoTime() >= nextBookmark) {
          write(out, bookmark(target, store.resourceVersion(), false));
          nextBookmark = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(bookmarkIntervalMillis);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      out.close();
    }
  }

  /** Writes the ADDED events of the objects present when the watch opened. */
  private void drainInitial(Store.Watch watch, Selection selection, ResourcePath rp, boolean table,
      OutputStream out) throws IOException, InterruptedException {
    Store.Event event;
    while ((event = watch.poll(0, TimeUnit.NANOSECONDS)) != null) {
      ObjectNode line = toLine(event, selection, rp, table);
      if (line != null) {
        write(out, line);
      }
    }
  }

  private ObjectNode toLine(Store.Event event, Selection selection, ResourcePath rp, boolean table) {
    boolean now = !event.type().equals("DELETED") && selection.matches(event.object());
    boolean before = event.previous() != null && selection.matches(event.previous());
    String type;
    Store.Stored object = event.object();
    switch (event.type()) {
      case "ADDED":
        type = now ? "ADDED" : null;
        break;
      case "MODIFIED":
        type = now && before ? "MODIFIED" : now ? "ADDED" : before ? "DELETED" : null;
        break;
      default:
        type = before ? "DELETED" : null;
    }
    if (type == null) {
      return null;
    }
    ObjectNode line = JsonNodeFactory.instance.objectNode().put("type", type);
    JsonNode body = object.object();
    if (type.equals("DELETED") && event.type().equals("MODIFIED")) {
      // left the selection: the previous content, at the event's resourceVersion, as kube-apiserver's watch cache does
      ObjectNode previous = event.previous().object().deepCopy();
      KubeJson.metadata(previous).put("resourceVersion", Long.toString(object.resourceVersion()));
      body = previous;
    }
    if (table) {
      body = TableConverter.toTable(rp, body, api.storedCustomResourceDefinitions(), Instant.now());
    }
    line.set("object", body);
    return line;
  }

  private static ObjectNode bookmark(Target target, long version, boolean initialEventsEnd) {
    ObjectNode line = JsonNodeFactory.instance.objectNode().put("type", "BOOKMARK");
    ObjectNode object = line.putObject("object").put("kind", target.kindName())
        .put("apiVersion", target.rp().apiVersion());
    ObjectNode metadata = object.putObject("metadata").put("resourceVersion", Long.toString(version));
    if (initialEventsEnd) {
      metadata.putObject("annotations").put("k8s.io/initial-events-end", "true");
    }
    return line;
  }

  /**
   * One event per line, in ASCII: characters beyond it as JSON escapes (backslash, {@code u}, four hex digits),
   * which every JSON client reads as the same string. fabric8 7.5.2's HTTP watch decodes each chunk it receives on
   * its own and appends the decoder's whole buffer: after a multi-byte UTF-8 character the next event started with
   * NULs, which fabric8 then parsed as YAML ("special characters are not allowed"), and the informer stopped, and
   * the operator with it.
   */
  private static void write(OutputStream out, JsonNode line) throws IOException {
    out.write(WATCH_LINES.writeValueAsBytes(line));
    out.write('\n');
    out.flush();
  }

  private static void reject(HttpExchange exchange, Response response) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", response.contentType());
    exchange.sendResponseHeaders(response.code(), response.body().length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(response.body());
    }
  }
}
