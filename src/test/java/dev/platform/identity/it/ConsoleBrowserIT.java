package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.deque.html.axecore.results.CheckedNode;
import com.deque.html.axecore.results.Results;
import com.deque.html.axecore.results.Rule;
import com.deque.html.axecore.selenium.AxeBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Issue 21 §2: the console in a real Chromium (Debian's, driven by Selenium's ChromeDriver), the
 * operator's journeys end to end with the token endpoint as the proof, axe-core on every page, one
 * journey by keyboard alone, and the page at 200 % zoom. Screenshots of every page go to {@code
 * target/console-screenshots/}. Runs with {@code -Pbrowser}, which CI turns on.
 */
@ExtendWith(ArquillianExtension.class)
@EnabledIfSystemProperty(named = "identity.browser", matches = ".+")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserIT {
  static final Path SCREENSHOTS = Path.of("target/console-screenshots");
  static final Set<String> SERIOUS = Set.of("serious", "critical");

  static WebDriver driver;
  static final Set<String> checked = new LinkedHashSet<>();

  /** What the journeys hand on to each other. */
  static String clientId;

  static String secret;

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war("console-browser-" + UUID.randomUUID(), Map.of());
  }

  @ArquillianResource URL base;

  @BeforeAll
  static void startChromium() throws IOException {
    Files.createDirectories(SCREENSHOTS);
    Path profile = Files.createTempDirectory(Path.of("target"), "chromium-");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(System.getProperty("identity.browser"));
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        // Without these, Chromium reaches for Google's hosts, which this network refuses.
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--user-data-dir=" + profile.toAbsolutePath());
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(System.getProperty("identity.chromedriver")))
            .usingAnyFreePort()
            .build();
    driver = new ChromeDriver(service, options);
    driver.manage().window().setSize(new Dimension(1280, 900));
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
  }

  @AfterAll
  static void stopChromium() {
    if (driver != null) {
      driver.quit();
    }
  }

  @BeforeEach
  void wideWindow() {
    driver.manage().window().setSize(new Dimension(1280, 900));
  }

  Http http() {
    return new Http(base);
  }

  String url(String path) {
    return http().uri(path).toString();
  }

  /** The page now shown, photographed as {@code name} and checked by axe-core. */
  void look(String name) {
    try {
      Files.write(
          SCREENSHOTS.resolve(name + ".png"),
          ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Results results = new AxeBuilder().analyze(driver);
    List<String> serious = new ArrayList<>();
    for (Rule rule : results.getViolations()) {
      if (SERIOUS.contains(rule.getImpact())) {
        serious.add(
            rule.getImpact()
                + " "
                + rule.getId()
                + " at "
                + rule.getNodes().stream()
                    .map(CheckedNode::getTarget)
                    .map(String::valueOf)
                    .collect(Collectors.joining(", ")));
      }
    }
    assertTrue(serious.isEmpty(), name + ": axe-core found " + serious);
    checked.add(name);
  }

  WebElement find(String css) {
    try {
      return new WebDriverWait(driver, Duration.ofSeconds(10))
          .until(browser -> browser.findElement(By.cssSelector(css)));
    } catch (org.openqa.selenium.TimeoutException e) {
      throw new AssertionError(
          "no "
              + css
              + " on "
              + driver.getCurrentUrl()
              + ": "
              + driver.findElement(By.tagName("main")).getText(),
          e);
    }
  }

  /**
   * Clicks a control that sends a form or follows a link, and waits until its page is gone: a click
   * returns before the browser has the answer, and a navigation started meanwhile would race the
   * form's.
   */
  void submit(WebElement control) {
    control.click();
    awaitGone(control);
  }

  /** The same for a control reached by the keyboard: Enter sends its form. */
  void submitWithEnter(WebElement control) {
    control.sendKeys(Keys.ENTER);
    awaitGone(control);
  }

  /**
   * Waits until {@code control}'s page has been replaced. Chromium reports a node of a page that is
   * gone either as stale or as "does not belong to the document": both mean the next page is here.
   */
  void awaitGone(WebElement control) {
    new WebDriverWait(driver, Duration.ofSeconds(10))
        .until(
            browser -> {
              try {
                control.isEnabled();
                return false;
              } catch (org.openqa.selenium.WebDriverException gone) {
                return true;
              }
            });
  }

  void signIn(String id, String secret) {
    driver.get(url("/console/login"));
    find("#client_id").sendKeys(id);
    find("#client_secret").sendKeys(secret);
    submit(find("#sign-in"));
  }

  HttpResponse<String> token(String id, String secret) {
    return http().tokenResponse(id, secret);
  }

  String adminToken() {
    return http().adminToken();
  }

  String createThroughApi(String admin, String name, String org, String scopes) {
    HttpResponse<String> created =
        http()
            .admin(
                "POST",
                "/service-accounts",
                admin,
                "{\"name\":\""
                    + name
                    + "\",\"organization_id\":\""
                    + org
                    + "\",\"scopes\":["
                    + scopes
                    + "]}");
    assertEquals(201, created.statusCode(), created.body());
    JsonNode body = Http.json(created);
    return body.get("client_id").asText() + " " + body.get("client_secret").asText();
  }

  /** Fills the creation form and sends it; the page then shows the secret once. */
  void createInConsole(String name, String org, String scopes) {
    driver.get(url("/console/accounts/new"));
    look("account-new");
    find("#name").sendKeys(name);
    find("#organization_id").sendKeys(org);
    find("#scopes").sendKeys(scopes);
    submit(find("#create"));
  }

  /** The check is real: axe-core, injected despite the page's CSP, finds an unlabelled input. */
  @Test
  @Order(0)
  void whenAControlHasNoLabelThenAxeCoreReportsItAsCritical() {
    driver.get(url("/console/login"));
    ((JavascriptExecutor) driver)
        .executeScript(
            "const input = document.createElement('input'); input.id = 'unlabelled';"
                + " document.querySelector('main').appendChild(input);");
    List<String> found =
        new AxeBuilder()
            .analyze(driver).getViolations().stream()
                .filter(rule -> SERIOUS.contains(rule.getImpact()))
                .map(Rule::getId)
                .toList();
    assertTrue(found.contains("label"), found.toString());
  }

  @Test
  @Order(1)
  void whenTheAdministratorSignsInThenTheOverviewShowsTheAccountsAndKeys() {
    driver.manage().deleteAllCookies();
    driver.get(url("/console/"));
    assertTrue(driver.getCurrentUrl().endsWith("/console/login"), driver.getCurrentUrl());
    look("login");
    signIn(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET);
    assertTrue(find("#account-counts").getText().contains("active"));
    assertTrue(find("#current-key").getText().contains("Signing now"));
    look("overview");
  }

  @Test
  @Order(2)
  void whenAnAccountIsCreatedThenThePageShowsTheRealSecretOnce() {
    createInConsole("billing service", "org-browser", "marketing:*");
    clientId = find("#client-id").getText();
    secret = find("#client-secret").getText();
    assertTrue(find("#secret-warning").getText().contains("You will not see this again"));
    look("account-created");
    HttpResponse<String> issued = token(clientId, secret);
    assertEquals(200, issued.statusCode(), "the page showed the real secret: " + issued.body());

    driver.get(url("/console/accounts"));
    assertTrue(find("#accounts").getText().contains("billing service"));
    assertFalse(driver.getPageSource().contains(secret), "the list never shows the secret");
    look("accounts");
    driver.get(url("/console/accounts/" + clientId));
    assertFalse(driver.getPageSource().contains(secret), "nor does the account");
    look("account");
  }

  @Test
  @Order(3)
  void whenTheSecretIsRotatedWithAnOverlapThenBothWorkAndTheNewOneIsShown() {
    driver.get(url("/console/accounts/" + clientId));
    submit(find("#rotate-secret"));
    assertTrue(find("#confirm-question").getText().contains("billing service"));
    look("account-confirm-secret");
    new Select(find("#previous_secret_valid_for")).selectByValue("PT1H");
    submit(find("#confirm"));
    String rotated = find("#client-secret").getText();
    assertTrue(find("#previous-expires").getText().length() > 10);
    look("account-secret");
    assertEquals(200, token(clientId, rotated).statusCode());
    assertEquals(200, token(clientId, secret).statusCode(), "the overlap keeps the old one");
    secret = rotated;
  }

  @Test
  @Order(4)
  void whenTheAccountIsDeactivatedThenItsTokenRequestIsRefusedAsRevoked() {
    driver.get(url("/console/accounts/" + clientId));
    submit(find("#deactivate"));
    String question = find("#confirm-question").getText();
    assertTrue(question.contains("billing service") && question.contains(clientId), question);
    look("account-confirm-deactivate");
    submit(find("#confirm"));
    assertEquals("deactivated", find("#status").getText());
    assertTrue(find("#done").getText().contains("deactivated"));
    HttpResponse<String> refused = token(clientId, secret);
    assertEquals(401, refused.statusCode(), refused.body());
    assertEquals("invalid_client", Http.json(refused).get("error").asText());
    assertTrue(refused.body().contains("revoked"), refused.body());
  }

  @Test
  @Order(5)
  void whenASigningKeyIsRotatedThenTheTimelineShowsIt() {
    driver.get(url("/console/keys"));
    int before = driver.findElements(By.cssSelector("svg.timeline g[data-kid]")).size();
    look("keys");
    submit(find("#rotate-key"));
    look("keys-confirm-rotate");
    submit(find("#confirm"));
    find("svg.timeline");
    JsonNode keys =
        Http.json(http().admin("GET", "/signing-keys", adminToken(), null)).get("items");
    assertEquals(
        before + 1, driver.findElements(By.cssSelector("svg.timeline g[data-kid]")).size());
    for (JsonNode key : keys) {
      String kid = key.get("kid").asText();
      assertEquals(
          1,
          driver.findElements(By.cssSelector("svg.timeline g[data-kid='" + kid + "']")).size(),
          kid);
    }
    look("keys-rotated");
    driver.get(url("/console/scopes"));
    look("scopes");
    driver.get(url("/console/scopes/marketing:*"));
    look("scope-edit");
    driver.get(url("/console/audit"));
    assertTrue(driver.getPageSource().contains("key.rotate"));
    look("audit");
  }

  @Test
  @Order(6)
  void whenTheWindowIsNarrowAs200PercentZoomThenNothingScrollsSideways() {
    driver.manage().window().setSize(new Dimension(640, 900));
    for (String path : List.of("/console/", "/console/accounts", "/console/keys")) {
      driver.get(url(path));
      Object wide =
          ((JavascriptExecutor) driver)
              .executeScript(
                  "return document.documentElement.scrollWidth <= window.innerWidth + 1");
      Object culprits =
          ((JavascriptExecutor) driver)
              .executeScript(
                  "return [...document.querySelectorAll('body *')]"
                      + ".filter(e => !e.closest('.table-wrap') && e.getBoundingClientRect().right > window.innerWidth + 1)"
                      + ".slice(0, 8).map(e => e.tagName + '#' + e.id + '.' + e.className"
                      + " + ' ' + Math.round(e.getBoundingClientRect().right)).join(', ')"
                      + " + ' doc ' + document.documentElement.scrollWidth + ' inner ' + window.innerWidth"
                      + " + ' wraps ' + [...document.querySelectorAll('.table-wrap')].map(w =>"
                      + " getComputedStyle(w).overflowX + ' ' + w.getBoundingClientRect().width).join(';')");
      assertEquals(Boolean.TRUE, wide, path + " scrolls sideways at 640 px: " + culprits);
    }
    look("overview-640");
  }

  @Test
  @Order(7)
  void whenANameIsMarkupThenItIsShownAsTextAndNothingRuns() {
    String name = "<img src=x onerror=alert(1)>";
    createInConsole(name, "org-browser", "marketing:*");
    driver.get(url("/console/accounts"));
    WebElement table = find("#accounts");
    assertEquals(1, table.findElements(By.linkText(name)).size(), table.getText());
    assertTrue(table.findElements(By.tagName("img")).isEmpty());
    assertThrows(NoAlertPresentException.class, () -> driver.switchTo().alert());
  }

  @Test
  @Order(8)
  void whenAFormIsPostedWithoutItsCsrfTokenThenItIsRefused() {
    String victim =
        createThroughApi(adminToken(), "csrf victim", "org-browser", "\"marketing:*\"")
            .split(" ")[0];
    Cookie session = driver.manage().getCookieNamed("identity-console");
    for (String body : List.of("", "csrf=forged", "csrf=a&csrf=b")) {
      HttpResponse<String> answer =
          http()
              .send(
                  http()
                      .request("/console/accounts/" + victim + "/deactivate")
                      .header("Cookie", session.getName() + "=" + session.getValue())
                      .header("Content-Type", "application/x-www-form-urlencoded")
                      .POST(HttpRequest.BodyPublishers.ofString(body))
                      .build());
      assertEquals(403, answer.statusCode(), body);
    }
    driver.get(url("/console/accounts/" + victim));
    assertEquals("active", find("#status").getText());
  }

  @Test
  @Order(9)
  void whenTheOperatorSignsOutThenTheSessionIsDeadEvenForACopyOfItsCookie() {
    driver.get(url("/console/"));
    Cookie session = driver.manage().getCookieNamed("identity-console");
    submit(find(".logout button"));
    assertTrue(find("#login-message").getText().contains("signed out"));
    driver.get(url("/console/accounts"));
    assertTrue(driver.getCurrentUrl().endsWith("/console/login"), driver.getCurrentUrl());
    HttpResponse<String> replayed =
        http()
            .send(
                http()
                    .request("/console/accounts")
                    .header("Cookie", session.getName() + "=" + session.getValue())
                    .GET()
                    .build());
    assertEquals(303, replayed.statusCode());
    assertEquals("/console/login", replayed.headers().firstValue("Location").orElse(null));
  }

  @Test
  @Order(10)
  void whenAManagerOfOneOrganizationSignsInThenOnlyItsAccountsAreThere() {
    String admin = adminToken();
    String[] manager =
        createThroughApi(
                admin, "manager a", "org-a", "\"identity:accounts.manage\",\"marketing:*\"")
            .split(" ");
    String own = createThroughApi(admin, "org a service", "org-a", "\"marketing:*\"").split(" ")[0];
    String foreign =
        createThroughApi(admin, "org b service", "org-b", "\"marketing:*\"").split(" ")[0];
    driver.manage().deleteAllCookies();
    signIn(manager[0], manager[1]);
    driver.get(url("/console/accounts"));
    String list = find("#accounts").getText();
    assertTrue(list.contains("org a service"), list);
    assertFalse(list.contains("org b service"), list);
    assertFalse(driver.getPageSource().contains(foreign));
    driver.get(url("/console/accounts/" + foreign));
    assertTrue(find("#refusal").getText().contains("no service account"));
    assertFalse(driver.getPageSource().contains("org b service"));
    look("refusal");
    driver.get(url("/console/accounts/" + own));
    assertEquals("active", find("#status").getText());
  }

  @Test
  @Order(11)
  void whenTheSecretIsWrongThenThePageSaysSoAndTheRateLimitCountsIt() {
    driver.manage().deleteAllCookies();
    String[] target =
        createThroughApi(adminToken(), "login target", "org-b", "\"identity:audit.read\"")
            .split(" ");
    signIn(target[0], "wrong-secret");
    assertTrue(find("#login-message").getText().contains("wrong"));
    look("login-refused");
    String message = "";
    // The budget is 20 a minute and refills one attempt every 3 s while the browser works: a login
    // takes well under that, so the budget runs out within a bounded number of attempts.
    for (int i = 0; i < 100 && !message.contains("Too many attempts"); i++) {
      signIn(target[0], "wrong-secret");
      message = find("#login-message").getText();
    }
    assertTrue(message.contains("Too many attempts"), message);
    // That the same budget then refuses /oauth/token is ConsoleIT's check: over plain HTTP it runs
    // within the second the budget needs to refill one attempt, which a browser's 20 logins do not.
  }

  @Test
  @Order(12)
  void whenTheOperatorUsesOnlyTheKeyboardThenSignInAndCreationWork() {
    driver.manage().deleteAllCookies();
    driver.get(url("/console/login"));
    tabTo("client_id").sendKeys(Deployments.ADMIN_ID);
    active().sendKeys(Keys.TAB);
    WebElement secretField = active();
    secretField.sendKeys(Deployments.ADMIN_SECRET);
    submitWithEnter(secretField);
    find("#account-counts");
    WebElement create = tabToText("Create an account");
    submitWithEnter(create);
    tabTo("name").sendKeys("keyboard service");
    active().sendKeys(Keys.TAB);
    active().sendKeys("org-keys");
    active().sendKeys(Keys.TAB);
    active().sendKeys("marketing:*");
    submitWithEnter(tabTo("create"));
    assertTrue(find("#client-secret").getText().length() >= 32);
    String visible =
        String.valueOf(
            ((JavascriptExecutor) driver)
                .executeScript(
                    "return getComputedStyle(document.activeElement).outlineStyle"
                        + " + ' ' + document.activeElement.tagName"));
    assertFalse(visible.isEmpty());
    assertTrue(checked.size() >= 14, "axe-core checked " + checked);
  }

  /**
   * Issue 39: this server has no identity/tlsClientCaFile, so the form shows the API's refusal of a
   * tls_client_auth account; a self-signed certificate pasted as PEM makes an account with no
   * secret.
   */
  @Test
  @Order(13)
  void whenACertificateAccountIsCreatedThenTheFormTakesItsPemAndShowsTheApisRefusals()
      throws Exception {
    driver.manage().deleteAllCookies();
    signIn(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET);
    find("#account-counts");
    driver.get(url("/console/accounts/new"));
    assertTrue(find("#method-secret").isSelected(), "a secret is the default");
    find("#name").sendKeys("certificate service");
    find("#organization_id").sendKeys("org-cert");
    find("#scopes").sendKeys("marketing:*");
    find("#method-tls").click();
    new Select(find("#subject-form")).selectByValue("san_dns");
    find("#subject").sendKeys("orders.example.com");
    submit(find("#create"));
    assertTrue(
        find("#form-message").getText().contains("this server has none"),
        find("#form-message").getText());
    assertTrue(find("#method-tls").isSelected(), "the choice is kept");
    assertEquals(
        "san_dns",
        new Select(find("#subject-form")).getFirstSelectedOption().getAttribute("value"));
    look("account-new-refused");

    find("#subject").clear();
    find("#method-self-signed").click();
    find("#certificate")
        .sendKeys(
            ConsoleIT.pem(
                dev.platform.identity.tls.TestPki.selfSigned("CN=browser").certificate()));
    submit(find("#create"));
    assertTrue(find("#no-secret").getText().contains("no secret"));
    assertEquals("self_signed_tls_client_auth", find("#auth-method").getText());
    assertEquals(0, driver.findElements(By.id("client-secret")).size());
    look("account-created-certificate");
    String id = find("#client-id").getText();
    driver.get(url("/console/accounts/" + id));
    assertEquals("yes", find("#bound-tokens").getText());
  }

  WebElement active() {
    return driver.switchTo().activeElement();
  }

  /** Presses Tab until the element with {@code id} has the focus, and checks the ring shows. */
  WebElement tabTo(String id) {
    for (int i = 0; i < 40; i++) {
      if (id.equals(active().getAttribute("id"))) {
        String outline =
            String.valueOf(
                ((JavascriptExecutor) driver)
                    .executeScript("return getComputedStyle(document.activeElement).outlineStyle"));
        assertFalse("none".equals(outline), id + " has focus but no visible focus ring");
        return active();
      }
      active().sendKeys(Keys.TAB);
    }
    throw new AssertionError("Tab never reached #" + id);
  }

  WebElement tabToText(String text) {
    for (int i = 0; i < 40; i++) {
      if (text.equals(active().getText())) {
        return active();
      }
      active().sendKeys(Keys.TAB);
    }
    throw new AssertionError("Tab never reached " + text);
  }
}
