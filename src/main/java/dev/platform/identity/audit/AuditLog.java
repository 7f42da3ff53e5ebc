package dev.platform.identity.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Writes audit events as one JSON object per line to the logger {@code dev.platform.identity.audit}
 * (route it to its own file in the container's logging configuration). Callers pass identifiers
 * only: client_ids, kids, scope names; never a secret or a token. An actor is a client_id, written
 * only when it has the form of one ({@link CallerText#clientId}). Refusals are counted per minute
 * rather than written one line each ({@link #refused}); a few events are also stored in the audit
 * trail ({@link #stored}).
 */
public final class AuditLog {
  /** The logger name, for the container's logging configuration. */
  public static final String LOGGER = "dev.platform.identity.audit";

  private static final Logger LOG = Logger.getLogger(LOGGER);

  /**
   * Every character outside ASCII is written as a {@code \\uXXXX} escape (control characters always
   * are): a U+2028, U+2029 or U+0085 in a stranger's client_id or path must not start what looks
   * like a new line in a log viewer, nor a U+202E turn the line around.
   */
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

  private static final String SOURCE = AuditLog.class.getName();

  /** The events the service audits with {@link #refused}: the token path's and the console's. */
  static final List<String> REFUSALS = List.of("token.refuse", "console.signin.refuse");

  private final Clock clock;
  private final MeterRegistry registry;
  private final AuditEvents trail;
  private final RefusalTally refusals = new RefusalTally();
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();

  /** Lines only: no trail, no meters (tests). */
  public AuditLog(Clock clock) {
    this(clock, new CompositeMeterRegistry(), null);
  }

  /**
   * @param registry where refusals are counted, written in full or folded into a minute's line
   * @param trail where {@link #stored} and {@link #refusedAndStored} events also go; null: nowhere
   */
  public AuditLog(Clock clock, MeterRegistry registry, AuditEvents trail) {
    this.clock = clock;
    this.registry = registry;
    this.trail = trail;
    for (String event : REFUSALS) {
      counter(event, "full");
      counter(event, "folded");
    }
  }

  /**
   * The events of one administrator's request: its client_id and address, the time now. The store
   * of the change persists them; {@link #record} still writes the log line.
   */
  public AuditEvent.Source source(String actor, String remoteAddress) {
    return (event, target, organization, details) ->
        AuditEvent.success(
            clock.instant(), event, actor, target, organization, remoteAddress, details);
  }

  /** The clock that times both the log lines and the stored events. */
  Clock clock() {
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
   * used. Details are the service's own words (identifiers, times), never a caller's text or a
   * secret.
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
    line.put("actor", CallerText.clientId(actor));
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

  /**
   * Records an event and stores it in the audit trail too, where the console's audit page and
   * {@code /admin/v1/audit-events} show it. A trail that cannot be written is logged; the line is
   * written all the same.
   */
  public void stored(
      String event,
      String actor,
      String target,
      String outcome,
      String remoteAddress,
      Map<String, String> details) {
    record(event, actor, target, outcome, remoteAddress, details);
    store(AuditEvent.of(clock.instant(), event, actor, target, outcome, remoteAddress, details));
  }

  /**
   * A refusal, written in full only when it is the first of its kind ({@code event}, {@code
   * outcome} and the {@code reason} detail, if any) for its client_id (or address) in this minute;
   * the others are counted, and one {@code <event>.repeated} line per kind and minute carries their
   * count ({@link RefusalTally}).
   */
  public void refused(
      String event,
      String actor,
      String outcome,
      String remoteAddress,
      Map<String, String> details) {
    refused(event, actor, outcome, remoteAddress, details, false);
  }

  /** {@link #refused}, the lines also stored in the audit trail (a console sign-in refused). */
  public void refusedAndStored(
      String event,
      String actor,
      String outcome,
      String remoteAddress,
      Map<String, String> details) {
    refused(event, actor, outcome, remoteAddress, details, true);
  }

  /**
   * Writes the {@code .repeated} lines of minutes that have ended; runs on a schedule, so a flood's
   * count is written soon after its minute even when no refusal follows.
   */
  public void endMinutes() {
    write(refusals.endMinutesBefore(clock.instant()));
  }

  private void refused(
      String event,
      String actor,
      String outcome,
      String remoteAddress,
      Map<String, String> details,
      boolean stored) {
    String clientId = CallerText.clientId(actor);
    RefusalTally.Counted counted =
        refusals.count(
            event,
            outcome,
            details.get("reason"),
            clientId,
            remoteAddress,
            stored,
            clock.instant());
    write(counted.ended());
    counter(event, counted.writeInFull() ? "full" : "folded").increment();
    if (counted.writeInFull()) {
      if (stored) {
        stored(event, clientId, null, outcome, remoteAddress, details);
      } else {
        record(event, clientId, null, outcome, remoteAddress, details);
      }
    }
  }

  private void write(List<RefusalTally.Summary> summaries) {
    for (RefusalTally.Summary summary : summaries) {
      RefusalTally.Kind kind = summary.kind();
      Map<String, String> details = new LinkedHashMap<>();
      if (kind.reason() != null) {
        details.put("reason", kind.reason());
      }
      details.put("count", Long.toString(summary.count()));
      details.put("window_start", summary.windowStart().toString());
      details.put("window", "PT1M");
      if (kind.subject() != null && kind.subject().startsWith(RefusalTally.UNTRACKED)) {
        details.put("subjects", RefusalTally.UNTRACKED);
      }
      String event = kind.event() + ".repeated";
      if (kind.stored()) {
        stored(event, summary.actor(), null, kind.outcome(), summary.remote(), details);
      } else {
        record(event, summary.actor(), null, kind.outcome(), summary.remote(), details);
      }
    }
  }

  private void store(AuditEvent event) {
    if (trail == null) {
      return;
    }
    try {
      trail.store(event);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "audit event " + event.event() + " could not be stored", e);
    }
  }

  /**
   * Refusals by event and whether written in full. Registered up front for the events the service
   * refuses with, so a stranger's requests add no series; the outcome is not a label (the token
   * path counts its outcomes itself).
   */
  private Counter counter(String event, String written) {
    return counters.computeIfAbsent(
        event + " " + written,
        key ->
            Counter.builder("identity.audit.refusals")
                .description(
                    "Refusals audited, by event: written in full (the first of its kind for a"
                        + " client or address in a minute) or folded into a minute's count")
                .tag("event", event)
                .tag("written", written)
                .register(registry));
  }
}
