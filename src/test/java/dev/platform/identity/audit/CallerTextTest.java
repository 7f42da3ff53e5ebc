package dev.platform.identity.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** A client_id is written only in the form of one, lower case; anything else is named malformed. */
class CallerTextTest {
  static final String ID = "0f8c2d4e-1a2b-4c3d-8e9f-a0b1c2d3e4f5";

  @Test
  void whenTextIsAClientIdInAnyCaseThenItIsWrittenInLowerCase() {
    assertEquals(ID, CallerText.clientId(ID));
    assertEquals(ID, CallerText.clientId(ID.toUpperCase(java.util.Locale.ROOT)));
    assertNull(CallerText.clientId(null));
  }

  @Test
  void whenTextHasNotTheFormOfAClientIdThenItIsNamedMalformed() {
    for (String text :
        new String[] {
          "",
          ID.substring(1),
          ID + "0",
          ID.replace('-', '0'),
          "0f8c2d4e1-a2b-4c3d-8e9f-a0b1c2d3e4f5",
          ID.replace('f', 'g'),
          ID.replace('a', '\uff41'),
          ID.replace('0', '\u0660'),
          "s3cr3t-s3cr3t-s3cr3t-s3cr3t-s3cr3t-s3"
        }) {
      assertEquals(CallerText.MALFORMED_CLIENT_ID, CallerText.clientId(text), text);
    }
  }
}
