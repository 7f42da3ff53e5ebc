package dev.platform.identity.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ScopeTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "marketing:content.view",
        "marketing:*",
        "identity:admin",
        "identity:accounts.manage",
        "kitchen:kiosks.heartbeat",
        "svc-2:res_1.do-it"
      })
  void whenNameHasScopeSyntaxThenWellFormed(String name) {
    assertTrue(Scope.isWellFormed(name));
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(
      strings = {
        "marketing",
        "marketing:",
        ":content.view",
        "Marketing:content.view",
        "marketing:Content.view",
        "marketing:content.view.extra",
        "marketing:content.",
        "marketing:.view",
        "marketing:*.view",
        "marketing:content.*",
        "*:*",
        "marketing: content.view",
        "marketing:content.view ",
        "marketing:content\tview",
        "marketing::content.view",
        "1marketing:content.view",
        "marketing:cöntent.view"
      })
  void whenNameBreaksScopeSyntaxThenNotWellFormed(String name) {
    assertFalse(Scope.isWellFormed(name));
  }

  @Test
  void whenNameIsLongerThan100CharactersThenNotWellFormed() {
    String name = "svc:" + "r".repeat(50) + "." + "a".repeat(46);
    assertEquals(101, name.length());
    assertFalse(Scope.isWellFormed(name));
    assertTrue(Scope.isWellFormed(name.substring(0, 100)));
  }

  @Test
  void whenMalformedThenRequireWellFormedNamesTheScopeWithoutDoubleQuotes() {
    InvalidScopeException e =
        assertThrows(InvalidScopeException.class, () -> Scope.requireWellFormed("Bad:Scope"));

    assertEquals(Optional.of("Bad:Scope"), e.scope());
    assertTrue(e.getMessage().startsWith("scope 'Bad:Scope' is malformed"), e.getMessage());
    assertFalse(e.getMessage().contains("\""));
  }

  @Test
  void whenNullThenRequireWellFormedSaysMissing() {
    InvalidScopeException e =
        assertThrows(InvalidScopeException.class, () -> Scope.requireWellFormed(null));
    assertTrue(e.getMessage().contains("missing"), e.getMessage());
  }

  @Test
  void whenViewOrReadThenDefaultIsSubscribeAndReplayOnTheResource() {
    List<String> content = List.of("marketing.content.*");
    assertEquals(
        new ChannelGrant(content, List.of(), content),
        Scope.defaultChannels("marketing:content.view"));
    List<String> menus = List.of("kitchen.menus.*");
    assertEquals(
        new ChannelGrant(menus, List.of(), menus), Scope.defaultChannels("kitchen:menus.read"));
  }

  @Test
  void whenOtherActionThenDefaultIsPublishOnTheResource() {
    List<String> orders = List.of("kitchen.orders.*");
    assertEquals(
        new ChannelGrant(List.of(), orders, List.of()),
        Scope.defaultChannels("kitchen:orders.create"));
    assertEquals(
        new ChannelGrant(List.of(), orders, List.of()),
        Scope.defaultChannels("kitchen:orders.calculate"));
  }

  @Test
  void whenWildcardThenDefaultIsEveryActionOnTheService() {
    List<String> all = List.of("catalog.*");
    assertEquals(new ChannelGrant(all, all, all), Scope.defaultChannels("catalog:*"));
  }

  @Test
  void whenNoResourceThenDefaultIsNoChannel() {
    assertEquals(ChannelGrant.NONE, Scope.defaultChannels("identity:admin"));
  }

  @Test
  void whenWildcardThenCoversItselfAndEveryScopeOfItsServiceOnly() {
    Scope wildcard = scope("marketing:*");

    assertTrue(wildcard.isWildcard());
    assertTrue(wildcard.covers(scope("marketing:*")));
    assertTrue(wildcard.covers(scope("marketing:content.view")));
    assertTrue(wildcard.covers(scope("marketing:offers.view")));
    assertFalse(wildcard.covers(scope("catalog:products.view")));
    assertFalse(wildcard.covers(scope("catalog:*")));
    assertFalse(wildcard.covers(scope("marketingx:content.view")));
  }

  @Test
  void whenNotWildcardThenCoversOnlyItself() {
    Scope view = scope("marketing:content.view");

    assertFalse(view.isWildcard());
    assertTrue(view.covers(scope("marketing:content.view")));
    assertFalse(view.covers(scope("marketing:content.create")));
    assertFalse(view.covers(scope("marketing:*")));
  }

  @Test
  void whenDefinedWithoutChannelsThenGetsTheDefault() {
    Scope scope = Scope.define("billing:invoices.view", "  View invoices. ", Optional.empty());

    assertEquals("billing", scope.service());
    assertEquals("View invoices.", scope.description());
    assertEquals(Scope.defaultChannels("billing:invoices.view"), scope.channels());
  }

  @Test
  void whenDefinedWithChannelsThenKeepsThemSortedAndDistinct() {
    ChannelGrant channels = new ChannelGrant(List.of("b.*", "a.x", "b.*"), List.of(), List.of("*"));

    Scope scope = Scope.define("billing:invoices.view", "View invoices.", Optional.of(channels));

    assertEquals(List.of("a.x", "b.*"), scope.channels().subscribe());
    assertEquals(List.of("*"), scope.channels().replay());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "\t"})
  void whenDefinedWithoutDescriptionThenInvalid(String description) {
    assertThrows(
        InvalidScopeException.class,
        () -> Scope.define("billing:invoices.view", description, Optional.empty()));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "View\u0000 invoices.",
        "View invoices.\nAdministrator: yes",
        "View \u202Esecivni.",
        "View\u200B invoices.",
        "View invoices.\u2028More",
        "View\u007F invoices."
      })
  void whenTheDescriptionHasACharacterThatDisguisesTextThenInvalid(String description) {
    InvalidScopeException refused =
        assertThrows(
            InvalidScopeException.class,
            () -> Scope.define("billing:invoices.view", description, Optional.empty()));
    assertTrue(refused.getMessage().contains("control, format (bidi)"), refused.getMessage());
  }

  @Test
  void whenTheDescriptionIsAnotherScriptThenValid() {
    assertEquals(
        "Rechnungen ansehen – 請求書を見る",
        Scope.define("billing:invoices.view", "Rechnungen ansehen – 請求書を見る", Optional.empty())
            .description());
  }

  @Test
  void whenDescriptionTooLongThenInvalid() {
    assertThrows(
        InvalidScopeException.class,
        () -> Scope.define("billing:invoices.view", "d".repeat(501), Optional.empty()));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a b", "a..b", ".a", "a.", "a/b", "ä.b", "a.\"b\""})
  void whenChannelPatternMalformedThenInvalidNamingIt(String pattern) {
    ChannelGrant channels = new ChannelGrant(List.of(), List.of(pattern), List.of());

    InvalidScopeException e =
        assertThrows(
            InvalidScopeException.class,
            () -> Scope.define("billing:invoices.view", "View.", Optional.of(channels)));
    assertTrue(e.getMessage().contains("channel pattern"), e.getMessage());
  }

  @Test
  void whenDefinedWithMalformedNameThenInvalid() {
    assertThrows(
        InvalidScopeException.class, () -> Scope.define("billing", "Bills.", Optional.empty()));
  }

  private static Scope scope(String name) {
    return Scope.define(name, "A scope.", Optional.empty());
  }
}
