package dev.platform.identity.scope;

import dev.platform.identity.audit.CallerText;
import dev.platform.identity.db.WordList;
import dev.platform.identity.text.ShownText;
import jakarta.persistence.Cacheable;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A scope of the catalog (SPEC 2.6): {@code service:resource.action}, {@code service:name} (such as
 * {@code identity:admin}) or the wildcard {@code service:*}, with its description and the channel
 * patterns it gives. Instances handed out are never changed: only {@link ScopeCatalog} redefines a
 * scope, on a managed copy of its own.
 */
@Entity
@Table(name = "scope_catalog")
@Cacheable(false) // ScopeCatalog holds its own snapshot.
@NamedQuery(name = Scope.ALL, query = "select s from Scope s order by s.name")
public class Scope {
  static final String ALL = "Scope.all";

  /** Lower-case words; a service and at most resource.action, or {@code *}. */
  private static final String WORD = "[a-z][a-z0-9_-]*";

  private static final Pattern NAME =
      Pattern.compile("(" + WORD + "):(\\*|" + WORD + "(?:\\." + WORD + ")?)");
  private static final Pattern CHANNEL =
      Pattern.compile("(?:\\*|[A-Za-z0-9_-]+)(?:\\.(?:\\*|[A-Za-z0-9_-]+))*");
  private static final int MAX_NAME = 100;
  private static final int MAX_DESCRIPTION = 500;
  private static final int MAX_CHANNEL = 200;
  private static final int MAX_CHANNEL_COLUMN = 4000;
  private static final Set<String> READ_ACTIONS = Set.of("view", "read");
  private static final String WILDCARD = "*";

  @Id private String name;

  private String description;

  @Column(name = "subscribe_channels")
  @Convert(converter = WordList.class)
  private List<String> subscribeChannels;

  @Column(name = "publish_channels")
  @Convert(converter = WordList.class)
  private List<String> publishChannels;

  @Column(name = "replay_channels")
  @Convert(converter = WordList.class)
  private List<String> replayChannels;

  protected Scope() {}

  private Scope(String name, String description, ChannelGrant channels) {
    this.name = name;
    this.description = description;
    this.subscribeChannels = channels.subscribe();
    this.publishChannels = channels.publish();
    this.replayChannels = channels.replay();
  }

  /**
   * A checked definition. Without channels it gets the default of {@link #defaultChannels}.
   *
   * @throws InvalidScopeException naming what is wrong
   */
  static Scope define(String name, String description, Optional<ChannelGrant> channels) {
    requireWellFormed(name);
    if (description == null || description.isBlank()) {
      throw InvalidScopeException.of(name, "needs a description");
    }
    if (description.length() > MAX_DESCRIPTION) {
      throw InvalidScopeException.of(
          name, "has a description longer than " + MAX_DESCRIPTION + " characters");
    }
    if (ShownText.hasDeceptive(description)) {
      throw InvalidScopeException.of(
          name,
          "has a description with a control, format (bidi) or line-separator character, which"
              + " would make it read as other text where it is shown");
    }
    ChannelGrant checked = channels.orElseGet(() -> defaultChannels(name));
    for (List<String> patterns :
        List.of(checked.subscribe(), checked.publish(), checked.replay())) {
      requireChannelPatterns(name, patterns);
    }
    return new Scope(name, description.strip(), checked);
  }

  /** Takes the description and channels of {@code definition}, a checked one. */
  void redefine(Scope definition) {
    description = definition.description;
    subscribeChannels = definition.subscribeChannels;
    publishChannels = definition.publishChannels;
    replayChannels = definition.replayChannels;
  }

  /** Whether {@code name} has the syntax of a scope; it may still be unknown to the catalog. */
  public static boolean isWellFormed(String name) {
    return name != null && name.length() <= MAX_NAME && NAME.matcher(name).matches();
  }

  /**
   * Checks the syntax of a scope given by an administrator.
   *
   * @throws InvalidScopeException when {@code name} is not a scope
   */
  public static void requireWellFormed(String name) {
    if (name == null) {
      throw InvalidScopeException.of("", "is missing");
    }
    if (!isWellFormed(name)) {
      throw InvalidScopeException.of(
          name,
          "is malformed: use service:resource.action, service:name or service:*, in lower-case"
              + " letters, digits, '_' and '-', at most "
              + MAX_NAME
              + " characters");
    }
  }

  private static void requireChannelPatterns(String name, List<String> patterns) {
    for (String pattern : patterns) {
      if (pattern.length() > MAX_CHANNEL || !CHANNEL.matcher(pattern).matches()) {
        throw InvalidScopeException.of(
            name,
            "has a malformed channel pattern '"
                + CallerText.shortened(pattern)
                + "': use words of letters, digits, '_' and '-', or '*', separated by '.'");
      }
    }
    if (String.join(" ", patterns).length() > MAX_CHANNEL_COLUMN) {
      throw InvalidScopeException.of(name, "has too many channel patterns for one action");
    }
  }

  /**
   * DESIGN "channel permissions": {@code svc:*} gives every action on {@code svc.*}; {@code
   * svc:res.view} and {@code svc:res.read} give subscribe and replay on {@code svc.res.*}; any
   * other {@code svc:res.action} gives publish on {@code svc.res.*}. A {@code svc:name} without a
   * resource (such as {@code identity:admin}) gives none.
   */
  static ChannelGrant defaultChannels(String name) {
    requireWellFormed(name);
    String service = serviceOf(name);
    String rest = name.substring(service.length() + 1);
    if (rest.equals(WILDCARD)) {
      List<String> all = List.of(service + ".*");
      return new ChannelGrant(all, all, all);
    }
    int dot = rest.indexOf('.');
    if (dot < 0) {
      return ChannelGrant.NONE;
    }
    List<String> resource = List.of(service + "." + rest.substring(0, dot) + ".*");
    return READ_ACTIONS.contains(rest.substring(dot + 1))
        ? new ChannelGrant(resource, List.of(), resource)
        : new ChannelGrant(List.of(), resource, List.of());
  }

  /**
   * DESIGN "wildcard": {@code svc:*} covers itself and every scope of {@code svc}; any other scope
   * covers only itself.
   */
  public boolean covers(Scope other) {
    return covers(name, other.name);
  }

  /** {@link #covers(Scope)} for two well-formed names, neither of which need be in the catalog. */
  public static boolean covers(String granted, String requested) {
    return granted.equals(requested)
        || granted.endsWith(":" + WILDCARD)
            && requested.indexOf(':') > 0
            && serviceOf(granted).equals(serviceOf(requested));
  }

  public boolean isWildcard() {
    return name.endsWith(":" + WILDCARD);
  }

  /** The first segment: the service the scope is for. */
  public String service() {
    return serviceOf(name);
  }

  private static String serviceOf(String name) {
    return name.substring(0, name.indexOf(':'));
  }

  public String name() {
    return name;
  }

  public String description() {
    return description;
  }

  public ChannelGrant channels() {
    return new ChannelGrant(subscribeChannels, publishChannels, replayChannels);
  }

  @Override
  public String toString() {
    return name;
  }
}
