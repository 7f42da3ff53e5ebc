package dev.platform.identity.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.admin.AccountJson;
import dev.platform.identity.admin.ApiError;
import dev.platform.identity.admin.NewAccount;
import dev.platform.identity.admin.ServiceAccountsResource;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The console's accounts: list, detail, create, the lifecycle changes and the secret rotation, each
 * through the method of {@link ServiceAccountsResource} that the API's callers reach, so the
 * console shows and changes exactly what the API would let the same caller see and change.
 */
@Path(ConsoleAuth.ROOT + "/accounts")
@Produces(MediaType.TEXT_HTML)
public final class ConsoleAccountsResource {
  /** The changes a confirmation page asks about, with the words of its button. */
  static final Map<String, String> ACTIONS =
      Map.of(
          "deactivate", "Deactivate",
          "reactivate", "Reactivate",
          "delete", "Delete",
          "secret", "Rotate the secret",
          "revoke-tokens", "Revoke all tokens");

  /** What a page says after a change redirected to it: fixed words, never the query's. */
  static final Map<String, String> DONE =
      Map.of(
          "deactivated", "The account is deactivated: its tokens and secret are refused.",
          "reactivated", "The account is active again.",
          "deleted", "The account is deleted.",
          "tokens-revoked", "Every token the account was issued until now is revoked.");

  /** The new-account form's field that chooses how the account authenticates. */
  static final String METHOD = "token_endpoint_auth_method";

  /** A secret over HTTP Basic: the form's default, as before issue 39. */
  static final String SECRET = ServiceAccount.CLIENT_SECRET_BASIC;

  /** The methods the form offers, with their words; private_key_jwt is the API's alone. */
  static final Map<String, String> METHODS =
      ordered(
          SECRET,
          "Secret",
          ServiceAccount.TLS_CLIENT_AUTH,
          "CA-issued certificate (tls_client_auth)",
          ServiceAccount.SELF_SIGNED_TLS_CLIENT_AUTH,
          "Self-signed certificate (self_signed_tls_client_auth)");

  /** RFC 8705 §2.1.2's subject forms, as the form's select names them, in the API's order. */
  static final Map<String, String> SUBJECT_FORMS =
      ordered(
          "subject_dn", "Subject DN",
          "san_dns", "DNS name (SAN)",
          "san_uri", "URI (SAN)",
          "san_ip", "IP address (SAN)",
          "san_email", "Email address (SAN)");

  static final String BIND = "tls_client_certificate_bound_access_tokens";

  /** RFC 9449 §5.2: every token request must carry a DPoP proof; for any method. */
  static final String DPOP = "dpop_bound_access_tokens";

  static final String SUBJECT_FORM = "tls_client_auth_subject_form";
  static final String SUBJECT = "tls_client_auth_subject";
  static final String CERTIFICATE = "certificate";

  /** Every field of the new-account form but its CSRF token. */
  static final List<String> FIELDS =
      List.of(
          "name",
          "organization_id",
          "scopes",
          "accessible_orgs",
          "service_name",
          METHOD,
          BIND,
          DPOP,
          SUBJECT_FORM,
          SUBJECT,
          CERTIFICATE);

  private final ServiceAccountsResource accounts;
  private final Pages pages;

  ConsoleAccountsResource(ServiceAccountsResource accounts, Pages pages) {
    this.accounts = accounts;
    this.pages = pages;
  }

  @GET
  @Performs(resource = ServiceAccountsResource.class, method = "list")
  public Response list(
      @QueryParam("organization_id") String organization,
      @QueryParam("status") String status,
      @QueryParam("done") String done,
      @Context ContainerRequestContext request) {
    return pages.answer(
        request,
        () -> {
          String wanted = status == null ? "" : status;
          if (!List.of("", "active", "deactivated").contains(wanted)) {
            throw new FormFields.InvalidFormException("status must be active or deactivated");
          }
          List<AccountJson> found =
              accounts.list(blankToNull(organization), request).items().stream()
                  .filter(account -> wanted.isEmpty() || account.status().equals(wanted))
                  .toList();
          Map<String, Object> parameters = page(request, "Service accounts");
          parameters.put("accounts", found);
          parameters.put("organization", organization == null ? "" : organization);
          parameters.put("status", wanted);
          parameters.put("done", notice(done));
          parameters.put(
              "mayCreate", Pages.allows(request, ServiceAccountsResource.class, "create"));
          return pages.render("accounts.jte", parameters);
        });
  }

