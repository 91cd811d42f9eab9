package io.kftrainer.http;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the attributes of an exchange ({@link HttpExchange#setAttribute}) to that exchange. The JDK 17 server keeps
 * them in the attributes of the exchange's {@link com.sun.net.httpserver.HttpContext}, shared by every exchange of
 * the context (JDK-7105350, per exchange only from JDK 26): what a filter sets for one request, such as the user it
 * authenticated, is what the handler of another request running at the same time reads.
 *
 * <p>On a context before the filters that set or read attributes, it hands on an exchange that keeps its own
 * attributes, gone with the exchange, and forwards everything else; a {@code null} value removes an attribute. The
 * context's own attributes ({@code getHttpContext().getAttributes()}) stay shared, as they are meant to be.
 */
public final class ExchangeAttributes extends Filter {

  @Override
  public String description() {
    return "attributes per exchange, not per context";
  }

  @Override
  public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
    chain.doFilter(ForwardingExchange.handOn(exchange, new Exchange(exchange)));
  }

  private static final class Exchange extends ForwardingExchange {
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();

    Exchange(HttpExchange delegate) {
      super(delegate);
    }

    @Override
    public Object getAttribute(String name) {
      return attributes.get(Objects.requireNonNull(name, "name"));
    }

    @Override
    public void setAttribute(String name, Object value) {
      Objects.requireNonNull(name, "name");
      if (value == null) {
        attributes.remove(name);
      } else {
        attributes.put(name, value);
      }
    }
  }
}
