package dev.platform.identity.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.admin.AdminAuth;
import dev.platform.identity.admin.AnyScopeOf;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.http.ClientAddress;
import dev.platform.identity.token.TokenAnswer;
import dev.platform.identity.verify.BearerTokenException;
import dev.platform.identity.verify.VerifiedToken;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * The console's door: the login form, which authenticates the client credentials of an account with
 * an {@code identity:} administration scope through the token endpoint itself (its rate-limit
 * budgets, audit lines and answers), the logout, and the stylesheet and script.
 */
@Path(ConsoleAuth.ROOT)
@Produces(MediaType.TEXT_HTML)
public final class ConsoleResource {
  static final String LOGIN_NONCE = "login_nonce";
  static final int MAX_CREDENTIAL = 200;

  /** The audit events of the console's door. */
  static final String SIGN_IN = "console.signin";

  static final String SIGN_IN_REFUSED = "console.signin.refuse";
  static final String SIGN_OUT = "console.signout";

  /** Outcomes of a refused sign-in besides the token endpoint's errors. */
  static final String INVALID_FORM = "invalid_request";

  static final String FORM_EXPIRED = "login_form_expired";
  static final String NO_ADMINISTRATION_SCOPE = "insufficient_scope";

  /** The files of {@code static/}, each with its type: nothing else is served. */
  private static final Map<String, String> ASSETS =
      Map.of(
          "console.css", "text/css;charset=utf-8", "console.js", "text/javascript;charset=utf-8");

  private static final ObjectMapper JSON = new ObjectMapper();

  private final SignIn signIn;
  private final AuditLog audit;
  private final SessionCookies cookies;
  private final EndedSessions ended;
  private final Pages pages;
  private final Overview overview;
  private final Clock clock;
  private final SecureRandom random;

  ConsoleResource(
      SignIn signIn,
      AuditLog audit,
      SessionCookies cookies,
      EndedSessions ended,
      Pages pages,
      Overview overview,
      Clock clock,
      SecureRandom random) {
    this.signIn = signIn;
    this.audit = audit;
    this.cookies = cookies;
    this.ended = ended;
    this.pages = pages;
    this.overview = overview;
    this.clock = clock;
    this.random = random;
  }

  @GET
  @AnyScopeOf({AdminAuth.ADMIN, AdminAuth.ACCOUNTS, AdminAuth.KEYS, AdminAuth.AUDIT_READ})
  public Response overview(@Context ContainerRequestContext request) {
    return overview.page(request);
  }

  @GET
  @Path("login")
  @Anonymous
  public Response loginForm(@Context ContainerRequestContext request) {
    boolean ended = request.getUriInfo().getQueryParameters().containsKey("ended");
    return login(request, 200, ended ? "You are signed out." : null, null);
  }

  /**
   * The credentials go to the token endpoint in process, as HTTP Basic from the browser's address:
   * a wrong secret is refused, audited and counted against the same budgets as at {@code
   * /oauth/token}. The request carries a DPoP proof by a new key of the session's own ({@link
   * SignIn}), so the token that answers is bound to it; the session holds both. A sign-in and a
   * refused one are in the audit trail too, the refused ones counted by the minute as at the token
   * endpoint.
   */
  @POST
  @Path("login")
  @Anonymous
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  public Response login(
      MultivaluedMap<String, String> form, @Context ContainerRequestContext request) {
    Instant now = clock.instant();
    String address = ClientAddress.of(request);
    String clientId;
    String secret;
    String nonce;
    try {
      clientId = FormFields.one(form, "client_id");
      secret = FormFields.one(form, "client_secret");
      nonce = FormFields.one(form, LOGIN_NONCE);
    } catch (FormFields.InvalidFormException e) {
      refused(null, INVALID_FORM, address);
      return login(request, 400, e.getMessage(), null);
    }
    if (!cookies.loginNonce(request, now).filter(expected -> same(expected, nonce)).isPresent()) {
      refused(clientId, FORM_EXPIRED, address);
      return login(request, 403, "The login form expired or came from elsewhere; try again.", null);
    }
    if (clientId.isEmpty()
        || secret.isEmpty()
        || clientId.length() > MAX_CREDENTIAL
        || secret.length() > MAX_CREDENTIAL) {
      refused(clientId, INVALID_FORM, address);
      return clientId.isEmpty() || secret.isEmpty()
          ? login(request, 400, "Enter the client_id and the client_secret.", clientId)
          : login(request, 400, "The client_id or client_secret is too long.", null);
    }
    SessionKey key = SessionKey.generate(random);
    TokenAnswer answer = signIn.token(basic(clientId, secret), key, address, now);
    if (answer.status() != 200) {
      refused(clientId, field(answer, "error"), address);
      return login(request, answer.status(), refusal(answer), clientId);
    }
    VerifiedToken token;
    String compact = field(answer, "access_token");
    try {
      token = signIn.verified(request, key, compact);
    } catch (BearerTokenException e) {
      return login(request, 500, "The service could not verify its own token; try again.", null);
    }
    if (AdminAuth.ADMINISTRATION_SCOPES.stream().noneMatch(token::hasScope)) {
      refused(token.clientId(), NO_ADMINISTRATION_SCOPE, address);
      return login(
          request,
          403,
          "This account holds no identity: administration scope; the console is for those that"
              + " do.",
          clientId);
    }
    ConsoleSession session = ConsoleSession.start(key, compact, token.expiresAt(), now, random);
    audit.stored(
        SIGN_IN,
        token.clientId(),
        token.clientId(),
        "success",
        address,
        Map.of("expires_at", token.expiresAt().toString()));
    String context = ConsoleAuth.contextPath(request);
    return Response.seeOther(URI.create(context + ConsoleAuth.ROOT + "/"))
        .header(HttpHeaders.SET_COOKIE, cookies.set(session, context))
        .header(HttpHeaders.SET_COOKIE, cookies.clear(SessionCookies.LOGIN, context))
        .build();
  }

