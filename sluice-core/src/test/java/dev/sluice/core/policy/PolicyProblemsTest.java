package dev.sluice.core.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every kind of mistake in a policy file is reported with the file, the exact path inside it, the
 * line and column, what was found and what was expected — and all of them at once.
 */
class PolicyProblemsTest {

  /** A minimal valid provider block, to which tests add one mistake. */
  static final String PROVIDER = """
      providers:
        billing-api:
          base_url: https://billing.example.com
      """;

  static List<Problem> problems(String yaml) {
    PolicyException e = catchThrowableOfType(PolicyException.class, () -> PolicyLoader.parse(yaml, "sluice.yaml"));
    assertThat(e).as("expected the policy to be refused").isNotNull();
    return e.problems();
  }

  static Problem onlyProblem(String yaml) {
    List<Problem> p = problems(yaml);
    assertThat(p).as("problems: %s", p).hasSize(1);
    return p.get(0);
  }

  @Nested
  class UnknownKeys {
    @Test
    void aMisspeltKeyIsAnErrorWithDidYouMean() {
      Problem p = onlyProblem("""
          request_classes:
            read: {max_atempts: 4, max_wait_seconds: 90, retry_statuses: []}
            uncertain_write: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
          """);

      assertThat(p.path()).isEqualTo("request_classes.read.max_atempts");
      assertThat(p.line()).isEqualTo(2);
      assertThat(p.column()).isEqualTo(10);
      assertThat(p.message()).isEqualTo("unknown key 'max_atempts'; did you mean 'max_attempts'?");
    }

    @Test
    void aMisspeltRequiredKeyIsNotAlsoReportedAsMissing() {
      Problem p = onlyProblem("""
          request_classes:
            read:
              max_atempts: 4
              max_wait_seconds: 90
              retry_statuses: []
            uncertain_write: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
          """);

      assertThat(p.path()).isEqualTo("request_classes.read.max_atempts");
      assertThat(p.line()).isEqualTo(3);
    }

    @Test
    void aMisspeltSecretSourceIsNotAlsoReportedAsMissing() {
      Problem p = onlyProblem(PROVIDER + "    credential: {secret_evn: BILLING_API_TOKEN}\n");

      assertThat(p.path()).isEqualTo("providers.billing-api.credential.secret_evn");
      assertThat(p.message()).isEqualTo("unknown key 'secret_evn'; did you mean 'secret_env'?");
    }

    @Test
    void aKeyFarFromAnyKnownKeyListsTheKnownOnes() {
      Problem p = onlyProblem("colour: blue\n");

      assertThat(p.path()).isEqualTo("colour");
      assertThat(p.line()).isEqualTo(1);
      assertThat(p.message()).isEqualTo("unknown key 'colour'; expected one of: listen, data_dir, store, request_classes, "
          + "shared_scope, providers, agents, retry_after, backoff, operator, gateway, audit, operators, escalation");
    }

    @Test
    void aTopLevelTypoOfASectionIsCaught() {
      Problem p = onlyProblem("request_class: {}\n");

      assertThat(p.message()).isEqualTo("unknown key 'request_class'; did you mean 'request_classes'?");
    }

    @Test
    void aKeyThatBelongsInANestedBlockSaysWhere() {
      Problem p = onlyProblem(PROVIDER + "    secret_env: BILLING_API_TOKEN\n");

      assertThat(p.path()).isEqualTo("providers.billing-api.secret_env");
      assertThat(p.line()).isEqualTo(4);
      assertThat(p.message()).isEqualTo("unknown key 'secret_env'; 'secret_env' belongs under 'credential'");
    }

    @Test
    void aMisspeltValueOfAFixedSetGetsDidYouMean() {
      Problem p = onlyProblem(PROVIDER + """
              routes:
                - {method: POST, path: /v1/pay, class: uncertain_write, approval: per-call}
          """);

      assertThat(p.path()).isEqualTo("providers.billing-api.routes[0].approval");
      assertThat(p.line()).isEqualTo(5);
      assertThat(p.message()).isEqualTo("found the string 'per-call', expected one of: none, per_call; did you mean 'per_call'?");
    }

