package dev.platform.identity.db;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import java.util.List;

/**
 * Stores a list of words (scopes, organization ids: never whitespace inside) as one space-separated
 * column, so an account is one row and the token path one primary-key read (DESIGN decision 2).
 */
@Converter
public final class WordList implements AttributeConverter<List<String>, String> {
  @Override
  public String convertToDatabaseColumn(List<String> words) {
    return String.join(" ", words);
  }

  @Override
  public List<String> convertToEntityAttribute(String column) {
    return column == null || column.isBlank() ? List.of() : List.of(column.trim().split(" +"));
  }
}
