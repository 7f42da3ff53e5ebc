package dev.platform.identity.admin;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** A request body that may not exceed a limit: an administrator's JSON is a few hundred bytes. */
final class BoundedBody extends FilterInputStream {
  static final int LIMIT = 64 * 1024;

  private long read;

  BoundedBody(InputStream body) {
    super(body);
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    count(b < 0 ? 0 : 1);
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = super.read(buffer, offset, length);
    count(Math.max(n, 0));
    return n;
  }

  private void count(int n) {
    read += n;
    if (read > LIMIT) {
      throw new ApiError(413, "The request body is larger than " + LIMIT + " bytes");
    }
  }
}
