package dev.sluice.core.headers.sf;

/**
 * A member of a {@link SfList} or value of a {@link SfDictionary}: either an {@link Item} or an
 * {@link InnerList}, each with its own {@link Parameters}.
 */
public sealed interface Member permits Item, InnerList {

  /** The parameters attached to this member; empty when none. */
  Parameters parameters();
}
