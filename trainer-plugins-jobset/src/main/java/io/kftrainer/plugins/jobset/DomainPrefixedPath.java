package io.kftrainer.plugins.jobset;

import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Kubernetes' {@code validation.IsDomainPrefixedPath}: a DNS-1123 subdomain, a slash, then an HTTP path
 * ({@code acme.io/foo}), with Kubernetes' messages.
 */
final class DomainPrefixedPath {

  private static final String DNS1123_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String DNS1123_SUBDOMAIN = DNS1123_LABEL + "(\\." + DNS1123_LABEL + ")*";
  private static final Pattern DNS1123_SUBDOMAIN_PATTERN = Pattern.compile(DNS1123_SUBDOMAIN);
  private static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
  private static final String HTTP_PATH = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
  private static final Pattern HTTP_PATH_PATTERN = Pattern.compile(HTTP_PATH);

  static final String NOT_DOMAIN_PREFIXED = "must be a domain-prefixed path (such as \"acme.io/foo\")";
  static final String SUBDOMAIN_TOO_LONG = "must be no more than 253 characters";
  static final String NOT_SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
      + "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
      + "used for validation is '" + DNS1123_SUBDOMAIN + "')";
  static final String NOT_HTTP_PATH = "Invalid path (regex used for validation is '" + HTTP_PATH + "')";

  private DomainPrefixedPath() {
  }

  static List<FieldError> validate(FieldPath field, String value) {
    if (value == null || value.isEmpty()) {
      return List.of(FieldError.required(field, ""));
    }
    int slash = value.indexOf('/');
    if (slash <= 0 || slash == value.length() - 1) {
      return List.of(FieldError.invalid(field, value, NOT_DOMAIN_PREFIXED));
    }
    List<FieldError> errors = new ArrayList<>();
    String host = value.substring(0, slash);
    if (host.length() > DNS1123_SUBDOMAIN_MAX_LENGTH) {
      errors.add(FieldError.invalid(field, host, SUBDOMAIN_TOO_LONG));
    }
    if (!DNS1123_SUBDOMAIN_PATTERN.matcher(host).matches()) {
      errors.add(FieldError.invalid(field, host, NOT_SUBDOMAIN));
    }
    String path = value.substring(slash + 1);
    if (!HTTP_PATH_PATTERN.matcher(path).matches()) {
      errors.add(FieldError.invalid(field, path, NOT_HTTP_PATH));
    }
    return errors;
  }
}
