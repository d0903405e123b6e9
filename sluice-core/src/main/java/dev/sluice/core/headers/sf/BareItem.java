package dev.sluice.core.headers.sf;

/**
 * The value of an {@link Item} or of a parameter, without parameters (RFC 9651 §3.3).
 *
 * <p>Every implementation is immutable and checks on construction that it can be serialized,
 * so an invalid value cannot exist: constructors throw {@link IllegalArgumentException} instead.
 */
public sealed interface BareItem
    permits SfInteger, SfDecimal, SfString, SfToken, SfBinary, SfBoolean, SfDate, SfDisplayString {}
