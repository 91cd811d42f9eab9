package io.kftrainer.http;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Makes an answer given before the request body was read reach the client, as Go's HTTP server (kube-apiserver's,
 * controller-runtime's) does: a 401, 403 or 413 refused before the body, or any answer whose handler left part of the
 * body unread. The JDK's server closes such a connection as soon as the answer is written, with the rest of the body
 * unread in the socket; the kernel then resets the connection, and the reset discards what the client had not read
 * yet: a client still sending its body (the JDK's HttpClient, Python's urllib3, kubectl) gets "Connection reset",
 * {@code SSLEOFError} or {@code RemoteDisconnected} instead of the answer.
 *
 * <p>Put first on a context ({@code context.getFilters().add(0, new EarlyAnswers())}), it hands on an exchange that
 * answers as before, except that an answer leaving part of the body unread says {@code Connection: close}, goes out
 * whole, and only then is the rest of the body read and thrown away, at most {@link #DRAIN_BYTES} bytes within
 * {@link #DRAIN_TIMEOUT}: the client finishes sending, then reads the answer, and with nothing left unread the
 * connection closes in order. A client that sends more, or keeps the connection open without sending, is cut off at
 * the bound, as Go's server cuts one off after its {@code rstAvoidanceDelay}. The JDK's server gives handlers no
 * socket, so there is no half-close: the answer's length and {@code Connection: close} tell the client where it ends.
 * An answer without a body (length -1, 204, 304, HEAD) ends the exchange with its headers in the JDK's server, so the
 * body is thrown away before such an answer instead.
 */
public final class EarlyAnswers extends Filter {

  /** The most of an unread body thrown away after an answer: twice the 64 MB bodies clients send to a 413. */
  public static final long DRAIN_BYTES = 128L << 20;

  /** How long at most an unread body is read after an answer. */
  public static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(10);

  private static final ScheduledExecutorService DEADLINES = deadlines();

  private final long drainBytes;
  private final Duration drainTimeout;

  public EarlyAnswers() {
    this(DRAIN_BYTES, DRAIN_TIMEOUT);
  }

  EarlyAnswers(long drainBytes, Duration drainTimeout) {
    this.drainBytes = drainBytes;
    this.drainTimeout = drainTimeout;
  }

  @Override
  public String description() {
    return "answers before the request body is read reach the client";
  }

  @Override
  public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
    chain.doFilter(ForwardingExchange.handOn(exchange,
        new Exchange(exchange, new Body(exchange, drainBytes, drainTimeout))));
  }

  /** The request body as read by the handlers: its reads are counted, and closing it leaves the rest readable. */
  private static final class Body extends InputStream {
    private final InputStream raw;
    private final boolean declared;
    private final long drainBytes;
    private final Duration drainTimeout;
    private boolean closed;
    private boolean eof;

    Body(HttpExchange exchange, long drainBytes, Duration drainTimeout) {
      this.raw = exchange.getRequestBody();
      this.drainBytes = drainBytes;
      this.drainTimeout = drainTimeout;
      Headers headers = exchange.getRequestHeaders();
      String length = headers.getFirst("Content-Length");
      // the JDK's server reads a request without Content-Length nor Transfer-Encoding as having no body
      this.declared = headers.containsKey("Transfer-Encoding") || (length != null && !length.trim().equals("0"));
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      if (closed) {
        throw new IOException("the request body is closed");
      }
      int n = raw.read(buffer, offset, length);
      if (n < 0) {
        eof = true;
      }
      return n;
    }

    @Override
    public int available() throws IOException {
      return closed ? 0 : raw.available();
    }

    @Override
    public void close() {
      closed = true;
    }

    boolean unread() {
      return declared && !eof;
    }

    /** Reads what is left of the body and throws it away, within the bounds. */
    void discard() {
      if (!unread()) {
        return;
      }
      eof = true;
      byte[] buffer = new byte[64 * 1024];
      long left = drainBytes;
      Deadline deadline = new Deadline(Thread.currentThread(), drainTimeout);
      try {
        while (left > 0) {
          int n = raw.read(buffer, 0, (int) Math.min(buffer.length, left));
          if (n < 0) {
            break;
          }
          left -= n;
        }
      } catch (IOException e) {
        // the client went away, or the deadline closed the connection
      } finally {
        deadline.cancel();
      }
    }
  }

  /**
   * Interrupts the reader at the timeout: the JDK's server reads a blocking channel, which an interrupt closes. The
   * interrupt is cleared again, so that it never reaches the pool thread's next exchange.
   */
  private static final class Deadline {
    private final Thread reader;
    private final ScheduledFuture<?> timer;
    private boolean over;
    private boolean fired;

    Deadline(Thread reader, Duration timeout) {
      this.reader = reader;
      this.timer = DEADLINES.schedule(this::fire, timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private synchronized void fire() {
      if (!over) {
        fired = true;
        reader.interrupt();
      }
    }

    void cancel() {
      timer.cancel(false);
      synchronized (this) {
        over = true;
        if (fired) {
          Thread.interrupted();
        }
      }
    }
  }

  /** The response body: closing it writes the answer out, then discards what is left of the request body. */
  private static final class Answer extends OutputStream {
    private final Exchange exchange;
    private boolean closed;

    Answer(Exchange exchange) {
      this.exchange = exchange;
    }

    @Override
    public void write(int b) throws IOException {
      exchange.delegate.getResponseBody().write(b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      exchange.delegate.getResponseBody().write(bytes, offset, length);
    }

    @Override
    public void flush() throws IOException {
      exchange.delegate.getResponseBody().flush();
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      OutputStream out = exchange.delegate.getResponseBody();
      try {
        if (exchange.answered) {
          out.flush();
          exchange.body.discard();
        }
      } finally {
        out.close();
      }
    }
  }

  private static final class Exchange extends ForwardingExchange {
    final Body body;
    private final Answer answer;
    private InputStream in;
    private OutputStream out;
    boolean answered;

    Exchange(HttpExchange delegate, Body body) {
      super(delegate);
      this.body = body;
      this.answer = new Answer(this);
      this.in = body;
      this.out = answer;
    }

    @Override
    public void sendResponseHeaders(int code, long length) throws IOException {
      if (body.unread()) {
        delegate.getResponseHeaders().set("Connection", "close");
        boolean empty = length == -1 || code < 200 || code == 204 || code == 304
            || "HEAD".equals(delegate.getRequestMethod());
        if (empty) {
          body.discard();
        }
      }
      delegate.sendResponseHeaders(code, length);
      answered = true;
    }

    @Override
    public InputStream getRequestBody() {
      return in;
    }

    @Override
    public OutputStream getResponseBody() {
      return out;
    }

    @Override
    public void setStreams(InputStream in, OutputStream out) {
      if (in != null) {
        this.in = in;
      }
      if (out != null) {
        this.out = out;
      }
    }

    @Override
    public void close() {
      try {
        out.close();
      } catch (IOException e) {
        // the client went away; the JDK's server closes the connection
      } finally {
        try {
          answer.close();
        } catch (IOException e) {
          // as above
        }
        delegate.close();
      }
    }
  }

  private static ScheduledExecutorService deadlines() {
    ScheduledThreadPoolExecutor timer = (ScheduledThreadPoolExecutor) Executors.newScheduledThreadPool(1, r -> {
      Thread thread = new Thread(r, "http-drain-deadline");
      thread.setDaemon(true);
      return thread;
    });
    timer.setRemoveOnCancelPolicy(true);
    return timer;
  }
}
