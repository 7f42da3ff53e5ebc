package dev.platform.identity.http;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * A request whose body was read already (the front door's non-blocking read) and is read again from
 * memory, byte for byte: whoever reads it next never waits on the client. {@code getParameter()} is
 * not served from it: nothing in the service calls it (STYLE 3).
 */
public final class BufferedRequest extends HttpServletRequestWrapper {
  private final byte[] body;

  public BufferedRequest(HttpServletRequest request, byte[] body) {
    super(request);
    this.body = body;
  }

  /** The body's bytes; the same array each time, which no one may change. */
  public byte[] body() {
    return body;
  }

  @Override
  public int getContentLength() {
    return body.length;
  }

  @Override
  public long getContentLengthLong() {
    return body.length;
  }

  @Override
  public ServletInputStream getInputStream() {
    ByteArrayInputStream replay = new ByteArrayInputStream(body);
    return new ServletInputStream() {
      @Override
      public int read() {
        return replay.read();
      }

      @Override
      public int read(byte[] buffer, int offset, int length) {
        return replay.read(buffer, offset, length);
      }

      @Override
      public boolean isFinished() {
        return replay.available() == 0;
      }

      @Override
      public boolean isReady() {
        return true;
      }

      @Override
      public void setReadListener(ReadListener listener) {
        try {
          listener.onAllDataRead();
        } catch (IOException e) {
          listener.onError(e);
        }
      }
    };
  }
}
