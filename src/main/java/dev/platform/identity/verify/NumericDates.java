package dev.platform.identity.verify;

import io.jsonwebtoken.io.DeserializationException;
import io.jsonwebtoken.io.Deserializer;
import java.io.Reader;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * RFC 7519 §2 NumericDate: {@code exp}, {@code nbf} and {@code iat} are JSON numbers of seconds.
 * JJWT alone also takes an ISO-8601 string or a number in a string (issue 26), so this reader wraps
 * its JSON reader and refuses any other form before JJWT converts the value. A number with a
 * fraction is allowed, as RFC 7519 allows it; JJWT drops the fraction, so {@code exp} is floored.
 */
final class NumericDates implements Deserializer<Map<String, ?>> {
  private static final List<String> CLAIMS = List.of("exp", "nbf", "iat");

  /** 9999-12-31T23:59:59Z: a later date is no date, and would overflow JJWT's milliseconds. */
  private static final double LATEST = 253_402_300_799d;

  private final Deserializer<Map<String, ?>> json;

  private NumericDates(Deserializer<Map<String, ?>> json) {
    this.json = json;
  }

  /** Wraps the JSON reader JJWT would find itself (jjwt-jackson, through its service entry). */
  @SuppressWarnings("unchecked")
  static NumericDates wrappingJjwtJson() {
    Deserializer<Map<String, ?>> json =
        ServiceLoader.load(Deserializer.class, NumericDates.class.getClassLoader())
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no JJWT JSON reader (jjwt-jackson)"));
    return new NumericDates(json);
  }

  @Override
  @Deprecated
  public Map<String, ?> deserialize(byte[] bytes) {
    return checked(json.deserialize(bytes));
  }

  @Override
  public Map<String, ?> deserialize(Reader reader) {
    return checked(json.deserialize(reader));
  }

  /** Header and claims both come through here; a header has none of these names. */
  private static Map<String, ?> checked(Map<String, ?> object) {
    for (String claim : CLAIMS) {
      Object value = object.get(claim);
      if (value != null && !isNumericDate(value)) {
        throw new DeserializationException(claim + " is not a NumericDate (RFC 7519 §2)");
      }
    }
    return object;
  }

  private static boolean isNumericDate(Object value) {
    return value instanceof Number number
        && Double.isFinite(number.doubleValue())
        && number.doubleValue() >= 0
        && number.doubleValue() <= LATEST;
  }
}
