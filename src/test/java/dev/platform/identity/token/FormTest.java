package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FormTest {
  @Test
  void whenEncodedThenPlusIsSpaceAndEscapesAreUtf8() {
    assertEquals("a b+c", Form.decode("a+b%2Bc"));
    assertEquals("wörd €", Form.decode("w%C3%B6rd+%E2%82%AC"));
    assertEquals("wörd", Form.decode("wörd"));
    assertEquals("%", Form.decode("%25"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"%", "%2", "%zz", "a%g1", "%+1", "%-1", "%\uFF10\uFF10", "%FF", "%C3"})
  void whenEscapeBrokenOrNotUtf8ThenRefused(String component) {
    assertThrows(IllegalArgumentException.class, () -> Form.decode(component));
  }

  @Test
  void whenRefusedThenTheMessageDoesNotQuoteTheInput() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Form.decode("s3cr3t%zz"));

    assertEquals(-1, e.getMessage().indexOf("s3cr3t"));
  }

  @Test
  void whenParsedThenValuesInOrderEmptyPairsSkippedAndBareNamesEmpty() {
    Map<String, List<String>> form = Form.parse("&a=1&&b&a=2&c=&d%5Fe=x=y&");

    assertEquals(List.of("1", "2"), form.get("a"));
    assertEquals(List.of(""), form.get("b"));
    assertEquals(List.of(""), form.get("c"));
    assertEquals(List.of("x=y"), form.get("d_e"));
    assertEquals(List.of("a", "b", "c", "d_e"), List.copyOf(form.keySet()));
  }

  @Test
  void whenNamesOfAMalformedStringThenRawWhereUndecodable() {
    assertEquals(List.of("client_id", "%zz", "x"), Form.names("client%5Fid=1&%zz=2&x"));
  }
}
