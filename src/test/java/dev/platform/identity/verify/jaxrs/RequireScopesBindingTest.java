package dev.platform.identity.verify.jaxrs;

import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.EmbeddedTomcat;
import dev.platform.identity.verify.EmbeddedTomcat.Answer;
import dev.platform.identity.verify.PublicKeyLocator;
import dev.platform.identity.verify.TestTokens;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.security.KeyPair;
import java.util.List;
import java.util.Optional;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attacker review of issue 23: where Jersey binds {@link BearerTokenFilter} by an {@link
 * RequireScopes} that the filter itself does not read, the filter runs with fewer scopes than the
 * annotation asks, or not at all. Each resource here answers "SECRET" and needs {@code
 * admin:secret}; a token with another scope must get 403, a request without a token 401.
 */
class RequireScopesBindingTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static EmbeddedTomcat tomcat;

  @BeforeAll
  static void start(@TempDir java.nio.file.Path base) throws Exception {
    PublicKeyLocator keys =
        kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty();
    BearerVerifier verifier =
        BearerVerifier.builder().issuer(ISSUER).clock(CLOCK).keyLocator(keys).build();
    ResourceConfig config =
        new ResourceConfig(InterfaceImpl.class, Child.class, Root.class, RootOfPlain.class)
            .register(new BearerTokenFilter(verifier));
    tomcat =
        EmbeddedTomcat.start(
            base,
            context ->
                EmbeddedTomcat.addServlet(context, "api", new ServletContainer(config), "/api/*"));
  }

  @AfterAll
  static void stop() throws Exception {
    tomcat.close();
  }

  private static String bearer(String... scopes) {
    return "Authorization: Bearer "
        + TestTokens.signed(serviceAccount().claim("scopes", List.of(scopes)), KEYS.getPrivate());
  }

  private static void assertForbidden(Answer answer) {
    assertEquals(403, answer.status(), answer.body());
  }

  /**
   * Found by the attacker review, fixed since: Jersey binds the filter by the interface method's
   * annotation (a token is needed: 401 without one), but the filter reads the implementing method,
   * which has none, so any valid token passes whatever its scopes.
   */
  @Test
  void whenTheScopeIsOnTheInterfaceMethodThenATokenWithoutItIsForbidden() throws IOException {
    assertEquals(401, tomcat.get("/api/iface/secret").status());
    assertForbidden(tomcat.get("/api/iface/secret", bearer("other:x")));
  }

  /**
   * Found by the attacker review, fixed since: the same with JAX-RS annotation inheritance from a
   * superclass method.
   */
  @Test
  void whenTheScopeIsOnTheOverriddenSuperclassMethodThenATokenWithoutItIsForbidden()
      throws IOException {
    assertEquals(401, tomcat.get("/api/child/secret").status());
    assertForbidden(tomcat.get("/api/child/secret", bearer("other:x")));
  }

  /**
   * Found by the attacker review, fixed since: the locator's class asks for {@code admin:secret};
   * the filter reads only the sub-resource's class and method, so {@code sub:read} alone passes.
   */
  @Test
  void whenASubResourceLocatorsClassNeedsAScopeThenTheSubResourceNeedsItToo() throws IOException {
    assertForbidden(tomcat.get("/api/root/sub/secret", bearer("sub:read")));
  }

  /**
   * Found by the attacker review, fixed since: the sub-resource has no annotation of its own, so
   * the filter is not bound at all and an anonymous request gets the secret, though the class that
   * routes to it is annotated.
   */
  @Test
  void whenASubResourceHasNoAnnotationOfItsOwnThenItIsStillGuarded() throws IOException {
    assertEquals(401, tomcat.get("/api/plain/sub/secret").status());
  }

  /** JAX-RS method annotations on an interface. */
  public interface SecretApi {
    @GET
    @Path("secret")
    @Produces(MediaType.TEXT_PLAIN)
    @RequireScopes("admin:secret")
    String secret();
  }

  @Path("iface")
  public static class InterfaceImpl implements SecretApi {
    @Override
    public String secret() {
      return "SECRET";
    }
  }

  public static class Parent {
    @GET
    @Path("secret")
    @Produces(MediaType.TEXT_PLAIN)
    @RequireScopes("admin:secret")
    public String secret() {
      return "SECRET of the parent";
    }
  }

  @Path("child")
  public static class Child extends Parent {
    @Override
    public String secret() {
      return "SECRET";
    }
  }

  @Path("root")
  @RequireScopes("admin:secret")
  public static class Root {
    @Path("sub")
    public ScopedSub sub() {
      return new ScopedSub();
    }
  }

  @Path("plain")
  @RequireScopes("admin:secret")
  public static class RootOfPlain {
    @Path("sub")
    public PlainSub sub() {
      return new PlainSub();
    }
  }

  public static class ScopedSub {
    @GET
    @Path("secret")
    @Produces(MediaType.TEXT_PLAIN)
    @RequireScopes("sub:read")
    public String secret() {
      return "SECRET";
    }
  }

  public static class PlainSub {
    @GET
    @Path("secret")
    @Produces(MediaType.TEXT_PLAIN)
    public String secret() {
      return "SECRET";
    }
  }
}
