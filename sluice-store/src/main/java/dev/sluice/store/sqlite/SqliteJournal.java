package dev.sluice.store.sqlite;

import dev.sluice.core.http.Headers;
import dev.sluice.core.scope.ScopeRecord;
import dev.sluice.core.journal.ActionChanges;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.AttemptEnd;
import dev.sluice.core.journal.AttemptKind;
import dev.sluice.core.journal.AttemptRecord;
import dev.sluice.core.journal.DuplicateIdempotencyKeyException;
import dev.sluice.core.journal.IllegalTransitionException;
import dev.sluice.core.journal.Journal;
import dev.sluice.core.journal.JournalException;
import dev.sluice.core.journal.NewAction;
import dev.sluice.core.journal.NewEscalation;
import dev.sluice.core.journal.EscalationRecord;
import dev.sluice.core.escalation.Decision;
import dev.sluice.core.escalation.EscalationId;
import dev.sluice.core.journal.TaskCancellation;
import dev.sluice.core.journal.TransitionResult;
import dev.sluice.core.journal.internal.Methods;
import dev.sluice.core.journal.internal.PayloadDigest;
import dev.sluice.core.journal.internal.RateLimitHeaderFilter;
import dev.sluice.core.journal.internal.TransitionRules;
import dev.sluice.store.sqlite.internal.ActionTable;
import dev.sluice.store.sqlite.internal.AttemptTable;
import dev.sluice.store.sqlite.internal.Columns;
import dev.sluice.store.sqlite.internal.Database;
import dev.sluice.store.sqlite.internal.Durability;
import dev.sluice.store.sqlite.internal.EscalationTable;
import dev.sluice.store.sqlite.internal.Migrations;
import dev.sluice.store.sqlite.internal.ScopeTable;
import dev.sluice.store.sqlite.internal.TaskTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The embedded {@link Journal}: one SQLite database, {@code data_dir/sluice.db}, in WAL mode.
 *
 * <p>Durability (docs/decisions/0004-journal-sync-mode.md): every transaction that touches a write
 * action, and every task cancellation, commits with {@code synchronous=FULL} — the WAL is fsynced
 * before the call returns, so the row survives a power loss; read actions and scope state commit
 * with {@code NORMAL}, safe against a process crash. The schema is brought up to date with Flyway
 * migrations when the journal opens; a database from a newer Sluice is refused.
 *
 * <p>Several journals (in one process or several) may open the same file: every write transaction
 * takes SQLite's write lock up front, and waits up to the busy timeout for it.
 */
public final class SqliteJournal implements Journal {
  /** The database's file name inside {@code data_dir}. */
  public static final String FILE_NAME = "sluice.db";

  private final Database db;
  private final SqliteJournalOptions options;

  /** Held while this journal is open when it was opened {@linkplain #openExclusive exclusively}. */
  private final java.nio.channels.FileLock processLock;

  private SqliteJournal(Database db, SqliteJournalOptions options, java.nio.channels.FileLock processLock) {
    this.db = db;
    this.options = options;
    this.processLock = processLock;
  }

  /** The lock file beside the database that one Sluice process holds while it runs on the directory. */
  public static final String LOCK_FILE_NAME = "sluice.lock";

