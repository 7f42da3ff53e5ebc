package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class TokenRequestTest {
  private static final String FORM = "application/x-www-form-urlencoded";
  private static final String ID = "0b9a1a6e-8f57-4d1c-9a53-1f6c1f7e2a10";
  private static final String SECRET = "Zq3x-7_kP0aVbN2mC4dE6fG8hJ1kL3nM5pQ7rS9tU0w";
  private static final String POST =
      "grant_type=client_credentials&client_id=" + ID + "&client_secret=" + SECRET;

  // client_secret_post (SPEC 4.1)

  @Test
  void whenCredentialsInBodyThenSecretPost() {
    TokenRequest request = post(POST);

    assertEquals("client_credentials", request.grantType());
    assertEquals(ID, request.clientId());
    assertEquals(SECRET, request.clientSecret());
    assertEquals(Optional.empty(), request.scope());
    assertEquals(ClientAuthentication.CLIENT_SECRET_POST, request.authentication());
    assertFalse(request.usedBasic());
  }

  @Test
  void whenScopeGivenThenDecodedAndKept() {
    TokenRequest request = post(POST + "&scope=marketing%3Acontent.view+catalog:*");

    assertEquals(Optional.of("marketing:content.view catalog:*"), request.scope());
  }

  @Test
  void whenScopeEmptyThenOmitted() {
    assertEquals(Optional.empty(), post(POST + "&scope=").scope());
    assertEquals(Optional.empty(), post(POST + "&scope").scope());
  }

  @Test
  void whenBodySecretIsFormEncodedThenDecoded() {
    TokenRequest request =
        post(
            "grant_type=client_credentials&client_id=" + ID + "&client_secret=a%2Bb+c%25%3A%C3%A9");

    assertEquals("a+b c%:é", request.clientSecret());
  }

  @Test
  void whenBodyHasRawNonAsciiThenKept() {
    assertEquals(
        "sécret",
        post("grant_type=client_credentials&client_id=x&client_secret=sécret").clientSecret());
  }

  @Test
  void whenBodyClientIdHasAColonThenKept() {
    TokenRequest request =
        post("grant_type=client_credentials&client_id=a%3Ab&client_secret=" + SECRET);

    assertEquals("a:b", request.clientId());
  }

  @Test
  void whenClientIdIsNotAUuidThenStillParsed() {
    assertEquals(
        "not-a-uuid",
        post("grant_type=client_credentials&client_id=not-a-uuid&client_secret=s").clientId());
  }

  @Test
  void whenClientIdIsAUuidInAnyCaseThenItNamesThatAccount() {
    String upper = ID.toUpperCase(java.util.Locale.ROOT);

    assertEquals(Optional.of(UUID.fromString(ID)), post(POST).accountId());
    assertEquals(
        Optional.of(UUID.fromString(ID)),
        post("grant_type=client_credentials&client_id=" + upper + "&client_secret=s").accountId());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"not-a-uuid", "+" + ID, ID + "+", "1-1-1-1-1", "0b9a1a6e8f574d1c9a531f6c1f7e2a10"})
  void whenClientIdIsNotACanonicalUuidThenItNamesNoAccount(String clientId) {
    String body = "grant_type=client_credentials&client_id=" + clientId + "&client_secret=s";

    assertEquals(Optional.empty(), post(body).accountId());
  }

  @Test
  void whenParameterNamesAreEncodedThenDecoded() {
    TokenRequest request =
        post("grant%5Ftype=client_credentials&client%5Fid=" + ID + "&client_secret=" + SECRET);

    assertEquals(ID, request.clientId());
  }

  @Test
  void whenUnknownParametersEvenRepeatedThenIgnored() {
    TokenRequest request = post("&&" + POST + "&resource=a&resource=b&audience=x&foo&&");

    assertEquals(ID, request.clientId());
  }

  // Content type (SPEC 7.1 row 1)

  @ParameterizedTest
  @ValueSource(
      strings = {
        "application/x-www-form-urlencoded",
        "application/x-www-form-urlencoded;charset=UTF-8",
        "application/x-www-form-urlencoded; charset=utf-8",
        "Application/X-WWW-Form-URLEncoded ; charset=\"UTF-8\"",
        "APPLICATION/X-WWW-FORM-URLENCODED",
        " application/x-www-form-urlencoded\t;charset=ISO-8859-1"
      })
  void whenContentTypeIsTheFormWithAnyParametersThenAccepted(String contentType) {
    assertEquals(ID, TokenRequest.from(POST, contentType, null, null).clientId());
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(
      strings = {
        "application/json",
        "text/plain",
        "multipart/form-data; boundary=x",
        "application/x-www-form-urlencodedx",
        "application/x-www-form-urlencoded-extra;charset=UTF-8",
        "application/x-www-form",
        "x-www-form-urlencoded",
        "applıcation/x-www-form-urlencoded",
        ";application/x-www-form-urlencoded"
      })
  void whenContentTypeIsNotTheFormThenInvalidRequest(String contentType) {
    OAuthError error = error(() -> TokenRequest.from(POST, contentType, null, null));

    assertInvalidRequest(error, "Content-Type must be application/x-www-form-urlencoded");
  }

  // Repeated, empty and missing parameters (RFC 6749 §3.2, SPEC 7.1)

  @ParameterizedTest
  @ValueSource(strings = {"grant_type", "client_id", "client_secret", "scope"})
  void whenAParameterIsRepeatedThenInvalidRequestNamingIt(String name) {
    OAuthError error = error(() -> post(POST + "&scope=a:b&" + name + "=again"));

    assertInvalidRequest(error, "repeated parameter: " + name);
  }

  @Test
  void whenSeveralAreRepeatedThenAllNamed() {
    OAuthError error =
        error(() -> post(POST + "&scope=a:b&scope=c:d&grant_type=client_credentials"));

    assertInvalidRequest(error, "repeated parameters: grant_type, scope");
  }

  @Test
  void whenARepeatIsEmptyThenItCountsAsOmitted() {
    TokenRequest request = post("scope=&" + POST + "&scope=a:b&client_id=");

    assertEquals(Optional.of("a:b"), request.scope());
    assertEquals(ID, request.clientId());
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"&", "grant_type=&client_id=&client_secret=", "foo=bar"})
  void whenNothingIsGivenThenOneInvalidRequestNamesEveryMissingParameter(String body) {
    OAuthError error = error(() -> post(body));

    assertInvalidRequest(error, "missing parameters: grant_type, client_id, client_secret");
  }

  @Test
  void whenOneIsMissingThenOnlyThatOneIsNamed() {
    assertInvalidRequest(
        error(() -> post("grant_type=client_credentials&client_id=" + ID)),
        "missing parameter: client_secret");
    assertInvalidRequest(
        error(() -> post("client_id=" + ID + "&client_secret=" + SECRET)),
        "missing parameter: grant_type");
  }

  @Test
  void whenEmptyValuesThenCountedAsMissing() {
    assertInvalidRequest(
        error(() -> post("grant_type=&client_id=" + ID + "&client_secret=")),
        "missing parameters: grant_type, client_secret");
  }

  // Grant type (SPEC 7.1 row 2)

  @ParameterizedTest
  @ValueSource(
      strings = {
        "password",
        "authorization_code",
        "refresh_token",
        "Client_Credentials",
        "client_credential",
        "clientcredentials",
        "client_credentials+",
        "+client_credentials",
        "urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer"
      })
  void whenGrantTypeIsNotClientCredentialsThenUnsupportedGrantType(String grantType) {
    OAuthError error =
        error(() -> post("grant_type=" + grantType + "&client_id=" + ID + "&client_secret=s"));

    assertEquals(400, error.status());
    assertEquals(OAuthError.UNSUPPORTED_GRANT_TYPE, error.error());
    assertTrue(error.description().startsWith("grant_type '"), error.description());
    assertFalse(error.basicChallenge());
  }

  @Test
  void whenGrantTypeIsWrongAndAParameterMissingThenMissingComesFirst() {
    assertInvalidRequest(
        error(() -> post("grant_type=password&client_id=" + ID)),
        "missing parameter: client_secret");
  }

  // client_secret_basic (RFC 6749 §2.3.1, Appendix B)

  @Test
  void whenBasicThenSecretBasic() {
    TokenRequest request = basic("grant_type=client_credentials", basicHeader(ID, SECRET));

    assertEquals(ID, request.clientId());
    assertEquals(SECRET, request.clientSecret());
    assertEquals(ClientAuthentication.CLIENT_SECRET_BASIC, request.authentication());
    assertTrue(request.usedBasic());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "pa:ss:word",
        "with+plus",
        "with%percent%zz",
        "with space",
        "wörd-é€-\uD83D\uDE00",
        "quote\"back\\slash",
        "=&?#/",
        ":"
      })
  void whenBasicSecretNeedsFormEncodingThenDecodedExactly(String secret) {
    TokenRequest request = basic("grant_type=client_credentials", basicHeader(ID, secret));

    assertEquals(ID, request.clientId());
    assertEquals(secret, request.clientSecret());
  }

  @Test
  void whenBasicClientIdHasAnEncodedColonThenKept() {
    TokenRequest request = basic("grant_type=client_credentials", basicHeader("a:b", SECRET));

    assertEquals("a:b", request.clientId());
  }

  @Test
  void whenBasicIsNotFormEncodedThenSplitAtTheFirstColon() {
    TokenRequest request =
        basic("grant_type=client_credentials", "Basic " + base64("a:b:" + SECRET));

    assertEquals("a", request.clientId());
    assertEquals("b:" + SECRET, request.clientSecret());
  }

  @Test
  void whenBasicClientSendsRawBase64UrlSecretWithoutEncodingThenItStillWorks() {
    // DESIGN decision 1: generated secrets are base64url, so skipping Appendix B changes nothing.
    TokenRequest request =
        basic("grant_type=client_credentials", "Basic " + base64(ID + ":" + SECRET));

    assertEquals(SECRET, request.clientSecret());
  }

  @ParameterizedTest
  @ValueSource(strings = {"Basic", "basic", "BASIC", "bAsIc"})
  void whenBasicSchemeInAnyCaseThenAccepted(String scheme) {
    TokenRequest request =
        basic("grant_type=client_credentials", scheme + "  " + base64(ID + ":" + SECRET) + " ");

    assertEquals(ID, request.clientId());
  }

  @Test
  void whenBasicWithoutBase64PaddingThenAccepted() {
    String unpadded = base64(ID + ":" + SECRET + "x").replace("=", "");

    TokenRequest request = basic("grant_type=client_credentials", "Basic " + unpadded);

    assertEquals(SECRET + "x", request.clientSecret());
  }

  @Test
  void whenBasicAndScopeInBodyThenScopeKept() {
    TokenRequest request =
        basic("grant_type=client_credentials&scope=kitchen:*", basicHeader(ID, SECRET));

    assertEquals(Optional.of("kitchen:*"), request.scope());
  }

  @Test
  void whenBasicHasEmptyPartsThenTheyCountAsMissing() {
    assertInvalidRequest(
        error(() -> basic("grant_type=client_credentials", "Basic " + base64(ID + ":"))),
        "missing parameter: client_secret");
    assertInvalidRequest(
        error(() -> basic("grant_type=client_credentials", "Basic " + base64(":" + SECRET))),
        "missing parameter: client_id");
    assertInvalidRequest(
        error(() -> basic("", basicHeader(ID, SECRET))), "missing parameter: grant_type");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Basic",
        "Basic ",
        "Basic !!!!",
        "Basic YWJj ZGVm",
        "Basic a",
        "Basic _-_-",
        "Basic Og=x"
      })
  void whenBasicIsMalformedThenInvalidRequestWithoutChallenge(String header) {
    OAuthError error = error(() -> basic("grant_type=client_credentials", header));

    assertEquals(400, error.status());
    assertEquals(OAuthError.INVALID_REQUEST, error.error());
    assertTrue(error.description().startsWith("the HTTP Basic credentials"), error.description());
    assertFalse(error.basicChallenge());
  }

  @Test
  void whenBasicHasNoColonThenInvalidRequest() {
    OAuthError error = error(() -> basic("grant_type=client_credentials", "Basic " + base64(ID)));

    assertInvalidRequest(
        error, "the HTTP Basic credentials have no ':' between client_id and client_secret");
  }

  @Test
  void whenBasicIsNotUtf8ThenInvalidRequest() {
    String latin1 =
        Base64.getEncoder()
            .encodeToString((ID + ":s\u00e9cret").getBytes(StandardCharsets.ISO_8859_1));

    OAuthError error = error(() -> basic("grant_type=client_credentials", "Basic " + latin1));

    assertInvalidRequest(error, "the HTTP Basic credentials are not base64 of UTF-8 text");
  }

  @Test
  void whenBasicPartHasABrokenEscapeThenInvalidRequestThatDoesNotEchoTheSecret() {
    OAuthError error =
        error(() -> basic("grant_type=client_credentials", "Basic " + base64(ID + ":s3cr3t%zz")));

    assertEquals(OAuthError.INVALID_REQUEST, error.error());
    assertTrue(error.description().contains("Appendix B"), error.description());
    assertFalse(error.description().contains("s3cr3t"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"Bearer eyJhbGciOi.x.y", "Digest username=\"x\"", "Negotiate abc", "dXNlcjpwYXNz"})
  void whenAnotherAuthorizationSchemeThenInvalidClientChallengingBasic(String header) {
    OAuthError error = error(() -> basic("grant_type=client_credentials", header));

    assertEquals(401, error.status());
    assertEquals(OAuthError.INVALID_CLIENT, error.error());
    assertTrue(error.basicChallenge());
    assertFalse(error.description().contains("dXNlcjpwYXNz"));
  }

  @Test
  void whenAuthorizationSchemeLooksLikeBasicOnlyUnderUnicodeCaseFoldingThenRefused() {
    OAuthError error =
        error(() -> basic("grant_type=client_credentials", "ba\u017Fic " + base64(ID + ":x")));

    assertEquals(OAuthError.INVALID_CLIENT, error.error());
  }

  @Test
  void whenAuthorizationHeaderBlankThenIgnored() {
    assertEquals(
        ClientAuthentication.CLIENT_SECRET_POST,
        TokenRequest.from(POST, FORM, "  ", null).authentication());
  }

  // One authentication method only (RFC 6749 §2.3)

  @ParameterizedTest
  @ValueSource(
      strings = {"client_id=" + ID, "client_secret=" + SECRET, "client_id=x&client_secret=y"})
  void whenBasicAndBodyCredentialsThenInvalidRequest(String bodyCredentials) {
    OAuthError error =
        error(
            () ->
                basic("grant_type=client_credentials&" + bodyCredentials, basicHeader(ID, SECRET)));

    assertEquals(OAuthError.INVALID_REQUEST, error.error());
    assertTrue(error.description().startsWith("use one client authentication method"));
    assertFalse(error.basicChallenge());
  }

  @Test
  void whenBasicAndEmptyBodyCredentialsThenTheEmptyOnesCountAsOmitted() {
    TokenRequest request =
        basic("grant_type=client_credentials&client_id=&client_secret=", basicHeader(ID, SECRET));

    assertEquals(ID, request.clientId());
    assertTrue(request.usedBasic());
  }

  // Credentials in the query string (RFC 6749 §2.3.1)

  @ParameterizedTest
  @ValueSource(
      strings = {
        "client_id=" + ID,
        "client_secret=" + SECRET,
        "a=1&client%5Fsecret=x",
        "client_id",
        "client_id=",
        "%zz&client_secret=x"
      })
  void whenCredentialsInTheQueryStringThenInvalidRequest(String query) {
    OAuthError error = error(() -> TokenRequest.from(POST, FORM, null, query));

    assertEquals(OAuthError.INVALID_REQUEST, error.error());
    assertTrue(error.description().contains("query string"), error.description());
    assertFalse(error.description().contains(SECRET));
  }

  @Test
  void whenCredentialsInQueryAndBasicThenStillInvalidRequest() {
    OAuthError error =
        error(
            () ->
                TokenRequest.from(
                    "grant_type=client_credentials", FORM, basicHeader(ID, SECRET), "client_id=x"));

    assertEquals(OAuthError.INVALID_REQUEST, error.error());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "foo=bar", "grant_type=password", "%zz", "scope=x&scope=y"})
  void whenQueryStringHasNoCredentialsThenIgnored(String query) {
    TokenRequest request = TokenRequest.from(POST, FORM, null, query);

    assertEquals("client_credentials", request.grantType());
    assertEquals(Optional.empty(), request.scope());
  }

  // Malformed bodies

  @ParameterizedTest
  @ValueSource(
      strings = {
        POST + "&scope=%zz",
        POST + "&foo=%",
        POST + "&%C3=1",
        "grant_type=client_credentials&client_id=x&client_secret=%FF%FE"
      })
  void whenBodyIsNotValidFormEncodingThenInvalidRequest(String body) {
    OAuthError error = error(() -> post(body));

    assertEquals(OAuthError.INVALID_REQUEST, error.error());
    assertTrue(
        error.description().startsWith("the body is not valid application/x-www-form-urlencoded"),
        error.description());
  }

  @Test
  void whenBodySecretIsMalformedThenTheSecretIsNotEchoed() {
    OAuthError error =
        error(() -> post("grant_type=client_credentials&client_id=x&client_secret=s3cr3t%zz"));

    assertFalse(error.description().contains("s3cr3t"));
  }

  // Order of the checks

  @Test
  void whenEverythingIsWrongThenTheContentTypeIsReportedFirst() {
    OAuthError error =
        error(
            () ->
                TokenRequest.from(
                    "scope=a&scope=b", "application/json", "Bearer x", "client_id=1"));

    assertInvalidRequest(error, "Content-Type must be application/x-www-form-urlencoded");
  }

  @Test
  void whenRepeatedAndMissingThenRepeatedIsReported() {
    assertInvalidRequest(error(() -> post("scope=a&scope=b")), "repeated parameter: scope");
  }

  // Never show the secret

  @Test
  void whenPrintedThenTheSecretIsHidden() {
    TokenRequest request = post(POST + "&scope=kitchen:*");

    assertFalse(request.toString().contains(SECRET), request.toString());
    assertTrue(request.toString().contains(ID));
    assertTrue(request.toString().contains("(hidden)"));
    BasicCredentials credentials = new BasicCredentials(ID, SECRET);
    assertFalse(credentials.toString().contains(SECRET));
  }

  private static TokenRequest post(String body) {
    return TokenRequest.from(body, FORM, null, null);
  }

  private static TokenRequest basic(String body, String authorization) {
    return TokenRequest.from(body, FORM, authorization, null);
  }

  /** RFC 6749 Appendix B: form-encode each part (UTF-8), join with ':', then base64. */
  private static String basicHeader(String clientId, String secret) {
    return "Basic " + base64(formEncode(clientId) + ":" + formEncode(secret));
  }

  private static String formEncode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static OAuthError error(Executable call) {
    return assertThrows(OAuthError.class, call);
  }

  private static void assertInvalidRequest(OAuthError error, String description) {
    assertEquals(400, error.status());
    assertEquals(OAuthError.INVALID_REQUEST, error.error());
    assertEquals(description, error.description());
    assertFalse(error.basicChallenge());
  }
}
