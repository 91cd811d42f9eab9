package io.kftrainer.apiserver;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** A bounded, thread-safe log of the requests the server received (oldest entries are dropped first). */
final class RequestLog {

  private final Deque<ApiRequest> entries = new ArrayDeque<>();
  private final int capacity;

  RequestLog(int capacity) {
    this.capacity = capacity;
  }

  synchronized void add(ApiRequest request) {
    if (capacity <= 0) {
      return;
    }
    if (entries.size() >= capacity) {
      entries.removeFirst();
    }
    entries.addLast(request);
  }

  synchronized List<ApiRequest> snapshot() {
    return List.copyOf(new ArrayList<>(entries));
  }

  synchronized void clear() {
    entries.clear();
  }
}
