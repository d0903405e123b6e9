package dev.sluice.core.headers.sf;

import java.util.List;
import java.util.Objects;

/**
 * An Inner List (RFC 9651 §3.1.1): a parenthesized list of items, with parameters of its own.
 *
 * @param items the items, in order; possibly empty
 * @param parameters the inner list's parameters, possibly empty
 */
public record InnerList(List<Item> items, Parameters parameters) implements Member {
  public InnerList {
    items = List.copyOf(Objects.requireNonNull(items, "items"));
    Objects.requireNonNull(parameters, "parameters");
  }

  public static InnerList of(List<Item> items) {
    return new InnerList(items, Parameters.empty());
  }
}
