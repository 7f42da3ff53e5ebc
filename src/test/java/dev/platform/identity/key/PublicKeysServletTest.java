package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.http.CapturedResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

class PublicKeysServletTest {
  @Test
  void whenAnotherMethodThan405InTheErrorShapeAllowingGetAndHead() throws Exception {
    HttpServletRequest request =
        (HttpServletRequest)
            Proxy.newProxyInstance(
                HttpServletRequest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class},
                (self, method, args) -> method.getName().equals("getMethod") ? "POST" : null);
    CapturedResponse response = new CapturedResponse();

    new PublicKeysServlet(null).service(request, response.proxy());

    assertEquals(
        "405 {Allow=GET, HEAD, Content-Type=application/json}"
            + " {\"error\":\"The public key list accepts only GET\"}",
        response.toString());
    assertEquals(48, response.length());
  }
}