    @Test
    void aMisspeltDialectGetsDidYouMean() {
      Problem p = onlyProblem(PROVIDER + "    rate_limit_headers: openia\n");

      assertThat(p.path()).isEqualTo("providers.billing-api.rate_limit_headers");
      assertThat(p.message()).endsWith("expected one of: auto, ietf, legacy, openai, anthropic, github; did you mean 'openai'?");
    }
  }

  @Nested
  class WrongTypes {
    @Test
    void aStringWhereANumberIsExpected() {
      Problem p = onlyProblem("""
          request_classes:
            read: {max_attempts: four, max_wait_seconds: 90, retry_statuses: []}
            uncertain_write: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
          """);

      assertThat(p.path()).isEqualTo("request_classes.read.max_attempts");
      assertThat(p.line()).isEqualTo(2);
      assertThat(p.column()).isEqualTo(24);
      assertThat(p.message()).isEqualTo("found the string 'four', expected a whole number (at least 1 (1 = never repeat), at most 1000)");
    }

    @Test
    void aQuotedNumberSaysToRemoveTheQuotes() {
      Problem p = onlyProblem("shared_scope: {max_delayed_requests: \"25\"}\n");

      assertThat(p.path()).isEqualTo("shared_scope.max_delayed_requests");
      assertThat(p.message()).endsWith("; remove the quotes");
    }

    @Test
    void aListWhereAMappingIsExpected() {
      Problem p = onlyProblem("providers: [billing-api]\n");

      assertThat(p.path()).isEqualTo("providers");
      assertThat(p.message()).startsWith("found a list, expected a mapping of provider ids");
    }

    @Test
    void aNumberWhereAStringIsExpectedSuggestsQuotes() {
      Problem p = onlyProblem(PROVIDER + "    scope: 12345\n");

      assertThat(p.path()).isEqualTo("providers.billing-api.scope");
      assertThat(p.message()).isEqualTo("found the number 12345, expected a scope name such as account:ops-team (put it in quotes if you mean the text)");
    }

    @Test
    void aStatusOutOfRangeNamesTheListItem() {
      Problem p = onlyProblem("""
          request_classes:
            read: {max_attempts: 4, max_wait_seconds: 90, retry_statuses: [429, 700]}
            uncertain_write: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
          """);

      assertThat(p.path()).isEqualTo("request_classes.read.retry_statuses[1]");
      assertThat(p.message()).isEqualTo("found 700, expected an HTTP status, 100-599");
    }

    @Test
    void aStatusListedTwice() {
      Problem p = onlyProblem("""
          request_classes:
            read: {max_attempts: 4, max_wait_seconds: 90, retry_statuses: [429, 503, 429]}
            uncertain_write: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
          """);

      assertThat(p.path()).isEqualTo("request_classes.read.retry_statuses[2]");
      assertThat(p.message()).isEqualTo("status 429 is listed twice");
    }

    @Test
    void zeroAttemptsIsRefused() {
      Problem p = onlyProblem("""
          request_classes:
            read: {max_attempts: 0, max_wait_seconds: 90, retry_statuses: []}
            uncertain_write: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
          """);

      assertThat(p.message()).isEqualTo("found 0, expected at least 1 (1 = never repeat), at most 1000");
    }

    @Test
    void aNegativeWaitIsRefused() {
      Problem p = onlyProblem("""
          request_classes:
            read: {max_attempts: 4, max_wait_seconds: -1, retry_statuses: []}
            uncertain_write: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
          """);

      assertThat(p.path()).isEqualTo("request_classes.read.max_wait_seconds");
      assertThat(p.message()).isEqualTo("found -1, expected seconds, zero or more");
    }

    @Test
    void anInteractiveReserveOfOneIsRefused() {
      Problem p = onlyProblem(PROVIDER + "    rate: {requests: 10, per_seconds: 1, interactive_reserve: 1.0}\n");

      assertThat(p.path()).isEqualTo("providers.billing-api.rate.interactive_reserve");
      assertThat(p.message()).startsWith("found 1.0, expected a share in [0, 1)");
    }

