package io.kftrainer.apiserver;

/** An error answer thrown from deep inside a request. */
final class ApiException extends RuntimeException {
  final transient Response response;

  ApiException(Response response) {
    super(null, null, false, false);
    this.response = response;
  }
}
