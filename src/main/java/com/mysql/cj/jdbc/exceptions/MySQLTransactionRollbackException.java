package com.mysql.cj.jdbc.exceptions;

import java.sql.SQLTransactionRollbackException;

/**
 * The name, and nothing else, of MySQL Connector/J's deadlock exception, which Bucket4j's MySQL
 * module catches when its INSERT of a new bucket deadlocks, and then retries (issue 42). That
 * module is the one Bucket4j offers for MariaDB here (its MariaDB module is not served), but its
 * catch names MySQL's driver, which this service does not ship: without a class of this name the
 * module fails with NoClassDefFoundError on first use (bucket4j/bucket4j#443).
 * ratelimit.MariaDbDeadlocks throws it for MariaDB's deadlock, so that Bucket4j's retry runs as it
 * does on MySQL. Never thrown by anything else.
 */
public class MySQLTransactionRollbackException extends SQLTransactionRollbackException {
  private static final long serialVersionUID = 1L;

  public MySQLTransactionRollbackException(SQLTransactionRollbackException deadlock) {
    super(deadlock.getMessage(), deadlock.getSQLState(), deadlock.getErrorCode(), deadlock);
  }
}
