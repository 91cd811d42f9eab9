package io.kftrainer.operator.app;

import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads of a fabric8 client, bounded and named after the client, whatever the CPU count: a thread dump says
 * whose they are, and no request starts a thread.
 *
 * <ul>
 *   <li>{@code <client>-request-N}, at most {@value #SENDERS}: each sends a request and waits for its response's
 *       headers ({@link PooledSendHttpClient}; the JDK's asynchronous send started a thread per request on small
 *       machines);</li>
 *   <li>{@code <client>-http-N}, at most {@value #THREADS}: the JDK HTTP client's own work (TLS, reading and
 *       writing sockets, response bodies), where fabric8 gives it an unbounded cached pool;</li>
 *   <li>{@code <client>-tasks-N}, at most {@value #THREADS}: fabric8's task executor (informer event handlers,
 *       watch callbacks), where fabric8 gives it an unbounded cached pool.</li>
 * </ul>
 * The pools queue what they cannot start at once, and their idle threads end after a minute. No pool waits for
 * another's queue: senders wait for the HTTP pool and the network, the HTTP pool waits for nothing, and handlers on
 * the task pool that call the API server wait for the senders.
 */
public final class ClientThreads {

  /** Threads of the HTTP and task pools: enough to overlap a socket read with a callback, few enough to count. */
  static final int THREADS = 4;
  /**
   * Requests waiting for their headers at once: above the operator's concurrent reconciles (5 by default) plus its
   * other callers (status server, optimization controller, informers re-listing).
   */
  static final int SENDERS = 16;
  private static final long IDLE_SECONDS = 60;

  private ClientThreads() {
  }

  /** A client builder whose HTTP client and task executor use bounded pools named after {@code client}. */
  public static KubernetesClientBuilder builder(String client) {
    return new KubernetesClientBuilder()
        .withHttpClientFactory(new BoundedJdkHttpClientFactory(client))
        .withTaskExecutorSupplier(new KubernetesClientBuilder.ExecutorSupplier() {
          @Override
          public Executor get() {
            return pool(client + "-tasks", THREADS);
          }

          @Override
          public void onClose(Executor executor) {
            ((ExecutorService) executor).shutdownNow();
          }
        });
  }

  /**
   * {@code threads} daemon threads named {@code name-N}, an unbounded queue, idle threads ending after a minute: a
   * pool nobody needs to shut down (its threads end on their own), for executors whose owner has no close hook.
   */
  static ThreadPoolExecutor pool(String name, int threads) {
    AtomicInteger count = new AtomicInteger();
    ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, IDLE_SECONDS, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), task -> {
          Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /**
   * fabric8's JDK HTTP client with bounded pools. fabric8 7.5 closes only the executors it created itself (and
   * hides the JDK client from subclasses), so these pools are not shut down with the client: their threads end
   * after a minute idle.
   */
  private static final class BoundedJdkHttpClientFactory extends JdkHttpClientFactory {

    private final String client;

    BoundedJdkHttpClientFactory(String client) {
      this.client = client;
    }

    @Override
    protected java.net.http.HttpClient.Builder createNewHttpClientBuilder() {
      return PooledSendHttpClient.newBuilder(pool(client + "-request", SENDERS))
          .executor(pool(client + "-http", THREADS));
    }
  }
}