  /**
   * Opens the journal as {@link #open(Path)} does, and holds {@code dataDir/sluice.lock} until
   * {@link #close()}: a second Sluice process on the same directory is refused at once. Without it,
   * the second process's restart recovery would treat the first one's writes in flight as
   * abandoned, look them up before the provider finished, and resend them. (Several journals in
   * one process, as the tests use, open without the lock.)
   *
   * @throws JournalException when another process holds the directory, or as {@link #open(Path)}
   */
  public static SqliteJournal openExclusive(Path dataDir) {
    Objects.requireNonNull(dataDir, "dataDir");
    try {
      Files.createDirectories(dataDir);
    } catch (IOException e) {
      throw new JournalException("cannot create the data directory " + dataDir + ": " + e.getMessage(), e);
    }
    Path lockFile = dataDir.resolve(LOCK_FILE_NAME);
    java.nio.channels.FileChannel channel = null;
    java.nio.channels.FileLock lock;
    try {
      channel = java.nio.channels.FileChannel.open(lockFile, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
      lock = channel.tryLock();
    } catch (IOException | java.nio.channels.OverlappingFileLockException e) {
      closeQuietly(channel);
      throw new dev.sluice.core.journal.DataDirInUseException(dataDir, "data_dir " + dataDir + " is in use by another Sluice (" + lockFile
          + " is locked); run one Sluice per data_dir, or a shared store for several", e);
    }
    if (lock == null) {
      closeQuietly(channel);
      throw new dev.sluice.core.journal.DataDirInUseException(dataDir, "data_dir " + dataDir + " is in use by another Sluice process ("
          + lockFile + " is locked); run one Sluice per data_dir, or a shared store for several", null);
    }
    try {
      Path file = dataDir.resolve(FILE_NAME);
      Migrations.apply(Database.dataSource(file, SqliteJournalOptions.DEFAULTS.busyTimeout()), file);
      return new SqliteJournal(Database.open(file, SqliteJournalOptions.DEFAULTS.busyTimeout()), SqliteJournalOptions.DEFAULTS, lock);
    } catch (RuntimeException e) {
      closeQuietly(channel);
      throw e;
    }
  }

  private static void closeQuietly(java.nio.channels.FileChannel channel) {
    if (channel != null) {
      try {
        channel.close(); // releases the lock
      } catch (IOException ignored) {
        // nothing to do: the channel is gone either way
      }
    }
  }

  /** Opens (creating if needed) {@code dataDir/sluice.db} with the default options. */
  public static SqliteJournal open(Path dataDir) {
    return open(dataDir, SqliteJournalOptions.DEFAULTS);
  }

  /**
   * Opens (creating the directory and the database if needed) {@code dataDir/sluice.db} and brings
   * its schema to this build's version.
   *
   * @throws JournalException when the directory or database cannot be created or opened, or the
   *     database was written by a newer Sluice
   */
  public static SqliteJournal open(Path dataDir, SqliteJournalOptions options) {
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(options, "options");
    try {
      Files.createDirectories(dataDir);
    } catch (IOException e) {
      throw new JournalException("cannot create the data directory " + dataDir + ": " + e.getMessage(), e);
    }
    Path file = dataDir.resolve(FILE_NAME);
    Migrations.apply(Database.dataSource(file, options.busyTimeout()), file);
    return new SqliteJournal(Database.open(file, options.busyTimeout()), options, null);
  }

  /** The database file. */
  public Path file() {
    return db.file();
  }

  /** For tests in this package: the connection's transactions, to inspect pragmas in force. */
  Database database() {
    return db;
  }

  @Override
  public ActionRecord recordAction(NewAction a) {
    Objects.requireNonNull(a, "action");
    byte[] payload = a.payload();
    boolean kept = payload.length <= options.payloadCapBytes();
    Instant created = Columns.truncate(a.createdAt());
    ActionRecord row = new ActionRecord(ActionId.newId(created), a.taskId(), a.priority(), a.scope(), a.routeTemplate(), a.method(),
        a.target(), a.requestClass(), a.headers(), PayloadDigest.sha256(payload), payload.length, kept, kept ? payload : new byte[0],
        a.idempotencyKey(), a.externalReference(), Optional.empty(), a.state(), created, Columns.truncate(a.dueAt()), created, 0, Duration.ZERO,
        a.deadline().map(Columns::truncate), OptionalInt.empty(), Optional.empty(), Optional.empty(), 1);
    Durability d = a.write() ? Durability.POWER_LOSS : Durability.PROCESS_CRASH;
    return db.write("recording an action", d, c -> {
      if (a.idempotencyKey().isPresent()) {
        Optional<ActionRecord> holder = ActionTable.findByIdempotencyKey(c, a.scope().provider(), a.idempotencyKey().get());
        if (holder.isPresent()) {
          throw new DuplicateIdempotencyKeyException(a.scope().provider(), holder.get().actionId());
        }
      }
      ActionTable.insert(c, row);
      return row;
    });
  }

  @Override
  public Optional<ActionRecord> action(ActionId id) {
    Objects.requireNonNull(id, "id");
    return db.read("reading action " + id, c -> ActionTable.find(c, id));
  }

  @Override
  public Optional<ActionRecord> actionByIdempotencyKey(String provider, String idempotencyKey) {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    return db.read("finding an action by idempotency key", c -> ActionTable.findByIdempotencyKey(c, provider, idempotencyKey));
  }

  @Override
  public List<ActionRecord> openActions() {
    return db.read("listing open actions", c -> ActionTable.inStates(c, List.copyOf(ActionState.openStates())));
  }

  @Override
  public TransitionResult transition(ActionId id, ActionState from, ActionState to, ActionChanges changes, Instant at) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(changes, "changes");
    Objects.requireNonNull(at, "at");
    TransitionRules.checkTable(from, to);
    return db.write("moving action " + id + " from " + from.code() + " to " + to.code(), durabilityOf(id), c -> {
      ActionRecord current = ActionTable.find(c, id).orElseThrow(() -> missing(id));
      if (current.state() != from) {
        return TransitionResult.conflict(current);
      }
      ActionRecord next = TransitionRules.apply(current, to, truncated(changes), AttemptTable.latest(c, id), Columns.truncate(at));
      if (!ActionTable.update(c, next, current.version())) {
        // Cannot happen under BEGIN IMMEDIATE; if it does, the row moved and the caller lost.
        return TransitionResult.conflict(ActionTable.find(c, id).orElseThrow(() -> missing(id)));
      }
      return TransitionResult.applied(next);
    });
  }

