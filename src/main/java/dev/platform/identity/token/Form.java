package dev.platform.identity.token;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code application/x-www-form-urlencoded}: {@code +} is a space, {@code %XX} a byte, and the
 * bytes are UTF-8 whatever a {@code charset} parameter says (WHATWG URL §5.1; the media type has no
 * parameters). Stricter than browsers: a broken escape or bytes that are not UTF-8 are refused, not
 * guessed at.
 */
final class Form {
  private Form() {}

  /**
   * Every name with its values in order. A pair without {@code =} has an empty value; empty pairs
   * ({@code a=1&&b=2}) are skipped.
   *
   * @throws IllegalArgumentException when a name or value is not properly encoded
   */
  static Map<String, List<String>> parse(String encoded) {
    Map<String, List<String>> parameters = new LinkedHashMap<>();
    for (String pair : encoded.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int equals = pair.indexOf('=');
      String name = decode(equals < 0 ? pair : pair.substring(0, equals));
      String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
      parameters.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
    }
    return parameters;
  }

  /** The names only; one that cannot be decoded is given as it is. */
  static List<String> names(String encoded) {
    List<String> names = new ArrayList<>();
    for (String pair : encoded.split("&")) {
      String name = pair.split("=", 2)[0];
      try {
        names.add(decode(name));
      } catch (IllegalArgumentException e) {
        names.add(name);
      }
    }
    return names;
  }

  /**
   * One form-encoded name or value.
   *
   * @throws IllegalArgumentException on a {@code %} without two hex digits, or bytes that are not
   *     UTF-8; the message does not quote the input, which may be a secret
   */
  static String decode(String component) {
    if (component.indexOf('%') < 0 && component.indexOf('+') < 0) {
      return component;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(component.length());
    int i = 0;
    while (i < component.length()) {
      char c = component.charAt(i);
      if (c == '%') {
        bytes.write(hex(component, i + 1) << 4 | hex(component, i + 2));
        i += 3;
      } else {
        int codePoint = component.codePointAt(i);
        bytes.writeBytes(c == '+' ? new byte[] {' '} : encodeUtf8(codePoint));
        i += Character.charCount(codePoint);
      }
    }
    return decodeUtf8(bytes.toByteArray());
  }

  private static int hex(String text, int index) {
    char c = index < text.length() ? text.charAt(index) : ' ';
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
      return Character.toLowerCase(c) - 'a' + 10;
    }
    throw new IllegalArgumentException("a '%' is not followed by two hexadecimal digits");
  }

  private static byte[] encodeUtf8(int codePoint) {
    return new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
  }

  /** Strict UTF-8: malformed input is an error, not a replacement character. */
  static String decodeUtf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("the %-escapes are not UTF-8");
    }
  }
}
