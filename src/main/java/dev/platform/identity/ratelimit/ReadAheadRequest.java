package dev.platform.identity.ratelimit;

import dev.platform.identity.token.TokenBody;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.IOException;
import java.io.InputStream;

/**
 * A request whose body the filter has read (to judge it as the endpoint will) and the token
 * endpoint reads again, byte for byte: the body is never consumed for Jersey, and {@code
 * getParameter()} is never called.
 */
final class ReadAheadRequest extends HttpServletRequestWrapper {
  private final TokenBody body;

  ReadAheadRequest(HttpServletRequest request, TokenBody body) {
    super(request);
    this.body = body;
  }

  @Override
  public ServletInputStream getInputStream() throws IOException {
    InputStream replay = body.replay();
    return new ServletInputStream() {
      private boolean finished;

      @Override
      public int read() throws IOException {
        int b = replay.read();
        finished = b < 0;
        return b;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = replay.read(buffer, offset, length);
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
