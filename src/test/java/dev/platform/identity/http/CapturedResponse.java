package dev.platform.identity.http;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * A servlet response that keeps what is written to it: status, headers, declared length, body
 * bytes. Any other call fails, so a test sees when a writer starts doing something new.
 */
public final class CapturedResponse {
  private final Map<String, String> headers = new TreeMap<>();
  private final ByteArrayOutputStream body = new ByteArrayOutputStream();
  private int status = 200;
  private int length = -1;

  /** The response to hand to the code under test. */
  public HttpServletResponse proxy() {
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
            HttpServletResponse.class.getClassLoader(),
            new Class<?>[] {HttpServletResponse.class},
            (self, method, args) -> {
              switch (method.getName()) {
                case "setStatus" -> status = (Integer) args[0];
                case "setHeader" -> headers.put((String) args[0], (String) args[1]);
                case "setContentType" -> headers.put("Content-Type", (String) args[0]);
                case "setContentLength" -> length = (Integer) args[0];
                case "getOutputStream" -> {
                  return out;
                }
                default -> throw new UnsupportedOperationException(method.getName());
              }
              return null;
            });
  }

  public int status() {
    return status;
  }

  /** The headers set, by name, sorted; the content type as {@code Content-Type}. */
  public Map<String, String> headers() {
    return headers;
  }

  /** The declared Content-Length, or -1 if none was set. */
  public int length() {
    return length;
  }

  public String body() {
    return body.toString(StandardCharsets.UTF_8);
  }

  /** Status, headers and body; the declared length too when it is not the body's. */
  @Override
  public String toString() {
    String text = body();
    if (length != body.size()) {
      text += " (Content-Length " + length + ")";
    }
    return status + " " + headers + " " + text;
  }
}