    @Test
    void aBurstAboveTheRateIsRefused() {
      Problem p = onlyProblem(PROVIDER + "    rate: {requests: 10, per_seconds: 1, burst: 11}\n");

      assertThat(p.path()).isEqualTo("providers.billing-api.rate.burst");
      assertThat(p.message()).isEqualTo("found 11, expected at most requests (10)");
    }

    @Test
    void aZeroRateWindowIsRefused() {
      Problem p = onlyProblem(PROVIDER + "    rate: {requests: 10, per_seconds: 0}\n");

      assertThat(p.path()).isEqualTo("providers.billing-api.rate.per_seconds");
      assertThat(p.message()).isEqualTo("found 0, expected seconds, more than 0");
    }

    @Test
    void aRetryAfterCapBelowTheMinimumIsRefused() {
      Problem p = onlyProblem("retry_after: {minimum_delay_seconds: 5, cap_seconds: 2}\n");

      assertThat(p.path()).isEqualTo("retry_after.cap_seconds");
      assertThat(p.message()).isEqualTo("cap_seconds (2) is below minimum_delay_seconds (5); expected cap_seconds >= minimum_delay_seconds");
    }

    @Test
    void aBadListenAddress() {
      Problem p = onlyProblem("listen: 7070\n");

      assertThat(p.path()).isEqualTo("listen");
      assertThat(p.message()).startsWith("found the number 7070, expected HOST:PORT such as 127.0.0.1:7070");
    }

    @Test
    void aListenPortOutOfRange() {
      Problem p = onlyProblem("listen: localhost:70000\n");

      assertThat(p.message()).isEqualTo("found 'localhost:70000': port must be 0-65535, got 70000");
    }
  }

  @Nested
  class MissingKeys {
    @Test
    void aProviderWithoutBaseUrl() {
      Problem p = onlyProblem("""
          providers:
            billing-api:
              scope: account:ops
          """);

      assertThat(p.path()).isEqualTo("providers.billing-api.base_url");
      assertThat(p.line()).isEqualTo(3);
      assertThat(p.message()).isEqualTo("missing required key 'base_url'; expected an absolute http or https URL such as https://api.example.com");
    }

    @Test
    void anEmptyRequiredValue() {
      Problem p = onlyProblem("""
          providers:
            billing-api:
              base_url:
          """);

      assertThat(p.path()).isEqualTo("providers.billing-api.base_url");
      assertThat(p.message()).startsWith("found an empty value, expected an absolute http or https URL");
    }

    @Test
    void aRouteWithoutClass() {
      Problem p = onlyProblem(PROVIDER + """
              routes:
                - {method: GET, path: /v1/x}
          """);

      assertThat(p.path()).isEqualTo("providers.billing-api.routes[0].class");
      assertThat(p.line()).isEqualTo(5);
    }

    @Test
    void customRequestClassesMustKeepTheOnesUnmatchedRoutesUse() {
      Problem p = onlyProblem("""
          request_classes:
            read: {max_attempts: 4, max_wait_seconds: 90, retry_statuses: []}
            uncertain_writes: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
          """);

      assertThat(p.path()).isEqualTo("request_classes");
      assertThat(p.line()).isEqualTo(1);
      assertThat(p.message()).isEqualTo("request class 'uncertain_write' is missing; unmatched requests other than GET and HEAD use it; "
          + "did you mean to name 'uncertain_writes' 'uncertain_write'?");
    }

    @Test
    void aCredentialNeedsExactlyOneSecretSource() {
      List<Problem> both = problems(PROVIDER + """
              credential: {secret_env: TOKEN, secret_file: /run/secrets/token}
          """);
      List<Problem> neither = problems(PROVIDER + """
              credential: {header: Authorization}
          """);

      assertThat(both).singleElement().satisfies(p -> {
        assertThat(p.path()).isEqualTo("providers.billing-api.credential.secret_file");
        assertThat(p.message()).isEqualTo("both secret_env and secret_file are set; expected exactly one of them");
      });
      assertThat(neither).singleElement().satisfies(p -> {
        assertThat(p.path()).isEqualTo("providers.billing-api.credential.secret_env");
        assertThat(p.message()).startsWith("missing secret_env or secret_file; expected exactly one");
      });
    }

