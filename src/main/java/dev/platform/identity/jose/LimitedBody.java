package dev.platform.identity.jose;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read into memory up to a size cap. Past the cap the body fails with {@link
 * TooLargeException} and the subscription is cancelled, which closes the connection: an endless
 * answer costs the cap, not the heap ({@code BodyHandlers.limiting} is JDK 25). Each piece is
 * checked before it is kept, so no more than the cap is ever held. Public for {@code TokenClient};
 * the key-set fetches use it through {@link KeySetFetch}.
 */
public final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
  private final int maxBytes;
  private final CompletableFuture<byte[]> body = new CompletableFuture<>();
  private final ByteArrayOutputStream received = new ByteArrayOutputStream();
  private Flow.Subscription subscription;

  /** A body of at most {@code maxBytes} bytes. */
  public LimitedBody(int maxBytes) {
    this.maxBytes = maxBytes;
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return body;
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    subscription.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(List<ByteBuffer> buffers) {
    for (ByteBuffer buffer : buffers) {
      if (body.isDone()) {
        return;
      }
      if (received.size() + buffer.remaining() > maxBytes) {
        subscription.cancel();
        body.completeExceptionally(new TooLargeException(maxBytes));
        return;
      }
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      received.write(bytes, 0, bytes.length);
    }
  }

  @Override
  public void onError(Throwable failure) {
    body.completeExceptionally(failure);
  }

  @Override
  public void onComplete() {
    body.complete(received.toByteArray());
  }

  /** The body went past the cap; what came of it was dropped and the connection closed. */
  public static final class TooLargeException extends IOException {
    private final int maxBytes;

    TooLargeException(int maxBytes) {
      super("the body is larger than " + maxBytes + " bytes");
      this.maxBytes = maxBytes;
    }

    /** The cap it went past, in bytes. */
    public int maxBytes() {
      return maxBytes;
    }
  }
}
