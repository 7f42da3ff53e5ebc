package dev.platform.identity.token;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A checked {@code POST /oauth/token} request (SPEC 4.1, RFC 6749 §4.4.2). Only its shape is
 * checked here: whether the client and its scopes are valid is for authentication and the scope
 * catalog ({@code client_id} need not be a UUID yet: a non-UUID is {@code invalid_client}, not
 * {@code invalid_request}).
 *
 * @param grantType always {@link #CLIENT_CREDENTIALS}
 * @param clientId the client_id as sent, from the body or the Basic header; with an assertion and
 *     no client_id, the client the assertion claims to be (its {@code sub})
 * @param clientSecret the client_secret as sent, empty with an assertion; never shown by {@link
 *     #toString}
 * @param scope the requested {@code scope}, empty when omitted or empty
 * @param authentication how the client sent its credentials
 * @param assertion the client assertion, present only for {@code private_key_jwt}
 * @param certificate the TLS client certificate its connection presented, if any: the client's
 *     proof when {@code authentication} is {@code tls_client_auth} or {@code
 *     self_signed_tls_client_auth} (RFC 8705 §2.1, §2.2); with a secret or an assertion, proof of
 *     nothing, only what the token of an account that asks for binding is bound to (§3.4)
 * @param dpop every value of the request's {@code DPoP} header (RFC 9449 §4.1), each a proof the
 *     token endpoint checks; empty when it sent none
 */
public record TokenRequest(
    String grantType,
    String clientId,
    String clientSecret,
    Optional<String> scope,
    ClientAuthentication authentication,
    Optional<ReceivedAssertion> assertion,
    Optional<PresentedCertificate> certificate,
    List<String> dpop) {
  /**
   * The request attribute under which the rate limit leaves the request it parsed, so that the
   * endpoint does not parse the same body again.
   */
  public static final String ATTRIBUTE = TokenRequest.class.getName();

  /** The one grant type of this service (SPEC 5.1). */
  public static final String CLIENT_CREDENTIALS = "client_credentials";

  static final String GRANT_TYPE = "grant_type";
  static final String CLIENT_ID = "client_id";
  static final String CLIENT_SECRET = "client_secret";
  static final String SCOPE = "scope";
  static final String CLIENT_ASSERTION_TYPE = "client_assertion_type";
  static final String CLIENT_ASSERTION = "client_assertion";

  /** RFC 9449 §4.1: the request header that carries a DPoP proof. */
  public static final String DPOP_HEADER = "DPoP";

  private static final String FORM = "application/x-www-form-urlencoded";

  static final String NO_CREDENTIALS =
      "Client authentication is required: HTTP Basic, client_id and client_secret, or a client"
          + " assertion";

  /** RFC 6749 §3.2: these must not be repeated; other parameters are ignored. */
  private static final List<String> KNOWN =
      List.of(GRANT_TYPE, CLIENT_ID, CLIENT_SECRET, SCOPE, CLIENT_ASSERTION_TYPE, CLIENT_ASSERTION);

  /** Credentials that must never be in the request URI (RFC 6749 §2.3.1). */
  private static final List<String> CREDENTIALS =
      List.of(CLIENT_ID, CLIENT_SECRET, CLIENT_ASSERTION_TYPE, CLIENT_ASSERTION);

  public TokenRequest {
    Objects.requireNonNull(grantType);
    Objects.requireNonNull(clientId);
    Objects.requireNonNull(clientSecret);
    Objects.requireNonNull(scope);
    Objects.requireNonNull(authentication);
    Objects.requireNonNull(assertion);
    Objects.requireNonNull(certificate);
    dpop = List.copyOf(dpop);
  }

  /** A request without a DPoP proof. */
  public TokenRequest(
      String grantType,
      String clientId,
      String clientSecret,
      Optional<String> scope,
      ClientAuthentication authentication,
      Optional<ReceivedAssertion> assertion,
      Optional<PresentedCertificate> certificate) {
    this(
        grantType,
        clientId,
        clientSecret,
        scope,
        authentication,
        assertion,
        certificate,
        List.of());
  }

  /** A request with a secret or an assertion. */
  public TokenRequest(
      String grantType,
      String clientId,
      String clientSecret,
      Optional<String> scope,
      ClientAuthentication authentication,
      Optional<ReceivedAssertion> assertion) {
    this(grantType, clientId, clientSecret, scope, authentication, assertion, Optional.empty());
  }

  /** A request with a secret. */
  public TokenRequest(
      String grantType,
      String clientId,
      String clientSecret,
      Optional<String> scope,
      ClientAuthentication authentication) {
    this(grantType, clientId, clientSecret, scope, authentication, Optional.empty());
  }

  /**
   * Parses and checks a token request, in this order: the content type; the form (a repeated
   * parameter is refused, an empty value counts as omitted); no credentials in the query string;
   * the Authorization header; one authentication method only; every required parameter present (one
   * error naming all that are missing); the grant type.
   *
   * @param body the request body, read as UTF-8 by the caller (never through {@code getParameter})
   * @param contentType the {@code Content-Type} header, or null
   * @param authorization the {@code Authorization} header, or null
   * @param queryString the raw query string, or null
   * @throws OAuthError {@code invalid_request}, {@code unsupported_grant_type}, or {@code
   *     invalid_client} for an Authorization scheme other than Basic
   */
  public static TokenRequest from(
      String body, String contentType, String authorization, String queryString) {
    return from(body, contentType, authorization, queryString, Optional.empty());
  }

  /**
   * As {@link #from(String, String, String, String)}, for a connection that presented {@code
   * certificate}: a body with a client_id and no secret or assertion then authenticates by it (RFC
   * 8705 §2), and with a secret or an assertion its token can be bound to it (§3.4).
   */
  public static TokenRequest from(
      String body,
      String contentType,
      String authorization,
      String queryString,
      Optional<PresentedCertificate> certificate) {
    return parse(body, contentType, authorization, queryString, List.of(), true, certificate)
        .request();
  }

  /**
   * The token request {@code http} makes with {@code body}: its content type, {@code Authorization}
   * header, query string, TLS client certificate and {@code DPoP} headers.
   *
   * @param body its body, read by the caller ({@link TokenBody})
   * @throws OAuthError as {@link #from} does
   */
  public static TokenRequest read(HttpServletRequest http, String body) {
    return from(
            body,
            http.getContentType(),
            http.getHeader("Authorization"),
            http.getQueryString(),
            PresentedCertificate.from(http))
        .withDpop(Collections.list(http.getHeaders(DPOP_HEADER)));
  }

  /** This request with {@code proofs} as its {@code DPoP} headers' values. */
  TokenRequest withDpop(List<String> proofs) {
    return new TokenRequest(
        grantType, clientId, clientSecret, scope, authentication, assertion, certificate, proofs);
  }

  /** Whether it sent a {@code DPoP} header, well-formed or not. */
  public boolean sentDpop() {
    return !dpop.isEmpty();
  }

  /**
   * The client authentication of an endpoint that authenticates clients as the token endpoint does
   * (RFC 7009 §2.1, RFC 7662 §2.1): the same checks in the same order, without {@code grant_type},
   * and {@code extra} parameters refused when repeated too (RFC 6749 §3.1). The request it returns
   * carries {@link #CLIENT_CREDENTIALS} as its grant type, which no caller reads.
   *
   * @return the request and the non-empty values of the {@code extra} parameters, by name
   * @throws OAuthError as {@link #from} does
   */
  static Parsed fromClientCall(
      String body,
      String contentType,
      String authorization,
      String queryString,
      List<String> extra,
      Optional<PresentedCertificate> certificate) {
    return parse(body, contentType, authorization, queryString, extra, false, certificate);
  }

  /** A parsed request and the values of its other parameters. */
  record Parsed(TokenRequest request, Map<String, String> parameters) {}

  private static Parsed parse(
      String body,
      String contentType,
      String authorization,
      String queryString,
      List<String> extra,
      boolean grant,
      Optional<PresentedCertificate> certificate) {
    Parsed parsed =
        parseCredentials(body, contentType, authorization, queryString, extra, grant, certificate);
    TokenRequest request = parsed.request();
    return request.certificate().equals(certificate)
        ? parsed
        : new Parsed(request.withCertificate(certificate), parsed.parameters());
  }

  private TokenRequest withCertificate(Optional<PresentedCertificate> presented) {
    return new TokenRequest(
        grantType, clientId, clientSecret, scope, authentication, assertion, presented, dpop);
  }

  /** Whether the client proves itself by its certificate (RFC 8705 §2). */
  public boolean byCertificate() {
    return authentication == ClientAuthentication.TLS_CLIENT_AUTH
        || authentication == ClientAuthentication.SELF_SIGNED_TLS_CLIENT_AUTH;
  }

  private static Parsed parseCredentials(
      String body,
      String contentType,
      String authorization,
      String queryString,
      List<String> extra,
      boolean grant,
      Optional<PresentedCertificate> certificate) {
    requireForm(contentType);
    List<String> known = new ArrayList<>(grant ? KNOWN : KNOWN.subList(1, KNOWN.size()));
    known.addAll(extra);
    Map<String, String> parameters = parameters(body == null ? "" : body, known);
    rejectCredentialsIn(queryString);
    Optional<BasicCredentials> basic = BasicCredentials.from(authorization);
    if (parameters.containsKey(CLIENT_ASSERTION) || parameters.containsKey(CLIENT_ASSERTION_TYPE)) {
      return new Parsed(withAssertion(parameters, basic.isPresent(), grant), parameters);
    }
    if (basic.isPresent()
        && (parameters.containsKey(CLIENT_ID) || parameters.containsKey(CLIENT_SECRET))) {
      throw OAuthError.invalidRequest(
          "use one client authentication method: HTTP Basic, or client_id and client_secret in"
              + " the body, not both");
    }
    if (!grant
        && basic.isEmpty()
        && !parameters.containsKey(CLIENT_ID)
        && !parameters.containsKey(CLIENT_SECRET)) {
      // RFC 7009 §2.1 and RFC 7662 §2.3: a request without client authentication is a 401, with
      // the Basic challenge (RFC 7235 §3.1), where the token endpoint keeps SPEC 7.1's 400.
      throw OAuthError.invalidClient(NO_CREDENTIALS, true);
    }
    if (basic.isEmpty()
        && parameters.containsKey(CLIENT_ID)
        && !parameters.containsKey(CLIENT_SECRET)) {
      if (certificate.isPresent()) {
        return new Parsed(withCertificate(parameters, certificate.get(), grant), parameters);
      }
      // No certificate either: SPEC 7.1's answer to a missing secret, the same for every client_id
      // (an invalid_client "no certificate" for certificate accounts alone would tell anyone who
      // knows a client_id that it exists and how it authenticates; docs/mutual-tls.md says what to
      // check when a certificate client gets it).
      requirePresent("", parameters, grant ? GRANT_TYPE : CLIENT_ID, CLIENT_SECRET);
    }
    basic.ifPresent(
        credentials -> {
          putIfNotEmpty(parameters, CLIENT_ID, credentials.clientId());
          putIfNotEmpty(parameters, CLIENT_SECRET, credentials.clientSecret());
        });
    if (grant) {
      requirePresent(parameters, GRANT_TYPE, CLIENT_ID, CLIENT_SECRET);
    } else {
      requirePresent(parameters, CLIENT_ID, CLIENT_SECRET);
    }
    String grantType = grant ? grantType(parameters) : CLIENT_CREDENTIALS;
    TokenRequest request =
        new TokenRequest(
            grantType,
            parameters.get(CLIENT_ID),
            parameters.get(CLIENT_SECRET),
            Optional.ofNullable(parameters.get(SCOPE)),
            basic.isPresent()
                ? ClientAuthentication.CLIENT_SECRET_BASIC
                : ClientAuthentication.CLIENT_SECRET_POST);
    return new Parsed(request, parameters);
  }

  /**
   * RFC 8705 §2: client_id in the body, no secret, and the connection's certificate. Which of the
   * two methods it is, the account says; until it is read, a certificate its own issuer signed is
   * counted as {@code self_signed_tls_client_auth}, any other as {@code tls_client_auth}.
   */
  private static TokenRequest withCertificate(
      Map<String, String> parameters, PresentedCertificate certificate, boolean grant) {
    if (grant) {
      requirePresent(parameters, GRANT_TYPE);
    }
    return new TokenRequest(
        grant ? grantType(parameters) : CLIENT_CREDENTIALS,
        parameters.get(CLIENT_ID),
        "",
        Optional.ofNullable(parameters.get(SCOPE)),
        certificate
                .certificate()
                .getSubjectX500Principal()
                .equals(certificate.certificate().getIssuerX500Principal())
            ? ClientAuthentication.SELF_SIGNED_TLS_CLIENT_AUTH
            : ClientAuthentication.TLS_CLIENT_AUTH,
        Optional.empty(),
        Optional.of(certificate));
  }

  /**
   * RFC 7523 §2.2 and RFC 7521 §4.2: {@code client_assertion_type} and {@code client_assertion},
   * with or without {@code client_id}, and no secret in any form. The assertion is only split and
   * decoded here; its client is its {@code sub} when no client_id names one.
   */
  private static TokenRequest withAssertion(
      Map<String, String> parameters, boolean basic, boolean grant) {
    if (basic || parameters.containsKey(CLIENT_SECRET)) {
      throw OAuthError.invalidRequest(
          "use one client authentication method: a client assertion, or a secret (HTTP Basic or"
              + " client_secret), not both");
    }
    if (grant) {
      requirePresent(parameters, GRANT_TYPE, CLIENT_ASSERTION_TYPE, CLIENT_ASSERTION);
    } else {
      requirePresent(parameters, CLIENT_ASSERTION_TYPE, CLIENT_ASSERTION);
    }
    String grantType = grant ? grantType(parameters) : CLIENT_CREDENTIALS;
    if (!parameters.get(CLIENT_ASSERTION_TYPE).equals(ReceivedAssertion.TYPE)) {
      throw OAuthError.invalidRequest("client_assertion_type must be " + ReceivedAssertion.TYPE);
    }
    ReceivedAssertion assertion = ReceivedAssertion.parse(parameters.get(CLIENT_ASSERTION));
    String clientId =
        parameters.containsKey(CLIENT_ID)
            ? parameters.get(CLIENT_ID)
            : assertion.claimedClient().orElse("");
    return new TokenRequest(
        grantType,
        clientId,
        "",
        Optional.ofNullable(parameters.get(SCOPE)),
        ClientAuthentication.PRIVATE_KEY_JWT,
        Optional.of(assertion));
  }

  private static String grantType(Map<String, String> parameters) {
    String grantType = parameters.get(GRANT_TYPE);
    if (!grantType.equals(CLIENT_CREDENTIALS)) {
      throw OAuthError.unsupportedGrantType(
          "grant_type '" + grantType + "' is not supported: use " + CLIENT_CREDENTIALS);
    }
    return grantType;
  }

  /**
   * The account this request names: its client_id read as a UUID in any case, since the account
   * lookup ignores case (so {@code ABC...} and {@code abc...} name one account). Anything else,
   * such as a UUID with spaces or without its dashes, names none and fails authentication as {@code
   * invalid_client}. The rate limiter keys a client's budget by this, so the two cannot disagree.
   */
  public Optional<UUID> accountId() {
    try {
      UUID id = UUID.fromString(clientId);
      // UUID.fromString also takes short groups ("1-1-1-1-1") and a sign; only the canonical
      // 36-character text, in either case, names an account.
      return id.toString().equals(clientId.toLowerCase(Locale.ROOT))
          ? Optional.of(id)
          : Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** Whether the client used HTTP Basic: a 401 then challenges it (RFC 6749 §5.2). */
  public boolean usedBasic() {
    return authentication == ClientAuthentication.CLIENT_SECRET_BASIC;
  }

  /** The media type must be the form's; parameters such as {@code charset} are allowed. */
  private static void requireForm(String contentType) {
    String mediaType = contentType == null ? "" : contentType.split(";", 2)[0].strip();
    // Locale.ROOT: a Turkish default locale must not change what matches.
    if (!mediaType.toLowerCase(Locale.ROOT).equals(FORM)) {
      throw OAuthError.invalidRequest("Content-Type must be " + FORM);
    }
  }

  /** The known parameters with a non-empty value (RFC 6749 §3.2: an empty one is omitted). */
  private static Map<String, String> parameters(String body, List<String> known) {
    Map<String, List<String>> form;
    try {
      form = Form.parse(body);
    } catch (IllegalArgumentException e) {
      throw OAuthError.invalidRequest("the body is not valid " + FORM + ": " + e.getMessage());
    }
    Map<String, String> parameters = new HashMap<>();
    List<String> repeated = new ArrayList<>();
    for (String name : known) {
      List<String> values =
          form.getOrDefault(name, List.of()).stream().filter(v -> !v.isEmpty()).toList();
      if (values.size() > 1) {
        repeated.add(name);
      } else if (values.size() == 1) {
        parameters.put(name, values.get(0));
      }
    }
    if (!repeated.isEmpty()) {
      throw OAuthError.invalidRequest(listing("repeated parameter", repeated));
    }
    return parameters;
  }

  /** RFC 6749 §2.3.1: credentials must not be in the request URI, where logs keep them. */
  private static void rejectCredentialsIn(String queryString) {
    if (queryString == null || queryString.isEmpty()) {
      return;
    }
    List<String> names = Form.names(queryString);
    if (names.stream().anyMatch(CREDENTIALS::contains)) {
      throw OAuthError.invalidRequest(
          "client_id, client_secret and client assertions must not be sent in the query string:"
              + " send them in the body (or the secret with HTTP Basic)");
    }
  }

  private static void putIfNotEmpty(Map<String, String> parameters, String name, String value) {
    if (!value.isEmpty()) {
      parameters.put(name, value);
    }
  }

  private static void requirePresent(Map<String, String> parameters, String... names) {
    requirePresent("", parameters, names);
  }

  /** As {@link #requirePresent(Map, String...)}, {@code note} ending the description. */
  private static void requirePresent(String note, Map<String, String> parameters, String... names) {
    List<String> missing = new ArrayList<>();
    for (String name : names) {
      if (!parameters.containsKey(name)) {
        missing.add(name);
      }
    }
    if (!missing.isEmpty()) {
      throw OAuthError.invalidRequest(listing("missing parameter", missing) + note);
    }
  }

  private static String listing(String what, List<String> names) {
    return what + (names.size() > 1 ? "s: " : ": ") + String.join(", ", names);
  }

  @Override
  public String toString() {
    return "TokenRequest[grantType="
        + grantType
        + ", clientId="
        + clientId
        + ", clientSecret=(hidden), scope="
        + scope
        + ", authentication="
        + authentication
        + (assertion.isPresent() ? ", assertion=(hidden)" : "")
        + (certificate.isPresent() ? ", certificate=(presented)" : "")
        + (dpop.isEmpty() ? "" : ", dpop=(" + dpop.size() + " sent)")
        + "]";
  }
}
