package dev.platform.identity.verify;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.platform.identity.jose.JwsException;
import dev.platform.identity.jose.NumericDate;
import dev.platform.identity.jose.StrictJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The claims of a token, read in one pass of Jackson's streaming parser: the ones {@link
 * VerifiedToken} types and the dates {@link BearerVerifier} checks; every other member is skipped
 * unread. Only ever read from a payload whose signature verified (SPEC 5.5).
 *
 * <p>Two kinds of fault, as before this reader: a payload that is not one JSON object, a claim it
 * reads named twice, a date that is no NumericDate ({@link NumericDate}) or an {@code iss}, {@code
 * sub} or {@code jti} that is not a string makes the token invalid at once; a claim of ours with
 * the wrong type ({@code scopes} not an array of strings, say) is kept and reported by {@link
 * #verifiedToken()}, after the time and the issuer, so a genuine expired token is still "token
 * expired". A {@code cnf} of any shape but RFC 8705's and RFC 9449's is the first kind ({@link
 * #confirmation}).
 */
final class TokenClaims {
  String issuer;
  String subject;
  String clientId;
  String tokenId;
  String organizationId;
  String tokenType;
  List<String> scopes = List.of();
  List<String> accessibleOrgs = List.of();
  ChannelPermissions channelPermissions;

  /** Whether {@code channel_permissions} is there, even as null: then the alias is not read. */
  boolean channelPermissionsNamed;

  ChannelPermissions channelAlias;

  /** Seconds since 1970, or null when the claim is absent. */
  Long expiresAt;

  Long notBefore;
  Long issuedAt;

  /** {@code cnf}'s {@code x5t#S256} (RFC 8705 §3.1), or null when it names none. */
  String certificateThumbprint;

  /** {@code cnf}'s {@code jkt} (RFC 9449 §6.1), or null when it names none. */
  String keyThumbprint;

  /** The first claim of ours with a wrong type, reported by {@link #verifiedToken()}. */
  private String wrongType;

  /** A bit for each claim read so far. */
  private int read;

  private TokenClaims() {}

  /**
   * Reads {@code payload}.
   *
   * @throws UnauthenticatedException "invalid token" when it is not one JSON object of claims
   */
  static TokenClaims read(byte[] payload) {
    TokenClaims claims = new TokenClaims();
    try (JsonParser json = StrictJson.parser(payload)) {
      if (json.nextToken() != JsonToken.START_OBJECT) {
        throw UnauthenticatedException.invalid("the payload is not a JSON object");
      }
      for (String name = json.nextFieldName(); name != null; name = json.nextFieldName()) {
        claims.member(name, json.nextToken(), json);
      }
      if (json.currentToken() != JsonToken.END_OBJECT || json.nextToken() != null) {
        throw UnauthenticatedException.invalid("the payload is not one JSON object");
      }
    } catch (IOException e) { // not JSON, or a member named twice
      throw UnauthenticatedException.of(UnauthenticatedException.INVALID_TOKEN, e);
    } catch (JwsException e) {
      throw BearerVerifier.refused(e);
    }
    return claims;
  }

  /**
   * Reads one member; a claim this reader reads may come once only (a bit each in {@link #read}).
   */
  private void member(String name, JsonToken value, JsonParser json) throws IOException {
    int bit =
        switch (name) {
          case "iss" -> {
            issuer = registered(json, value, name);
            yield 1;
          }
          case "sub" -> {
            subject = registered(json, value, name);
            yield 1 << 1;
          }
          case "jti" -> {
            tokenId = registered(json, value, name);
            yield 1 << 2;
          }
          case "exp" -> {
            expiresAt = NumericDate.seconds(json, value, name);
            yield 1 << 3;
          }
          case "nbf" -> {
            notBefore = NumericDate.seconds(json, value, name);
            yield 1 << 4;
          }
          case "iat" -> {
            issuedAt = NumericDate.seconds(json, value, name);
            yield 1 << 5;
          }
          case "client_id" -> {
            clientId = string(json, value, name);
            yield 1 << 6;
          }
          case "organization_id" -> {
            organizationId = string(json, value, name);
            yield 1 << 7;
          }
          case "token_type" -> {
            tokenType = string(json, value, name);
            yield 1 << 8;
          }
          case "scopes" -> {
            scopes = strings(json, value, name);
            yield 1 << 9;
          }
          case "accessible_orgs" -> {
            accessibleOrgs = strings(json, value, name);
            yield 1 << 10;
          }
          case "channel_permissions" -> {
            channelPermissions = channels(json, value, name);
            channelPermissionsNamed = true;
            yield 1 << 11;
          }
          case "cs_permissions" -> {
            channelAlias = channels(json, value, name);
            yield 1 << 12;
          }
          case "cnf" -> {
            confirmation(json, value);
            yield 1 << 13;
          }
          default -> {
            json.skipChildren(); // unread, so a second one cannot mislead this reader
            yield 0;
          }
        };
    if ((read & bit) != 0) {
      throw UnauthenticatedException.invalid(name + " is named twice");
    }
    read |= bit;
  }

  /**
   * The typed view, once the signature, the time and the issuer are checked.
   *
   * @throws UnauthenticatedException "invalid token" when a claim of ours has the wrong type, or
   *     when neither {@code client_id} nor {@code sub} is present
   */
  VerifiedToken verifiedToken() {
    if (wrongType != null) {
      throw UnauthenticatedException.invalid("claim " + wrongType);
    }
    if (clientId == null && subject == null) {
      throw UnauthenticatedException.invalid("claim neither client_id nor sub");
    }
    return VerifiedToken.from(this);
  }

  /** A registered claim that must be a string: a token with another type is refused at once. */
  private static String registered(JsonParser json, JsonToken value, String name)
      throws IOException {
    if (value == JsonToken.VALUE_STRING) {
      return json.getText();
    }
    if (value == JsonToken.VALUE_NULL) {
      return null;
    }
    throw UnauthenticatedException.invalid(name + " is not a string");
  }

  private String string(JsonParser json, JsonToken value, String name) throws IOException {
    if (value == JsonToken.VALUE_STRING) {
      return json.getText();
    }
    if (value != JsonToken.VALUE_NULL) {
      wrong(name + " is not a string");
      json.skipChildren();
    }
    return null;
  }

  private List<String> strings(JsonParser json, JsonToken value, String name) throws IOException {
    if (value == JsonToken.VALUE_NULL) {
      return List.of();
    }
    if (value == JsonToken.START_ARRAY) {
      List<String> strings = new ArrayList<>();
      boolean allStrings = true;
      for (JsonToken item = json.nextToken();
          item != JsonToken.END_ARRAY;
          item = json.nextToken()) {
        if (item == JsonToken.VALUE_STRING) {
          strings.add(json.getText());
        } else {
          allStrings = false;
          json.skipChildren();
        }
      }
      return allStrings ? List.copyOf(strings) : wrongStrings(name);
    }
    json.skipChildren();
    return wrongStrings(name);
  }

  private List<String> wrongStrings(String name) {
    wrong(name + " is not an array of strings");
    return List.of();
  }

  /**
   * {@code channel_permissions} or its alias: an object whose {@code subscribe}, {@code publish}
   * and {@code replay} are arrays of strings; other members are skipped. Null is absent.
   */
  private ChannelPermissions channels(JsonParser json, JsonToken value, String name)
      throws IOException {
    if (value == JsonToken.VALUE_NULL) {
      return null;
    }
    if (value != JsonToken.START_OBJECT) {
      json.skipChildren();
      wrong(name + " is not an object");
      return null;
    }
    List<String> subscribe = List.of();
    List<String> publish = List.of();
    List<String> replay = List.of();
    int seen = 0;
    for (String action = json.nextFieldName(); action != null; action = json.nextFieldName()) {
      JsonToken actions = json.nextToken();
      int bit =
          switch (action) {
            case "subscribe" -> {
              subscribe = strings(json, actions, action);
              yield 1;
            }
            case "publish" -> {
              publish = strings(json, actions, action);
              yield 2;
            }
            case "replay" -> {
              replay = strings(json, actions, action);
              yield 4;
            }
            default -> {
              json.skipChildren();
              yield 0;
            }
          };
      if ((seen & bit) != 0) {
        throw UnauthenticatedException.invalid(name + "." + action + " is named twice");
      }
      seen |= bit;
    }
    return new ChannelPermissions(subscribe, publish, replay);
  }

  /**
   * {@code cnf} (RFC 7800 §3.1), read strictly since it decides who may use the token: an object
   * whose members are {@code x5t#S256} (RFC 8705 §3.1), {@code jkt} (RFC 9449 §6.1) or both, each
   * once, each a base64url SHA-256 thumbprint of 43 characters ({@link
   * CertificateThumbprint#decoded}). Anything else makes the token invalid at once: {@code null},
   * another type, an empty object, a thumbprint of another shape, and any other member ({@code
   * jwk}, {@code kid}...), since a token bound to a key this verifier cannot check must not pass as
   * unbound.
   */
  private void confirmation(JsonParser json, JsonToken value) throws IOException {
    if (value != JsonToken.START_OBJECT) {
      throw UnauthenticatedException.invalid("cnf is not an object");
    }
    boolean named = false;
    for (String method = json.nextFieldName(); method != null; method = json.nextFieldName()) {
      JsonToken member = json.nextToken();
      if (!method.equals("x5t#S256") && !method.equals("jkt")) {
        throw UnauthenticatedException.invalid("cnf." + method + " is a binding not checked here");
      }
      if (member != JsonToken.VALUE_STRING
          || CertificateThumbprint.decoded(json.getText()) == null) {
        throw UnauthenticatedException.invalid("cnf." + method + " is not a SHA-256 thumbprint");
      }
      boolean certificate = method.equals("x5t#S256");
      if ((certificate ? certificateThumbprint : keyThumbprint) != null) {
        throw UnauthenticatedException.invalid("cnf." + method + " is named twice");
      }
      if (certificate) {
        certificateThumbprint = json.getText();
      } else {
        keyThumbprint = json.getText();
      }
      named = true;
    }
    if (!named) {
      throw UnauthenticatedException.invalid("cnf names no confirmation method");
    }
  }

  private void wrong(String reason) {
    if (wrongType == null) {
      wrongType = reason;
    }
  }
}
