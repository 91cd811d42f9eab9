package io.kftrainer.operator.ui;

import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceAttributes;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceAttributesBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.operator.ops.DelegatingAuth;
import io.kftrainer.ui.ApiPath;
import io.kftrainer.ui.UserApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The web UI's reads on a cluster: the user's bearer token is checked with a TokenReview, each read with a
 * SubjectAccessReview for that user (verb, group, resource, subresource, namespace, name, as kube-apiserver's own
 * authorization sees the request), both cached as {@link DelegatingAuth} caches them; only an allowed read is made,
 * with the operator's credentials. The operator's own rights bound what anyone sees; the user's decide what each
 * one sees.
 */
public final class ReviewingUserApi implements UserApi {

  private final DelegatingAuth auth;
  private final URI server;
  private final HttpClient http;
  private final Supplier<String> operatorToken;

  /**
   * @param operatorToken the operator's bearer token for each read, null when its client authenticates with a
   *     certificate (in {@code http}'s TLS context)
   */
  public ReviewingUserApi(DelegatingAuth auth, URI server, HttpClient http, Supplier<String> operatorToken) {
    this.auth = Objects.requireNonNull(auth, "auth");
    this.server = Objects.requireNonNull(server, "server");
    this.http = Objects.requireNonNull(http, "http");
    this.operatorToken = Objects.requireNonNull(operatorToken, "operatorToken");
  }

  /**
   * The token of the operator's client: the ServiceAccount token file as the kubelet renews it, in a pod; else the
   * kubeconfig's token; null for a client certificate.
   */
  public static Supplier<String> tokenOf(Config config) {
    Path file = Path.of(Config.KUBERNETES_SERVICE_ACCOUNT_TOKEN_PATH);
    return () -> {
      if (config.getOauthTokenProvider() != null) {
        return config.getOauthTokenProvider().getToken();
      }
      if (config.getOauthToken() != null) {
        return config.getOauthToken();
      }
      if (Files.isReadable(file)) {
        try {
          return Files.readString(file).strip();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return config.getAutoOAuthToken();
    };
  }

  @Override
  public HttpClient http() {
    return http;
  }

  @Override
  public Optional<String> userOf(String token) throws IOException {
    try {
      return auth.user(token).map(UserInfo::getUsername);
    } catch (KubernetesClientException e) {
      throw new IOException("the token cannot be reviewed: " + e.getMessage(), e);
    }
  }

  @Override
  public HttpRequest.Builder get(String token, String pathAndQuery) throws IOException, Unauthenticated, Forbidden {
    int question = pathAndQuery.indexOf('?');
    String path = question < 0 ? pathAndQuery : pathAndQuery.substring(0, question);
    String query = question < 0 ? null : pathAndQuery.substring(question + 1);
    ApiPath read = ApiPath.of(path, query).orElseThrow(() -> new Forbidden("the UI does not read " + path));
    ResourceAttributes attributes = new ResourceAttributesBuilder().withVerb(read.verb()).withGroup(read.group())
        .withResource(read.resource()).withSubresource(read.subresource()).withNamespace(read.namespace())
        .withName(read.name()).build();
    DelegatingAuth.Decision decision = auth.check("Bearer " + token, attributes);
    if (decision instanceof DelegatingAuth.Unauthenticated) {
      throw new Unauthenticated();
    }
    if (decision instanceof DelegatingAuth.Forbidden forbidden) {
      throw new Forbidden(read.forbidden(forbidden.user()));
    }
    if (decision instanceof DelegatingAuth.Failed failed) {
      throw new IOException(failed.message());
    }
    HttpRequest.Builder request = HttpRequest.newBuilder(server.resolve(pathAndQuery)).GET();
    String own = operatorToken.get();
    return own == null ? request : request.header("Authorization", "Bearer " + own);
  }
}