  @GET
  @Path("new")
  @Performs(resource = ServiceAccountsResource.class, method = "create")
  public Response newAccount(@Context ContainerRequestContext request) {
    return form(request, 200, null, Map.of());
  }

  /**
   * The secret is shown on the answer to this POST, once: never in a URL, never again. The form
   * posts to its own address, so that opening the list afterwards is not a reload of this POST.
   */
  @POST
  @Path("new")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  @Performs(resource = ServiceAccountsResource.class, method = "create")
  public Response create(
      MultivaluedMap<String, String> form, @Context ContainerRequestContext request) {
    Map<String, String> given = new HashMap<>();
    try {
      for (String field : FIELDS) {
        given.put(field, FormFields.one(form, field));
      }
      NewAccount body = body(given);
      AccountJson.Created created =
          (AccountJson.Created) accounts.create(body, request).getEntity();
      Map<String, Object> parameters = page(request, "Account created");
      parameters.put("created", created);
      subject(
          parameters,
          created.tlsClientAuthSubjectDn(),
          created.tlsClientAuthSanDns(),
          created.tlsClientAuthSanUri(),
          created.tlsClientAuthSanIp(),
          created.tlsClientAuthSanEmail());
      return pages.render(201, "created.jte", parameters);
    } catch (ApiError e) {
      return form(request, e.status(), e.getMessage(), given);
    } catch (FormFields.InvalidFormException e) {
      return form(request, 400, e.getMessage(), given);
    }
  }

  /**
   * The API's body for the form's fields: the account's profile, and the fields of the one
   * authentication method chosen. The console only places what the operator typed in the API's
   * fields (a certificate as the JWK Set the API takes); the API checks every one of them.
   *
   * @throws FormFields.InvalidFormException for a method the form does not offer, a subject form it
   *     does not list, a field of another method than the one chosen, or a certificate that is not
   *     one PEM certificate
   */
  static NewAccount body(Map<String, String> given) {
    String method = given.getOrDefault(METHOD, "");
    if (method.isEmpty()) {
      method = SECRET;
    }
    if (!METHODS.containsKey(method)) {
      throw new FormFields.InvalidFormException(
          "the authentication method must be one of the form's: "
              + String.join(", ", METHODS.keySet()));
    }
    String subjectForm = given.getOrDefault(SUBJECT_FORM, "");
    if (!subjectForm.isEmpty() && !SUBJECT_FORMS.containsKey(subjectForm)) {
      throw new FormFields.InvalidFormException(
          "the subject form must be one of " + String.join(", ", SUBJECT_FORMS.keySet()));
    }
    String subject = given.getOrDefault(SUBJECT, "");
    String certificate = given.getOrDefault(CERTIFICATE, "");
    if (!method.equals(ServiceAccount.TLS_CLIENT_AUTH) && !subject.isEmpty()) {
      throw new FormFields.InvalidFormException(
          "a certificate subject is only for a CA-issued certificate (tls_client_auth): choose"
              + " that method, or empty the subject field");
    }
    if (!method.equals(ServiceAccount.SELF_SIGNED_TLS_CLIENT_AUTH) && !certificate.isEmpty()) {
      throw new FormFields.InvalidFormException(
          "a pasted certificate is only for a self-signed certificate"
              + " (self_signed_tls_client_auth): choose that method, or empty the certificate"
              + " field");
    }
    String[] subjects = new String[SUBJECT_FORMS.size()];
    if (method.equals(ServiceAccount.TLS_CLIENT_AUTH) && !subject.isEmpty()) {
      if (subjectForm.isEmpty()) {
        throw new FormFields.InvalidFormException("choose the form of the certificate's subject");
      }
      subjects[List.copyOf(SUBJECT_FORMS.keySet()).indexOf(subjectForm)] = subject;
    }
    JsonNode jwks =
        method.equals(ServiceAccount.SELF_SIGNED_TLS_CLIENT_AUTH)
            ? CertificateKeySet.of(certificate)
            : null;
    return new NewAccount(
        given.get("name"),
        blankToNull(given.get("organization_id")),
        words(given.getOrDefault("scopes", "")),
        words(given.getOrDefault("accessible_orgs", "")),
        blankToNull(given.get("service_name")),
        method,
        jwks,
        null,
        subjects[0],
        subjects[1],
        subjects[2],
        subjects[3],
        subjects[4],
        checkbox(given, BIND),
        checkbox(given, DPOP));
  }

