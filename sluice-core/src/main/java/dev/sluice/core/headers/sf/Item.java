package dev.sluice.core.headers.sf;

import java.util.Objects;

/**
 * An Item (RFC 9651 §3.3): a bare item with parameters.
 *
 * @param bareItem the value
 * @param parameters the parameters, possibly empty
 */
public record Item(BareItem bareItem, Parameters parameters) implements Member {
  public Item {
    Objects.requireNonNull(bareItem, "bareItem");
    Objects.requireNonNull(parameters, "parameters");
  }

  /** An item without parameters. */
  public static Item of(BareItem bareItem) {
    return new Item(bareItem, Parameters.empty());
  }
}
