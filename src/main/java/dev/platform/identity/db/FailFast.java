package dev.platform.identity.db;

import org.eclipse.persistence.config.SessionCustomizer;
import org.eclipse.persistence.sessions.DatabaseLogin;
import org.eclipse.persistence.sessions.Session;

/**
 * When the database is gone, answer at once: EclipseLink would otherwise retry a failed query three
 * times, 5 seconds apart, so every request would hang 10 s or more. One immediate retry remains,
 * which replaces a pooled connection the database has closed.
 *
 * <p>A statement that timed out or was cancelled is never retried. EclipseLink retries only a read
 * whose connection fails a ping after the error; a statement cancelled at its deadline ({@link
 * DatabaseGuard}; PostgreSQL's {@code statement_timeout} and {@code lock_timeout}) leaves its
 * connection alive, so the ping passes and the timeout is the answer. The health check on error is
 * switched on explicitly: left to EclipseLink, a query with a timeout skips it on its first
 * failure, and the retry of a dead connection would be lost. (The driver's {@code socketTimeout}
 * does close the connection, so the conf/ examples keep it far above the deadline: it is for a dead
 * network only.)
 */
public final class FailFast implements SessionCustomizer {
  @Override
  public void customize(Session session) {
    DatabaseLogin login = session.getLogin();
    login.setQueryRetryAttemptCount(1);
    login.setDelayBetweenConnectionAttempts(0);
    login.setConnectionHealthValidatedOnError(true);
  }
}
