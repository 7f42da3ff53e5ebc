package dev.platform.identity.it;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

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
