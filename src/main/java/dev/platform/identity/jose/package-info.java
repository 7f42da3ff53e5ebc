/**
 * The JOSE rules the service and its libraries share: compact JWS parsing, NumericDate, JWK and JWK
 * Set reading, the JWS algorithms and their signature checks, the fetch and cache of a remote key
 * set, and DPoP proofs (RFC 9449) checked by those rules. One set of rules, so that no two readers
 * of one token can disagree on it.
 */
package dev.platform.identity.jose;
