package dev.sluice.core.headers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.headers.RateLimitObservation.Unit;
import dev.sluice.core.http.Headers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** IETF RateLimit / RateLimit-Policy reading (draft-ietf-httpapi-ratelimit-headers-11). */
class IetfRateLimitReaderTest {
  private static final Instant NOW = Instant.parse("2026-10-21T07:27:00Z");

  private final IetfRateLimitReader reader = new IetfRateLimitReader();
  private final List<HeaderNote> notes = new ArrayList<>();

  private List<RateLimitObservation> read(String... namesAndValues) {
    return reader.read(Headers.of(namesAndValues), NOW, notes);
  }

  private static RateLimitObservation observation(String partition, Unit unit, Long limit, Long remaining,
      Duration window, Instant resetAt, String source) {
    return new RateLimitObservation(RateLimitDialect.IETF, unit, Optional.of(partition),
        limit == null ? OptionalLong.empty() : OptionalLong.of(limit),
        remaining == null ? OptionalLong.empty() : OptionalLong.of(remaining),
        Optional.ofNullable(window), Optional.ofNullable(resetAt), source);
  }

  @Nested
  class TheDraftsExamples {
    @Test
    void availableQuotaAndEffectiveWindow() {
      assertThat(read("RateLimit", "\"default\";r=50;t=30")).containsExactly(
          observation("default", Unit.REQUESTS, null, 50L, null, NOW.plusSeconds(30), "RateLimit"));
      assertThat(notes).isEmpty();
    }

    @Test
    void multiplePoliciesWithoutLiveState() {
      assertThat(read("RateLimit-Policy", "\"permin\";q=50;w=60,\"perhr\";q=1000;w=3600")).containsExactly(
          observation("permin", Unit.REQUESTS, 50L, null, Duration.ofMinutes(1), null, "RateLimit-Policy"),
          observation("perhr", Unit.REQUESTS, 1000L, null, Duration.ofHours(1), null, "RateLimit-Policy"));
      assertThat(notes).isEmpty();
    }

    @Test
    void multipleWindowsJoinTheLiveStateToItsPolicyByName() {
      List<RateLimitObservation> obs = read(
          "RateLimit-Policy", "\"hour\";q=1000;w=3600, \"day\";q=5000;w=86400",
          "RateLimit", "\"day\";r=100;t=36000");
      assertThat(obs).containsExactly(
          observation("day", Unit.REQUESTS, 5000L, 100L, Duration.ofDays(1), NOW.plus(Duration.ofHours(10)), "RateLimit, RateLimit-Policy"),
          observation("hour", Unit.REQUESTS, 1000L, null, Duration.ofHours(1), null, "RateLimit-Policy"));
    }

    @Test
    void throttledResponseWithNoQuotaLeft() {
      assertThat(read("RateLimit-Policy", "\"dynamic\";q=15;w=20", "RateLimit", "\"dynamic\";r=0;t=20")).containsExactly(
          observation("dynamic", Unit.REQUESTS, 15L, 0L, Duration.ofSeconds(20), NOW.plusSeconds(20), "RateLimit, RateLimit-Policy"));
    }

    @Test
    void partitionKeyWithoutWindowBecomesPartOfThePartition() {
      assertThat(read("RateLimit", "\"default\";r=999;pk=:dHJpYWwxMjEzMjM=:")).containsExactly(
          observation("default;pk=dHJpYWwxMjEzMjM=", Unit.REQUESTS, null, 999L, null, null, "RateLimit"));
    }

    @Test
    void partitionKeyIsShownAsTheCanonicalBase64OfItsBytes() {
      // The draft's own example has non-zero pad bits; the key is the bytes, so it is re-encoded.
      assertThat(read("RateLimit-Policy", "\"peruser\";q=100;w=60;pk=:cHsdsRa894==:")).singleElement()
          .extracting(RateLimitObservation::partition).isEqualTo(Optional.of("peruser;pk=cHsdsRa89w=="));
    }

    @Test
    void contentBytesQuotaIsAVolumeUnitNotARequestCount() {
      assertThat(read("RateLimit-Policy", "\"peruser\";q=65535;qu=\"content-bytes\";w=10;pk=:sdfjLJUOUH==:")).containsExactly(
          observation("peruser;pk=sdfjLJUOUA==", Unit.TOKENS, 65535L, null, Duration.ofSeconds(10), null, "RateLimit-Policy"));
    }
  }