    @Test
    void operationIdNeedsExactlyOneSource() {
      Problem p = onlyProblem(PROVIDER + """
              routes:
                - {method: POST, path: /v1/x, class: uncertain_write, operation_id: {json_pointer: /id, header: Location}}
          """);

      assertThat(p.path()).isEqualTo("providers.billing-api.routes[0].operation_id");
      assertThat(p.message()).startsWith("both json_pointer and header are set; expected exactly one");
    }
  }

  @Nested
  class CrossReferences {
    @Test
    void aRouteClassThatIsNotDefined() {
      Problem p = onlyProblem("""
          providers:
            billing-api:
              base_url: https://billing.example.com
              routes:
                - {method: GET, path: "/v1/invoices/{id}", class: read}
                - {method: POST, path: /v1/transfers, class: idempotent_write}
                - {method: POST, path: /records, class: uncertian_write}
          """);

      assertThat(p.path()).isEqualTo("providers.billing-api.routes[2].class");
      assertThat(p.line()).isEqualTo(7);
      assertThat(p.column()).isEqualTo(47);
      assertThat(p.message()).isEqualTo("request class 'uncertian_write' is not defined; did you mean 'uncertain_write'? "
          + "(defined: idempotent_write, read, uncertain_write)");
    }

    @Test
    void anAgentProviderThatIsNotDefined() {
      Problem p = onlyProblem(PROVIDER + """
          agents:
            - id: inventory-bot
              token_env: SLUICE_TOKEN_INVENTORY_BOT
              providers: [billing-api, biling-api]
          """);

      assertThat(p.path()).isEqualTo("agents[0].providers[1]");
      assertThat(p.line()).isEqualTo(7);
      assertThat(p.message()).isEqualTo("provider 'biling-api' is not defined; did you mean 'billing-api'? (defined: billing-api)");
    }

    @Test
    void aLookupByIdempotencyKeyNeedsTheProviderToSupportIt() {
      Problem p = onlyProblem(PROVIDER + """
              routes:
                - method: POST
                  path: /v1/transfers
                  class: uncertain_write
                  lookup: {method: GET, path: "/v1/transfers?idempotency_key={idempotency_key}"}
          """);

      assertThat(p.path()).isEqualTo("providers.billing-api.routes[0].lookup.path");
      assertThat(p.line()).isEqualTo(8);
      assertThat(p.message()).startsWith("{idempotency_key} needs the provider's idempotency_header");
    }

    @Test
    void aLookupPlaceholderMustBeKnown() {
      Problem p = onlyProblem(PROVIDER + """
              routes:
                - method: PUT
                  path: "/records/{id}"
                  class: uncertain_write
                  lookup: {path: "/records/{record}"}
          """);

      assertThat(p.path()).isEqualTo("providers.billing-api.routes[0].lookup.path");
      assertThat(p.message()).isEqualTo("unknown placeholder {record}; expected one of {idempotency_key}, {external_reference}, {operation_id}, {id}");
    }

    @Test
    void aLookupByExternalReferenceNeedsTheRouteToNameTheField() {
      Problem p = onlyProblem(PROVIDER + """
              routes:
                - {method: POST, path: /records, class: uncertain_write, lookup: {path: "/records?ref={external_reference}"}}
          """);

      assertThat(p.message()).startsWith("{external_reference} needs the route's external_reference");
    }

    @Test
    void aLookupMustNotChangeAnything() {
      Problem p = onlyProblem(PROVIDER + """
              idempotency_header: Idempotency-Key
              routes:
                - {method: POST, path: /v1/t, class: idempotent_write, lookup: {method: POST, path: "/v1/t/search?k={idempotency_key}"}}
          """);

      assertThat(p.path()).isEqualTo("providers.billing-api.routes[0].lookup.method");
      assertThat(p.message()).isEqualTo("found POST, expected GET or HEAD: a look-up must never change anything");
    }
  }

