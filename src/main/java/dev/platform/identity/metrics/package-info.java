/**
 * {@code /metrics} in Prometheus' text format, through Micrometer: the servlet that guards it, and
 * the gauges of the service's state that are read from memory or computed on the scheduler, never
 * by a scrape.
 */
package dev.platform.identity.metrics;
