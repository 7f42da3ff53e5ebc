package dev.platform.identity.verify;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * A compact JWS taken apart once (RFC 7515 §7.1): its three parts decoded, its protected header
 * read, nothing verified yet. {@link BearerVerifier} checks the signature over {@link
 * #signingInput()} and only then reads {@link #payload()}.
 *
 * <p>The header may name {@code RS256} only, must have a {@code kid}, and may carry no {@code
 * crit}, {@code zip} or {@code enc}: we understand no critical extension, our tokens are never
 * compressed, and a header with {@code enc} is a JWE's. A member named twice is refused, in the
 * header and in the claims ({@link #JSON}), so no two readers of one token can see two values.
 */
final class CompactJws {
  /**
   * Jackson's streaming reader. Thread-safe. Not its duplicate detection, which keeps a hash set of
   * every member's name: the readers here check the members they read, for a fraction of the cost.
   */
  static final JsonFactory JSON = new JsonFactory();

  /**
   * The header's reader refuses any member named twice, as JJWT did: a header is read once per
   * verifier and header text ({@link Header}), so the hash set costs nothing that matters.
   */
  private static final JsonFactory STRICT_JSON =
      JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  /** Base64url's alphabet: a character's value is its index. */
  private static final String ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

  /** A compact JWS: three base64url parts, the signature not empty (so no unsecured JWT). */
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
   * Takes {@code token} apart. One pass over the text finds the dots; the base64url decoder checks
   * every other character, so the regular expression runs only to name a failure.
   *
   * @throws UnauthenticatedException "malformed bearer token" when {@code token} is not three
   *     non-empty base64url parts, "invalid token" when a part does not decode or the header is not
   *     what {@link BearerVerifier} accepts
   */
  static CompactJws parse(String token) {
    return parse(token, null);
  }

  /**
   * A header as its base64url text and the {@code kid} read from it. One issuer's tokens share a
   * few headers, so a verifier keeps the last one that verified and reads no header twice.
   */
  record Header(String encoded, String kid) {}

  /**
   * Takes {@code token} apart, reading its header only when it is not {@code known}'s.
   *
   * @param known the last header that verified, or null
   */
  static CompactJws parse(String token, Header known) {
    int first = token.indexOf('.');
    int second = first < 0 ? -1 : token.indexOf('.', first + 1);
    if (first < 1
        || second < first + 2
        || second == token.length() - 1
        || token.indexOf('.', second + 1) >= 0
        || token.indexOf('=') >= 0) {
      throw UnauthenticatedException.of(UnauthenticatedException.MALFORMED_TOKEN, null);
    }
    byte[] ascii = token.getBytes(StandardCharsets.ISO_8859_1);
    try {
      boolean seen =
          known != null && known.encoded().length() == first && token.startsWith(known.encoded());
      String kid = seen ? known.kid() : keyId(decoded(ascii, 0, first));
      byte[] payload = decoded(ascii, first + 1, second);
      byte[] signature = decoded(ascii, second + 1, ascii.length);
      return new CompactJws(
          seen ? known : new Header(token.substring(0, first), kid),
          ascii,
          second,
          payload,
          signature);
    } catch (IllegalArgumentException e) { // a character outside base64url, or a dangling one
      throw COMPACT.matcher(token).matches()
          ? UnauthenticatedException.invalid("a part is not base64url")
          : UnauthenticatedException.of(UnauthenticatedException.MALFORMED_TOKEN, null);
    }
  }

  /**
   * {@code part}, if it can be a JSON object in UTF-8 (RFC 7515 §7.1, RFC 8259 §8.1): its first
   * byte is "{" and none of the next three is zero. Jackson would also guess UTF-16, UTF-32 or a
   * byte-order mark, none of which JJWT took or our issuer writes, so none is read here.
   */
  static byte[] json(byte[] part) {
    if (part.length == 0 || part[0] != '{') {
      throw UnauthenticatedException.invalid("a part is not a JSON object in UTF-8");
    }
    for (int i = 1; i < Math.min(4, part.length); i++) {
      if (part[i] == 0) { // how Jackson tells UTF-16 and UTF-32 from UTF-8
        throw UnauthenticatedException.invalid("a part is not a JSON object in UTF-8");
      }
    }
    return part;
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

  /**
   * SPEC 5.4 step 2: the header's {@code kid}, once {@code alg} is RS256 and nothing else binds.
   */
  private static String keyId(byte[] header) {
    String alg = null;
    String kid = null;
    try (JsonParser json = STRICT_JSON.createParser(json(header))) {
      if (json.nextToken() != JsonToken.START_OBJECT) {
        throw UnauthenticatedException.invalid("the header is not a JSON object");
      }
      for (String name = json.nextFieldName(); name != null; name = json.nextFieldName()) {
        JsonToken value = json.nextToken();
        switch (name) {
          case "alg" -> alg = once(alg, text(json, value, name), name);
          case "kid" -> kid = once(kid, text(json, value, name), name);
          case "crit", "zip", "enc" ->
              throw UnauthenticatedException.invalid("the header has " + name);
          default -> json.skipChildren();
        }
      }
      if (json.currentToken() != JsonToken.END_OBJECT || json.nextToken() != null) {
        throw UnauthenticatedException.invalid("the header is not one JSON object");
      }
    } catch (IOException e) { // not JSON
      throw UnauthenticatedException.of(UnauthenticatedException.INVALID_TOKEN, e);
    }
    if (!BearerVerifier.ALGORITHM.equals(alg)) { // the algorithm is ours to choose, not the token's
      throw UnauthenticatedException.invalid("alg is not " + BearerVerifier.ALGORITHM);
    }
    if (kid == null || kid.isEmpty()) {
      throw UnauthenticatedException.invalid("no kid");
    }
    return kid;
  }

  private static String once(String before, String value, String name) {
    if (before != null) {
      throw UnauthenticatedException.invalid(name + " is named twice");
    }
    return value;
  }

  private static String text(JsonParser json, JsonToken value, String name) throws IOException {
    if (value != JsonToken.VALUE_STRING) {
      throw UnauthenticatedException.invalid(name + " is not a string");
    }
    return json.getText();
  }

  /** The header's {@code kid}, never empty. */
  String kid() {
    return header.kid();
  }

  /** The header, to pass to the next {@link #parse(String, Header)} once this token verified. */
  Header header() {
    return header;
  }

  /** The ASCII bytes of the token; the first {@link #signingInputLength()} are signed. */
  byte[] signingInput() {
    return ascii;
  }

  /** The length of the JWS signing input: the header, a dot, the payload (RFC 7515 §5.2). */
  int signingInputLength() {
    return signingInputLength;
  }

  /** The decoded payload: claims, not yet verified. */
  byte[] payload() {
    return payload;
  }

  /** The decoded signature. */
  byte[] signature() {
    return signature;
  }
}