  @Nested
  class Duplicates {
    @Test
    void aProviderDefinedTwice() {
      Problem p = onlyProblem("""
          providers:
            billing-api:
              base_url: https://a.example.com
            billing-api:
              base_url: https://b.example.com
          """);

      assertThat(p.path()).isEqualTo("providers.billing-api");
      assertThat(p.line()).isEqualTo(4);
      assertThat(p.message()).isEqualTo("duplicate key 'billing-api' (first at line 2); YAML would silently keep only one of them");
    }

    @Test
    void anAgentDefinedTwice() {
      Problem p = onlyProblem(PROVIDER + """
          agents:
            - {id: bot, token_env: TOKEN_A, providers: [billing-api]}
            - {id: bot, token_env: TOKEN_B, providers: [billing-api]}
          """);

      assertThat(p.path()).isEqualTo("agents[1].id");
      assertThat(p.line()).isEqualTo(6);
      assertThat(p.message()).isEqualTo("agent 'bot' is already defined at line 5; agent ids must be unique");
    }

    @Test
    void twoAgentsWithOneToken() {
      Problem p = onlyProblem(PROVIDER + """
          agents:
            - {id: bot-a, token_env: TOKEN, providers: [billing-api]}
            - {id: bot-b, token_env: TOKEN, providers: [billing-api]}
          """);

      assertThat(p.path()).isEqualTo("agents[1].token_env");
      assertThat(p.message()).startsWith("this token (env TOKEN) is already used by the agent at line 5");
    }

    @Test
    void aRouteDeclaredTwiceEvenWithOtherParameterNames() {
      Problem p = onlyProblem(PROVIDER + """
              routes:
                - {method: GET, path: "/v1/invoices/{id}", class: read}
                - {method: POST, path: "/v1/invoices/{id}", class: uncertain_write}
                - {method: GET, path: "/v1/invoices/{invoice}", class: read}
          """);

      assertThat(p.path()).isEqualTo("providers.billing-api.routes[2].path");
      assertThat(p.line()).isEqualTo(7);
      assertThat(p.message()).isEqualTo("duplicate route: GET /v1/invoices/{invoice} matches the same requests as "
          + "providers.billing-api.routes[0] (line 5)");
    }
  }

  @Nested
  class RoutesAndUrls {
    @Test
    void aLowerCaseMethodSuggestsTheUpperCaseOne() {
      Problem p = onlyProblem(PROVIDER + """
              routes:
                - {method: get, path: /v1/x, class: read}
          """);

      assertThat(p.path()).isEqualTo("providers.billing-api.routes[0].method");
      assertThat(p.message()).isEqualTo("found 'get', expected an upper-case HTTP method: 'GET' (methods are case-sensitive)");
    }

    @Test
    void badTemplatesAreRefusedWithTheReason() {
      List<Problem> p = problems(PROVIDER + """
              routes:
                - {method: GET, path: "v1/x", class: read}
                - {method: GET, path: "/v1/../admin", class: read}
                - {method: GET, path: "/v1/{id}/{id}", class: read}
                - {method: GET, path: "/v1/x?y=1", class: read}
                - {method: GET, path: "/v1/{Id}", class: read}
                - {method: GET, path: "/v1/x{id}", class: read}
                - {method: GET, path: "/v1//x", class: read}
          """);

      assertThat(p).extracting(Problem::path).containsExactly(
          "providers.billing-api.routes[0].path", "providers.billing-api.routes[1].path", "providers.billing-api.routes[2].path",
          "providers.billing-api.routes[3].path", "providers.billing-api.routes[4].path", "providers.billing-api.routes[5].path",
          "providers.billing-api.routes[6].path");
      assertThat(p).extracting(Problem::message).containsExactly(
          "found 'v1/x': a route path must start with '/'",
          "found '/v1/../admin': '..' is a dot-segment; '.' and '..' are not allowed",
          "found '/v1/{id}/{id}': parameter {id} appears twice",
          "found '/v1/x?y=1': a route path has no query string; queries are not used to match routes",
          "found '/v1/{Id}': parameter name 'Id' must match [a-z_][a-z0-9_]*",
          "found '/v1/x{id}': 'x{id}': a parameter must fill a whole segment, like /v1/items/{id}",
          "found '/v1//x': a route path cannot contain an empty segment ('//')");
    }

