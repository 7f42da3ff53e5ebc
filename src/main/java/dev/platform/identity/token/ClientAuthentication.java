package dev.platform.identity.token;

/** How a client authenticated at the token endpoint (RFC 6749 §2.3.1, RFC 7523; RFC 8414 names). */
enum ClientAuthentication {
  /** HTTP Basic with the form-encoded client_id and client_secret. */
  CLIENT_SECRET_BASIC("client_secret_basic"),
  /** client_id and client_secret as form parameters of the body (SPEC 4.1). */
  CLIENT_SECRET_POST("client_secret_post"),
  /** RFC 7523 §2.2: a JWT signed with the client's private key. */
  PRIVATE_KEY_JWT("private_key_jwt"),
  /**
   * RFC 8705 §2.1: client_id in the body and a TLS client certificate of a CA the operator trusts.
   */
  TLS_CLIENT_AUTH("tls_client_auth"),
  /** RFC 8705 §2.2: client_id in the body and a TLS client certificate the account registered. */
  SELF_SIGNED_TLS_CLIENT_AUTH("self_signed_tls_client_auth");

  private final String wireName;

  ClientAuthentication(String wireName) {
    this.wireName = wireName;
  }

  /** The name in {@code token_endpoint_auth_methods_supported} (RFC 8414 §2). */
  public String wireName() {
    return wireName;
  }
}
