package dev.platform.identity.db;

import org.eclipse.persistence.config.SessionCustomizer;
import org.eclipse.persistence.sessions.DatabaseLogin;
import org.eclipse.persistence.sessions.Session;

/**
 * When the database is gone, answer at once: EclipseLink would otherwise retry a failed query three
 * times, 5 seconds apart, so every request would hang 10 s or more. One immediate retry remains,
 * which replaces a pooled connection the database has closed.
 */
public final class FailFast implements SessionCustomizer {
  @Override
  public void customize(Session session) {
    DatabaseLogin login = session.getLogin();
    login.setQueryRetryAttemptCount(1);
    login.setDelayBetweenConnectionAttempts(0);
  }
}