    @Test
    void immutableIsOnlyForReads() {
      Problem p = onlyProblem(PROVIDER + """
              routes:
                - {method: POST, path: /v1/x, class: uncertain_write, immutable: true}
          """);

      assertThat(p.path()).isEqualTo("providers.billing-api.routes[0].immutable");
      assertThat(p.message()).startsWith("only GET and HEAD routes can be immutable");
    }

    @Test
    void aLookupMustNameTheAction() {
      Problem p = onlyProblem(PROVIDER + """
              routes:
                - {method: POST, path: /v1/x, class: uncertain_write, lookup: {path: /v1/x/latest}}
          """);

      assertThat(p.path()).isEqualTo("providers.billing-api.routes[0].lookup.path");
      assertThat(p.message()).startsWith("found '/v1/x/latest', which names no action");
    }

    @Test
    void baseUrlsMustBeAbsoluteHttpWithoutQueryOrFragment() {
      List<Problem> p = problems("""
          providers:
            a: {base_url: ftp://files.example.com}
            b: {base_url: /relative}
            c: {base_url: "https://api.example.com/v1?key=1"}
            d: {base_url: "https://api.example.com/#top"}
            e: {base_url: "http://169.254.169.254/latest"}
          """);

      assertThat(p).extracting(Problem::path).containsExactly(
          "providers.a.base_url", "providers.b.base_url", "providers.c.base_url", "providers.d.base_url", "providers.e.base_url");
      assertThat(p).extracting(Problem::message).containsExactly(
          "the scheme is 'ftp'; expected http or https",
          "not an absolute URL; expected http:// or https:// followed by a host",
          "the URL has a query string; a base URL cannot carry one",
          "the URL has a fragment ('#'); a base URL cannot carry one",
          "the host is a link-local address (cloud metadata services live there); Sluice refuses to reach it");
    }

    @Test
    void anInvalidProviderId() {
      Problem p = onlyProblem("""
          providers:
            "billing api": {base_url: https://billing.example.com}
          """);

      assertThat(p.path()).isEqualTo("providers.billing api");
      assertThat(p.line()).isEqualTo(2);
      assertThat(p.message()).startsWith("'billing api' is not a valid provider id");
    }
  }

  @Nested
  class Secrets {
    static final String CANARY = "sk-live-CANARY-7f3a9";

    @Test
    void aSecretPastedAsTheEnvironmentVariableNameIsNeverEchoed() {
      Problem p = onlyProblem(PROVIDER + "    credential: {secret_env: \"" + CANARY + "\"}\n");

      assertThat(p.path()).isEqualTo("providers.billing-api.credential.secret_env");
      assertThat(p.message()).doesNotContain(CANARY).contains("not an environment variable name (not shown");
    }

    @Test
    void aSecretPastedIntoTheFormatIsNeverEchoed() {
      PolicyException e = catchThrowableOfType(PolicyException.class, () -> PolicyLoader.parse(PROVIDER
          + "    credential: {format: \"Bearer " + CANARY + "\", secret_env: TOKEN}\n", "sluice.yaml"));

      assertThat(e.getMessage()).doesNotContain(CANARY).contains("providers.billing-api.credential.format: the format has no {secret} placeholder");
    }

    @Test
    void aNumericTokenInTheWrongTypeIsNeverEchoed() {
      PolicyException e = catchThrowableOfType(PolicyException.class, () -> PolicyLoader.parse(PROVIDER + """
          agents:
            - {id: bot, token_env: 8675309123, providers: [billing-api]}
          """, "sluice.yaml"));

      assertThat(e.getMessage()).doesNotContain("8675309123").contains("agents[0].token_env: found a number, expected an environment variable name");
    }

    @Test
    void passwordsInUrlsAreNeverEchoed() {
      PolicyException e = catchThrowableOfType(PolicyException.class, () -> PolicyLoader.parse("""
          store: "postgresql://sluice:%s@db/sluice"
          providers:
            a: {base_url: "https://user:%s@api.example.com"}
          """.formatted(CANARY, CANARY), "sluice.yaml"));

      assertThat(e.problems()).extracting(Problem::path).containsExactly("store", "providers.a.base_url");
      assertThat(e.getMessage()).doesNotContain(CANARY);
    }

