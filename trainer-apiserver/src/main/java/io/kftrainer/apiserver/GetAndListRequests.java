package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;

import static io.kftrainer.apiserver.StatusErrors.notFound;

/** GET of one object and of lists ({@code limit}/{@code continue}, selectors, Tables); watches are {@link WatchStreams}. */
final class GetAndListRequests {

  private static final String METADATA = "metadata";

  private final Store store;
  private final Supplier<List<JsonNode>> crds;

  GetAndListRequests(Store store, Supplier<List<JsonNode>> crds) {
    this.store = store;
    this.crds = crds;
  }

  Response get(Target target, boolean table) {
    ResourcePath rp = target.rp();
    Store.Stored stored = store.get(target.kind(), rp.namespace(), rp.name());
    if (stored == null) {
      return notFound(target);
    }
    if (table) {
      return Response.json(200, TableConverter.toTable(rp, stored.object(), crds.get(),
          Instant.now()));
    }
    return Response.json(200, stored.json());
  }

  Response list(Target target, boolean table) {
    ResourcePath rp = target.rp();
    Selection selection = Selection.of(target, store);
    long version = store.resourceVersion();
    Collection<Store.Stored> candidates = store.list(target.kind(), rp.namespace());
    int limit = parseInt(rp.query().get("limit"), 0);
    String after = decodeContinue(rp.query().get("continue"));
    ObjectNode list = JsonNodeFactory.instance.objectNode();
    list.put("apiVersion", rp.apiVersion());
    list.put("kind", target.kindName() + "List");
    ObjectNode metadata = list.putObject(METADATA);
    metadata.put("resourceVersion", Long.toString(version));
    ArrayNode items = list.putArray("items");
    Store.Stored last = null;
    for (Store.Stored stored : candidates) {
      // the key only where a continue token needs it: a label-selected list (a controller's, per event) reads
      // every object of the namespace, and building each one's key was most of its cost
      if (after != null && key(stored).compareTo(after) <= 0) {
        continue;
      }
      if (!selection.matches(stored)) {
        continue;
      }
      if (limit > 0 && items.size() == limit) {
        metadata.put("continue", Base64.getUrlEncoder().withoutPadding()
            .encodeToString(key(last).getBytes(StandardCharsets.UTF_8)));
        break;
      }
      items.add(stored.object());
      last = stored;
    }
    if (table) {
      return Response.json(200, TableConverter.toTable(rp, list, crds.get(), Instant.now()));
    }
    return Response.json(200, list);
  }

  private static String key(Store.Stored stored) {
    return stored.namespace() + "/" + stored.name();
  }

  private static String decodeContinue(String token) {
    if (token == null || token.isEmpty()) {
      return null;
    }
    try {
      return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new ApiException(Response.status(400, "BadRequest", "continue key is not valid: " + e.getMessage()));
    }
  }

  private static int parseInt(String value, int otherwise) {
    if (value == null || value.isEmpty()) {
      return otherwise;
    }
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new ApiException(Response.status(400, "BadRequest", "invalid integer: " + value));
    }
  }
}
