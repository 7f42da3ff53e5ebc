package dev.platform.identity.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * A public JSON document every verifier fetches (the key list, the revocation feed): GET and HEAD
 * only, answered from bytes made when the document changed, without Jersey's routing and
 * message-body lookup (docs/performance.md). Any other method is a 405 with {@code Allow} and SPEC
 * 7.3's error shape.
 */
public abstract class PublishedDocumentServlet extends HttpServlet {
  private final byte[] onlyGet;

  /**
   * @param name the document as the 405's error names it, e.g. "The public key list"
   */
  protected PublishedDocumentServlet(String name) {
    try {
      onlyGet = new ObjectMapper().writeValueAsBytes(new ErrorBody(name + " accepts only GET"));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  protected final void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String method = request.getMethod();
    if (!method.equals("GET") && !method.equals("HEAD")) {
      response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
      response.setHeader("Allow", "GET, HEAD");
      write(response, onlyGet);
      return;
    }
    answer(request, response);
  }

  /** Answers a GET or HEAD: headers, then {@link #write} (Tomcat sends no body to HEAD). */
  protected abstract void answer(HttpServletRequest request, HttpServletResponse response)
      throws IOException;

  /** {@code body} as the answer's JSON. */
  protected static void write(HttpServletResponse response, byte[] body) throws IOException {
    response.setContentType("application/json");
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }
}
