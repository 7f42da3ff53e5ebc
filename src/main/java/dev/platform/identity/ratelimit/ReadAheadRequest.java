package dev.platform.identity.ratelimit;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;

/**
 * A request whose first bytes were read ahead (to find the client_id) and are read again by the
 * token endpoint: the body is never consumed for Jersey, and {@code getParameter()} is never
 * called.
 */
final class ReadAheadRequest extends HttpServletRequestWrapper {
  /** As much as a token request can hold (the token endpoint refuses more). */
  static final int READ_AHEAD = 16 * 1024;

  private final byte[] head;

  private ReadAheadRequest(HttpServletRequest request, byte[] head) {
    super(request);
    this.head = head;
  }

  /**
   * Reads ahead as much as the request declares (a token request is a few hundred bytes: reading up
   * to {@link #READ_AHEAD} would allocate 8 KiB for each), at most {@link #READ_AHEAD}.
   */
  static ReadAheadRequest of(HttpServletRequest request) throws IOException {
    long declared = request.getContentLengthLong();
    int length = declared >= 0 && declared < READ_AHEAD ? (int) declared : READ_AHEAD;
    return new ReadAheadRequest(request, request.getInputStream().readNBytes(length));
  }

  /** The bytes read ahead, as text (form bodies are ASCII after encoding). */
  String head() {
    return new String(head, StandardCharsets.UTF_8);
  }

  @Override
  public ServletInputStream getInputStream() throws IOException {
    InputStream body =
        new SequenceInputStream(new ByteArrayInputStream(head), super.getInputStream());
    return new ServletInputStream() {
      private boolean finished;

      @Override
      public int read() throws IOException {
        int b = body.read();
        finished = b < 0;
        return b;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = body.read(buffer, offset, length);
        finished = n < 0;
        return n;
      }

      @Override
      public boolean isFinished() {
        return finished;
      }

      @Override
      public boolean isReady() {
        return true;
      }

      @Override
      public void setReadListener(ReadListener listener) {
        throw new IllegalStateException("the token endpoint reads its body blocking");
      }
    };
  }
}