  /** A checkbox sends its value only when ticked: unticked (null) leaves the API's default. */
  private static Boolean checkbox(Map<String, String> given, String field) {
    String value = given.getOrDefault(field, "");
    if (!value.isEmpty() && !value.equals("true")) {
      throw new FormFields.InvalidFormException(field + " is a checkbox: true, or not sent");
    }
    return value.isEmpty() ? null : Boolean.TRUE;
  }

  @GET
  @Path("{clientId}")
  @Performs(resource = ServiceAccountsResource.class, method = "get")
  public Response detail(
      @PathParam("clientId") String clientId,
      @QueryParam("done") String done,
      @Context ContainerRequestContext request) {
    return pages.answer(
        request,
        () -> {
          AccountJson account = accounts.get(clientId, request);
          Map<String, Object> parameters = page(request, "Account " + account.name());
          parameters.put("account", account);
          parameters.put("done", notice(done));
          subject(
              parameters,
              account.tlsClientAuthSubjectDn(),
              account.tlsClientAuthSanDns(),
              account.tlsClientAuthSanUri(),
              account.tlsClientAuthSanIp(),
              account.tlsClientAuthSanEmail());
          return pages.render("account.jte", parameters);
        });
  }

  /** The confirmation before a change, naming the account it changes. */
  @GET
  @Path("{clientId}/confirm/{action}")
  @Performs(resource = ServiceAccountsResource.class, method = "get")
  public Response confirm(
      @PathParam("clientId") String clientId,
      @PathParam("action") String action,
      @Context ContainerRequestContext request) {
    return pages.answer(
        request,
        () -> {
          if (!ACTIONS.containsKey(action)) {
            throw ApiError.of(404, "no such change: " + action);
          }
          AccountJson account = accounts.get(clientId, request);
          Map<String, Object> parameters =
              page(request, ACTIONS.get(action) + " " + account.name());
          parameters.put("account", account);
          parameters.put("action", action);
          parameters.put("verb", ACTIONS.get(action));
          return pages.render("confirmAccount.jte", parameters);
        });
  }

  @POST
  @Path("{clientId}/deactivate")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  @Performs(resource = ServiceAccountsResource.class, method = "deactivate")
  public Response deactivate(
      @PathParam("clientId") String clientId, @Context ContainerRequestContext request) {
    return pages.answer(
        request,
        () -> {
          accounts.deactivate(clientId, request);
          return toDetail(request, clientId, "deactivated");
        });
  }

  @POST
  @Path("{clientId}/reactivate")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  @Performs(resource = ServiceAccountsResource.class, method = "reactivate")
  public Response reactivate(
      @PathParam("clientId") String clientId, @Context ContainerRequestContext request) {
    return pages.answer(
        request,
        () -> {
          accounts.reactivate(clientId, request);
          return toDetail(request, clientId, "reactivated");
        });
  }

  /** Issue 38: every token of the account issued until now is revoked; its secret stays. */
  @POST
  @Path("{clientId}/revoke-tokens")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  @Performs(resource = ServiceAccountsResource.class, method = "revokeAllTokens")
  public Response revokeTokens(
      @PathParam("clientId") String clientId, @Context ContainerRequestContext request) {
    return pages.answer(
        request,
        () -> {
          accounts.revokeAllTokens(clientId, request);
          return toDetail(request, clientId, "tokens-revoked");
        });
  }

