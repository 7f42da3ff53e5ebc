package dev.platform.identity.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.key.PublicKeysServlet;
import dev.platform.identity.revoke.RevocationsServlet;
import jakarta.servlet.Servlet;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every published document answers another method than GET and HEAD alike. */
class PublishedDocumentServletTest {
  @Test
  void whenAnotherMethodThen405InTheErrorShapeAllowingGetAndHead() throws Exception {
    Map<Servlet, String> documents =
        Map.of(
            new PublicKeysServlet(null), "The public key list",
            new RevocationsServlet(null), "The revocation feed");
    for (Map.Entry<Servlet, String> document : documents.entrySet()) {
      for (String method : new String[] {"POST", "PUT", "DELETE", "OPTIONS", "get"}) {
        HttpServletRequest request =
            (HttpServletRequest)
                Proxy.newProxyInstance(
                    HttpServletRequest.class.getClassLoader(),
                    new Class<?>[] {HttpServletRequest.class},
                    (self, called, args) -> called.getName().equals("getMethod") ? method : null);
        CapturedResponse response = new CapturedResponse();

        document.getKey().service(request, response.proxy());

        String body = "{\"error\":\"" + document.getValue() + " accepts only GET\"}";
        assertEquals(
            "405 {Allow=GET, HEAD, Content-Type=application/json} " + body,
            response.toString(),
            method);
        assertEquals(body.length(), response.length());
      }
    }
  }
}
