package dev.platform.identity.verify;

import jakarta.servlet.Servlet;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/**
 * Embedded Tomcat on 127.0.0.1 (a free port) with one root context that a test sets up, its
 * connector marked secure (requests say {@code isSecure()}, as behind TLS), and a raw HTTP/1.0
 * client: the request line and headers go on the wire exactly as written, so a test can send odd
 * paths and repeated headers that an HTTP client library would tidy up.
 */
public final class EmbeddedTomcat implements AutoCloseable {
  /** An answer: its status, its headers by lower-case name, its body as UTF-8. */
  public record Answer(int status, Map<String, List<String>> headers, String body) {
    /** The first value of the header, or null. */
    public String header(String name) {
      List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
      return values == null ? null : values.get(0);
    }
  }

  private final Tomcat tomcat = new Tomcat();

  private EmbeddedTomcat(Path base, Consumer<Context> setup) throws LifecycleException {
    tomcat.setBaseDir(base.toString());
    tomcat.setPort(0);
    tomcat.getConnector().setProperty("address", "127.0.0.1");
    tomcat.getConnector().setSecure(true); // as behind TLS, so a test sees isSecure() carried on
    setup.accept(tomcat.addContext("", null));
    tomcat.start();
  }

  /** Starts Tomcat with the root context as {@code setup} makes it (servlets, filters). */
  public static EmbeddedTomcat start(Path base, Consumer<Context> setup) throws LifecycleException {
    return new EmbeddedTomcat(base, setup);
  }

  /** Adds {@code servlet} to {@code context} under {@code name}, for the URL patterns. */
  public static void addServlet(
      Context context, String name, Servlet servlet, String... urlPatterns) {
    Tomcat.addServlet(context, name, servlet);
    for (String pattern : urlPatterns) {
      context.addServletMappingDecoded(pattern, name);
    }
  }

  /** Adds {@code filter} to {@code context} under {@code name}, for the URL pattern. */
  public static void addFilter(Context context, String name, FilterDef filter, String urlPattern) {
    filter.setFilterName(name);
    context.addFilterDef(filter);
    FilterMap map = new FilterMap();
    map.setFilterName(name);
    map.addURLPatternDecoded(urlPattern);
    context.addFilterMap(map);
  }

  /**
   * Sends {@code method path HTTP/1.0} with the header lines given (such as {@code "Authorization:
   * Bearer x"}), and reads the whole answer.
   */
  public Answer send(String method, String path, String... headerLines) throws IOException {
    StringBuilder request = new StringBuilder(method + " " + path + " HTTP/1.0\r\n");
    request.append("Host: 127.0.0.1\r\n");
    for (String line : headerLines) {
      request.append(line).append("\r\n");
    }
    request.append("\r\n");
    try (Socket socket = new Socket("127.0.0.1", tomcat.getConnector().getLocalPort())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = socket.getInputStream();
      return parse(in.readAllBytes());
    }
  }

  /** {@code GET path} with the header lines given. */
  public Answer get(String path, String... headerLines) throws IOException {
    return send("GET", path, headerLines);
  }

  private static Answer parse(byte[] raw) {
    String all = new String(raw, StandardCharsets.ISO_8859_1);
    int end = all.indexOf("\r\n\r\n");
    String[] head = all.substring(0, end).split("\r\n");
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (int i = 1; i < head.length; i++) {
      int colon = head[i].indexOf(':');
      headers
          .computeIfAbsent(
              head[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), n -> new ArrayList<>())
          .add(head[i].substring(colon + 1).strip());
    }
    String body = new String(raw, end + 4, raw.length - end - 4, StandardCharsets.UTF_8);
    return new Answer(Integer.parseInt(head[0].split(" ")[1]), headers, body);
  }

  @Override
  public void close() throws LifecycleException {
    tomcat.stop();
    tomcat.destroy();
  }
}
