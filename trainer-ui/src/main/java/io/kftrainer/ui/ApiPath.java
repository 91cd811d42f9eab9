package io.kftrainer.ui;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A read of the Kubernetes API as its authorization sees it (kube-apiserver's request info): the verb ({@code get},
 * {@code list}, {@code watch}), API group, resource, subresource, namespace and name of a path and query.
 *
 * @param group the API group, empty for the core group
 * @param namespace empty for a cluster-wide list or a cluster-scoped resource
 * @param name empty for a list or watch
 */
public record ApiPath(String verb, String group, String resource, String subresource, String namespace,
    String name) {

  private static final Pattern PATH = Pattern.compile(
      "/(?:api/v1|apis/([^/]+)/[^/]+)(?:/namespaces/([^/]+)(?=/))?/([^/]+)(?:/([^/]+)(?:/([^/]+))?)?");

  private static final Pattern WATCH = Pattern.compile("(^|&)watch=(1|t|T|TRUE|true|True)(&|$)");

  /** The read a GET of {@code path} with {@code query} (null for none) makes; empty for a path of no resource. */
  public static Optional<ApiPath> of(String path, String query) {
    Matcher matcher = PATH.matcher(path);
    if (!matcher.matches()) {
      return Optional.empty();
    }
    String name = orEmpty(matcher.group(4));
    // what kube-apiserver takes for a watch (Go's strconv.ParseBool), so that a watch is never authorized as a list
    boolean watch = query != null && WATCH.matcher(query).find();
    String verb = watch ? "watch" : name.isEmpty() ? "list" : "get";
    return Optional.of(new ApiPath(verb, orEmpty(matcher.group(1)), matcher.group(3), orEmpty(matcher.group(5)),
        orEmpty(matcher.group(2)), name));
  }

  private static String orEmpty(String value) {
    return value == null ? "" : value;
  }

  /** kube-apiserver's words for a refusal of this read. */
  public String forbidden(String user) {
    String what = resource + (subresource.isEmpty() ? "" : "/" + subresource);
    String qualified = resource + (group.isEmpty() ? "" : "." + group)
        + (name.isEmpty() ? "" : " \"" + name + "\"");
    return qualified + " is forbidden: User \"" + user + "\" cannot " + verb + " resource \"" + what
        + "\" in API group \"" + group + "\"" + (namespace.isEmpty() ? " at the cluster scope"
            : " in the namespace \"" + namespace + "\"");
  }
}
