package dev.platform.identity.console;

import jakarta.ws.rs.core.MultivaluedMap;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The fields of the console's forms ({@code application/x-www-form-urlencoded}, UTF-8). */
final class FormFields {
  private FormFields() {}

  /** Every field with every value it was given; empty for a body that is not a form. */
  static Map<String, List<String>> parse(byte[] body) {
    Map<String, List<String>> fields = new HashMap<>();
    String text = new String(body, StandardCharsets.UTF_8);
    if (text.isEmpty()) {
      return fields;
    }
    try {
      for (String pair : text.split("&", -1)) {
        int equals = pair.indexOf('=');
        String name = equals < 0 ? pair : pair.substring(0, equals);
        String value = equals < 0 ? "" : pair.substring(equals + 1);
        fields.computeIfAbsent(decode(name), key -> new ArrayList<>()).add(decode(value));
      }
    } catch (IllegalArgumentException e) {
      return Map.of();
    }
    return fields;
  }

  /**
   * The one value of {@code name}, trimmed; empty when absent or blank.
   *
   * @throws InvalidFormException when it is given twice: a proxy may read the other one
   */
  static String one(MultivaluedMap<String, String> form, String name) {
    List<String> values = form == null ? null : form.get(name);
    if (values == null || values.isEmpty()) {
      return "";
    }
    if (values.size() > 1) {
      throw new InvalidFormException(name + " is given twice");
    }
    return values.get(0).strip();
  }

  private static String decode(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }

  /** A form the console refuses, with the reason it shows. */
  static final class InvalidFormException extends RuntimeException {
    InvalidFormException(String message) {
      super(message, null, false, false);
    }
  }
}
