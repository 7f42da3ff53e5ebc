package dev.platform.identity.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The examples in conf/ name every setting, in the form that actually overrides web.xml: Tomcat's
 * {@code <Environment override="false">}, and Payara's alternate descriptors, which replace the
 * WAR's web.xml as a whole and so must be that file apart from the values.
 */
class ConfExamplesTest {
  static Set<String> settingNames() throws IllegalAccessException {
    Set<String> names = new TreeSet<>();
    for (Field field : JndiSettings.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        names.add((String) field.get(null));
      }
    }
    return names;
  }

  static List<Path> examples() throws IOException {
    return examples("conf/tomcat");
  }

  static List<Path> examples(String folder) throws IOException {
    try (Stream<Path> files = Files.list(Path.of(folder))) {
      return files.filter(p -> p.toString().endsWith(".xml")).sorted().toList();
    }
  }

  static Document parse(Path file) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
  }

  static Set<String> envEntryNames(Document descriptor) {
    Set<String> names = new TreeSet<>();
    for (Element entry : envEntries(descriptor)) {
      names.add(text(entry, "env-entry-name"));
    }
    return names;
  }

  static List<Element> envEntries(Document descriptor) {
    NodeList entries = descriptor.getElementsByTagName("env-entry");
    List<Element> list = new ArrayList<>();
    for (int i = 0; i < entries.getLength(); i++) {
      list.add((Element) entries.item(i));
    }
    return list;
  }

  static String text(Element parent, String child) {
    return parent.getElementsByTagName(child).item(0).getTextContent();
  }

  /**
   * The descriptor without comments, without the entries {@code keep} does not name, and with every
   * env-entry value emptied, as text without the whitespace between elements.
   */
  static String shape(Document descriptor, Set<String> keep) throws Exception {
    for (Element entry : envEntries(descriptor)) {
      if (keep.contains(text(entry, "env-entry-name"))) {
        entry.getElementsByTagName("env-entry-value").item(0).setTextContent("");
      } else {
        entry.getParentNode().removeChild(entry);
      }
    }
    StringWriter out = new StringWriter();
    TransformerFactory.newInstance()
        .newTransformer()
        .transform(new DOMSource(descriptor.getDocumentElement()), new StreamResult(out));
    return out.toString().replaceAll("(?s)<!--.*?-->", "").replaceAll(">\\s+<", "><");
  }

  @Test
  void whenExamplesAreReadThenEachSetsEverySettingWithOverrideFalse() throws Exception {
    List<Path> examples = examples();
    assertEquals(3, examples.size(), examples.toString());
    for (Path example : examples) {
      NodeList entries =
          DocumentBuilderFactory.newInstance()
              .newDocumentBuilder()
              .parse(example.toFile())
              .getElementsByTagName("Environment");
      Set<String> named = new TreeSet<>();
      List<String> overridable = new ArrayList<>();
      for (int i = 0; i < entries.getLength(); i++) {
        Element entry = (Element) entries.item(i);
        named.add(entry.getAttribute("name"));
        if (!"false".equals(entry.getAttribute("override"))) {
          overridable.add(entry.getAttribute("name"));
        }
      }
      assertEquals(settingNames(), named, example.toString());
      assertTrue(overridable.isEmpty(), example + " lets web.xml win for " + overridable);
    }
  }

  @Test
  void whenPayaraDescriptorsAreReadThenEachIsTheWarsWebXmlWithEverySettingValued()
      throws Exception {
    Path webXml = Path.of("src/main/webapp/WEB-INF/web.xml");
    Set<String> defaults = envEntryNames(parse(webXml));
    List<Path> examples = examples("conf/payara");
    assertEquals(2, examples.size(), examples.toString());
    for (Path example : examples) {
      assertEquals(settingNames(), envEntryNames(parse(example)), example.toString());
      assertEquals(
          shape(parse(webXml), defaults),
          shape(parse(example), defaults),
          example + " differs from " + webXml + " in more than the values");
      String env = example.getFileName().toString().replaceAll("^web-|\\.xml$", "");
      String postBoot = Files.readString(example.resolveSibling("post-boot-" + env + ".asadmin"));
      assertTrue(postBoot.contains("--altdd=/opt/identity/" + example.getFileName()), env);
      assertTrue(postBoot.contains(" jdbc/identity\n"), env);
      // Payara writes a pool's password, resolved, into its domain.xml: the passfile holds it.
      assertFalse(postBoot.contains("password="), env + ": a password in the pool");
    }
  }

  /** The value each example gives {@code entry}, by file. */
  static List<String> values(String entry) throws Exception {
    List<String> values = new ArrayList<>();
    for (Path example : examples()) {
      NodeList entries = parse(example).getElementsByTagName("Environment");
      for (int i = 0; i < entries.getLength(); i++) {
        Element environment = (Element) entries.item(i);
        if (environment.getAttribute("name").equals(entry)) {
          values.add(environment.getAttribute("value"));
        }
      }
    }
    for (Path example : examples("conf/payara")) {
      for (Element env : envEntries(parse(example))) {
        if (text(env, "env-entry-name").equals(entry)) {
          values.add(text(env, "env-entry-value"));
        }
      }
    }
    return values;
  }

  @Test
  void whenExamplesRunBehindAProxyOnTheHostThenTheyTrustItsLoopbackAddresses() throws Exception {
    List<String> values = values(JndiSettings.TRUSTED_PROXIES);

    // Behind an untrusted proxy every caller shares the proxy's address and its failure budget.
    assertEquals(
        List.of(
            "127.0.0.1,::1", "127.0.0.1,::1", "127.0.0.1,::1", "127.0.0.1,::1", "127.0.0.1,::1"),
        values);
  }

  @Test
  void whenExamplesAreReadThenSecretsOverlapAtMostAWeekAndExpireAfter90DaysInProduction()
      throws Exception {
    // Order: Tomcat MariaDB (production), production, staging; Payara production, staging
    // (issue 19, SPEC 8).
    assertEquals(
        List.of("P7D", "P7D", "P7D", "P7D", "P7D"), values(JndiSettings.MAX_SECRET_OVERLAP));
    assertEquals(List.of("P90D", "P90D", "", "P90D", ""), values(JndiSettings.SECRET_MAX_AGE));
  }

  /**
   * Issue 42: context-mariadb.xml is context-production.xml on MariaDB: every line the same but its
   * opening comment and its database resource (with that resource's comment), so a setting changed
   * in one and not the other fails here.
   */
  @Test
  void whenTheMariaDbExampleIsComparedThenOnlyItsResourceDiffersFromProductions() throws Exception {
    String production = Files.readString(Path.of("conf/tomcat/context-production.xml"));
    String mariaDb = Files.readString(Path.of("conf/tomcat/context-mariadb.xml"));
    assertEquals(settingsOnly(production), settingsOnly(mariaDb));
    Element resource =
        (Element)
            parse(Path.of("conf/tomcat/context-mariadb.xml"))
                .getElementsByTagName("Resource")
                .item(0);
    assertEquals("org.mariadb.jdbc.Driver", resource.getAttribute("driverClassName"));
    String url = resource.getAttribute("url");
    // The options MariaDbSession requires, the deadlines that mirror PostgreSQL's example.
    assertTrue(url.startsWith("jdbc:mariadb://"), url);
    assertTrue(url.contains("?connectionTimeZone=UTC&preserveInstants=true&"), url);
    assertTrue(
        url.contains("&sessionVariables=max_statement_time=10,innodb_lock_wait_timeout=3"), url);
    assertEquals("${identity.db.password}", resource.getAttribute("password"));
    assertFalse(url.contains("password"), url);
  }

  /** An example without its comments and its Resource element. */
  static String settingsOnly(String context) {
    return context
        .replaceAll("(?s)<!--.*?-->", "")
        .replaceAll("(?s)<Resource .*?/>", "")
        .replaceAll("\\s+", " ");
  }

  /**
   * conf/payara-server/setup.asadmin's custom resources, by name, each value as Payara stores it
   * (the {@code \\:} and {@code \\=} of asadmin's property syntax undone).
   */
  static Map<String, String> customResources(String setup) {
    Matcher line =
        Pattern.compile("(?m)^create-custom-resource .* --property='value=(.*)' (\\S+)$")
            .matcher(setup);
    Map<String, String> resources = new TreeMap<>();
    while (line.find()) {
      resources.put(line.group(2), line.group(1).replace("\\:", ":").replace("\\=", "="));
    }
    return resources;
  }

  /**
   * Issue 41: Payara Server's settings are custom resources that override the WAR's defaults; the
   * production set is Tomcat's production example's (the values that are not the default), the
   * secrets' folder aside, and no secret is a value (Payara writes each into domain.xml).
   */
  @Test
  void whenPayaraServerSetupIsReadThenItGivesTomcatsProductionSettingsAndNoSecretAsAValue()
      throws Exception {
    String setup = Files.readString(Path.of("conf/payara-server/setup.asadmin"));
    Map<String, String> resources = customResources(setup);
    assertTrue(settingNames().containsAll(resources.keySet()), resources.keySet().toString());
    List<String> secrets =
        resources.keySet().stream().filter(name -> Setting.of(name).secret()).toList();
    assertEquals(List.of(), secrets, "secrets given as values");
    Map<String, String> tomcat = new TreeMap<>();
    NodeList entries =
        parse(Path.of("conf/tomcat/context-production.xml")).getElementsByTagName("Environment");
    for (int i = 0; i < entries.getLength(); i++) {
      Element entry = (Element) entries.item(i);
      String name = entry.getAttribute("name");
      String value = entry.getAttribute("value");
      if (!value.isEmpty() && !value.equals(Setting.of(name).byDefault())) {
        tomcat.put(
            name, value.replace("${catalina.base}/conf/identity/", "/opt/identity/secrets/"));
      }
    }
    Map<String, String> production = new TreeMap<>(resources);
    production.values().removeIf(String::isEmpty);
    production.entrySet().removeIf(e -> e.getValue().equals(Setting.of(e.getKey()).byDefault()));
    assertEquals(tomcat, production);
    assertTrue(setup.contains(" jdbc/identity\n"), "the JDBC resource the resource-ref names");
    assertFalse(setup.contains("password="), "a password in the pool");
  }

  /**
   * Issue 41: conf/wildfly/setup.cli binds settings as {@code java:global/identity/NAME}, each one
   * JndiSettings reads, the production ones among them, and the secrets only in their file forms:
   * WildFly writes every binding's value into standalone.xml.
   */
  @Test
  void whenTheWildFlyScriptIsReadThenItBindsKnownSettingsAndSecretsOnlyAsFiles() throws Exception {
    Matcher binding =
        Pattern.compile("binding=java\\\\:global\\\\/identity\\\\/(\\w+):add\\(")
            .matcher(Files.readString(Path.of("conf/wildfly/setup.cli")));
    Set<String> bound = new TreeSet<>();
    while (binding.find()) {
      bound.add("identity/" + binding.group(1));
    }

    assertTrue(settingNames().containsAll(bound), bound.toString());
    assertTrue(
        bound.containsAll(
            List.of(
                JndiSettings.ISSUER,
                JndiSettings.KEY_ENCRYPTION_KEY_FILE,
                JndiSettings.SECRET_PEPPER_FILE,
                JndiSettings.BOOTSTRAP_SECRET_OUTPUT,
                JndiSettings.BOOTSTRAP_SECRET_FILE,
                JndiSettings.ADMIN_TOKEN_LIFETIME,
                JndiSettings.SECRET_MAX_AGE,
                JndiSettings.TRUSTED_PROXIES)),
        bound.toString());
    for (String secret :
        List.of(
            JndiSettings.KEY_ENCRYPTION_KEY,
            JndiSettings.SECRET_PEPPER,
            JndiSettings.BOOTSTRAP_CLIENT_SECRET,
            JndiSettings.PREVIOUS_KEY_ENCRYPTION_KEYS,
            JndiSettings.PREVIOUS_SECRET_PEPPERS,
            JndiSettings.PKCS11_PIN)) {
      assertFalse(bound.contains(secret), secret + " bound as a value");
    }
  }
}
