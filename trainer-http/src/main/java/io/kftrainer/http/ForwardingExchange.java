package io.kftrainer.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import com.sun.net.httpserver.HttpsExchange;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import javax.net.ssl.SSLSession;

/**
 * An exchange that forwards every call to the exchange it was handed, the base of the exchanges this module's filters
 * hand on: a filter overrides what it changes. {@link #handOn} gives a handler over TLS the session it may ask for,
 * since a filter's exchange extends {@link HttpExchange} and the JDK's TLS exchange {@link HttpsExchange}.
 */
abstract class ForwardingExchange extends HttpExchange {

  final HttpExchange delegate;

  ForwardingExchange(HttpExchange delegate) {
    this.delegate = delegate;
  }

  /** {@code wrapper}, which wraps {@code original}: as an {@link HttpsExchange} when {@code original} is one. */
  static HttpExchange handOn(HttpExchange original, HttpExchange wrapper) {
    return original instanceof HttpsExchange tls ? new Tls(tls, wrapper) : wrapper;
  }

  @Override
  public Headers getRequestHeaders() {
    return delegate.getRequestHeaders();
  }

  @Override
  public Headers getResponseHeaders() {
    return delegate.getResponseHeaders();
  }

  @Override
  public URI getRequestURI() {
    return delegate.getRequestURI();
  }

  @Override
  public String getRequestMethod() {
    return delegate.getRequestMethod();
  }

  @Override
  public HttpContext getHttpContext() {
    return delegate.getHttpContext();
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public InputStream getRequestBody() {
    return delegate.getRequestBody();
  }

  @Override
  public OutputStream getResponseBody() {
    return delegate.getResponseBody();
  }

  @Override
  public void sendResponseHeaders(int code, long length) throws IOException {
    delegate.sendResponseHeaders(code, length);
  }

  @Override
  public InetSocketAddress getRemoteAddress() {
    return delegate.getRemoteAddress();
  }

  @Override
  public int getResponseCode() {
    return delegate.getResponseCode();
  }

  @Override
  public InetSocketAddress getLocalAddress() {
    return delegate.getLocalAddress();
  }

  @Override
  public String getProtocol() {
    return delegate.getProtocol();
  }

  @Override
  public Object getAttribute(String name) {
    return delegate.getAttribute(name);
  }

  @Override
  public void setAttribute(String name, Object value) {
    delegate.setAttribute(name, value);
  }

  @Override
  public void setStreams(InputStream in, OutputStream out) {
    delegate.setStreams(in, out);
  }

  @Override
  public HttpPrincipal getPrincipal() {
    return delegate.getPrincipal();
  }

  /** A wrapper over TLS: the session from the JDK's TLS exchange, everything else from the wrapper. */
  private static final class Tls extends HttpsExchange {
    private final HttpsExchange tls;
    private final HttpExchange wrapper;

    Tls(HttpsExchange tls, HttpExchange wrapper) {
      this.tls = tls;
      this.wrapper = wrapper;
    }

    @Override
    public SSLSession getSSLSession() {
      return tls.getSSLSession();
    }

    @Override
    public Headers getRequestHeaders() {
      return wrapper.getRequestHeaders();
    }

    @Override
    public Headers getResponseHeaders() {
      return wrapper.getResponseHeaders();
    }

    @Override
    public URI getRequestURI() {
      return wrapper.getRequestURI();
    }

    @Override
    public String getRequestMethod() {
      return wrapper.getRequestMethod();
    }

    @Override
    public HttpContext getHttpContext() {
      return wrapper.getHttpContext();
    }

    @Override
    public void close() {
      wrapper.close();
    }

    @Override
    public InputStream getRequestBody() {
      return wrapper.getRequestBody();
    }

    @Override
    public OutputStream getResponseBody() {
      return wrapper.getResponseBody();
    }

    @Override
    public void sendResponseHeaders(int code, long length) throws IOException {
      wrapper.sendResponseHeaders(code, length);
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
      return wrapper.getRemoteAddress();
    }

    @Override
    public int getResponseCode() {
      return wrapper.getResponseCode();
    }

    @Override
    public InetSocketAddress getLocalAddress() {
      return wrapper.getLocalAddress();
    }

    @Override
    public String getProtocol() {
      return wrapper.getProtocol();
    }

    @Override
    public Object getAttribute(String name) {
      return wrapper.getAttribute(name);
    }

    @Override
    public void setAttribute(String name, Object value) {
      wrapper.setAttribute(name, value);
    }

    @Override
    public void setStreams(InputStream in, OutputStream out) {
      wrapper.setStreams(in, out);
    }

    @Override
    public HttpPrincipal getPrincipal() {
      return wrapper.getPrincipal();
    }
  }
}
