package dev.platform.identity.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Writes audit events as one JSON object per line to the logger {@code dev.platform.identity.audit}
 * (route it to its own file in the container's logging configuration). Callers pass identifiers
 * only: client_ids, kids, scope names; never a secret or a token.
 */
public final class AuditLog {
  /** The logger name, for the container's logging configuration. */
  public static final String LOGGER = "dev.platform.identity.audit";

  private static final Logger LOG = Logger.getLogger(LOGGER);

  /**
   * Every character outside ASCII is written as a {@code \\uXXXX} escape (control characters always
   * are): a U+2028, U+2029 or U+0085 in a stranger's client_id or path must not start what looks
   * like a new line in a log viewer, nor a U+202E turn the line around (issue 26).
   */
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

  private static final String SOURCE = AuditLog.class.getName();

  private final Clock clock;

  public AuditLog(Clock clock) {
    this.clock = clock;
  }

  /**
   * The events of one administrator's request: its client_id and address, the time now (issue 20
   * §3). The store of the change persists them; {@link #record} still writes the log line.
   */
  public AuditEvent.Source source(String actor, String remoteAddress) {
    return (event, target, organization, details) ->
        AuditEvent.success(
            clock.instant(), event, actor, target, organization, remoteAddress, details);
  }

  /** The clock that times both the log lines and the stored events. */
  public Clock clock() {
    return clock;
  }

  /**
   * Records one event.
   *
   * @param event what happened, such as {@code account.create} or {@code token.issue}
   * @param actor the client_id that acted (the admin token's, or the token requester's); may be
   *     null when unknown
   * @param target what it acted on (a client_id, a kid, a scope); may be null
   * @param outcome {@code success}, or the error code of a refusal
   * @param remoteAddress the caller's address
   */
  public void record(
      String event, String actor, String target, String outcome, String remoteAddress) {
    record(event, actor, target, outcome, remoteAddress, Map.of());
  }

  /**
   * Records one event with {@code details} after its outcome, such as which secret a token request
   * used (issue 19). Details are the service's own words (identifiers, times), never a caller's
   * text or a secret.
   */
  public void record(
      String event,
      String actor,
      String target,
      String outcome,
      String remoteAddress,
      Map<String, String> details) {
    if (!LOG.isLoggable(Level.INFO)) {
      return;
    }
    Map<String, String> line = new LinkedHashMap<>();
    line.put("event", event);
    line.put("actor", CallerText.shortened(actor));
    line.put("target", CallerText.shortened(target));
    line.put("outcome", outcome);
    line.putAll(details);
    line.put("remote", remoteAddress);
    line.put("time", clock.instant().toString());
    try {
      // logp names the source, so a formatter never walks the stack to find it (a token request's
      // audit line would otherwise cost a stack walk).
      LOG.logp(Level.INFO, SOURCE, "record", JSON.writeValueAsString(line));
    } catch (JsonProcessingException e) {
      LOG.log(Level.WARNING, "audit event " + event + " could not be written", e);
    }
  }
}
