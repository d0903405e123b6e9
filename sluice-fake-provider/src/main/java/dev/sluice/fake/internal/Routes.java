package dev.sluice.fake.internal;

import dev.sluice.fake.RouteFamily;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Maps a request path to its family: the family's path itself, or one item segment below it. */
public final class Routes {

  private final List<RouteFamily> byLongestPath;

  public Routes(Iterable<RouteFamily> families) {
    List<RouteFamily> l = new ArrayList<>();
    families.forEach(l::add);
    l.sort(Comparator.comparingInt((RouteFamily f) -> f.path().length()).reversed());
    this.byLongestPath = List.copyOf(l);
  }

  /** A routed request. */
  public record Match(RouteFamily family, Optional<String> itemId) {}

  public Optional<Match> match(String path) {
    for (RouteFamily f : byLongestPath) {
      if (path.equals(f.path())) {
        return Optional.of(new Match(f, Optional.empty()));
      }
      if (path.startsWith(f.path() + "/")) {
        String rest = path.substring(f.path().length() + 1);
        if (!rest.isEmpty() && rest.indexOf('/') < 0) {
          return Optional.of(new Match(f, Optional.of(rest)));
        }
      }
    }
    return Optional.empty();
  }
}
