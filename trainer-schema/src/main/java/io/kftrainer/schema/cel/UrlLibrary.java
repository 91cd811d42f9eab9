package io.kftrainer.schema.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;

import java.util.List;

import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

/**
 * Kubernetes' URL library: {@code url(s)} (an error when {@code s} is not an absolute URI or absolute path),
 * {@code isURL(s)}, and on a URL {@code getScheme()}, {@code getHost()}, {@code getHostname()}, {@code getPort()},
 * {@code getEscapedPath()}, {@code getQuery()}, parsed as Go's {@code url.ParseRequestURI} ({@link GoUrl}).
 */
final class UrlLibrary extends CelLibrary {

  static final CelType URL = OpaqueType.create("kubernetes.URL");

  @Override
  List<CelFunctionDecl> functions() {
    CelType string = SimpleType.STRING;
    return List.of(
        CelFunctionDecl.newFunctionDeclaration("url", newGlobalOverload("string_to_url", URL, string)),
        CelFunctionDecl.newFunctionDeclaration("isURL", newGlobalOverload("is_url_string", SimpleType.BOOL, string)),
        CelFunctionDecl.newFunctionDeclaration("getScheme", newMemberOverload("url_get_scheme", string, URL)),
        CelFunctionDecl.newFunctionDeclaration("getHost", newMemberOverload("url_get_host", string, URL)),
        CelFunctionDecl.newFunctionDeclaration("getHostname", newMemberOverload("url_get_hostname", string, URL)),
        CelFunctionDecl.newFunctionDeclaration("getPort", newMemberOverload("url_get_port", string, URL)),
        CelFunctionDecl.newFunctionDeclaration("getEscapedPath",
            newMemberOverload("url_get_escaped_path", string, URL)),
        CelFunctionDecl.newFunctionDeclaration("getQuery",
            newMemberOverload("url_get_query", MapType.create(string, ListType.create(string)), URL)));
  }

  private static GoUrl url(String text) {
    try {
      return GoUrl.parseRequestUri(text);
    } catch (GoUrl.ParseException e) {
      throw new IllegalArgumentException("URL parse error during conversion from string: " + e.getMessage(), e);
    }
  }

  @Override
  List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("string_to_url", String.class, s -> parsed(UrlLibrary::url, s)),
        CelFunctionBinding.from("is_url_string", String.class, s -> parses(UrlLibrary::url, s)),
        CelFunctionBinding.from("url_get_scheme", GoUrl.class, GoUrl::scheme),
        CelFunctionBinding.from("url_get_host", GoUrl.class, GoUrl::host),
        CelFunctionBinding.from("url_get_hostname", GoUrl.class, GoUrl::hostname),
        CelFunctionBinding.from("url_get_port", GoUrl.class, GoUrl::port),
        CelFunctionBinding.from("url_get_escaped_path", GoUrl.class, GoUrl::escapedPath),
        CelFunctionBinding.from("url_get_query", GoUrl.class, GoUrl::query));
  }
}