  /** Ends the session on every node: a copy of its cookie is dead too. */
  @POST
  @Path("logout")
  @AnyScopeOf({AdminAuth.ADMIN, AdminAuth.ACCOUNTS, AdminAuth.KEYS, AdminAuth.AUDIT_READ})
  public Response logout(@Context ContainerRequestContext request) {
    ConsoleSession session = ConsoleAuth.session(request);
    ended.end(session, clock.instant());
    AdminAuth.Caller caller = AdminAuth.caller(request);
    audit.stored(
        SIGN_OUT,
        caller.token().clientId(),
        caller.token().clientId(),
        "success",
        caller.remoteAddress(),
        Map.of("expires_at", session.expiresAt().toString()));
    String context = ConsoleAuth.contextPath(request);
    return Response.seeOther(URI.create(context + ConsoleAuth.ROOT + "/login?ended"))
        .header(HttpHeaders.SET_COOKIE, cookies.clear(SessionCookies.SESSION, context))
        .build();
  }

  @GET
  @Path("static/{name}")
  @Anonymous
  public Response asset(@PathParam("name") String name) {
    String type = ASSETS.get(name);
    if (type == null) {
      return Response.status(404).type(MediaType.TEXT_PLAIN).entity("no such file").build();
    }
    try (InputStream in = ConsoleResource.class.getResourceAsStream("static/" + name)) {
      return Response.ok(in.readAllBytes()).type(type).build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A refused sign-in, in the trail and counted by the minute; never the secret. */
  private void refused(String clientId, String outcome, String address) {
    audit.refusedAndStored(
        SIGN_IN_REFUSED, clientId, outcome.isEmpty() ? "server_error" : outcome, address, Map.of());
  }

  private Response login(
      ContainerRequestContext request, int status, String message, String clientId) {
    String context = ConsoleAuth.contextPath(request);
    SessionCookies.LoginNonce nonce =
        cookies.loginNonce(ConsoleSession.random(random), clock.instant(), context);
    Map<String, Object> parameters = new HashMap<>();
    parameters.put("frame", Frame.anonymous("Sign in", context + ConsoleAuth.ROOT));
    parameters.put("nonce", nonce.value());
    parameters.put("message", message);
    parameters.put("clientId", clientId == null ? "" : clientId);
    Response page = pages.render(status, "login.jte", parameters);
    return Response.fromResponse(page).header(HttpHeaders.SET_COOKIE, nonce.cookie()).build();
  }

  /** RFC 6749 §2.3.1: each part form-encoded, then Basic. */
  private static String basic(String clientId, String secret) {
    String pair =
        URLEncoder.encode(clientId, StandardCharsets.UTF_8)
            + ":"
            + URLEncoder.encode(secret, StandardCharsets.UTF_8);
    return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
  }

  /** What the login page says of a refusal: the token endpoint's own description. */
  static String refusal(TokenAnswer answer) {
    if (answer.status() == 401) {
      return "The client_id or client_secret is wrong, or the account is not active.";
    }
    if (answer.status() == 429) {
      return "Too many attempts; try again in "
          + answer.headers().getOrDefault("Retry-After", "60")
          + " seconds.";
    }
    String description = field(answer, "error_description");
    return description.isEmpty() ? "The sign-in failed; try again." : description;
  }

  static String field(TokenAnswer answer, String name) {
    try {
      JsonNode body = JSON.readTree(answer.body());
      return body.path(name).asText("");
    } catch (IOException e) {
      return "";
    }
  }

  private static boolean same(String expected, String given) {
    return MessageDigest.isEqual(
        expected.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
  }
}
