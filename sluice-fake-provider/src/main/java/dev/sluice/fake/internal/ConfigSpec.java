package dev.sluice.fake.internal;

import java.util.LinkedHashMap;
import java.util.List;

/**
 * The raw shape of the YAML config file and of posted fault rules, as Jackson reads them (keys in
 * snake_case; unknown keys refused). Every member is optional here; {@link ConfigReader} applies
 * defaults and checks values, naming the key of any problem.
 */
final class ConfigSpec {

  private ConfigSpec() {}

  record File(
      String host,
      Integer port,
      Boolean inspect,
      String dialect,
      String retryAfter,
      String scopeBy,
      QuotaSpec quota,
      TokenQuotaSpec tokenQuota,
      DailySpec dailyQuota,
      ConcurrencySpec concurrency,
      OverQuotaSpec overQuota,
      LinkedHashMap<String, FamilySpec> families,
      List<FaultSpec> faults,
      Long balance,
      List<String> acceptedCredentials) {}

  record QuotaSpec(Long requests, Double perSeconds, Long burst) {}

  record TokenQuotaSpec(Long tokens, Double perSeconds, Long burst) {}

  record DailySpec(Long requests, String body) {}

  record ConcurrencySpec(Integer limit, Integer status, Long retryAfterSeconds, String body) {}

  record OverQuotaSpec(Integer status, String body) {}

  record FamilySpec(
      String path, Boolean mutable, Boolean idempotency, Boolean debitsBalance, String idPrefix, QuotaSpec quota) {}

  record FaultSpec(
      String kind,
      String method,
      String path,
      String family,
      String scope,
      Long nth,
      String times,
      Long delayMs,
      Integer status,
      Long retryAfterSeconds,
      Integer bytes) {}
}