    @Test
    void aValidPolicyPrintsNoStoreUrl() {
      Policy policy = PolicyLoader.parse("store: jdbc:postgresql://db/sluice?password=" + CANARY + "\n", "sluice.yaml");

      assertThat(policy.store()).isPresent();
      assertThat(policy.toString()).doesNotContain(CANARY);
    }
  }

  @Nested
  class AllAtOnce {
    @Test
    void threeDifferentMistakesAreAllReportedInDocumentOrder() {
      PolicyException e = catchThrowableOfType(PolicyException.class, () -> PolicyLoader.parse("""
          listen: 127.0.0.1:7070
          request_classes:
            read: {max_atempts: 4, max_wait_seconds: 90, retry_statuses: [429]}
            uncertain_write: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
          providers:
            billing-api:
              base_url: https://billing.example.com
              rate: {requests: ten, per_seconds: 60}
              routes:
                - {method: GET, path: "/v1/invoices/{id}", class: reed}
          """, "sluice.yaml"));

      assertThat(e.problems()).extracting(Problem::path, Problem::line).containsExactly(
          org.assertj.core.groups.Tuple.tuple("request_classes.read.max_atempts", 3),
          org.assertj.core.groups.Tuple.tuple("providers.billing-api.rate.requests", 8),
          org.assertj.core.groups.Tuple.tuple("providers.billing-api.routes[0].class", 10));
      assertThat(e.getMessage().lines().toList()).containsExactly(
          "sluice.yaml:3:10: request_classes.read.max_atempts: unknown key 'max_atempts'; did you mean 'max_attempts'?",
          "sluice.yaml:8:22: providers.billing-api.rate.requests: found the string 'ten', expected a whole number (more than 0)",
          "sluice.yaml:10:57: providers.billing-api.routes[0].class: request class 'reed' is not defined; did you mean 'read'? "
              + "(defined: read, uncertain_write)");
    }

    @Test
    void aBrokenProviderDoesNotHideTheNextOne() {
      List<Problem> p = problems("""
          providers:
            a: {base_url: nope}
            b: {base_url: https://b.example.com, scope: ""}
          """);

      assertThat(p).extracting(Problem::path).containsExactly("providers.a.base_url", "providers.b.scope");
    }
  }

  @Nested
  class YamlItself {
    @Test
    void aSyntaxErrorIsOneProblemWithItsPosition() {
      Problem p = onlyProblem("""
          providers:
            billing-api:
              base_url: https://billing.example.com
              routes: [{method: GET, path: /x, class: read}
          agents: []
          """);

      assertThat(p.path()).isEmpty();
      assertThat(p.line()).isEqualTo(5);
      assertThat(p.column()).isEqualTo(1);
      assertThat(p.message()).startsWith("YAML syntax error: ");
      assertThat(p.render()).startsWith("sluice.yaml:5:1: YAML syntax error: ");
    }

    @Test
    void aTabIndentIsASyntaxErrorWithItsLine() {
      Problem p = onlyProblem("providers:\n\tbilling-api: {}\n");

      assertThat(p.line()).isEqualTo(2);
      assertThat(p.message()).startsWith("YAML syntax error: ");
    }

    @Test
    void twoDocumentsAreRefused() {
      Problem p = onlyProblem("listen: 127.0.0.1:7070\n---\nlisten: 127.0.0.1:7071\n");

      assertThat(p.line()).isEqualTo(2);
      assertThat(p.message()).contains("expected a single document");
    }

    @Test
    void anEmptyFileIsRefused() {
      Problem p = onlyProblem("# nothing here\n");

      assertThat(p.line()).isZero();
      assertThat(p.message()).startsWith("the file holds no settings");
    }

    @Test
    void anEmptyMappingMeansEveryDefault() {
      Policy policy = PolicyLoader.parse("{}", "sluice.yaml");

      assertThat(policy).isEqualTo(Policy.builder().build());
    }