  @Nested
  class Fields {
    @Test
    void membersSplitOverSeveralFieldLinesAreJoined() {
      assertThat(read("RateLimit", "\"a\";r=1", "ratelimit", "\"b\";r=2;t=5"))
          .extracting(o -> o.partition().orElseThrow(), o -> o.remaining().getAsLong())
          .containsExactly(org.assertj.core.groups.Tuple.tuple("a", 1L), org.assertj.core.groups.Tuple.tuple("b", 2L));
    }

    @Test
    void liveStateOrderComesFirstThenPolicyOnlyNames() {
      assertThat(read("RateLimit-Policy", "\"p1\";q=1, \"p2\";q=2", "RateLimit", "\"p2\";r=0, \"l1\";r=3"))
          .extracting(o -> o.partition().orElseThrow())
          .containsExactly("p2", "l1", "p1");
    }

    @Test
    void unknownParametersAreIgnoredSilently() {
      assertThat(read("RateLimit-Policy", "\"a\";q=10;acme-burst=5;comment=\"x\";flag",
          "RateLimit", "\"a\";r=1;acme-policy=tok"))
          .containsExactly(observation("a", Unit.REQUESTS, 10L, 1L, null, null, "RateLimit, RateLimit-Policy"));
      assertThat(notes).isEmpty();
    }

    @Test
    void aTokenPolicyNameFromEarlierDraftsIsAccepted() {
      assertThat(read("RateLimit", "default;r=5;t=1")).containsExactly(
          observation("default", Unit.REQUESTS, null, 5L, null, NOW.plusSeconds(1), "RateLimit"));
    }

    @Test
    void quotaUnitsMapToTheClosestUnit() {
      List<RateLimitObservation> obs = read("RateLimit-Policy",
          "\"a\";q=1;qu=\"requests\", \"b\";q=1;qu=\"concurrent-requests\", \"c\";q=1;qu=content-bytes, \"d\";q=1;qu=\"request\"");
      assertThat(obs).extracting(RateLimitObservation::unit).containsExactly(Unit.REQUESTS, Unit.REQUESTS, Unit.TOKENS, Unit.REQUESTS);
      assertThat(notes).isEmpty();
    }

    @Test
    void theLiveStateTakesItsUnitFromThePolicyOfTheSameName() {
      assertThat(read("RateLimit-Policy", "\"bytes\";q=1000;qu=\"content-bytes\"", "RateLimit", "\"bytes\";r=10, \"other\";r=1"))
          .extracting(RateLimitObservation::unit).containsExactly(Unit.TOKENS, Unit.REQUESTS);
    }

    @Test
    void theLiveStatesPartitionKeyWinsOverThePolicys() {
      assertThat(read("RateLimit-Policy", "\"u\";q=10;pk=:AAAA:", "RateLimit", "\"u\";r=1;pk=:AQID:"))
          .singleElement().extracting(RateLimitObservation::partition).isEqualTo(Optional.of("u;pk=AQID"));
      assertThat(read("RateLimit-Policy", "\"u\";q=10;pk=:AAAA:", "RateLimit", "\"u\";r=1"))
          .singleElement().extracting(RateLimitObservation::partition).isEqualTo(Optional.of("u;pk=AAAA"));
    }

    @Test
    void anEmptyFieldIsPresentButSaysNothing() {
      assertThat(read("RateLimit", "")).isEmpty();
      assertThat(notes).isEmpty();
    }
  }

  @Nested
  class MalformedFieldsAreIgnoredWhole {
    @Test
    void aFieldThatIsNotAListIsIgnoredAndTheOtherFieldStillCounts() {
      List<RateLimitObservation> obs = read("RateLimit", "\"default\";r=50;t=", "RateLimit-Policy", "\"default\";q=100;w=60");
      assertThat(obs).containsExactly(observation("default", Unit.REQUESTS, 100L, null, Duration.ofMinutes(1), null, "RateLimit-Policy"));
      assertThat(notes).singleElement().satisfies(n -> {
        assertThat(n.flag()).isEqualTo(HeaderFlag.MALFORMED_HEADER_IGNORED);
        assertThat(n.header()).isEqualTo("RateLimit");
        assertThat(n.detail()).contains("List", "position 17", "whole field was ignored");
      });
    }

    @Test
    void theOlderDictionaryStyleSyntaxIsNotAList() {
      assertThat(read("RateLimit", "limit=100, remaining=50, reset=30")).isEmpty();
      assertThat(notes).extracting(HeaderNote::flag).containsExactly(HeaderFlag.MALFORMED_HEADER_IGNORED);
    }

