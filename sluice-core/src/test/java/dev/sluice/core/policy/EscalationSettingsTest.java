package dev.sluice.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.escalation.Trigger;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code escalation} block: defaults, every key, and mistakes reported with file, line and path. */
class EscalationSettingsTest {
  static List<Problem> problems(String yaml) {
    try {
      PolicyLoader.parse(yaml, "sluice.yaml");
      return List.of();
    } catch (PolicyException e) {
      return e.problems();
    }
  }

  @Test
  void leftOutEveryTriggerIsOnAt20RateLimitsAnHourWithoutWebhook() {
    EscalationSettings s = PolicyLoader.parse("{}", "sluice.yaml").escalation();
    assertThat(s.triggers()).containsExactlyInAnyOrder(Trigger.values());
    assertThat(s.rateLimitsPerHour()).isEqualTo(20);
    assertThat(s.webhook()).isEmpty();
  }

  @Test
  void everyKeyIsRead() {
    EscalationSettings s = PolicyLoader.parse("""
        escalation:
          triggers: [uncertain_write, quota_exhausted]
          rate_limits_per_hour: 5
          webhook: {url: "https://ops.example.com/hook", secret_env: HOOK_SECRET, signature: bearer, max_attempts: 2, timeout_seconds: 1.5}
        """, "sluice.yaml").escalation();
    assertThat(s.triggers()).containsExactlyInAnyOrder(Trigger.UNCERTAIN_WRITE, Trigger.QUOTA_EXHAUSTED);
    assertThat(s.enabled(Trigger.APPROVAL_REQUIRED)).as("per-call approval is the route's, always in force").isTrue();
    assertThat(s.enabled(Trigger.DEADLINE_EXCEEDED)).isFalse();
    assertThat(s.rateLimitsPerHour()).isEqualTo(5);
    EscalationSettings.Webhook w = s.webhook().orElseThrow();
    assertThat(w.url()).isEqualTo(URI.create("https://ops.example.com/hook"));
    assertThat(w.secret()).contains(new SecretRef.Env("HOOK_SECRET"));
    assertThat(w.signature()).isEqualTo(EscalationSettings.Signature.BEARER);
    assertThat(w.maxAttempts()).isEqualTo(2);
    assertThat(w.timeout()).isEqualTo(Duration.ofMillis(1500));
  }

  @Test
  void mistakesNameTheFileTheLineAndThePathAllAtOnce() {
    List<Problem> p = problems("""
        escalation:
          triggers: [uncertain_write, quota_exausted]
          rate_limits_per_hour: 0
          webhook: {url: "ftp://ops.example.com/hook", max_atempts: 2}
        """);
    assertThat(p).extracting(Problem::path).contains("escalation.triggers[1]", "escalation.rate_limits_per_hour", "escalation.webhook.url",
        "escalation.webhook.max_atempts");
    assertThat(p).filteredOn(x -> x.path().equals("escalation.triggers[1]")).singleElement().satisfies(x -> {
      assertThat(x.line()).isEqualTo(2);
      assertThat(x.message()).contains("did you mean 'quota_exhausted'");
    });
    assertThat(p).filteredOn(x -> x.path().equals("escalation.webhook.url")).singleElement()
        .satisfies(x -> assertThat(x.message()).contains("expected an absolute http or https URL"));
    assertThat(p).allSatisfy(x -> assertThat(x.toString()).contains("sluice.yaml"));
  }

  @Test
  void aBearerSecretIsNeverSentToAPlainHttpWebhookExceptOnLoopback() {
    List<Problem> p = problems("""
        escalation:
          webhook: {url: "http://ops.example.com/hook", secret_env: HOOK_SECRET, signature: bearer}
        """);
    assertThat(p).singleElement().satisfies(x -> {
      assertThat(x.path()).isEqualTo("escalation.webhook.url");
      assertThat(x.message()).contains("expected an https URL (or a loopback one)");
    });
    assertThat(problems("""
        escalation:
          webhook: {url: "http://127.0.0.1:9/hook", secret_env: HOOK_SECRET, signature: bearer}
        """)).isEmpty();
    assertThat(problems("""
        escalation:
          webhook: {url: "http://ops.example.com/hook", secret_env: HOOK_SECRET}
        """)).as("an HMAC signature does not reveal the secret").isEmpty();
  }
}
