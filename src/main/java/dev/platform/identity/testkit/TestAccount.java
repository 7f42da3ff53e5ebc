package dev.platform.identity.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.identity.client.TokenClient;
import java.math.BigInteger;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * A service account the kit created through {@code POST /admin/v1/service-accounts}, with its
 * credentials: a client secret, or for {@code private_key_jwt} the key pair whose public half the
 * service holds.
 *
 * @param clientId the account's {@code client_id}
 * @param clientSecret its secret; empty for a {@code private_key_jwt} account
 * @param keyPair its RSA key pair; empty for a secret account
 * @param organization its {@code organization_id}
 * @param scopes the scopes it holds
 * @param issuer the service it belongs to
 */
public record TestAccount(
    String clientId,
    Optional<String> clientSecret,
    Optional<KeyPair> keyPair,
    String organization,
    List<String> scopes,
    URI issuer) {

  /** The kid under which the account's public key is registered. */
  public static final String KEY_ID = "testkit-1";

  /** A new {@link TokenClient} for this account, asking for all its scopes. */
  public TokenClient tokenClient() {
    return tokenClient(scopes);
  }

  /** A new {@link TokenClient} for this account, asking for {@code requested}. */
  public TokenClient tokenClient(List<String> requested) {
    TokenClient.Builder builder = TokenClient.builder().baseUrl(issuer).scopes(requested);
    if (keyPair.isPresent()) {
      builder.clientId(clientId).privateKeyJwt(keyPair.get().getPrivate(), KEY_ID, "RS256");
    } else {
      builder.credentials(clientId, clientSecret.orElseThrow());
    }
    return builder.build();
  }

  @Override
  public String toString() {
    return "TestAccount[" + clientId + ", " + organization + ", " + scopes + "]"; // no secret
  }

  /** An account to create: name, organizations, scopes and how it authenticates. */
  public static final class Builder {
    private final LocalIdentity identity;
    private final String name;
    private String organization = "org-test";
    private final List<String> otherOrganizations = new ArrayList<>();
    private final List<String> scopes = new ArrayList<>();
    private boolean privateKeyJwt;

    Builder(LocalIdentity identity, String name) {
      this.identity = identity;
      this.name = name;
    }

    /** The account's {@code organization_id} (default {@code org-test}). */
    public Builder organization(String organization) {
      this.organization = organization;
      return this;
    }

    /** More organizations it may act in ({@code accessible_orgs}, besides its own). */
    public Builder accessibleOrganizations(String... organizations) {
      otherOrganizations.addAll(List.of(organizations));
      return this;
    }

    /** Its scopes, {@code service:resource.action}; the kit adds them to the catalog. */
    public Builder scopes(String... scopes) {
      this.scopes.addAll(List.of(scopes));
      return this;
    }

    /**
     * Authenticates with {@code private_key_jwt} (a key pair the kit makes) instead of a secret.
     */
    public Builder privateKeyJwt() {
      this.privateKeyJwt = true;
      return this;
    }

    /** Creates the account in the service. */
    public TestAccount create() {
      if (scopes.isEmpty()) {
        throw new IllegalStateException("an account needs at least one scope");
      }
      scopes.forEach(identity.admin()::ensureScope);
      ObjectNode request = LocalIdentity.JSON.createObjectNode();
      request.put("name", name).put("organization_id", organization);
      scopes.forEach(request.putArray("scopes")::add);
      if (!otherOrganizations.isEmpty()) {
        ArrayNode orgs = request.putArray("accessible_orgs").add(organization);
        otherOrganizations.forEach(orgs::add);
      }
      Optional<KeyPair> keys = privateKeyJwt ? Optional.of(rsaKeyPair()) : Optional.empty();
      keys.ifPresent(
          pair -> {
            request.put("token_endpoint_auth_method", "private_key_jwt");
            request.putObject("jwks").putArray("keys").add(jwk((RSAPublicKey) pair.getPublic()));
          });
      JsonNode created = identity.admin().createAccount(request);
      return new TestAccount(
          created.get("client_id").asText(),
          Optional.ofNullable(created.get("client_secret")).map(JsonNode::asText),
          keys,
          organization,
          List.copyOf(scopes),
          identity.issuer());
    }

    private static KeyPair rsaKeyPair() {
      try {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("every Java platform has RSA", e);
      }
    }

    private static ObjectNode jwk(RSAPublicKey key) {
      return LocalIdentity.JSON
          .createObjectNode()
          .put("kty", "RSA")
          .put("use", "sig")
          .put("alg", "RS256")
          .put("kid", KEY_ID)
          .put("n", unsigned(key.getModulus()))
          .put("e", unsigned(key.getPublicExponent()));
    }

    /** RFC 7518 §6.3.1: big-endian without leading zero octets, base64url. */
    private static String unsigned(BigInteger value) {
      byte[] bytes = value.toByteArray();
      int start = bytes.length > 1 && bytes[0] == 0 ? 1 : 0;
      byte[] trimmed = Arrays.copyOfRange(bytes, start, bytes.length);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(trimmed);
    }
  }
}
