package dev.platform.identity.web;

import dev.platform.identity.http.ClientAddress;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;

/**
 * The one way in for every request body, before any servlet, Jersey provider or resource runs; the
 * last filter of every path. A body longer than its route takes ({@link BodyLimits}), or any body
 * on a route that takes none, is refused before a byte of it is read, and the connection closed
 * rather than drained. A body the route takes is read without a thread ({@link BodyReader}), within
 * a deadline and the route's cap, and then handed, in memory, to the servlet the container matched.
 * And no client address holds more request threads at once than its share ({@link AddressShares}),
 * the answer's last write included, so a client that does not read its answers cannot take the
 * threads that serve everyone else.
 */
final class FrontDoor implements Filter {
  /** The refusals, by why: counted in /metrics. */
  enum Refusal {
    TOO_LARGE,
    NO_BODY_TAKEN,
    ADDRESS_SHARE
  }

  private final Map<String, Servlet> servlets;
  private final AddressShares shares;
  private final SlowBodies slowBodies;
  private final Map<Refusal, Counter> refusals;

  /**
   * @param servlets the servlets that routes with a body go on to, by the names they are registered
   *     under
   * @param shares the request threads each client address may hold
   */
  FrontDoor(
      Map<String, Servlet> servlets,
      AddressShares shares,
      SlowBodies slowBodies,
      MeterRegistry registry) {
    this.servlets = Map.copyOf(servlets);
    this.shares = shares;
    this.slowBodies = slowBodies;
    this.refusals = new java.util.EnumMap<>(Refusal.class);
    for (Refusal refusal : Refusal.values()) {
      refusals.put(
          refusal,
          Counter.builder("identity.http.refused")
              .description("Requests the front door refused before any endpoint ran, by why")
              .tag("reason", refusal.name().toLowerCase(java.util.Locale.ROOT))
              .register(registry));
    }
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) req;
    HttpServletResponse response = (HttpServletResponse) res;
    if (!hasBody(request)) {
      held(request, WatchedResponse.of(request, response), chain::doFilter);
      return;
    }
    int cap = BodyLimits.of(request);
    long declared = request.getContentLengthLong();
    Servlet next = servlets.get(request.getHttpServletMapping().getServletName());
    if (cap == 0 || next == null) {
      refuseUnread(request, response, Refusal.NO_BODY_TAKEN, 413, "This endpoint takes no body");
    } else if (declared > cap) {
      refuseUnread(request, response, Refusal.TOO_LARGE, 413, tooLarge(cap));
    } else {
      BodyReader.start(
          request,
          response,
          cap,
          slowBodies,
          (read, answer) ->
              held(read, WatchedResponse.answeringErrors(read, answer), next::service));
    }
  }

  /** A declared length, or a chunked body (whose length no header says). */
  private static boolean hasBody(HttpServletRequest request) {
    return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
  }

  /** The part of a request that holds a thread. */
  @FunctionalInterface
  private interface Work {
    void run(ServletRequest request, ServletResponse response) throws IOException, ServletException;
  }

  /**
   * Runs {@code work} on a thread of the client's share, and writes its answer out before the
   * thread is given back: the write that waits for a client that does not read happens within the
   * share, not after it.
   */
  private void held(HttpServletRequest request, WatchedResponse response, Work work)
      throws IOException, ServletException {
    String address = ClientAddress.of(request);
    if (!shares.take(address)) {
      refusals.get(Refusal.ADDRESS_SHARE).increment();
      response.setHeader("Connection", "close");
      refuse(request, response, 429, "Too many requests at once from this address");
      return;
    }
    try {
      work.run(request, response);
      if (!response.sentError()) {
        response.flushBuffer();
      }
    } finally {
      shares.release(address);
    }
  }

  /**
   * Answers without reading the body, and closes the connection: the container then has nothing to
   * drain. The read listener puts the request in non-blocking mode, so that what the container does
   * read at the end of the request never waits for the client either.
   */
  private void refuseUnread(
      HttpServletRequest request,
      HttpServletResponse response,
      Refusal refusal,
      int status,
      String message)
      throws IOException {
    refusals.get(refusal).increment();
    response.setHeader("Connection", "close");
    if (request.isAsyncSupported()) {
      var async = request.startAsync(request, response);
      request.getInputStream().setReadListener(Unread.INSTANCE);
      try {
        refuse(request, response, status, message);
      } finally {
        async.complete();
      }
    } else {
      refuse(request, response, status, message);
    }
  }

  /** A refusal in the shape of the request's surface (SPEC 7). */
  static void refuse(
      HttpServletRequest request, HttpServletResponse response, int status, String why)
      throws IOException {
    ErrorAnswers.refusal(response, Surface.of(BodyLimits.mappedPath(request)), status, why);
  }

  static String tooLarge(int cap) {
    return "The request body is larger than " + cap + " bytes";
  }

  /** Reads nothing: a body refused unread stays unread. */
  private enum Unread implements ReadListener {
    INSTANCE;

    @Override
    public void onDataAvailable() {}

    @Override
    public void onAllDataRead() {}

    @Override
    public void onError(Throwable failure) {}
  }
}