    @Test
    void anEmptyFieldLineAmongOthersBreaksTheWholeField() {
      assertThat(read("RateLimit", "\"a\";r=1", "RateLimit", "", "RateLimit", "\"b\";r=2")).isEmpty();
      assertThat(notes).extracting(HeaderNote::header).containsExactly("RateLimit");
    }

    @Test
    void anIntegerBeyondFifteenDigitsBreaksTheWholeField() {
      assertThat(read("RateLimit", "\"a\";r=1234567890123456, \"b\";r=1")).isEmpty();
      assertThat(notes).singleElement().extracting(HeaderNote::detail).asString().contains("15 digits");
    }
  }

  @Nested
  class BadMembersAreIgnoredOneByOne {
    @Test
    void aLiveStateWithoutRemainingIsIgnoredAndTheOthersKept() {
      assertThat(read("RateLimit", "\"a\";t=10, \"b\";r=3;t=10"))
          .containsExactly(observation("b", Unit.REQUESTS, null, 3L, null, NOW.plusSeconds(10), "RateLimit"));
      assertThat(notes).singleElement().satisfies(n -> {
        assertThat(n.flag()).isEqualTo(HeaderFlag.MALFORMED_HEADER_IGNORED);
        assertThat(n.header()).isEqualTo("RateLimit");
        assertThat(n.detail()).isEqualTo("member 1 (\"a\") ignored: required parameter r (remaining quota) is missing");
      });
    }

    @Test
    void aPolicyWithoutQuotaIsIgnored() {
      assertThat(read("RateLimit-Policy", "\"a\";w=60, \"b\";q=5")).extracting(o -> o.partition().orElseThrow()).containsExactly("b");
      assertThat(notes).singleElement().extracting(HeaderNote::detail).asString().contains("member 1 (\"a\")", "q (quota) is missing");
    }

    @Test
    void wrongTypesAreIgnoredWithTheReason() {
      List<RateLimitObservation> obs = read("RateLimit",
          "\"dec\";r=1.5, \"str\";r=\"5\", \"bool\";r=1;t=?1, \"pk\";r=1;pk=\"abc\", 7;r=1, (\"inner\");r=1, \"ok\";r=1");
      assertThat(obs).extracting(o -> o.partition().orElseThrow()).containsExactly("ok");
      assertThat(notes).extracting(HeaderNote::detail).containsExactly(
          "member 1 (\"dec\") ignored: parameter r must be an Integer, got a Decimal",
          "member 2 (\"str\") ignored: parameter r must be an Integer, got a String",
          "member 3 (\"bool\") ignored: parameter t must be an Integer, got a Boolean",
          "member 4 (\"pk\") ignored: partition key pk must be a Byte Sequence, got a String",
          "member 5 ignored: the policy name must be a String, got an Integer",
          "member 6 ignored: it is an inner list, not an item");
    }

    @Test
    void negativeCountsAndAZeroWindowAreIgnored() {
      assertThat(read("RateLimit", "\"a\";r=-1, \"b\";r=1;t=-5", "RateLimit-Policy", "\"c\";q=-10, \"d\";q=10;w=0, \"e\";q=1;w=-1"))
          .isEmpty();
      assertThat(notes).extracting(HeaderNote::detail).containsExactly(
          "member 1 (\"c\") ignored: parameter q must not be negative, got -10",
          "member 2 (\"d\") ignored: window w must be at least 1 second, got 0",
          "member 3 (\"e\") ignored: parameter w must not be negative, got -1",
          "member 1 (\"a\") ignored: parameter r must not be negative, got -1",
          "member 2 (\"b\") ignored: parameter t must not be negative, got -5");
    }

    @Test
    void anUnknownQuotaUnitDropsThePolicyAndTheLiveStateCountedInIt() {
      assertThat(read("RateLimit-Policy", "\"w\";q=10;qu=\"widgets\", \"n\";q=3;qu=5", "RateLimit", "\"w\";r=1, \"n\";r=2")).isEmpty();
      assertThat(notes).extracting(HeaderNote::detail).containsExactly(
          "member 1 (\"w\") ignored: quota unit \"widgets\" is not one of requests, content-bytes, concurrent-requests",
          "member 2 (\"n\") ignored: quota unit qu must be a String, got an Integer",
          "member 1 (\"w\") ignored: its policy's quota unit is not understood, so r cannot be read",
          "member 2 (\"n\") ignored: its policy's quota unit is not understood, so r cannot be read");
    }
  }

