package dev.platform.identity.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.platform.identity.db.InstantConverter;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One row of the audit trail kept in the database: an administrative change, stored by the store
 * that makes the change, in the same transaction. Never changed once stored; only {@link
 * AuditRetention} deletes it. Identifiers only: never a secret or a token.
 */
@Entity
@Table(name = "audit_event")
@NamedQuery(
    name = AuditEvent.BEFORE,
    query = "select e.id from AuditEvent e where e.time < :before order by e.time, e.id")
@NamedQuery(name = AuditEvent.DELETE, query = "delete from AuditEvent e where e.id in :ids")
public class AuditEvent {
  static final String BEFORE = "AuditEvent.before";
  static final String DELETE = "AuditEvent.delete";

  /** The longest an actor or target is stored; longer text is shortened as log lines are. */
  private static final String INSERT =
      "insert into audit_event (occurred_at, event, actor, target, organization_id, outcome,"
          + " remote_address, detail) values (?, ?, ?, ?, ?, ?, ?, ?)";

  private static final InstantConverter INSTANTS = new InstantConverter();
  private static final ObjectMapper JSON = JsonMapper.builder().build();

  @Id private Long id;

  @Column(name = "occurred_at")
  private Instant time;

  private String event;
  private String actor;
  private String target;

  @Column(name = "organization_id")
  private String organization;

  private String outcome;

  @Column(name = "remote_address")
  private String remoteAddress;

  private String detail;

  protected AuditEvent() {}

  /**
   * Makes the events of one actor: the administrator of a request (its client_id and address), or
   * the service itself ({@link #system}). A store that changes something takes one and persists the
   * event it makes in the transaction of the change.
   */
  @FunctionalInterface
  public interface Source {
    /**
     * @param organization the organization of the account the event is about; null for anything
     *     else
     */
    AuditEvent event(String event, String target, String organization, Map<String, String> details);

    /** Events of the service itself: no actor, no address, the time from {@code clock}. */
    static Source system(Clock clock) {
      return (event, target, organization, details) ->
          bySystem(clock.instant(), event, target, organization, details);
    }
  }

  private AuditEvent(
      Instant time,
      String event,
      String actor,
      String target,
      String organization,
      String outcome,
      String remoteAddress,
      Map<String, String> details) {
    this.time = time;
    this.event = event;
    this.actor = CallerText.clientId(actor);
    this.target = CallerText.shortened(target);
    this.organization = organization;
    this.outcome = outcome;
    this.remoteAddress = remoteAddress;
    this.detail = json(details);
  }

  /**
   * A successful change that a caller made.
   *
   * @param organization the organization of the account the event is about; null for anything else
   */
  public static AuditEvent success(
      Instant time,
      String event,
      String actor,
      String target,
      String organization,
      String remoteAddress,
      Map<String, String> details) {
    return new AuditEvent(
        time, event, actor, target, organization, "success", remoteAddress, details);
  }

  /** A change the service made by itself (a scheduled key, a re-encryption, the bootstrap). */
  public static AuditEvent bySystem(
      Instant time, String event, String target, String organization, Map<String, String> details) {
    return new AuditEvent(time, event, null, target, organization, "success", null, details);
  }

  /** A refusal or other outcome that is not a change, such as {@code ratelimit.exhausted}. */
  public static AuditEvent of(
      Instant time,
      String event,
      String actor,
      String target,
      String outcome,
      String remoteAddress,
      Map<String, String> details) {
    return new AuditEvent(time, event, actor, target, null, outcome, remoteAddress, details);
  }

  /**
   * Inserts this event in the transaction of {@code em}, the one of the change it records. A plain
   * INSERT, so the database numbers it: EclipseLink's H2 platform asks for generated keys with a
   * function H2 2 no longer has.
   */
  public void storeIn(EntityManager em) {
    em.createNativeQuery(INSERT)
        .setParameter(1, INSTANTS.convertToDatabaseColumn(time))
        .setParameter(2, event)
        .setParameter(3, actor)
        .setParameter(4, target)
        .setParameter(5, organization)
        .setParameter(6, outcome)
        .setParameter(7, remoteAddress)
        .setParameter(8, detail)
        .executeUpdate();
  }

  private static String json(Map<String, String> details) {
    try {
      return JSON.writeValueAsString(new TreeMap<>(details));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("audit details cannot be written as JSON", e);
    }
  }

  public long id() {
    return id;
  }

  public Instant time() {
    return time;
  }

  public String event() {
    return event;
  }

  public Optional<String> actor() {
    return Optional.ofNullable(actor);
  }

  public Optional<String> target() {
    return Optional.ofNullable(target);
  }

  public Optional<String> organization() {
    return Optional.ofNullable(organization);
  }

  public String outcome() {
    return outcome;
  }

  public Optional<String> remoteAddress() {
    return Optional.ofNullable(remoteAddress);
  }

  /** The details, as stored. */
  public Map<String, String> details() {
    try {
      return JSON.readValue(detail, new TypeReference<TreeMap<String, String>>() {});
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("audit event " + id + " holds no JSON object", e);
    }
  }
}