    @Test
    void aJavaTypeTagIsNeverInstantiated() {
      Problem p = onlyProblem("listen: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[!!java.net.URL [\"http://x/\"]]]]\n");

      assertThat(p.line()).isEqualTo(1);
      assertThat(p.message()).startsWith("YAML syntax error: ");
    }

    @Test
    void aBillionLaughsDocumentIsRefusedCheaply() {
      StringBuilder y = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
      for (int i = 1; i <= 9; i++) {
        String prev = "*a" + (i - 1);
        y.append("a").append(i).append(": &a").append(i).append(" [")
            .append(String.join(", ", java.util.Collections.nCopies(10, prev))).append("]\n");
      }

      Problem p = onlyProblem(y.toString());

      assertThat(p.message()).contains("aliases");
    }

    @Test
    void anchorsAndMergeKeysWork() {
      Policy policy = PolicyLoader.parse("""
          providers:
            a: &defaults
              base_url: https://a.example.com
              shared_scope: {max_delayed_requests: 5, max_concurrent_requests: 1}
            b:
              <<: *defaults
              base_url: https://b.example.com
          """, "sluice.yaml");

      assertThat(policy.provider("b").orElseThrow().baseUrl().toString()).isEqualTo("https://b.example.com");
      assertThat(policy.provider("b").orElseThrow().sharedScope()).isEqualTo(new SharedScope(5, 1));
    }

    @Test
    void aKeyWithALineBreakStillRendersOnOneLine() {
      PolicyException e = catchThrowableOfType(PolicyException.class, () -> PolicyLoader.parse("\"a\\nb\": 1\n", "sluice.yaml"));

      assertThat(e.problems()).singleElement().satisfies(p -> assertThat(p.path()).isEqualTo("a\nb"));
      assertThat(e.getMessage()).doesNotContain("\n").startsWith("sluice.yaml:1:1: a\\u000ab: unknown key 'a\\u000ab'");
    }

    @Test
    void aByteOrderMarkIsIgnored() {
      assertThat(PolicyLoader.parse("\uFEFFlisten: 127.0.0.1:9000\n", "sluice.yaml").listen().port()).isEqualTo(9000);
    }
  }

  @Nested
  class Files_ {
    @TempDir Path dir;

    @Test
    void aMissingFileIsOneProblemWithoutPosition() {
      Path missing = dir.resolve("nope.yaml");

      PolicyException e = catchThrowableOfType(PolicyException.class, () -> PolicyLoader.load(missing));

      assertThat(e.problems()).singleElement().satisfies(p -> {
        assertThat(p.line()).isZero();
        assertThat(p.file()).isEqualTo(missing.toString());
      });
      assertThat(e.getMessage()).isEqualTo(missing + ": no such file");
    }

    @Test
    void problemsNameTheFileAsGiven() throws Exception {
      Path file = dir.resolve("sluice.yaml");
      Files.writeString(file, "listen: nowhere\n");

      PolicyException e = catchThrowableOfType(PolicyException.class, () -> PolicyLoader.load(file));

      assertThat(e.getMessage()).startsWith(file + ":1:9: listen: found 'nowhere'");
    }

    @Test
    void aFileThatIsNotUtf8IsRefused() throws Exception {
      Path file = dir.resolve("latin1.yaml");
      Files.write(file, new byte[] {'l', 'i', 's', 't', 'e', 'n', ':', ' ', (byte) 0xE9, '\n'});

      assertThatThrownBy(() -> PolicyLoader.load(file)).isInstanceOf(PolicyException.class).hasMessageEndingWith("is not UTF-8 text; save it as UTF-8");
    }

    @Test
    void aDirectoryIsRefused() {
      assertThatThrownBy(() -> PolicyLoader.load(dir)).isInstanceOf(PolicyException.class).hasMessageContaining("is a directory");
    }

    @Test
    void anOversizedFileIsRefusedBeforeParsing() throws Exception {
      Path file = dir.resolve("big.yaml");
      Files.writeString(file, "#" + "x".repeat(PolicyLoader.MAX_BYTES) + "\n");

      assertThatThrownBy(() -> PolicyLoader.load(file)).isInstanceOf(PolicyException.class).hasMessageContaining("at most " + PolicyLoader.MAX_BYTES);
    }
  }
}
