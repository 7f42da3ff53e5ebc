package dev.platform.identity.ratelimit;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;

/**
 * The client_id a token request names, read cheaply before the request is parsed for real: from
 * HTTP Basic or from the form body. Anything odd gives null, and the request then counts against
 * its address only; the token endpoint itself still judges the request in full.
 */
final class ClientId {
  /** A client_id is a UUID (36 characters); longer text names no client. */
  static final int MAX_LENGTH = 64;

  private ClientId() {}

  static String from(String authorization, String body) {
    try {
      String id =
          authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6)
              ? fromBasic(authorization.substring(6).trim())
              : fromForm(body);
      return id == null || id.isEmpty() || id.length() > MAX_LENGTH
          ? null
          : id.toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static String fromBasic(String credentials) {
    String pair = new String(Base64.getDecoder().decode(credentials), StandardCharsets.UTF_8);
    int colon = pair.indexOf(':');
    return colon < 0 ? null : URLDecoder.decode(pair.substring(0, colon), StandardCharsets.UTF_8);
  }

  private static String fromForm(String body) {
    for (String pair : body.split("&")) {
      int equals = pair.indexOf('=');
      if (equals > 0
          && URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8)
              .equals("client_id")) {
        return URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
      }
    }
    return null;
  }
}
