package dev.platform.identity.jose;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A compact JWS taken apart once (RFC 7515 §7.1): its three parts decoded, its protected header
 * read, nothing verified yet. Its user checks the header's algorithm against its own allow-list
 * ({@link Header#require}), verifies the signature over {@link #signingInput()}, and only then
 * reads {@link #payload()} (with {@link StrictJson}).
 *
 * <p>The rules, the same for every user: each part canonical base64url (no padding, no bits that
 * encode nothing), the header one JSON object in UTF-8 with no member named twice, {@code alg} and
 * {@code kid} strings, no {@code zip} or {@code enc} (a JWS is never compressed; a header with
 * {@code enc} is a JWE's), and the signature not empty (so no unsecured JWT).
 */
public final class CompactJws {
  /** Base64url's alphabet: a character's value is its index. */
  private static final String ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

  /** Three base64url parts, to tell a token of another shape from one that does not decode. */
  private static final Pattern COMPACT =
      Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");

  private static final Base64.Decoder BASE64URL = Base64.getUrlDecoder();

  private final Header header;
  private final byte[] ascii;
  private final int signingInputLength;
  private final byte[] payload;
  private final byte[] signature;

  private CompactJws(
      Header header, byte[] ascii, int signingInputLength, byte[] payload, byte[] signature) {
    this.header = header;
    this.ascii = ascii;
    this.signingInputLength = signingInputLength;
    this.payload = payload;
    this.signature = signature;
  }

  /**
   * A protected header as its base64url text and the members read from it. One issuer's tokens
   * share a few headers, so a verifier may keep the last one that verified and read no header twice
   * ({@link #parse(String, Header)}).
   *
   * @param encoded the header's base64url text
   * @param alg its {@code alg}, or null
   * @param kid its {@code kid}, or null
   * @param crit the names its {@code crit} lists, empty without one
   */
  public record Header(String encoded, String alg, String kid, List<String> crit) {
    /**
     * The header's {@code alg}, once it is one of {@code algorithms} and every {@code crit} name is
     * in {@code understood}. The algorithm is the verifier's to choose, never the token's.
     *
     * @throws JwsException {@code ALGORITHM} or {@code CRITICAL}
     */
    public String require(Set<String> algorithms, Set<String> understood) {
      if (alg == null || !algorithms.contains(alg)) {
        throw new JwsException(JwsException.Reason.ALGORITHM, "alg is not one of " + algorithms);
      }
      if (!understood.containsAll(crit)) {
        throw new JwsException(JwsException.Reason.CRITICAL, "the header has crit " + crit);
      }
      return alg;
    }

    /**
     * Every member of the header, read by {@link StrictJson}'s rule, for a use that needs more than
     * {@code alg}, {@code kid} and {@code crit} (a DPoP proof's {@code typ} and {@code jwk}).
     *
     * @throws JwsException {@code NOT_JSON} as the first read would have
     */
    public JsonNode members() {
      return StrictJson.object(BASE64URL.decode(encoded));
    }
  }

  /**
   * Takes {@code token} apart.
   *
   * @throws JwsException when it is not a compact JWS by the rules above
   */
  public static CompactJws parse(String token) {
    return parse(token, null);
  }

  /**
   * Takes {@code token} apart, reading its header only when it is not {@code known}'s. One pass
   * over the text finds the dots; the base64url decoder checks every other character.
   *
   * @param known a header read before, or null
   * @throws JwsException when it is not a compact JWS by the rules above
   */
  public static CompactJws parse(String token, Header known) {
    int first = token.indexOf('.');
    int second = first < 0 ? -1 : token.indexOf('.', first + 1);
    if (first < 1
        || second < first + 2
        || second == token.length() - 1
        || token.indexOf('.', second + 1) >= 0
        || token.indexOf('=') >= 0) {
      throw new JwsException(JwsException.Reason.MALFORMED, "not three base64url parts");
    }
    byte[] ascii = token.getBytes(StandardCharsets.ISO_8859_1);
    Header header;
    byte[] payload;
    byte[] signature;
    try {
      boolean seen =
          known != null && known.encoded().length() == first && token.startsWith(known.encoded());
      header = seen ? known : header(token.substring(0, first), decoded(ascii, 0, first));
      payload = decoded(ascii, first + 1, second);
      signature = decoded(ascii, second + 1, ascii.length);
    } catch (IllegalArgumentException e) { // a character outside base64url, or a dangling one
      throw COMPACT.matcher(token).matches()
          ? new JwsException(JwsException.Reason.NOT_BASE64URL, "a part is not base64url")
          : new JwsException(JwsException.Reason.MALFORMED, "not three base64url parts");
    }
    return new CompactJws(header, ascii, second, payload, signature);
  }

  /**
   * The bytes of {@code ascii[from, to)} decoded, with no copy of the part first. A last character
   * with bits that encode nothing set is refused (RFC 4648 §3.5): the JDK's decoder ignores them,
   * which would give one token 4 or 16 spellings.
   */
  private static byte[] decoded(byte[] ascii, int from, int to) {
    int spare = (to - from) % 4 == 2 ? 0b1111 : (to - from) % 4 == 3 ? 0b11 : 0;
    int last = ALPHABET.indexOf(ascii[to - 1]);
    if (last >= 0 && (last & spare) != 0) {
      throw new IllegalArgumentException("a part's last character has bits that encode nothing");
    }
    ByteBuffer bytes = BASE64URL.decode(ByteBuffer.wrap(ascii, from, to - from));
    return bytes.remaining() == bytes.array().length
        ? bytes.array()
        : Arrays.copyOf(bytes.array(), bytes.remaining());
  }

  private static Header header(String encoded, byte[] json) {
    String alg = null;
    String kid = null;
    List<String> crit = List.of();
    try (JsonParser parser = StrictJson.parser(json)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw headerFault("the header is not a JSON object");
      }
      for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
        JsonToken value = parser.nextToken();
        switch (name) {
          case "alg" -> alg = text(parser, value, name);
          case "kid" -> kid = text(parser, value, name);
          case "crit" -> crit = names(parser, value);
          case "zip", "enc" -> throw headerFault("the header has " + name);
          default -> parser.skipChildren();
        }
      }
      if (!StrictJson.ended(parser)) {
        throw new JwsException(JwsException.Reason.NOT_JSON, "the header is not one JSON object");
      }
    } catch (IOException e) { // not JSON, or a member named twice
      throw new JwsException(JwsException.Reason.NOT_JSON, "the header: " + e.getMessage());
    }
    return new Header(encoded, alg, kid, crit);
  }

  /** RFC 7515 §4.1.11: crit is a non-empty array of names. */
  private static List<String> names(JsonParser json, JsonToken value) throws IOException {
    if (value != JsonToken.START_ARRAY) {
      throw headerFault("crit is not an array");
    }
    List<String> names = new ArrayList<>();
    for (JsonToken item = json.nextToken(); item != JsonToken.END_ARRAY; item = json.nextToken()) {
      names.add(text(json, item, "crit"));
    }
    if (names.isEmpty()) {
      throw headerFault("crit is empty");
    }
    return List.copyOf(names);
  }

  private static String text(JsonParser json, JsonToken value, String name) throws IOException {
    if (value != JsonToken.VALUE_STRING) {
      throw headerFault(name + " is not a string");
    }
    return json.getText();
  }

  private static JwsException headerFault(String detail) {
    return new JwsException(JwsException.Reason.HEADER, detail);
  }

  /** The protected header, to pass to the next {@link #parse(String, Header)}. */
  public Header header() {
    return header;
  }

  /** The ASCII bytes of the token; the first {@link #signingInputLength()} are signed. */
  public byte[] signingInput() {
    return ascii;
  }

  /** The length of the JWS signing input: the header, a dot, the payload (RFC 7515 §5.2). */
  public int signingInputLength() {
    return signingInputLength;
  }

  /** The decoded payload: claims, not yet verified. */
  public byte[] payload() {
    return payload;
  }

  /** The decoded signature. */
  public byte[] signature() {
    return signature;
  }
}
