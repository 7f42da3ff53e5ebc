package dev.platform.identity.it;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.net.ssl.SSLSession;

/**
 * One HTTP/1.1 request written byte for byte. Java's HTTP client normalizes {@code ..} and {@code
 * //} away and refuses a bare {@code %}, which are exactly the request targets that must reach the
 * server as sent.
 */
final class RawHttp {
  private final String host;
  private final int port;

  RawHttp(URI base) {
    this.host = base.getHost();
    this.port = base.getPort();
  }

  /** The answer: status, headers by lower-case name (the last of a repeated one), body as text. */
  record Answer(int status, Map<String, String> headers, String body) {
    String header(String name) {
      return headers.getOrDefault(name.toLowerCase(Locale.ROOT), "");
    }

    /** This answer as the JDK client's response type, to {@code request}. */
    HttpResponse<String> asResponse(HttpRequest request) {
      HttpHeaders all =
          HttpHeaders.of(
              headers.entrySet().stream()
                  .collect(
                      java.util.stream.Collectors.toMap(
                          Map.Entry::getKey, entry -> List.of(entry.getValue()))),
              (name, value) -> true);
      return new HttpResponse<>() {
        @Override
        public int statusCode() {
          return status;
        }

        @Override
        public HttpRequest request() {
          return request;
        }

        @Override
        public Optional<HttpResponse<String>> previousResponse() {
          return Optional.empty();
        }

        @Override
        public HttpHeaders headers() {
          return all;
        }

        @Override
        public String body() {
          return body;
        }

        @Override
        public Optional<SSLSession> sslSession() {
          return Optional.empty();
        }

        @Override
        public URI uri() {
          return request.uri();
        }

        @Override
        public HttpClient.Version version() {
          return HttpClient.Version.HTTP_1_1;
        }
      };
    }

    @Override
    public String toString() {
      return status + " " + headers + " " + body;
    }
  }

  /**
   * {@code method target HTTP/1.1} with these header lines ({@code "Name: value"}), no body, the
   * connection closed after the answer.
   */
  Answer send(String method, String target, String... headers) {
    StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\n");
    head.append("Host: ").append(host).append(':').append(port).append("\r\n");
    for (String header : headers) {
      head.append(header).append("\r\n");
    }
    head.append("Accept: */*\r\nConnection: close\r\n\r\n");
    try (Socket socket = new Socket(host, port)) {
      socket.setSoTimeout(20_000);
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      return parse(socket.getInputStream().readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + target, e);
    }
  }

  /**
   * {@code method target} with {@code body}, sent after asking (RFC 9110 §10.1.1, {@code Expect:
   * 100-continue}): the head first; the body only after a 100, and never when the server answers at
   * once (the service refuses a body over its cap unread and closes the connection, issue 35, and a
   * body sent anyway can cut the client's read of that refusal with a reset). The JDK 17 HTTP
   * client's own Expect support can wait forever when the answer is not a 100 (JDK-8286171,
   * JDK-8324209; a TokenIT run hung 20 minutes on it), so this writes the exchange itself, every
   * read under the socket's 20 s timeout.
   */
  Answer sendAsking(String method, String target, String body, String... headers) {
    byte[] content = body.getBytes(StandardCharsets.UTF_8);
    StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\n");
    head.append("Host: ").append(host).append(':').append(port).append("\r\n");
    for (String header : headers) {
      head.append(header).append("\r\n");
    }
    head.append("Content-Length: ").append(content.length).append("\r\n");
    head.append("Expect: 100-continue\r\n");
    head.append("Accept: */*\r\nConnection: close\r\n\r\n");
    try (Socket socket = new Socket(host, port)) {
      socket.setSoTimeout(20_000);
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] first = readHead(in);
      if (parse(first).status() != 100) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        all.write(first);
        all.write(in.readAllBytes());
        return parse(all.toByteArray());
      }
      out.write(content);
      out.flush();
      return parse(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + target, e);
    }
  }

  /** The bytes of one answer's head, its closing blank line included. */
  private static byte[] readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < end.length) {
      int c = in.read();
      if (c < 0) {
        throw new IOException("closed before an answer's head ended: " + head);
      }
      head.write(c);
      matched = c == end[matched] ? matched + 1 : (c == '\r' ? 1 : 0);
    }
    return head.toByteArray();
  }

  /**
   * {@code method target} announcing a body of {@code announced} bytes of which only {@code body}
   * is sent. With {@code listen}, the connection is then half-closed (the server reads its end) and
   * the answer read (null when the server closes without one); without, it is closed at once, and
   * the answer is null.
   */
  Answer sendPart(
      String method, String target, String body, int announced, boolean listen, String... headers) {
    StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\n");
    head.append("Host: ").append(host).append(':').append(port).append("\r\n");
    for (String header : headers) {
      head.append(header).append("\r\n");
    }
    head.append("Content-Length: ").append(announced).append("\r\n");
    head.append("Accept: */*\r\nConnection: close\r\n\r\n");
    try (Socket socket = new Socket(host, port)) {
      socket.setSoTimeout(20_000);
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.write(body.getBytes(StandardCharsets.UTF_8));
      out.flush();
      if (!listen) {
        return null;
      }
      socket.shutdownOutput();
      byte[] answer = socket.getInputStream().readAllBytes();
      return answer.length == 0 ? null : parse(answer); // null: closed without an answer
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + target, e);
    }
  }

  static Answer parse(byte[] bytes) throws IOException {
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    int end = text.indexOf("\r\n\r\n");
    String[] lines = text.substring(0, end < 0 ? text.length() : end).split("\r\n");
    Map<String, String> headers = new TreeMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers.put(
          lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
          lines[i].substring(colon + 1).trim());
    }
    byte[] body = end < 0 ? new byte[0] : Arrays.copyOfRange(bytes, end + 4, bytes.length);
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      body = dechunk(new ByteArrayInputStream(body));
    }
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    return new Answer(status, headers, new String(body, StandardCharsets.UTF_8));
  }

  private static byte[] dechunk(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int size = chunkSize(in); size > 0; size = chunkSize(in)) {
      out.write(in.readNBytes(size));
      in.readNBytes(2);
    }
    return out.toByteArray();
  }

  private static int chunkSize(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
      line.append((char) c);
    }
    String hex = line.toString().split(";")[0].trim();
    return hex.isEmpty() ? 0 : Integer.parseInt(hex, 16);
  }
}
