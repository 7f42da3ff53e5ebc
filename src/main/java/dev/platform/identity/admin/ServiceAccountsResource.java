package dev.platform.identity.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.CertificateSubject;
import dev.platform.identity.account.ClientJwks;
import dev.platform.identity.account.ClientSecret;
import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.config.Settings;
import dev.platform.identity.revoke.AccountCutoff;
import dev.platform.identity.revoke.Revocations;
import dev.platform.identity.scope.ScopeCatalog;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Providers;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * ADMIN.md "Service accounts": {@code /admin/v1/service-accounts}. An account outside the caller's
 * reach ({@link AdminAuth.Caller#reaches}) answers 404 like a missing one, so ids cannot be probed.
 */
@Path("/admin/v1/service-accounts")
@AnyScopeOf({AdminAuth.ADMIN, AdminAuth.ACCOUNTS})
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class ServiceAccountsResource {
  private final ServiceAccounts accounts;
  private final SecretDigest digest;
  private final ScopeCatalog scopes;
  private final Settings.SecretRotation secretRotation;
  private final Clock clock;
  private final SecureRandom random;
  private final URI issuer;
  private final NewKeys.UriPolicy jwksUris;
  private final Revocations revocations;

  /** Whether the server has CAs for tls_client_auth clients ({@code identity/tlsClientCaFile}). */
  private final boolean clientAuthorities;

  /**
   * @param issuer the service's public base URL, which every {@code Location} starts with
   * @param secretRotation the longest a rotation may keep the replaced secret working, and the
   *     secrets' maximum age, which that overlap never passes
   * @param jwksUris what a private_key_jwt account's {@code jwks_uri} must meet beyond its form :
   *     in the service, not naming an internal address
   * @param clientAuthorities whether the server has CAs a tls_client_auth client's certificate can
   *     chain to: without, no such account is registered
   */
  public ServiceAccountsResource(
      URI issuer,
      ServiceAccounts accounts,
      SecretDigest digest,
      ScopeCatalog scopes,
      Settings.SecretRotation secretRotation,
      Clock clock,
      SecureRandom random,
      NewKeys.UriPolicy jwksUris,
      Revocations revocations,
      boolean clientAuthorities) {
    this.clientAuthorities = clientAuthorities;
    this.revocations = revocations;
    this.jwksUris = jwksUris;
    this.accounts = accounts;
    this.digest = digest;
    this.scopes = scopes;
    this.secretRotation = secretRotation;
    this.clock = clock;
    this.random = random;
    this.issuer = issuer;
  }

  @POST
  public Response create(NewAccount body, @Context ContainerRequestContext request) {
    AdminAuth.Caller caller = AdminAuth.caller(request);
    if (body == null) {
      throw ApiError.badRequest("a JSON body is required");
    }
    AccountProfile profile = body.checked(scopes);
    // The caller's right first: a jwks_uri is looked up in DNS, which only one who may create
    // the account gets to ask for (an attacker review found it).
    caller.requireMayCreate(profile);
    Optional<CertificateSubject> subject = body.subject(clientAuthorities);
    boolean bound = body.bindsTokens();
    Optional<ServiceAccount.Keys> keys = body.keys(jwksUris);
    // A private_key_jwt, tls_client_auth or self_signed_tls_client_auth account gets no secret.
    String secret = keys.isPresent() || subject.isPresent() ? null : ClientSecret.generate(random);
    UUID id = UUID.randomUUID();
    Instant now = clock.instant();
    ServiceAccount account =
        subject.isPresent()
            ? ServiceAccount.createWithSubject(id, profile, subject.get(), now)
            : keys.isPresent()
                ? ServiceAccount.createWithKeys(id, profile, body.method(), keys.get(), now)
                : ServiceAccount.create(id, profile, digest.of(secret), body.method(), now);
    if (bound) {
      account.bindingTokens();
    }
    if (body.requiresDpop()) {
      account.requiringDpop();
    }
    accounts.add(account, caller.event("account.create", account, Map.of()));
    caller.audit("account.create", account.clientId().toString());
    // From the configured issuer, never the request's Host header.
    return Response.created(URI.create(issuer + "/admin/v1/service-accounts/" + account.clientId()))
        .entity(AccountJson.Created.from(account, secret))
        .build();
  }

  /** {@code secret_older_than} keeps the accounts whose current secret is older. */
  @GET
  public Items<AccountJson> list(
      @QueryParam("organization_id") String organization,
      @Context ContainerRequestContext request) {
    AdminAuth.Caller caller = AdminAuth.caller(request);
    // JAX-RS hands over the first of two same-named values; a proxy may judge by the last.
    List<String> organizations = request.getUriInfo().getQueryParameters().get("organization_id");
    if (organizations != null && organizations.size() > 1) {
      throw ApiError.badRequest("organization_id is given twice");
    }
    Optional<String> filter = Optional.ofNullable(organization);
    filter.ifPresent(
        org -> caller.requireOrganization(NewAccount.organization("organization_id", org)));
    Instant now = clock.instant();
    Optional<Instant> secretBefore =
        SecretRotation.olderThan(
            request.getUriInfo().getQueryParameters().get(SecretRotation.OLDER_THAN), now);
    return new Items<>(
        accounts.list(filter, secretBefore).stream()
            .filter(caller::reaches)
            .map(account -> AccountJson.from(account, now))
            .toList());
  }

  @GET
  @Path("{clientId}")
  public AccountJson get(
      @PathParam("clientId") String clientId, @Context ContainerRequestContext request) {
    AdminAuth.Caller caller = AdminAuth.caller(request);
    UUID id = uuid(clientId);
    ServiceAccount account =
        accounts.find(id).filter(found -> !found.isDeleted()).orElseThrow(() -> unknown(id));
    if (!caller.reaches(account)) {
      throw caller.outOfReach(id.toString(), unknown(id));
    }
    return AccountJson.from(account, clock.instant());
  }

  @POST
  @Path("{clientId}/deactivate")
  public AccountJson deactivate(
      @PathParam("clientId") String clientId, @Context ContainerRequestContext request) {
    return json(
        change(
                clientId,
                request,
                "account.deactivate",
                (account, now) -> {
                  requireAnotherAdministrator(account);
                  account.deactivate(now);
                },
                account -> Map.of(),
                true)
            .account());
  }

  @POST
  @Path("{clientId}/reactivate")
  public AccountJson reactivate(
      @PathParam("clientId") String clientId, @Context ContainerRequestContext request) {
    return json(change(clientId, request, "account.reactivate", ServiceAccount::reactivate));
  }

  /**
   * A new secret, shown this once. With {@code previous_secret_valid_for} the replaced secret keeps
   * working that long; without, it fails at once (SPEC 3.1). The body is read after the caller's
   * reach is checked, so a bad one tells a stranger nothing.
   */
  @POST
  @Path("{clientId}/secret")
  public AccountJson.NewSecret rotateSecret(
      @PathParam("clientId") String clientId,
      String body,
      @Context ContainerRequestContext request) {
    String secret = ClientSecret.generate(random);
    SecretDigest.Digest newDigest = digest.of(secret);
    // Reach first (a bad body tells a stranger nothing), then the body, then the change, which
    // checks the reach again under the row's lock.
    get(clientId, request);
    SecretRotation.Request asked = SecretRotation.read(body, secretRotation.maxOverlap());
    Changed changed =
        change(
            clientId,
            request,
            "account.secret.rotate",
            (account, now) -> {
              if (!account.hasSecret()) {
                throw ApiError.conflict(
                    "service account "
                        + account.clientId()
                        + " authenticates with "
                        + account.tokenEndpointAuthMethod()
                        + " and has no secret"
                        + (account.usesKeys()
                            ? ": replace its keys with PUT /admin/v1/service-accounts/{id}/jwks"
                            : ": a new certificate for its subject from a trusted CA replaces"
                                + " the old one, with no change here"));
              }
              account.replaceSecret(newDigest, asked.overlap(), secretRotation.maxAge(), now);
            },
            account ->
                account
                    .previousSecretExpiresAt(clock.instant())
                    .map(at -> Map.of("previous_secret_expires_at", at.toString()))
                    .orElse(Map.of()),
            asked.revokeTokens());
    return AccountJson.NewSecret.from(
        changed.account(),
        secret,
        clock.instant(),
        changed.cutoff() == null ? null : changed.cutoff().notBefore());
  }

  /**
   * A private_key_jwt account's new keys, its own set or the URL of one; the old keys fail from the
   * next request on. The body is read after the caller's reach is checked.
   */
  @PUT
  @Path("{clientId}/jwks")
  public AccountJson replaceKeys(
      @PathParam("clientId") String clientId,
      String body,
      @Context Providers providers,
      @Context ContainerRequestContext request) {
    ObjectMapper json =
        providers
            .getContextResolver(ObjectMapper.class, MediaType.APPLICATION_JSON_TYPE)
            .getContext(NewKeys.class);
    // Reach first, then the keys, outside the transaction (a jwks_uri is looked up in DNS), then
    // the change, which checks the reach again under the row's lock.
    // An account's method never changes, so the keys are checked by the rules of the one read here.
    String method = get(clientId, request).tokenEndpointAuthMethod();
    ServiceAccount.Keys keys = NewKeys.read(body, json).checked(method, jwksUris);
    return json(
        change(
            clientId,
            request,
            "account.keys.replace",
            (account, now) -> {
              if (!account.usesKeys()) {
                throw ApiError.conflict(
                    "service account "
                        + account.clientId()
                        + " authenticates with "
                        + account.tokenEndpointAuthMethod()
                        + ": it has no keys to replace");
              }
              account.replaceKeys(keys, now);
            },
            ServiceAccountsResource::keysDetail));
  }

  /** What the audit keeps of a key replacement: the URL, or the kids of the set. */
  private static Map<String, String> keysDetail(ServiceAccount account) {
    return account
        .jwksUri()
        .map(uri -> Map.of("jwks_uri", uri))
        .orElseGet(() -> Map.of("jwks_kids", kids(account.jwks().orElse("{}"))));
  }

  private static String kids(String jwks) {
    try {
      // Read as a plain set: the kids are what the audit keeps, whatever the method.
      return ClientJwks.parse(jwks.getBytes(java.nio.charset.StandardCharsets.UTF_8))
          .keys()
          .stream()
          .map(key -> key.kid() == null ? "(none)" : ClientJwks.quoted(key.kid()))
          .collect(java.util.stream.Collectors.joining(" "));
    } catch (java.io.IOException e) {
      return "(unreadable)";
    }
  }

  @DELETE
  @Path("{clientId}")
  public Response delete(
      @PathParam("clientId") String clientId, @Context ContainerRequestContext request) {
    change(
        clientId,
        request,
        "account.delete",
        (account, now) -> {
          requireAnotherAdministrator(account);
          account.delete(now);
        },
        account -> Map.of(),
        true);
    return Response.noContent().build();
  }

  /**
   * One lifecycle change, in one transaction, after the caller's reach is checked; an account
   * beyond it is audited as a refusal and answers 404 like an unknown one. The target is named in
   * its canonical form, however the path spelled it.
   */
  private ServiceAccount change(
      String clientId,
      ContainerRequestContext request,
      String event,
      BiConsumer<ServiceAccount, Instant> change) {
    return change(clientId, request, event, change, account -> Map.of());
  }

  /** The same, its audit line carrying {@code details} of the changed account. */
  private ServiceAccount change(
      String clientId,
      ContainerRequestContext request,
      String event,
      BiConsumer<ServiceAccount, Instant> change,
      Function<ServiceAccount, Map<String, String>> details) {
    return change(clientId, request, event, change, details, false).account();
  }

  /** A changed account, and the cut-off of its tokens that committed with the change, or null. */
  private record Changed(ServiceAccount account, AccountCutoff cutoff) {}

  /**
   * The same; with {@code cutOff}, every token of the account issued until now is revoked in the
   * change's transaction (issue 38), and the audit line says from when.
   */
  private Changed change(
      String clientId,
      ContainerRequestContext request,
      String event,
      BiConsumer<ServiceAccount, Instant> change,
      Function<ServiceAccount, Map<String, String>> details,
      boolean cutOff) {
    AdminAuth.Caller caller = AdminAuth.caller(request);
    UUID id = uuid(clientId);
    AccountCutoff cutoff = cutOff ? revocations.cutoffNow(id.toString()) : null;
    Function<ServiceAccount, Map<String, String>> described =
        account -> withCutoff(details.apply(account), cutoff);
    ServiceAccount changed =
        accounts
            .change(
                id,
                account -> {
                  if (account.isDeleted()) {
                    throw unknown(id);
                  }
                  if (!caller.reaches(account)) {
                    throw caller.outOfReach(id.toString(), unknown(id));
                  }
                  change.accept(account, clock.instant());
                },
                account -> caller.event(event, account, described.apply(account)),
                em -> {
                  if (cutoff != null) {
                    revocations.store(em, cutoff);
                  }
                })
            .orElseThrow(() -> unknown(id));
    if (cutoff != null) {
      revocations.remember(cutoff);
    }
    caller.audit(event, id.toString(), described.apply(changed));
    return new Changed(changed, cutoff);
  }

  private static Map<String, String> withCutoff(Map<String, String> details, AccountCutoff cutoff) {
    if (cutoff == null) {
      return details;
    }
    Map<String, String> more = new java.util.LinkedHashMap<>(details);
    more.put("tokens_revoked_before", cutoff.notBefore().toString());
    return more;
  }

  /**
   * Revokes one token of the account by its jti (issue 38): the administrator has the jti (from the
   * audit trail or a resource server's log), not the token, so its exp is unknown and the
   * revocation is kept as long as a token issued now could live. The jti is not checked against the
   * account's tokens: none are stored.
   *
   * <p>So {@code identity:admin} only: a jti is revoked wherever it is (the feed lists it bare),
   * and a manager naming an account within its reach could otherwise revoke a token of any account,
   * in any organization, whose jti it read (a token that reached its own resource server). A
   * manager revokes its accounts' tokens with {@code tokens/revoke-all}, which names the account.
   */
  @POST
  @Path("{clientId}/tokens/revoke")
  @AnyScopeOf(AdminAuth.ADMIN)
  public AccountJson.Revoked revokeToken(
      @PathParam("clientId") String clientId,
      String body,
      @Context ContainerRequestContext request) {
    AdminAuth.Caller caller = AdminAuth.caller(request);
    String id = get(clientId, request).clientId();
    String jti = TokenRevocation.jti(body);
    Revocations.Revoked revoked = revocations.revokeByJti(jti, id);
    caller
        .audit()
        .stored(
            "token.revoke",
            caller.token().clientId(),
            id,
            "success",
            caller.remoteAddress(),
            revoked.details("administrator"));
    return revoked
        .cutoff()
        .map(
            cutoff ->
                new AccountJson.Revoked(
                    id, jti, cutoff.notBefore().toString(), cutoff.until().toString()))
        .orElseGet(
            () -> new AccountJson.Revoked(id, jti, null, revoked.token().expiresAt().toString()));
  }

  /**
   * Revokes every token of the account issued until now (issue 38), without changing its
   * credentials: the account's cut-off. Tokens it asks for from the next second on are valid.
   */
  @POST
  @Path("{clientId}/tokens/revoke-all")
  public AccountJson.Revoked revokeAllTokens(
      @PathParam("clientId") String clientId, @Context ContainerRequestContext request) {
    Changed changed =
        change(
            clientId,
            request,
            "account.tokens.revoke",
            (account, now) -> {},
            account -> Map.of(),
            true);
    return new AccountJson.Revoked(
        changed.account().clientId().toString(),
        null,
        changed.cutoff().notBefore().toString(),
        changed.cutoff().until().toString());
  }

  /**
   * The last active {@code identity:admin} account cannot be deactivated or deleted: nothing would
   * recreate one (the bootstrap runs only on an empty database). Two administrators removing each
   * other at the same moment can still both succeed; the configured bootstrap account is the way
   * back then.
   */
  private void requireAnotherAdministrator(ServiceAccount account) {
    if (!account.isActive() || !account.scopes().contains(AdminAuth.ADMIN)) {
      return;
    }
    boolean another =
        accounts.list(Optional.empty()).stream()
            .anyMatch(
                other ->
                    other.isActive()
                        && other.scopes().contains(AdminAuth.ADMIN)
                        && !other.clientId().equals(account.clientId()));
    if (!another) {
      throw ApiError.conflict(
          "service account "
              + account.clientId()
              + " is the last active identity:admin account and cannot be deactivated or deleted");
    }
  }

  private AccountJson json(ServiceAccount account) {
    return AccountJson.from(account, clock.instant());
  }

  private static UUID uuid(String clientId) {
    try {
      UUID id = UUID.fromString(clientId);
      if (id.toString().equalsIgnoreCase(clientId)) {
        return id;
      }
    } catch (IllegalArgumentException e) {
      // not a UUID at all: the same 400 as a non-canonical spelling
    }
    throw ApiError.badRequest("client_id must be a UUID");
  }

  private static ApiError unknown(UUID clientId) {
    return ApiError.notFound("no service account " + clientId);
  }
}
