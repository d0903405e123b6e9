package dev.sluice.core.headers.sf;

import java.util.List;
import java.util.Objects;

/**
 * A List structured field (RFC 9651 §3.1): members in order. An empty list stands for an absent
 * field and serializes to the empty string.
 *
 * @param members the items and inner lists, in order
 */
public record SfList(List<Member> members) {
  public SfList {
    members = List.copyOf(Objects.requireNonNull(members, "members"));
  }

  public static SfList of(Member... members) {
    return new SfList(List.of(members));
  }

  public boolean isEmpty() {
    return members.isEmpty();
  }

  public int size() {
    return members.size();
  }
}
