package dev.platform.identity.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.identity.jose.Jwk;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.security.PublicKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The console's self-signed certificate field: one PEM certificate, turned into the one-key JWK Set
 * with {@code x5c} that the API's {@code jwks} takes for self_signed_tls_client_auth (RFC 8705
 * §2.2). Nimbus JOSE is a test library here, so the key's members are written from the JDK's key:
 * RSA {@code n} and {@code e} (RFC 7518 §6.3.1), EC P-256 {@code x} and {@code y} (§6.2.1). The API
 * then checks the set as it checks any other ({@code ClientJwks.parseCertified}): the key's size
 * and curve, and that the certificate carries that very key.
 */
final class CertificateKeySet {
  /** The longest field taken: a certificate with a 8192-bit RSA key is far shorter. */
  static final int MAX_PEM = 16_000;

  private static final String BEGIN = "-----BEGIN CERTIFICATE-----";
  private static final String END = "-----END CERTIFICATE-----";
  private static final Pattern PEM =
      Pattern.compile("\\A" + BEGIN + "([A-Za-z0-9+/=\\s]+)" + END + "\\z");
  private static final ObjectMapper JSON = new ObjectMapper();

  private CertificateKeySet() {}

  /** Whether the field holds what looks like a private key, which the console never echoes. */
  static boolean holdsPrivateKey(String pem) {
    return pem.contains("PRIVATE KEY");
  }

  /**
   * The JWK Set of {@code pem}'s one certificate.
   *
   * @throws FormFields.InvalidFormException saying what is wrong with the field, in its words
   */
  static JsonNode of(String pem) {
    if (pem.isBlank()) {
      throw refused(
          "a self-signed certificate account needs its certificate: paste it in PEM, from "
              + BEGIN
              + " to "
              + END);
    }
    if (pem.length() > MAX_PEM) {
      throw refused("the certificate is longer than " + MAX_PEM + " characters");
    }
    if (holdsPrivateKey(pem)) {
      throw refused(
          "the certificate field holds a private key: paste only the certificate, and keep the"
              + " key with the client");
    }
    int begins = pem.split(Pattern.quote(BEGIN), -1).length - 1;
    if (begins > 1) {
      throw refused(
          "the certificate field holds "
              + begins
              + " certificates: paste the client's one self-signed certificate");
    }
    Matcher block = PEM.matcher(pem.strip());
    if (!block.matches()) {
      throw refused(
          "the certificate is not one PEM certificate: it must run from "
              + BEGIN
              + " to "
              + END
              + " with base64 between, and nothing else");
    }
    X509Certificate certificate = certificate(block.group(1).replaceAll("\\s", ""));
    ObjectNode key = key(certificate.getPublicKey());
    key.putArray("x5c").add(Base64.getEncoder().encodeToString(encoded(certificate)));
    ObjectNode set = JSON.createObjectNode();
    set.putArray("keys").add(key);
    return set;
  }

  private static X509Certificate certificate(String base64) {
    byte[] der;
    try {
      der = Base64.getDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      throw refused("the certificate's PEM body is not valid base64");
    }
    try {
      X509Certificate certificate =
          (X509Certificate)
              CertificateFactory.getInstance("X.509")
                  .generateCertificate(new ByteArrayInputStream(der));
      // The factory stops after one certificate: bytes after it would go unjudged.
      if (!Arrays.equals(certificate.getEncoded(), der)) {
        throw new CertificateException("not exactly one DER certificate");
      }
      return certificate;
    } catch (CertificateException | ClassCastException e) {
      throw refused("the certificate does not parse as one X.509 certificate");
    }
  }

  private static byte[] encoded(X509Certificate certificate) {
    try {
      return certificate.getEncoded();
    } catch (CertificateException e) {
      throw refused("the certificate cannot be encoded");
    }
  }

  private static ObjectNode key(PublicKey key) {
    ObjectNode jwk = JSON.createObjectNode();
    if (key instanceof RSAPublicKey rsa) {
      jwk.put("kty", "RSA");
      jwk.put("n", unsigned(rsa.getModulus()));
      jwk.put("e", unsigned(rsa.getPublicExponent()));
      return jwk;
    }
    if (key instanceof ECPublicKey ec && Jwk.isP256(ec.getParams())) {
      jwk.put("kty", "EC");
      jwk.put("crv", "P-256");
      jwk.put("x", coordinate(ec.getW().getAffineX()));
      jwk.put("y", coordinate(ec.getW().getAffineY()));
      return jwk;
    }
    throw refused(
        "the certificate's key is "
            + (key instanceof ECPublicKey ? "EC on a curve other than P-256" : key.getAlgorithm())
            + ": only RSA and EC P-256 keys are taken");
  }

  /** RFC 7518 §2 Base64urlUInt: the fewest octets, no sign byte. */
  private static String unsigned(BigInteger value) {
    byte[] bytes = value.toByteArray();
    if (bytes.length > 1 && bytes[0] == 0) {
      bytes = Arrays.copyOfRange(bytes, 1, bytes.length);
    }
    return base64url(bytes);
  }

  /** RFC 7518 §6.2.1.2: a P-256 coordinate is always its full 32 octets. */
  private static String coordinate(BigInteger value) {
    byte[] bytes = value.toByteArray();
    byte[] full = new byte[32];
    int length = Math.min(bytes.length, 32);
    System.arraycopy(bytes, bytes.length - length, full, 32 - length, length);
    return base64url(full);
  }

  private static String base64url(byte[] bytes) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static FormFields.InvalidFormException refused(String reason) {
    return new FormFields.InvalidFormException(reason);
  }
}
