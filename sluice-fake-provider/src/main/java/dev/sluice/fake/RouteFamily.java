package dev.sluice.fake;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A route family: a group of routes that share a resource, a quota policy and idempotency support.
 *
 * <p>The default families (see {@link #defaults()}):
 *
 * <ul>
 *   <li>{@code records}: a mutable collection at {@code /records} and {@code /records/{id}}
 *       ({@code GET} list, {@code POST} create, {@code GET/PUT/DELETE} one), ids {@code rec_N};
 *   <li>{@code transfers}: an append-only collection at {@code /v1/transfers} whose creations debit
 *       the balance by their {@code amount}, ids {@code tr_N};
 *   <li>{@code invoices}: an immutable collection at {@code /v1/invoices} ({@code PUT}/{@code
 *       DELETE} answer 405), three seeded invoices {@code inv_1..inv_3}, ids {@code inv_N};
 *   <li>{@code balance}: the mutable balance at {@code /v1/balance} ({@code GET}, and {@code POST
 *       {"amount": delta}} to adjust it);
 *   <li>{@code operations}: {@code GET /v1/operations/{id}}, the look-up by provider operation id.
 * </ul>
 *
 * Every family answers {@code Idempotency-Key} on writes unless {@code idempotency} is false, and
 * shares the scope's default quota unless it has its own {@code quota} (then it has its own bucket
 * and its own policy name, the family name).
 *
 * @param name the family's name, {@code [a-z0-9_-]+}
 * @param path the collection's path, e.g. {@code /v1/customers}: starts with {@code /}, no trailing
 *     slash, no template, not under {@code /__fake}
 * @param kind what the family serves
 * @param mutable for collections: whether {@code PUT}/{@code DELETE} on an item are allowed
 * @param idempotency whether {@code Idempotency-Key} is honoured on writes
 * @param debitsBalance for collections: whether a creation's integer {@code amount} is taken off
 *     the balance
 * @param idPrefix the prefix of ids created in this family, e.g. {@code rec_}
 * @param quota the family's own quota; empty to share the scope's default bucket
 */
public record RouteFamily(
    String name,
    String path,
    Kind kind,
    boolean mutable,
    boolean idempotency,
    boolean debitsBalance,
    String idPrefix,
    Optional<Quota> quota) {

  private static final Pattern NAME = Pattern.compile("[a-z0-9_-]+");
  private static final Pattern PATH = Pattern.compile("(/[A-Za-z0-9._~-]+)+");

  /** What a family serves. */
  public enum Kind {
    /** A record collection: list, create, read one (and update/delete when mutable). */
    COLLECTION,
    /** The single mutable balance. */
    BALANCE,
    /** Read-only look-up of operations by id. */
    OPERATIONS
  }

  public RouteFamily {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(idPrefix, "idPrefix");
    Objects.requireNonNull(quota, "quota");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("family name must match [a-z0-9_-]+, got '" + name + "'");
    }
    if (!PATH.matcher(path).matches() || path.startsWith("/__fake")) {
      throw new IllegalArgumentException(
          "family path must look like /v1/things (no trailing slash, no template, not under /__fake), got '" + path + "'");
    }
  }

  /** A new mutable collection with idempotency on, no balance debit and the default quota. */
  public static RouteFamily collection(String name, String path, String idPrefix) {
    return new RouteFamily(name, path, Kind.COLLECTION, true, true, false, idPrefix, Optional.empty());
  }

  /** The default families, by name, in routing order. */
  public static Map<String, RouteFamily> defaults() {
    Map<String, RouteFamily> m = new LinkedHashMap<>();
    m.put("records", collection("records", "/records", "rec_"));
    m.put("transfers", new RouteFamily("transfers", "/v1/transfers", Kind.COLLECTION, false, true, true, "tr_", Optional.empty()));
    m.put("invoices", new RouteFamily("invoices", "/v1/invoices", Kind.COLLECTION, false, true, false, "inv_", Optional.empty()));
    m.put("balance", new RouteFamily("balance", "/v1/balance", Kind.BALANCE, true, true, false, "bal_", Optional.empty()));
    m.put("operations", new RouteFamily("operations", "/v1/operations", Kind.OPERATIONS, false, false, false, "op_", Optional.empty()));
    return m;
  }

  /** This family with its own quota (its own bucket per scope). */
  public RouteFamily withQuota(Quota q) {
    return new RouteFamily(name, path, kind, mutable, idempotency, debitsBalance, idPrefix, Optional.of(q));
  }

  /** This family with idempotency switched on or off. */
  public RouteFamily withIdempotency(boolean on) {
    return new RouteFamily(name, path, kind, mutable, on, debitsBalance, idPrefix, quota);
  }

  /** This family, mutable or not. */
  public RouteFamily withMutable(boolean on) {
    return new RouteFamily(name, path, kind, on, idempotency, debitsBalance, idPrefix, quota);
  }

  /** This family, debiting the balance on creation or not. */
  public RouteFamily withDebitsBalance(boolean on) {
    return new RouteFamily(name, path, kind, mutable, idempotency, on, idPrefix, quota);
  }

  /** The policy name written in rate-limit headers: the family name with its own quota, else {@code default}. */
  public String policyName() {
    return quota.isPresent() ? name : "default";
  }
}
