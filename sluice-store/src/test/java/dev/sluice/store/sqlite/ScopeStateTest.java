package dev.sluice.store.sqlite;

import static dev.sluice.store.sqlite.Fixtures.at;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.scope.ScopeRecord;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ScopeStateTest extends JournalTestBase {

  static ScopeRecord held(String provider, String scope, long untilSecond) {
    return new ScopeRecord(provider, scope, "read", Optional.of(at(untilSecond)), OptionalLong.of(0), OptionalLong.of(10), "HTTP 429 Retry-After");
  }

  @Test
  void scopesAreStoredAndListedByProviderThenScope() {
    ScopeRecord b = held("billing-api", "account:ops-team", 10);
    ScopeRecord a = new ScopeRecord("anthropic", "org", "read", Optional.empty(), OptionalLong.empty(), OptionalLong.empty(), "none yet");
    ScopeRecord b0 = held("billing-api", "account:alpha", 20);

    journal.saveScope(b);
    journal.saveScope(a);
    journal.saveScope(b0);

    assertThat(journal.scopes()).containsExactly(a, b0, b);
  }

  @Test
  void savingAScopeAgainReplacesItsRecord() {
    journal.saveScope(held("billing-api", "s", 10));
    ScopeRecord later = new ScopeRecord("billing-api", "s", "write", Optional.of(at(40)), OptionalLong.of(3), OptionalLong.empty(), "RateLimit");

    journal.saveScope(later);

    assertThat(journal.scopes()).containsExactly(later);
  }

  @Test
  void scopeStateSurvivesARestart() {
    ScopeRecord r = held("billing-api", "s", 10);
    journal.saveScope(r);
    journal.close();

    journal = SqliteJournal.open(dataDir);

    assertThat(journal.scopes()).containsExactly(r);
  }
}