  @Nested
  class Units {
    @Test
    void anAcceptedPolicyDecidesTheUnitEvenAfterAnIgnoredOneOfTheSameName() {
      assertThat(read("RateLimit-Policy", "\"x\";q=1;qu=\"widgets\", \"x\";q=9;qu=\"content-bytes\"", "RateLimit", "\"x\";r=4"))
          .containsExactly(observation("x", Unit.TOKENS, 9L, 4L, null, null, "RateLimit, RateLimit-Policy"));
      assertThat(notes).extracting(HeaderNote::detail).containsExactly(
          "member 1 (\"x\") ignored: quota unit \"widgets\" is not one of requests, content-bytes, concurrent-requests");
    }

    @Test
    void anIgnoredPolicyStillSaysWhatItsLiveStateCounts() {
      assertThat(read("RateLimit-Policy", "\"x\";w=60;qu=\"content-bytes\"", "RateLimit", "\"x\";r=4"))
          .containsExactly(observation("x", Unit.TOKENS, null, 4L, null, null, "RateLimit"));
    }
  }

  @Nested
  class Numbers {
    @Test
    void theLargestStructuredIntegerIsReadWithoutOverflow() {
      long max = 999_999_999_999_999L;
      assertThat(read("RateLimit-Policy", "\"big\";q=" + max + ";w=" + max, "RateLimit", "\"big\";r=" + max + ";t=" + max))
          .containsExactly(observation("big", Unit.REQUESTS, max, max, Duration.ofSeconds(max), NOW.plusSeconds(max), "RateLimit, RateLimit-Policy"));
    }

    @Test
    void aResetBeyondTheEndOfTimeIsPinnedToInstantMax() {
      Instant late = Instant.MAX.minusSeconds(10);
      List<RateLimitObservation> obs = reader.read(Headers.of("RateLimit", "\"a\";r=0;t=999999999999999"), late, notes);
      assertThat(obs).singleElement().extracting(RateLimitObservation::resetAt).isEqualTo(Optional.of(Instant.MAX));
    }

    @Test
    void zeroRemainingAndZeroResetAreKept() {
      assertThat(read("RateLimit", "\"a\";r=0;t=0")).containsExactly(observation("a", Unit.REQUESTS, null, 0L, null, NOW, "RateLimit"));
    }
  }

  @Nested
  class Duplicates {
    @Test
    void theSmallerRemainingQuotaIsKeptAndTheConflictNoted() {
      assertThat(read("RateLimit", "\"a\";r=5;t=10, \"a\";r=2;t=30"))
          .containsExactly(observation("a", Unit.REQUESTS, null, 2L, null, NOW.plusSeconds(30), "RateLimit"));
      assertThat(notes).singleElement().satisfies(n -> {
        assertThat(n.flag()).isEqualTo(HeaderFlag.CONFLICTING_HEADERS);
        assertThat(n.detail()).contains("r=5", "r=2", "smaller");
      });
    }

    @Test
    void theSmallerPolicyQuotaIsKept() {
      assertThat(read("RateLimit-Policy", "\"a\";q=10;w=1, \"a\";q=50;w=1")).singleElement()
          .extracting(RateLimitObservation::limit).isEqualTo(OptionalLong.of(10));
      assertThat(notes).extracting(HeaderNote::flag).containsExactly(HeaderFlag.CONFLICTING_HEADERS);
    }
  }

  @Nested
  class Detection {
    @Test
    void presentWhenEitherFieldIsThereInAnyCase() {
      assertThat(reader.present(Headers.of("ratelimit", "x"))).isTrue();
      assertThat(reader.present(Headers.of("RATELIMIT-POLICY", "x"))).isTrue();
      assertThat(reader.present(Headers.of("RateLimit-Limit", "100", "RateLimit-Remaining", "5"))).isFalse();
      assertThat(reader.present(Headers.empty())).isFalse();
    }

    @Test
    void readsTheIetfDialect() {
      assertThat(reader.dialect()).isEqualTo(RateLimitDialect.IETF);
    }

    @Test
    void noFieldsNoObservationsNoNotes() {
      assertThat(reader.read(Headers.of("Retry-After", "10"), NOW, notes)).isEmpty();
      assertThat(notes).isEmpty();
    }
  }
}
