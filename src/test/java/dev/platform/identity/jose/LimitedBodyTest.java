package dev.platform.identity.jose;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The capped body: it stops at the first piece past the cap, keeping nothing of it. */
class LimitedBodyTest {
  final AtomicInteger cancels = new AtomicInteger();
  final Flow.Subscription subscription =
      new Flow.Subscription() {
        @Override
        public void request(long n) {}

        @Override
        public void cancel() {
          cancels.incrementAndGet();
        }
      };

  static List<ByteBuffer> piece(int bytes) {
    return List.of(ByteBuffer.wrap(new byte[bytes]));
  }

  @Test
  void whenAPiecePassesTheCapThenTheBodyFailsNamingItAndTheConnectionIsCancelled() {
    LimitedBody body = new LimitedBody(64 * 1024);
    body.onSubscribe(subscription);
    ByteBuffer third = ByteBuffer.wrap(new byte[30 * 1024]);

    body.onNext(piece(30 * 1024));
    body.onNext(piece(30 * 1024));
    assertEquals(0, cancels.get());
    body.onNext(List.of(third));
    body.onNext(piece(30 * 1024)); // what a publisher still sends is ignored
    body.onComplete();

    assertEquals(1, cancels.get());
    assertEquals(30 * 1024, third.remaining(), "the piece past the cap was not copied");
    ExecutionException failure =
        assertThrows(ExecutionException.class, () -> body.getBody().toCompletableFuture().get());
    LimitedBody.TooLargeException tooLarge =
        assertInstanceOf(LimitedBody.TooLargeException.class, failure.getCause());
    assertEquals(65536, tooLarge.maxBytes());
    assertTrue(tooLarge.getMessage().contains("65536"));
  }

  @Test
  void whenTheBodyIsExactlyTheCapThenItIsWhole() throws Exception {
    LimitedBody body = new LimitedBody(10);
    body.onSubscribe(subscription);

    body.onNext(List.of(ByteBuffer.wrap("01234".getBytes()), ByteBuffer.wrap("56789".getBytes())));
    body.onComplete();

    CompletableFuture<byte[]> whole = body.getBody().toCompletableFuture();
    assertArrayEquals("0123456789".getBytes(), whole.get());
    assertFalse(whole.isCompletedExceptionally());
    assertEquals(0, cancels.get());
  }
}
