/**
 * The launcher: runs the same WAR on embedded Tomcat with the H2 default, so trying the service
 * needs no app server; optionally over HTTPS with client certificates (docs/mutual-tls.md). Not
 * part of the WAR; see README "Start, and test".
 */
package dev.platform.identity.launcher;
