package dev.platform.identity.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SettingTest {
  @Test
  void whenSettingsAreDeclaredThenEachNameIsDeclaredOnce() {
    Set<String> names =
        Arrays.stream(Setting.values()).map(Setting::entry).collect(Collectors.toSet());

    assertEquals(Setting.values().length, names.size());
    assertTrue(
        names.stream().allMatch(name -> name.matches("identity/[a-z][A-Za-z0-9]+")),
        names.toString());
  }

  @Test
  void whenARangeAndADefaultAreDeclaredThenTheDefaultLiesInTheRange() {
    int checked = 0;
    for (Setting setting : Setting.values()) {
      if (setting.range().isEmpty() || setting.byDefault().isEmpty()) {
        continue;
      }
      Setting.Range range = setting.range().get();
      boolean duration = setting.type().equals("duration");
      String value = setting.byDefault();
      if (!range.min().isEmpty()) {
        assertTrue(
            duration
                ? range.shortest().compareTo(java.time.Duration.parse(value)) <= 0
                : range.least() <= Integer.parseInt(value),
            setting + ": " + value + " below " + range.min());
      }
      if (!range.max().isEmpty()) {
        assertTrue(
            duration
                ? range.longest().compareTo(java.time.Duration.parse(value)) >= 0
                : range.most() >= Integer.parseInt(value),
            setting + ": " + value + " above " + range.max());
      }
      checked++;
    }
    assertTrue(checked >= 15, "ranges checked: " + checked);
  }

  @Test
  void whenAnEntryIsNotDeclaredThenItCannotBeRead() {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> Setting.of("identity/undeclared"));

    assertEquals("identity/undeclared is not a declared setting", e.getMessage());
  }
}
