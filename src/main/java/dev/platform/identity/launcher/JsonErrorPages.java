package dev.platform.identity.launcher;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * The answers Tomcat gives itself, before the service sees the request, in SPEC 7.3's shape {@code
 * {"error"}} rather than Tomcat's HTML page: a path Tomcat refuses to normalise ({@code %2F},
 * {@code %5C}, {@code %00}, {@code /%2e%2e/}), a request line or header it cannot parse, a servlet
 * that failed to start. A 5xx carries an incident id, logged with its cause. What the service
 * answered itself (every body it wrote) is left as it is. The host's {@code errorReportValveClass}:
 * Tomcat finds the host's error report valve by that class name for the errors of its connector,
 * and would otherwise add its own, which writes HTML and its version.
 */
public final class JsonErrorPages extends ErrorReportValve {
  private static final Logger LOG = Logger.getLogger(JsonErrorPages.class.getName());

  /** Made by Tomcat's host, as its error report valve class. */
  public JsonErrorPages() {
    setShowReport(false);
    setShowServerInfo(false);
  }

  @Override
  protected void report(Request request, Response response, Throwable throwable) {
    int status = response.getStatus();
    if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
      return;
    }
    String error = error(status, throwable);
    try {
      response.setContentType("application/json");
      response.setCharacterEncoding(StandardCharsets.UTF_8.name());
      response.setHeader("Cache-Control", "no-store");
      Writer writer = response.getReporter();
      if (writer != null) {
        writer.write("{\"error\":\"" + error + "\"}");
        response.finishResponse();
      }
    } catch (IOException | IllegalStateException e) {
      // The client went away, or the response was committed meanwhile: nothing more to send.
    }
  }

  /**
   * Fixed texts only: nothing of the request is echoed. Tomcat's 501 (a Transfer-Encoding it does
   * not know) and 505 (an HTTP version other than 1.0 and 1.1) are the client's doing, which any
   * client can repeat at will: they are answered as refusals, not logged as incidents at SEVERE.
   */
  static String error(int status, Throwable throwable) {
    if (status == 501 && throwable == null) {
      return "The request's Transfer-Encoding is not supported";
    }
    if (status == 505 && throwable == null) {
      return "The request's HTTP version is not supported";
    }
    if (status >= 500) {
      String incident = UUID.randomUUID().toString();
      LOG.log(
          Level.SEVERE,
          "Incident " + incident + ": Tomcat answered " + status + " before the service",
          throwable);
      return "Internal error; incident " + incident + " is logged";
    }
    return switch (status) {
      case 400 ->
          "The request is malformed: its path (an encoded '/', '\\\\' or NUL, or a '..' that"
              + " leaves the root) or a header cannot be read";
      case 404 -> "No resource at this path";
      case 405 -> "Method not allowed at this path";
      case 408 -> "The request did not arrive in time";
      case 413 -> "The request is too large";
      case 414 -> "The request's path is too long";
      case 431 -> "The request's headers are too large";
      default -> "The request was refused (" + status + ")";
    };
  }
}
