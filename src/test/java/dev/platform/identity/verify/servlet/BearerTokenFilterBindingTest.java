package dev.platform.identity.verify.servlet;

import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.boundTo;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.tls.TestPki;
import dev.platform.identity.verify.BearerCheck;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.StubServer;
import dev.platform.identity.verify.TestTokens;
import io.jsonwebtoken.JwtBuilder;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Collections;
import java.util.Date;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 39: the servlet filter reads the client certificate from the request attribute {@code
 * jakarta.servlet.request.X509Certificate} and refuses a bound token without it (RFC 8705 §3); with
 * {@code requireCertificateBinding} it refuses unbound tokens too. Requests are faked: the
 * attribute is the container's, set or not.
 */
class BearerTokenFilterBindingTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final TestPki CA = TestPki.authority("Filter CA");
  private static final X509Certificate CLIENT = CA.client("CN=orders").certificate();
  private static final X509Certificate OTHER = CA.client("CN=orders").certificate();
  private static final String BOUND =
      "Bearer " + TestTokens.signed(boundTo(serviceAccount(), CLIENT), KEYS.getPrivate());
  private static final String UNBOUND =
      "Bearer " + TestTokens.signed(serviceAccount(), KEYS.getPrivate());

  private static BearerVerifier verifier(boolean bindingRequired) {
    return BearerVerifier.builder()
        .issuer(ISSUER)
        .clock(CLOCK)
        .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty())
        .requireCertificateBinding(bindingRequired)
        .build();
  }

  private final BearerTokenFilter filter = new BearerTokenFilter(verifier(false), List.of());

  @Test
  void whenTheBoundTokensCertificateIsTheAttributesFirstThenTheRequestPasses() throws Exception {
    Exchange exchange = Exchange.of(BOUND, new X509Certificate[] {CLIENT, CA.certificate()});

    exchange.through(filter);

    assertTrue(exchange.passed);
    assertNotNull(exchange.attributes.get(BearerTokenFilter.VERIFIED_TOKEN));
  }

  @Test
  void whenTheAttributeIsUnsetThenABoundTokenGets401InvalidToken() throws Exception {
    Exchange exchange = Exchange.of(BOUND, null);

    exchange.through(filter);

    exchange.assertRefused("token bound to a client certificate not presented");
  }

  @Test
  void whenTheAttributeHoldsAnotherCertificateThenABoundTokenGets401InvalidToken()
      throws Exception {
    Exchange exchange = Exchange.of(BOUND, new X509Certificate[] {OTHER, CLIENT});

    exchange.through(filter);

    exchange.assertRefused("token bound to another client certificate");
  }

  @Test
  void whenAnUnboundTokenComesThenItPassesUnlessTheFilterRequiresBinding() throws Exception {
    Exchange open = Exchange.of(UNBOUND, null);
    open.through(filter);
    assertTrue(open.passed);

    Exchange strict = Exchange.of(UNBOUND, new X509Certificate[] {CLIENT});
    strict.through(new BearerTokenFilter(verifier(true), List.of()));
    strict.assertRefused("token not bound to a client certificate");
  }

  @Test
  void whenDeclaredWithRequireCertificateBindingThenAnUnboundTokenIsRefused() throws Exception {
    try (StubServer issuer = TestTokens.issuer(KID, KEYS, () -> 200)) {
      BearerTokenFilter declared = new BearerTokenFilter();
      declared.init(
          config(
              Map.of(
                  BearerTokenFilter.ISSUER_PARAM,
                  issuer.uri().toString(),
                  BearerTokenFilter.REQUIRE_BINDING_PARAM,
                  "true")));
      Instant now = Instant.now(); // this filter's verifier runs on the system clock
      JwtBuilder current =
          serviceAccount()
              .issuer(issuer.uri().toString())
              .issuedAt(Date.from(now.minusSeconds(60)))
              .notBefore(Date.from(now.minusSeconds(60)))
              .expiration(Date.from(now.plusSeconds(3600)));
      String unbound = "Bearer " + TestTokens.signed(current, KEYS.getPrivate());
      String bound = "Bearer " + TestTokens.signed(boundTo(current, CLIENT), KEYS.getPrivate());

      Exchange refused = Exchange.of(unbound, new X509Certificate[] {CLIENT});
      refused.through(declared);
      Exchange passed = Exchange.of(bound, new X509Certificate[] {CLIENT});
      passed.through(declared);

      refused.assertRefused("token not bound to a client certificate");
      assertTrue(passed.passed);
    }
  }

  @Test
  void whenRequireCertificateBindingIsNeitherTrueNorFalseThenInitFailsNamingIt() {
    ServletException e =
        assertThrows(
            ServletException.class,
            () ->
                new BearerTokenFilter()
                    .init(
                        config(
                            Map.of(
                                BearerTokenFilter.ISSUER_PARAM,
                                "https://identity.example.test",
                                BearerTokenFilter.REQUIRE_BINDING_PARAM,
                                "yes"))));

    assertTrue(e.getMessage().contains(BearerTokenFilter.REQUIRE_BINDING_PARAM), e.getMessage());
  }

  @Test
  void whenTheAttributeIsOfAnotherTypeOrEmptyThenNoCertificateIsPresented() {
    assertNull(BearerCheck.presentedCertificate(new X509Certificate[0]));
    assertNull(BearerCheck.presentedCertificate(CLIENT));
    assertNull(BearerCheck.presentedCertificate(null));
    assertEquals(CLIENT, BearerCheck.presentedCertificate(new X509Certificate[] {CLIENT}));
  }

  private static FilterConfig config(Map<String, String> params) {
    return new FilterConfig() {
      @Override
      public String getFilterName() {
        return "bearer";
      }

      @Override
      public ServletContext getServletContext() {
        return null;
      }

      @Override
      public String getInitParameter(String name) {
        return params.get(name);
      }

      @Override
      public Enumeration<String> getInitParameterNames() {
        return Collections.enumeration(params.keySet());
      }
    };
  }

  /** A faked request with its attributes and the answer the filter wrote, if any. */
  private static final class Exchange {
    final Map<String, Object> attributes = new HashMap<>();
    final Map<String, String> headers = new HashMap<>();
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    String authorization;
    int status;
    boolean passed;

    static Exchange of(String authorization, X509Certificate[] chain) {
      Exchange exchange = new Exchange();
      exchange.authorization = authorization;
      if (chain != null) {
        exchange.attributes.put(BearerCheck.CERTIFICATE_ATTRIBUTE, chain);
      }
      return exchange;
    }

    void through(BearerTokenFilter filter) throws Exception {
      filter.doFilter(request(), response(), (request, response) -> passed = true);
    }

    void assertRefused(String message) {
      assertEquals(false, passed);
      assertEquals(401, status);
      assertEquals(
          "Bearer error=\"invalid_token\"" + TestTokens.DPOP_CHALLENGE,
          headers.get("WWW-Authenticate"));
      assertEquals(
          "{\"success\":false,\"message\":\"" + message + "\"}",
          body.toString(StandardCharsets.UTF_8));
    }

    private HttpServletRequest request() {
      return (HttpServletRequest)
          Proxy.newProxyInstance(
              getClass().getClassLoader(),
              new Class<?>[] {HttpServletRequest.class},
              (proxy, method, args) ->
                  switch (method.getName()) {
                    case "getHeaders" ->
                        Collections.enumeration(
                            authorization == null ? List.of() : List.of(authorization));
                    case "getAttribute" -> attributes.get((String) args[0]);
                    case "setAttribute" -> attributes.put((String) args[0], args[1]);
                    default -> null;
                  });
    }

    private HttpServletResponse response() {
      ServletOutputStream out =
          new ServletOutputStream() {
            @Override
            public boolean isReady() {
              return true;
            }

            @Override
            public void setWriteListener(WriteListener listener) {}

            @Override
            public void write(int b) {
              body.write(b);
            }
          };
      return (HttpServletResponse)
          Proxy.newProxyInstance(
              getClass().getClassLoader(),
              new Class<?>[] {HttpServletResponse.class},
              (proxy, method, args) ->
                  switch (method.getName()) {
                    case "setStatus" -> {
                      status = (Integer) args[0];
                      yield null;
                    }
                    case "setHeader" -> headers.put((String) args[0], (String) args[1]);
                    case "getOutputStream" -> out;
                    default -> null;
                  });
    }
  }
}
