package dev.platform.identity.it;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * HTTP/1.1 over a plain socket bound to a chosen local address, one connection per request (issue
 * 35): the chaos probe speaks from 127.0.0.2 so that budgets kept per address for the attacker at
 * 127.0.0.1 never touch it, and JDK 17's HttpClient cannot bind a local address.
 */
final class BoundHttp {
  static final String PROBE_ADDRESS = "127.0.0.2";

  private final InetAddress local;
  private final int port;

  BoundHttp(String localAddress, int port) {
    try {
      this.local = InetAddress.getByName(localAddress);
    } catch (IOException e) {
      throw new IllegalArgumentException(localAddress, e);
    }
    this.port = port;
  }

  /** An answer, or the failure that stood for one, and how long it took. */
  record Exchange(int status, String body, String setCookie, Duration took, String failure) {
    boolean answered() {
      return failure == null;
    }

    @Override
    public String toString() {
      return answered() ? status + " " + body : failure;
    }
  }

  Exchange get(String target, Duration timeout, String... headers) {
    return send("GET", target, List.of(headers), null, timeout);
  }

  Exchange postForm(String target, String form, Duration timeout, String... headers) {
    return send(
        "POST",
        target,
        concat(headers, "Content-Type: application/x-www-form-urlencoded"),
        form,
        timeout);
  }

  Exchange postJson(String target, String json, Duration timeout, String... headers) {
    return send("POST", target, concat(headers, "Content-Type: application/json"), json, timeout);
  }

  private static List<String> concat(String[] headers, String header) {
    return java.util.stream.Stream.concat(
            java.util.stream.Stream.of(headers), java.util.stream.Stream.of(header))
        .toList();
  }

  /**
   * {@code method target} with the header lines and the body (or none); {@code timeout} bounds the
   * connect and every read. The connection is closed after the answer.
   */
  Exchange send(String method, String target, List<String> headers, String body, Duration timeout) {
    long start = System.nanoTime();
    byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\n");
    head.append("Host: 127.0.0.1:").append(port).append("\r\n");
    headers.forEach(header -> head.append(header).append("\r\n"));
    if (body != null) {
      head.append("Content-Length: ").append(bytes.length).append("\r\n");
    }
    head.append("Connection: close\r\n\r\n");
    try (Socket socket = new Socket()) {
      socket.bind(new InetSocketAddress(local, 0));
      socket.connect(new InetSocketAddress("127.0.0.1", port), (int) timeout.toMillis());
      socket.setSoTimeout((int) timeout.toMillis());
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.write(bytes);
      out.flush();
      byte[] answer = socket.getInputStream().readAllBytes();
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      if (answer.length == 0) {
        return new Exchange(0, "", "", took, "closed without an answer");
      }
      RawHttp.Answer parsed = RawHttp.parse(answer);
      return new Exchange(parsed.status(), parsed.body(), parsed.header("set-cookie"), took, null);
    } catch (IOException | RuntimeException e) {
      return new Exchange(0, "", "", Duration.ofNanos(System.nanoTime() - start), e.toString());
    }
  }
}
