/**
 * The database: Flyway migrations at start-up, one EclipseLink EntityManagerFactory on the JNDI
 * DataSource (RESOURCE_LOCAL), and {@code read}/{@code write} transactions.
 */
package dev.platform.identity.db;
