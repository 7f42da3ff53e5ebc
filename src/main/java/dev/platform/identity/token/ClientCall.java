package dev.platform.identity.token;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A request to {@code POST /oauth/revoke} (RFC 7009 §2.1) or {@code POST /oauth/introspect} (RFC
 * 7662 §2.1): the client's credentials, sent as to the token endpoint and checked in its order
 * ({@link TokenRequest#from}), and the {@code token} asked about. A repeated parameter, this
 * endpoint's own included, is {@code invalid_request} (RFC 6749 §3.1).
 *
 * @param client the client's authentication, as a token request without a grant
 * @param token the token, as sent
 * @param tokenTypeHint the {@code token_type_hint}, which this service does not need: it issues
 *     access tokens only, so every token is looked up the one way (RFC 7009 §2.1 lets it ignore it)
 */
public record ClientCall(TokenRequest client, String token, Optional<String> tokenTypeHint) {
  /** The request attribute under which the rate limit leaves the call it parsed. */
  public static final String ATTRIBUTE = ClientCall.class.getName();

  static final String TOKEN = "token";
  static final String TOKEN_TYPE_HINT = "token_type_hint";

  public ClientCall {
    Objects.requireNonNull(client);
    Objects.requireNonNull(token);
    Objects.requireNonNull(tokenTypeHint);
  }

  /**
   * Parses and checks a call: the client's part as {@link TokenRequest#from} does, then {@code
   * token}.
   *
   * @throws OAuthError {@code invalid_request}, or {@code invalid_client} for an Authorization
   *     scheme other than Basic
   */
  public static ClientCall from(
      String body, String contentType, String authorization, String queryString) {
    return from(body, contentType, authorization, queryString, Optional.empty());
  }

  /** As {@link #from(String, String, String, String)}, over a connection that presented one. */
  public static ClientCall from(
      String body,
      String contentType,
      String authorization,
      String queryString,
      Optional<PresentedCertificate> certificate) {
    rejectTokenIn(queryString);
    TokenRequest.Parsed parsed =
        TokenRequest.fromClientCall(
            body,
            contentType,
            authorization,
            queryString,
            List.of(TOKEN, TOKEN_TYPE_HINT),
            certificate);
    String token = parsed.parameters().get(TOKEN);
    if (token == null) {
      throw OAuthError.invalidRequest("missing parameter: token");
    }
    return new ClientCall(
        parsed.request(), token, Optional.ofNullable(parsed.parameters().get(TOKEN_TYPE_HINT)));
  }

  /**
   * A token in the URL is refused, not ignored: it has already reached access logs and proxies, and
   * a caller that sent it there must learn that nothing was revoked or asked (as RFC 6749 §2.3.1
   * keeps credentials out of the query string; the token is one).
   */
  private static void rejectTokenIn(String queryString) {
    if (queryString != null && !queryString.isEmpty() && Form.names(queryString).contains(TOKEN)) {
      throw OAuthError.invalidRequest(
          "the token must not be sent in the query string: send it in the body");
    }
  }

  /** The account the call names, as {@link TokenRequest#accountId}: the rate limiter's key. */
  public Optional<UUID> accountId() {
    return client.accountId();
  }

  @Override
  public String toString() {
    return "ClientCall[client=" + client + ", token=(hidden), tokenTypeHint=" + tokenTypeHint + "]";
  }
}