  @POST
  @Path("{clientId}/delete")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  @Performs(resource = ServiceAccountsResource.class, method = "delete")
  public Response delete(
      @PathParam("clientId") String clientId, @Context ContainerRequestContext request) {
    return pages.answer(
        request,
        () -> {
          accounts.delete(clientId, request);
          return Response.seeOther(URI.create(base(request) + "/accounts?done=deleted")).build();
        });
  }

  /**
   * A new secret, shown once on this answer. The overlap field is the API's {@code
   * previous_secret_valid_for}: empty ends the replaced secret at once.
   */
  @POST
  @Path("{clientId}/secret")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  @Performs(resource = ServiceAccountsResource.class, method = "rotateSecret")
  public Response rotateSecret(
      @PathParam("clientId") String clientId,
      MultivaluedMap<String, String> form,
      @Context ContainerRequestContext request) {
    return pages.answer(
        request,
        () -> {
          String overlap = FormFields.one(form, "previous_secret_valid_for");
          String body =
              overlap.isEmpty()
                  ? ""
                  : "{\"previous_secret_valid_for\":\"" + jsonText(overlap) + "\"}";
          AccountJson.NewSecret secret = accounts.rotateSecret(clientId, body, request);
          Map<String, Object> parameters = page(request, "New secret");
          parameters.put("secret", secret);
          return pages.render("secret.jte", parameters);
        });
  }

  /**
   * A tls_client_auth account's subject for its page: {@code subjectForm} in the form's words and
   * {@code subjectValue}, both null for an account of another method.
   *
   * @param values the five forms' fields, in {@link #SUBJECT_FORMS}' order, at most one not null
   */
  static void subject(Map<String, Object> parameters, String... values) {
    List<String> words = List.copyOf(SUBJECT_FORMS.values());
    parameters.put("subjectForm", null);
    parameters.put("subjectValue", null);
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        parameters.put("subjectForm", words.get(i));
        parameters.put("subjectValue", values[i]);
      }
    }
  }

  /** The fixed words for a change the redirect names, or null for anything else. */
  static String notice(String done) {
    return done == null ? null : DONE.get(done);
  }

  private Response form(
      ContainerRequestContext request, int status, String message, Map<String, String> given) {
    Map<String, Object> parameters = page(request, "Create an account");
    parameters.put("message", message);
    Map<String, String> shown = new HashMap<>(given);
    // A private key pasted by mistake is not sent back into a page.
    if (CertificateKeySet.holdsPrivateKey(shown.getOrDefault(CERTIFICATE, ""))) {
      shown.remove(CERTIFICATE);
    }
    parameters.put("given", shown);
    parameters.put("methods", METHODS);
    parameters.put("subjectForms", SUBJECT_FORMS);
    return pages.render(status, "newAccount.jte", parameters);
  }

  private static Map<String, Object> page(ContainerRequestContext request, String title) {
    Map<String, Object> parameters = new HashMap<>();
    parameters.put("frame", Pages.frame(request, title, "/accounts"));
    return parameters;
  }

  private static Response toDetail(ContainerRequestContext request, String clientId, String done) {
    return Response.seeOther(
            URI.create(
                base(request)
                    + "/accounts/"
                    + java.util.UUID.fromString(clientId)
                    + "?done="
                    + done))
        .build();
  }

  private static String base(ContainerRequestContext request) {
    return ConsoleAuth.contextPath(request) + ConsoleAuth.ROOT;
  }

  /** Words separated by spaces or commas, as an operator types a list. */
  static List<String> words(String text) {
    return text.isBlank()
        ? List.of()
        : Arrays.stream(text.split("[\\s,]+")).filter(word -> !word.isEmpty()).toList();
  }

  /** Keys and words, in the order given. */
  private static Map<String, String> ordered(String... pairs) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return Collections.unmodifiableMap(map);
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text;
  }

  /** A duration as a JSON string's content: only what ISO-8601 durations hold passes. */
  private static String jsonText(String text) {
    if (!text.matches("[A-Za-z0-9.,:+-]{1,40}")) {
      throw new FormFields.InvalidFormException(
          "previous_secret_valid_for must be an ISO-8601 duration such as PT24H");
    }
    return text;
  }
}