  @Override
  public AttemptRecord startAttempt(ActionId id, AttemptKind kind, Instant startedAt, Optional<String> idempotencyKeySent) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(idempotencyKeySent, "idempotencyKeySent");
    return db.write("starting an attempt of action " + id, durabilityOf(id), c -> {
      ActionRecord action = ActionTable.find(c, id).orElseThrow(() -> missing(id));
      ActionState needed = kind == AttemptKind.SEND ? ActionState.IN_FLIGHT : ActionState.RECONCILING;
      if (action.state() != needed) {
        throw new IllegalTransitionException("action " + id + " is " + action.state().code() + "; a " + kind.code() + " attempt needs it "
            + needed.code());
      }
      if (kind == AttemptKind.SEND && !idempotencyKeySent.equals(action.idempotencyKey())) {
        throw new IllegalTransitionException("action " + id + ": every send carries the action's own idempotency key, unchanged ("
            + (action.idempotencyKey().isPresent() ? "this one has a key" : "this one has none") + ", the attempt "
            + (idempotencyKeySent.isPresent() ? "carries another or a new one" : "carries none") + ")");
      }
      Optional<AttemptRecord> latest = AttemptTable.latest(c, id);
      if (latest.isPresent() && !latest.get().finished()) {
        throw new IllegalTransitionException("action " + id + ": attempt " + latest.get().number() + " is still open; one attempt at a time");
      }
      AttemptRecord attempt = new AttemptRecord(id, latest.map(l -> l.number() + 1).orElse(1), kind, Columns.truncate(startedAt),
          idempotencyKeySent, Optional.empty(), Optional.empty(), Headers.empty());
      AttemptTable.insert(c, attempt);
      if (kind == AttemptKind.SEND) {
        ActionRecord counted = withAttemptCounted(action, attempt.startedAt());
        if (!ActionTable.update(c, counted, action.version())) {
          throw new IllegalStateException("action " + id + " changed inside its own transaction");
        }
      }
      return attempt;
    });
  }

  @Override
  public AttemptRecord finishAttempt(ActionId id, int number, AttemptEnd end, Instant finishedAt, Headers responseHeaders) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(end, "end");
    Objects.requireNonNull(finishedAt, "finishedAt");
    Objects.requireNonNull(responseHeaders, "responseHeaders");
    return db.write("finishing attempt " + number + " of action " + id, durabilityOf(id), c -> {
      AttemptRecord open = AttemptTable.find(c, id, number)
          .orElseThrow(() -> new NoSuchElementException("action " + id + " has no attempt " + number));
      if (open.finished()) {
        throw new IllegalStateException("attempt " + number + " of action " + id + " already ended (" + open.end().orElseThrow().code() + ")");
      }
      AttemptRecord done = new AttemptRecord(id, number, open.kind(), open.startedAt(), open.idempotencyKeySent(),
          Optional.of(Columns.truncate(finishedAt)), Optional.of(end), RateLimitHeaderFilter.keep(responseHeaders));
      if (!AttemptTable.finish(c, done)) {
        throw new IllegalStateException("attempt " + number + " of action " + id + " changed inside its own transaction");
      }
      return done;
    });
  }

  @Override
  public List<AttemptRecord> attempts(ActionId id) {
    Objects.requireNonNull(id, "id");
    return db.read("reading the attempts of action " + id, c -> AttemptTable.ofAction(c, id));
  }

  @Override
  public TaskCancellation cancelTask(String taskId, Instant at) {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(at, "at");
    Instant when = Columns.truncate(at);
    return db.write("cancelling task " + taskId, Durability.POWER_LOSS, c -> {
      Optional<Instant> before = TaskTable.cancelledAt(c, taskId);
      if (before.isEmpty()) {
        TaskTable.insert(c, taskId, when);
      }
      List<ActionId> cancelled = new ArrayList<>();
      for (ActionRecord a : ActionTable.ofTaskInStates(c, taskId, List.of(ActionState.QUEUED, ActionState.DELAYED))) {
        ActionRecord next = TransitionRules.apply(a, ActionState.CANCELLED, ActionChanges.none().reason("task cancelled"), Optional.empty(), when);
        if (ActionTable.update(c, next, a.version())) {
          cancelled.add(a.actionId());
        }
      }
      return new TaskCancellation(taskId, before.orElse(when), before.isPresent(), cancelled);
    });
  }

  @Override
  public boolean isCancelled(String taskId) {
    Objects.requireNonNull(taskId, "taskId");
    return db.read("reading task " + taskId, c -> TaskTable.cancelledAt(c, taskId).isPresent());
  }

  @Override
  public void saveScope(ScopeRecord record) {
    Objects.requireNonNull(record, "record");
    db.write("saving scope " + record.provider() + "/" + record.scope(), Durability.PROCESS_CRASH, c -> {
      ScopeTable.upsert(c, record);
      return null;
    });
  }

  @Override
  public List<ScopeRecord> scopes() {
    return db.read("listing scopes", ScopeTable::all);
  }

  @Override
  public EscalationRecord recordEscalation(NewEscalation e) {
    Objects.requireNonNull(e, "escalation");
    NewEscalation at = new NewEscalation(e.actionId(), e.trigger(), e.detail(), e.options(), Columns.truncate(e.createdAt()));
    return db.write("recording an escalation of action " + e.actionId(), Durability.POWER_LOSS, c -> {
      ActionTable.find(c, e.actionId()).orElseThrow(() -> missing(e.actionId()));
      Optional<EscalationRecord> open = EscalationTable.openOf(c, e.actionId());
      return open.isPresent() ? open.get() : EscalationTable.insert(c, at);
    });
  }

  @Override
  public Optional<EscalationRecord> escalation(EscalationId id) {
    Objects.requireNonNull(id, "id");
    return db.read("reading escalation " + id, c -> EscalationTable.find(c, id));
  }

  @Override
  public List<EscalationRecord> escalations() {
    return db.read("listing escalations", EscalationTable::all);
  }

  @Override
  public EscalationRecord decide(EscalationId id, Decision decision) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(decision, "decision");
    Decision d = new Decision(decision.option(), decision.by(), decision.reason(), decision.confirmation(), Columns.truncate(decision.at()));
    return db.write("recording the decision on escalation " + id, Durability.POWER_LOSS, c -> {
      EscalationRecord current = EscalationTable.find(c, id).orElseThrow(() -> new NoSuchElementException("the journal has no escalation " + id));
      if (!EscalationTable.decide(c, id, d)) {
        throw new IllegalStateException("escalation " + id + " is already decided (" + current.decision().map(x -> x.option().code()).orElse("?")
            + " by " + current.decision().map(Decision::by).orElse("?") + ")");
      }
      return EscalationTable.find(c, id).orElseThrow();
    });
  }

  @Override
  public void recordTaskGoal(String taskId, String goal) {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(goal, "goal");
    String kept = goal.length() > 500 ? goal.substring(0, 500) + "…" : goal;
    db.write("recording the goal of task " + taskId, Durability.PROCESS_CRASH, c -> {
      EscalationTable.insertGoal(c, taskId, kept);
      return null;
    });
  }

  @Override
  public Optional<String> taskGoal(String taskId) {
    Objects.requireNonNull(taskId, "taskId");
    return db.read("reading the goal of task " + taskId, c -> EscalationTable.goal(c, taskId));
  }

  @Override
  public void close() {
    try {
      db.close();
    } finally {
      if (processLock != null) {
        closeQuietly(processLock.channel());
      }
    }
  }

  /** Write actions get power-loss-safe commits; the method never changes, so it is read first. */
  private Durability durabilityOf(ActionId id) {
    String method = db.read("reading action " + id, c -> ActionTable.method(c, id)).orElseThrow(() -> missing(id));
    return Methods.isWrite(method) ? Durability.POWER_LOSS : Durability.PROCESS_CRASH;
  }

  private static ActionChanges truncated(ActionChanges ch) {
    ActionChanges out = ch;
    if (ch.dueAt().isPresent()) {
      out = out.dueAt(Columns.truncate(ch.dueAt().get()));
    }
    if (ch.waited().isPresent()) {
      out = out.waited(Columns.duration(Columns.micros(ch.waited().get())));
    }
    return out;
  }

  private static ActionRecord withAttemptCounted(ActionRecord a, Instant at) {
    return new ActionRecord(a.actionId(), a.taskId(), a.priority(), a.scope(), a.routeTemplate(), a.method(), a.target(), a.requestClass(),
        a.headers(), a.payloadDigest(), a.payloadSize(), a.payloadKept(), a.payload(), a.idempotencyKey(), a.externalReference(),
        a.providerOperationId(), a.state(), a.createdAt(), a.dueAt(), at, a.attemptsUsed() + 1, a.waited(), a.deadline(), a.lastStatus(),
        a.outcome(), a.reason(), a.version() + 1);
  }

  private static NoSuchElementException missing(ActionId id) {
    return new NoSuchElementException("the journal has no action " + id);
  }
}
