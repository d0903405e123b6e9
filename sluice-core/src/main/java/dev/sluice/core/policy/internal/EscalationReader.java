package dev.sluice.core.policy.internal;

import dev.sluice.core.escalation.Trigger;
import dev.sluice.core.policy.EscalationSettings;
import dev.sluice.core.policy.SecretRef;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Reads the {@code escalation} block (docs/CONFIGURATION.md), every problem with its path. */
final class EscalationReader {
  static final List<String> KEYS = List.of("triggers", "rate_limits_per_hour", "webhook");
  static final List<String> WEBHOOK_KEYS = List.of("url", "secret_env", "secret_file", "signature", "max_attempts", "timeout_seconds");

  private EscalationReader() {}

  static Optional<EscalationSettings> read(YamlValue v, Problems problems) {
    int before = problems.count();
    Optional<YamlMapping> mo = v.mapping(KEYS, null, "a mapping with triggers, rate_limits_per_hour, webhook");
    if (mo.isEmpty()) {
      return Optional.empty();
    }
    YamlMapping m = mo.get();
    EscalationSettings d = EscalationSettings.DEFAULTS;
    Set<Trigger> triggers = m.optional("triggers").map(EscalationReader::triggers).orElse(d.triggers());
    int perHour = m.optional("rate_limits_per_hour").flatMap(x -> x.integer(1, 1_000_000, "1 to 1000000")).orElse(d.rateLimitsPerHour());
    Optional<EscalationSettings.Webhook> webhook = m.optional("webhook").flatMap(EscalationReader::webhook);
    if (problems.count() > before) {
      return Optional.empty();
    }
    return Fields.build(v, () -> new EscalationSettings(triggers, perHour, webhook));
  }

  private static Set<Trigger> triggers(YamlValue v) {
    Map<String, Trigger> choices = new LinkedHashMap<>();
    for (Trigger t : Trigger.values()) {
      if (t != Trigger.APPROVAL_REQUIRED) {
        choices.put(t.code(), t);
      }
    }
    Set<Trigger> out = EnumSet.noneOf(Trigger.class);
    v.list("a list of triggers: " + String.join(", ", choices.keySet()) + " (an empty list [] escalates nothing)")
        .ifPresent(items -> items.forEach(item -> item.choice(choices).ifPresent(out::add)));
    return out;
  }

  private static Optional<EscalationSettings.Webhook> webhook(YamlValue v) {
    Optional<YamlMapping> mo = v.mapping(WEBHOOK_KEYS, null, "a mapping with url and optionally secret_env or secret_file, signature, max_attempts, timeout_seconds");
    if (mo.isEmpty()) {
      return Optional.empty();
    }
    YamlMapping m = mo.get();
    Optional<URI> url = m.required("url", "an http or https URL such as https://ops.example.com/hooks/sluice").flatMap(x ->
        x.string("an http or https URL such as https://ops.example.com/hooks/sluice").flatMap(s -> {
          try {
            URI u = new URI(s);
            if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null || u.getUserInfo() != null) {
              x.error("found '" + s + "', expected an absolute http or https URL with a host and no user info");
              return Optional.empty();
            }
            return Optional.of(u);
          } catch (URISyntaxException e) {
            x.error("found '" + s + "', which is not a URL: " + e.getReason());
            return Optional.empty();
          }
        }));
    Optional<SecretRef> secret = m.has("secret_env") || m.has("secret_file")
        ? Fields.secretRef(m, "secret_env", "secret_file", "SLUICE_WEBHOOK_SECRET") : Optional.empty();
    EscalationSettings.Signature signature = m.optional("signature")
        .flatMap(x -> x.choice(Map.of("hmac", EscalationSettings.Signature.HMAC, "bearer", EscalationSettings.Signature.BEARER)))
        .orElse(EscalationSettings.Signature.HMAC);
    if (signature == EscalationSettings.Signature.BEARER && secret.isPresent() && url.isPresent() && !BaseUrls.isHttpsOrLoopback(url.get())) {
      // As for provider credentials: a bearer secret is never sent in clear, except to loopback.
      m.optional("url").ifPresent(x -> x.error("found '" + url.get() + "', expected an https URL (or a loopback one): with signature: bearer"
          + " the webhook's secret travels in the Authorization header"));
    }
    int attempts = m.optional("max_attempts").flatMap(x -> x.integer(1, 10, "1 to 10")).orElse(3);
    Duration timeout = m.optional("timeout_seconds").flatMap(x -> x.seconds(false)).orElse(Duration.ofSeconds(5));
    if (url.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new EscalationSettings.Webhook(url.get(), secret, signature, attempts, timeout));
  }
}
