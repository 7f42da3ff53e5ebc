package dev.platform.identity.admin;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.account.ClientJwks;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.audit.CallerText;
import dev.platform.identity.text.ShownText;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * The public keys of a {@code private_key_jwt} account, as a creation or {@code PUT
 * /service-accounts/{id}/jwks} gives them: its own JWK set, or the https URL it publishes one at.
 */
record NewKeys(@JsonProperty("jwks") JsonNode jwks, @JsonProperty("jwks_uri") String jwksUri) {

  static final int MAX_URI = 2000;

  /**
   * The body of {@code PUT .../jwks}, read by the resource itself once the caller's reach is
   * checked, so that a bad body tells a stranger nothing about an account beyond its reach.
   *
   * @param json the API's own reader (web.Json), which refuses an unknown field or one given twice
   * @throws ApiError 400 naming what is wrong
   */
  static NewKeys read(String body, ObjectMapper json) {
    if (body == null || body.isBlank()) {
      throw ApiError.badRequest("a JSON body is required");
    }
    try {
      NewKeys keys = json.readValue(body, NewKeys.class);
      if (keys == null) {
        throw ApiError.badRequest("the body must be a JSON object");
      }
      return keys;
    } catch (JsonProcessingException e) {
      throw ApiError.badRequest(InvalidJsonMapper.message(e));
    }
  }

  /** Checks a {@code jwks_uri} beyond its form, before it is stored (where it may point). */
  @FunctionalInterface
  public interface UriPolicy {
    /**
     * @throws IllegalArgumentException saying why the URL is refused
     */
    void check(URI uri);
  }

  /** Whether either member is given. */
  boolean given() {
    return jwks != null || jwksUri != null;
  }

  /**
   * The keys to store for an account of {@code method}, or a 400 that says what is wrong with them:
   * a self_signed_tls_client_auth account's are a set whose every key carries its certificate.
   */
  ServiceAccount.Keys checked(String method, UriPolicy policy) {
    if (!method.equals(ServiceAccount.SELF_SIGNED_TLS_CLIENT_AUTH)) {
      return checked(policy);
    }
    if (jwksUri != null) {
      throw ApiError.badRequest(
          "jwks_uri is not accepted for self_signed_tls_client_auth: register the certificates"
              + " in jwks, one x5c on each key");
    }
    if (jwks == null) {
      throw ApiError.badRequest(
          "a self_signed_tls_client_auth account needs jwks, each key carrying its certificate"
              + " in x5c");
    }
    try {
      return ServiceAccount.Keys.of(ClientJwks.parseCertified(jwks));
    } catch (IllegalArgumentException e) {
      throw ApiError.badRequest(e.getMessage());
    }
  }

  /** The keys to store for a private_key_jwt account, or a 400 that says what is wrong. */
  ServiceAccount.Keys checked(UriPolicy policy) {
    if (jwks != null && jwksUri != null) {
      throw ApiError.badRequest("give jwks or jwks_uri, not both");
    }
    if (jwks == null && jwksUri == null) {
      throw ApiError.badRequest("a private_key_jwt account needs jwks or jwks_uri");
    }
    try {
      return jwks != null
          ? ServiceAccount.Keys.of(ClientJwks.parse(jwks))
          : ServiceAccount.Keys.at(uri(policy));
    } catch (IllegalArgumentException e) {
      throw ApiError.badRequest(e.getMessage());
    }
  }

  /** An absolute https URL with a host, no user info and no fragment, that the policy allows. */
  private URI uri(UriPolicy policy) {
    if (jwksUri.length() > MAX_URI) {
      throw new IllegalArgumentException("jwks_uri is longer than " + MAX_URI + " characters");
    }
    // java.net.URI takes any non-ASCII character but controls and spaces: a bidi override (U+202E)
    // or a zero-width mark in the path was stored and shown reversed or hidden, as no name may be.
    if (ShownText.hasDeceptive(jwksUri)) {
      throw new IllegalArgumentException(
          "jwks_uri holds a control, format (bidi) or line-separator character; percent-encode it");
    }
    URI uri;
    try {
      uri = new URI(jwksUri);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "jwks_uri '" + CallerText.shortened(jwksUri) + "' is not a URL");
    }
    if (uri.getScheme() == null || !uri.getScheme().toLowerCase(Locale.ROOT).equals("https")) {
      throw new IllegalArgumentException("jwks_uri must be an https URL");
    }
    if (uri.getHost() == null || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
      throw new IllegalArgumentException(
          "jwks_uri must name a host, with no user info and no fragment");
    }
    policy.check(uri);
    return uri;
  }
}
