/**
 * The local books of every subscribed market, kept current from the socket feed and REST, and never
 * silently stale.
 *
 * Owns, per market: the `OrderBook`, the last update time (content changed) and the last time the book was
 * confirmed current; the REST syncs (on subscribe, after every feed (re)connect, and when a market has no
 * book yet); the staleness watchdog (probing quiet markets over REST, detecting a frozen feed, marking
 * stale markets); and coalesced change notifications for the strategy runner.
 *
 * The public types are in book-store-types.ts (re-exported here), a market's record in book-entry.ts, the acceptance
 * of one snapshot (token check, book checks, rejection counting) in snapshot-install.ts, the frozen-feed timer in
 * frozen-feed.ts.
 *
 * Rules and invariants:
 * - Feed frames for a market are not applied until its first REST snapshot is in. The newest frame seen
 *   meanwhile is held and replayed on top of that snapshot if it arrived after the fetch began (every frame
 *   is a full book and the feed pushes every later change, so the newest frame is at least as current).
 *   With `firstBookFromFeedMs` a market without a book takes the feed's first frame as its book instead, and is
 *   synced over REST only when none came within that time (start-up and joins then cost no REST read per market;
 *   one REST book still settles the socket's unit when it is unsettled).
 * - A REST answer never overwrites a book the feed updated after that REST request began: the feed is live
 *   and its frame is the newer view. The same rule makes a probe inconclusive ("superseded") rather than a
 *   false frozen-feed alarm.
 * - A probe that finds the local book different applies the REST book at once (resync). If no feed frame
 *   for that market follows within `frozenConfirmMs` while the feed claims to be connected, the feed is
 *   frozen: counted, logged, and the feed is asked to reconnect (which resyncs every market).
 * - Socket units (`units`, src/book/size-units.ts): while the unit of the feed's book sizes is unsettled, the feed's
 *   frames come read both ways (`onUnsettledBook`) and are never applied; each is compared with the market's latest
 *   REST book (and each REST answer with the latest such frame) until one reading equals it level for level, which
 *   settles the unit for every market; a frame that matches neither starts a REST sync (at most one per watchdog
 *   interval). Until then a market holding such an unapplied frame is stale (`units-unsettled`): nothing is quoted
 *   on a book the feed may have moved in a unit not yet known; a market with no socket frame yet runs on its REST
 *   book, whose unit is known (raw), so a quiet market is not held back by a feed that has nothing to say.
 * - A snapshot whose `tokenId` is not the market's YES token (`yesTokenOf`) is rejected the same way, from either
 *   source: counted (`onTokenMismatch`), logged once per market, source and token with both token ids.
 * - A rejected snapshot (crossed, malformed…) leaves the previous book in place, is counted, logged once per
 *   kind, and makes the market stale ('rejected') until a valid snapshot or a matching probe arrives; the
 *   watchdog syncs such a market over REST at its next tick (a rejected frame never supersedes REST).
 * - A market removed from the set is forgotten and, if it was fresh, reported stale ('unsubscribed').
 * - `isStale(slug)` is exact at the moment of the call; stale-change events are emitted when a transition
 *   is observed (on every apply, fetch result and feed state change, and at every watchdog tick, so at most
 *   one `intervalMs` late for pure time-outs).
 * - One fetch per market in flight at a time; a sync requested meanwhile runs after it. Nothing here throws
 *   into the feed, a timer or a listener.
 */
import { systemScheduler, type CancelTimer, type Scheduler } from '../core/clock.js';
import { facts, newEntry, type FetchInFlight, type FetchResult, type MarketEntry } from './book-entry.js';
import type { BookStoreObserver, BookStoreOptions, FetchOutcome, FetchPurpose, MarketBookStatus, MarketBooks, MarketStaleReason } from './book-store-types.js';
import { ChangeCoalescer } from './coalescer.js';
import { MarketDataConfigError } from './errors.js';
import type { FeedConnectionState } from './feed-port.js';
import { ListenerSet, type Unsubscribe } from './listeners.js';
import { describeError, OnceLog, safeLog, silentLogger, type MarketDataLogger } from './log.js';
import { SnapshotInstaller } from './snapshot-install.js';
import { FrozenFeedWatch } from './frozen-feed.js';
import { bookUnitFromEvidence, type BookCandidates } from './size-units.js';
import type { BookSnapshot, SnapshotSource } from './snapshot.js';
import { needsProbe, resolveWatchdogConfig, selectProbes, staleReason, worstCaseConfirmationAgeMs, type WatchdogConfig } from './watchdog.js';

export type * from './book-store-types.js';

export class BookStore {
  private readonly entries = new Map<string, MarketEntry>();
  private order: string[] = [];
  private readonly config: WatchdogConfig;
  private readonly scheduler: Scheduler;
  private readonly logger: MarketDataLogger;
  private readonly onceLog: OnceLog;
  private readonly observer: BookStoreObserver;
  private readonly coalescer: ChangeCoalescer;
  private readonly installer: SnapshotInstaller;
  private readonly frozenWatch: FrozenFeedWatch;
  private readonly changeListeners: ListenerSet<[slug: string]>;
  private readonly staleListeners: ListenerSet<[slug: string, stale: boolean, reason: MarketStaleReason | null]>;
  private feedState: FeedConnectionState | null;
  private feedSubscriptions: Unsubscribe[] = [];
  private cancelTick: CancelTimer | null = null;
  private probeCursor = 0;
  private started = false;
  private stopped = false;
  private coverageWarned = false;

  constructor(private readonly options: BookStoreOptions) {
    this.config = resolveWatchdogConfig(options.watchdog);
    const minInterval = options.notifyMinIntervalMs ?? 0;
    if (!Number.isFinite(minInterval) || minInterval < 0) {
      throw new MarketDataConfigError('notifyMinIntervalMs', minInterval, 'must be a non-negative number of ms');
    }
    this.scheduler = options.scheduler ?? systemScheduler;
    this.logger = options.logger ?? silentLogger;
    this.onceLog = new OnceLog(this.logger);
    this.observer = options.observer ?? {};
    const listenerError = (error: unknown): void =>
      void this.onceLog.warnOnce('listener-error', { err: describeError(error) }, 'book store listener threw; continuing');
    this.changeListeners = new ListenerSet(listenerError);
    this.staleListeners = new ListenerSet(listenerError);
    this.coalescer = new ChangeCoalescer(this.scheduler, minInterval, (slug) => {
      if (this.entries.has(slug)) this.changeListeners.emit(slug);
    });
    this.installer = new SnapshotInstaller({
      scheduler: this.scheduler,
      onceLog: this.onceLog,
      observer: this.observer,
      coalescer: this.coalescer,
      ...(options.yesTokenOf !== undefined ? { yesTokenOf: options.yesTokenOf } : {}),
      notify: (call) => this.notify(call),
    });
    this.frozenWatch = new FrozenFeedWatch({
      scheduler: this.scheduler,
      confirmMs: this.config.frozenConfirmMs,
      logger: this.logger,
      onceLog: this.onceLog,
      observer: this.observer,
      notify: (call) => this.notify(call),
      stillWatched: (entry) => !this.stopped && this.entries.get(entry.slug) === entry && this.feedState?.status === 'connected',
      reconnect: (reason) => this.options.feed?.reconnect(reason),
    });
    this.feedState = options.feed?.connectionState() ?? null;
  }

  get watchdogConfig(): WatchdogConfig {
    return this.config;
  }

  /** Starts listening to the feed and runs the watchdog. Idempotent; a stopped store cannot restart. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    const feed = this.options.feed;
    if (feed !== undefined) {
      this.feedSubscriptions.push(
        feed.onBook((slug, snapshot) => this.handleFeedBook(slug, snapshot)),
        feed.onStateChange((state) => this.handleFeedState(state)),
      );
      if (feed.onUnsettledBook !== undefined) this.feedSubscriptions.push(feed.onUnsettledBook((slug, candidates) => this.handleUnsettledBook(slug, candidates)));
      this.feedState = feed.connectionState();
      if (this.order.length > 0) feed.setMarkets(this.order);
      if (this.feedState.status === 'connected') this.syncAll();
    } else {
      this.syncAll();
    }
    this.scheduleTick();
  }

  /** Stops timers and feed listening; in-flight fetch answers are ignored. Books stay readable. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const unsubscribe of this.feedSubscriptions) unsubscribe();
    this.feedSubscriptions = [];
    this.cancelTick?.();
    this.cancelTick = null;
    this.coalescer.cancelAll();
    for (const entry of this.entries.values()) {
      entry.fetch?.cancelTimeout();
      entry.fetch = null;
      entry.awaitingFrame?.();
      entry.awaitingFrame = null;
      this.frozenWatch.clear(entry);
    }
  }

  /**
   * Replaces the set of subscribed markets: new markets are synced over REST (at once if the feed is
   * connected, otherwise when it connects), removed ones are forgotten, and the feed gets the full set.
   */
  setMarkets(slugs: readonly string[]): void {
    const next: string[] = [];
    const seen = new Set<string>();
    for (const [index, slug] of slugs.entries()) {
      if (typeof slug !== 'string' || slug.trim() === '') {
        throw new MarketDataConfigError(`markets[${index}]`, slug, 'must be a non-empty market slug');
      }
      if (!seen.has(slug)) {
        seen.add(slug);
        next.push(slug);
      }
    }
    for (const slug of this.order) {
      if (!seen.has(slug)) this.removeMarket(slug);
    }
    const added: MarketEntry[] = [];
    for (const slug of next) {
      if (!this.entries.has(slug)) {
        const entry = newEntry(slug);
        this.entries.set(slug, entry);
        added.push(entry);
      }
    }
    this.order = next;
    this.warnIfCoverageTooThin();
    if (!this.started || this.stopped) return;
    this.options.feed?.setMarkets(next);
    if (this.feedState === null || this.feedState.status === 'connected') {
      for (const entry of added) this.firstSync(entry);
    }
  }

  markets(): readonly string[] {
    return this.order;
  }

  /** The current books of a market, or null if it has none yet (or is not subscribed). */
  books(slug: string): MarketBooks | null {
    const entry = this.entries.get(slug);
    const yes = entry?.book.yes;
    if (entry === undefined || yes === null || yes === undefined) return null;
    return {
      slug,
      yes,
      no: yes.complement(),
      lastUpdateMs: entry.lastUpdateMs ?? 0,
      lastFreshMs: entry.lastFreshMs ?? 0,
    };
  }

  /** True when the market's book must not be quoted on now (unknown markets are stale). */
  isStale(slug: string): boolean {
    const entry = this.entries.get(slug);
    return entry === undefined || this.reasonFor(entry) !== null;
  }

  status(slug: string): MarketBookStatus | null {
    const entry = this.entries.get(slug);
    if (entry === undefined) return null;
    const reason = this.reasonFor(entry);
    return {
      slug,
      hasBook: entry.book.hasSnapshot,
      stale: reason !== null,
      staleReason: reason,
      lastUpdateMs: entry.lastUpdateMs,
      lastFreshMs: entry.lastFreshMs,
      fetchInFlight: entry.fetch !== null,
      frozenSuspected: entry.frozenSuspicion !== null,
    };
  }

  statuses(): MarketBookStatus[] {
    const out: MarketBookStatus[] = [];
    for (const slug of this.order) {
      const status = this.status(slug);
      if (status !== null) out.push(status);
    }
    return out;
  }

  /** Coalesced "this market's book changed" notifications; pull the book with `books(slug)`. */
  onChange(listener: (slug: string) => void): Unsubscribe {
    return this.changeListeners.add(listener);
  }

  /** Stale/fresh transitions, for the risk gate. */
  onStaleChange(listener: (slug: string, stale: boolean, reason: MarketStaleReason | null) => void): Unsubscribe {
    return this.staleListeners.add(listener);
  }

  /** Asks for a REST sync of one market (or all), e.g. after an operator action. */
  resync(slug?: string): void {
    if (!this.started || this.stopped) return;
    if (slug === undefined) {
      this.syncAll();
      return;
    }
    const entry = this.entries.get(slug);
    if (entry !== undefined) this.startFetch(entry, 'sync');
  }

  /** The entry a feed book frame is for, counted as a frame (a frame clears a frozen-feed suspicion), or
   * undefined when stopped or the market is not subscribed (counted as ignored). */
  private feedFrameEntry(slug: string): MarketEntry | undefined {
    if (this.stopped) return undefined;
    const entry = this.entries.get(slug);
    if (entry === undefined) {
      this.notify(() => this.observer.onFrameIgnored?.(slug, 'unsubscribed'));
      return undefined;
    }
    entry.feedFrames++;
    this.frozenWatch.clear(entry);
    return entry;
  }

  /** A full book from the feed. Public so a feed other than a `FeedPort` can be wired in by hand. */
  handleFeedBook(slug: string, snapshot: BookSnapshot): void {
    const entry = this.feedFrameEntry(slug);
    if (entry === undefined) return;
    if (!entry.book.hasSnapshot && this.options.firstBookFromFeedMs === undefined) {
      entry.heldFrame = snapshot;
      this.notify(() => this.observer.onFrameIgnored?.(slug, 'before-snapshot'));
      return;
    }
    this.applyFrame(entry, snapshot);
  }

  /** A full book from the feed applied (the first one too, with `firstBookFromFeedMs`): no REST sync awaited for it. */
  private applyFrame(entry: MarketEntry, snapshot: BookSnapshot): void {
    entry.awaitingFrame?.();
    entry.awaitingFrame = null;
    if (this.applySnapshot(entry, snapshot, 'feed')) entry.feedApplied++;
    else this.syncAfterRejection(entry);
    this.evaluate(entry);
  }

  /** A feed book frame read both ways while the socket's book-size unit is unsettled. Public like `handleFeedBook`. */
  handleUnsettledBook(slug: string, candidates: BookCandidates): void {
    const entry = this.feedFrameEntry(slug);
    if (entry === undefined) return;
    entry.unitFrame = candidates;
    // A market waiting for its first book holds the frame: it is applied once another market's REST book settles the unit.
    if (!this.trySettleUnits(entry) && entry.awaitingFrame === null) this.syncAfterRejection(entry);
    this.evaluate(entry);
  }

  /** Compares the market's latest REST book with its latest unsettled frame; settles the unit on a match. */
  private trySettleUnits(entry: MarketEntry): boolean {
    const units = this.options.units;
    if (units === undefined || units.bookSize() !== null || entry.lastRest === null || entry.unitFrame === null) return false;
    const found = bookUnitFromEvidence(entry.unitFrame, entry.lastRest);
    if (found === null) return false;
    // Logged once by the settlement's listener (src/app/feed-reactions.ts), not here: one line per event.
    units.settleBookSize(found.unit, { market: entry.slug, ...found.evidence });
    for (const other of this.entries.values()) {
      const held = other.unitFrame;
      other.unitFrame = null;
      other.lastRest = null;
      // The newest frame of a market still without a book is its current book, now readable (the feed pushes every change).
      const reading = held === null ? null : found.unit === 'raw' ? held.raw : held.shares;
      if (reading !== null && !other.book.hasSnapshot && this.options.firstBookFromFeedMs !== undefined) this.applyFrame(other, reading);
    }
    // From now on frames come parsed in the settled unit; the REST books in place are current.
    this.evaluateAll();
    return true;
  }

  /** A feed connection-state change. Public for the same reason as `handleFeedBook`. */
  handleFeedState(state: FeedConnectionState): void {
    if (this.stopped) return;
    const previous = this.feedState;
    this.feedState = state;
    if (state.status !== 'connected') {
      for (const entry of this.entries.values()) this.frozenWatch.clear(entry);
    } else if (previous === null || previous.status !== 'connected' || previous.connects !== state.connects) {
      // A new connection: whatever changed while we were away was never pushed to us.
      this.syncAll();
    }
    this.evaluateAll();
  }

  private syncAll(): void {
    for (const slug of this.order) {
      const entry = this.entries.get(slug);
      if (entry !== undefined) this.firstSync(entry);
    }
  }

  /**
   * A sync over REST; for a market without a book, with `firstBookFromFeedMs`, only if the feed brings no frame within
   * that time — unless the socket's unit is unsettled and no other market is being read for its evidence.
   */
  private firstSync(entry: MarketEntry): void {
    const waitMs = this.options.firstBookFromFeedMs;
    if (waitMs === undefined || this.options.feed === undefined || entry.book.hasSnapshot || this.unitEvidenceWanted()) {
      this.startFetch(entry, 'sync');
      return;
    }
    if (entry.awaitingFrame !== null) return;
    entry.awaitingFrame = this.scheduler.schedule(waitMs, () => {
      entry.awaitingFrame = null;
      if (!this.stopped && this.entries.get(entry.slug) === entry && !entry.book.hasSnapshot) this.startFetch(entry, 'sync');
    });
  }

  /** The socket's book-size unit is unsettled and no market's REST book is in flight or held to compare with. */
  private unitEvidenceWanted(): boolean {
    if (this.options.units === undefined || this.options.units.bookSize() !== null) return false;
    return ![...this.entries.values()].some((e) => e.fetch !== null || e.lastRest !== null);
  }

  /**
   * A rejected frame leaves the market stale until a valid book comes: fetch one now rather than at the watchdog's
   * next tick (which could come after the risk grace and cancel the market's quotes for nothing). A hostile feed
   * repeating bad frames gets at most one such fetch per watchdog interval; the watchdog covers the rest.
   */
  private syncAfterRejection(entry: MarketEntry): void {
    const now = this.scheduler.now();
    if (!this.started || entry.fetch !== null) return;
    if (entry.lastRejectSyncMs !== null && now - entry.lastRejectSyncMs < this.config.intervalMs) return;
    entry.lastRejectSyncMs = now;
    this.startFetch(entry, 'sync');
  }

  private removeMarket(slug: string): void {
    const entry = this.entries.get(slug);
    if (entry === undefined) return;
    entry.fetch?.cancelTimeout();
    entry.fetch = null;
    entry.awaitingFrame?.();
    entry.awaitingFrame = null;
    this.frozenWatch.clear(entry);
    this.coalescer.cancel(slug);
    this.entries.delete(slug);
    if (entry.reportedReason === null) {
      // It was fresh: tell the risk gate it no longer is (nothing maintains it any more).
      this.notify(() => this.observer.onStaleChange?.(slug, true, 'unsubscribed'));
      this.staleListeners.emit(slug, true, 'unsubscribed');
    }
  }

  private startFetch(entry: MarketEntry, purpose: FetchPurpose): void {
    if (this.stopped) return;
    if (entry.fetch !== null) {
      if (purpose === 'sync') entry.resyncAfterFetch = true;
      return;
    }
    const fetch: FetchInFlight = {
      purpose,
      startedMs: this.scheduler.now(),
      framesAtStart: entry.feedFrames,
      appliedAtStart: entry.feedApplied,
      cancelTimeout: () => undefined,
    };
    entry.fetch = fetch;
    const armTimeout = (): void => {
      fetch.cancelTimeout();
      fetch.cancelTimeout = this.scheduler.schedule(this.config.fetchTimeoutMs, () =>
        this.finishFetch(entry, fetch, { ok: false, error: new Error('snapshot fetch timed out'), timedOut: true }),
      );
    };
    armTimeout();
    // Sent: the timeout starts again from now (the time queued behind the bot's own requests does not count).
    const onSent = (): void => {
      if (entry.fetch === fetch && !this.stopped) armTimeout();
    };
    let pending: Promise<BookSnapshot>;
    try {
      pending = Promise.resolve(this.options.fetchSnapshot(entry.slug, { urgent: this.reasonFor(entry) !== null, purpose, onSent }));
    } catch (error) {
      pending = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    pending.then(
      (snapshot) => this.finishFetch(entry, fetch, { ok: true, snapshot }),
      (error: unknown) => this.finishFetch(entry, fetch, { ok: false, error, timedOut: false }),
    );
  }

  private finishFetch(entry: MarketEntry, fetch: FetchInFlight, result: FetchResult): void {
    // Ignore answers for a fetch that was abandoned (timeout, removal, stop) or superseded.
    if (this.stopped || entry.fetch !== fetch || this.entries.get(entry.slug) !== entry) return;
    entry.fetch = null;
    fetch.cancelTimeout();
    const outcome = result.ok ? this.useSnapshot(entry, fetch, result.snapshot) : this.fetchFailed(entry, fetch, result);
    const durationMs = this.scheduler.now() - fetch.startedMs;
    this.notify(() => this.observer.onFetch?.(entry.slug, fetch.purpose, outcome, durationMs));
    this.evaluate(entry);
    if (entry.resyncAfterFetch) {
      entry.resyncAfterFetch = false;
      this.startFetch(entry, 'sync');
    }
  }

  private fetchFailed(entry: MarketEntry, fetch: FetchInFlight, result: { error: unknown; timedOut: boolean }): FetchOutcome {
    this.onceLog.warnOnce(
      `fetch:${entry.slug}`,
      { market: entry.slug, purpose: fetch.purpose, err: describeError(result.error) },
      result.timedOut ? 'order-book snapshot fetch timed out' : 'order-book snapshot fetch failed',
    );
    return result.timedOut ? 'timeout' : 'error';
  }

  private useSnapshot(entry: MarketEntry, fetch: FetchInFlight, snapshot: BookSnapshot): FetchOutcome {
    this.onceLog.reset(`fetch:${entry.slug}`);
    if (this.options.units !== undefined && this.options.units.bookSize() === null) {
      entry.lastRest = snapshot;
      this.trySettleUnits(entry);
    }
    if (!entry.book.hasSnapshot) {
      const applied = this.applySnapshot(entry, snapshot, 'rest');
      const held = entry.heldFrame;
      entry.heldFrame = null;
      // The newest frame that arrived while we were fetching is at least as current as the REST answer.
      if (held !== null && entry.feedFrames > fetch.framesAtStart && this.applySnapshot(entry, held, 'feed')) entry.feedApplied++;
      return applied ? 'applied' : 'rejected';
    }
    // A valid frame applied since the request began is the newer book (a rejected one proves nothing).
    if (entry.feedApplied > fetch.appliedAtStart) return 'superseded';
    if (fetch.purpose === 'sync') return this.applySnapshot(entry, snapshot, 'rest') ? 'applied' : 'rejected';

    const before = entry.book.yes;
    if (!this.applySnapshot(entry, snapshot, 'rest')) return 'rejected';
    const after = entry.book.yes;
    if (before === null || after === null || before.sameLevels(after)) return 'confirmed';
    // The feed never told us about this book. Give an in-flight frame a moment before calling it frozen.
    if (this.feedState !== null && this.feedState.status === 'connected') this.frozenWatch.suspect(entry);
    return 'mismatch';
  }

  /** Validates and installs a snapshot (src/book/snapshot-install.ts); on success the book counts as confirmed now. */
  private applySnapshot(entry: MarketEntry, snapshot: BookSnapshot, source: SnapshotSource): boolean {
    return this.installer.install(entry, snapshot, source);
  }

  private scheduleTick(): void {
    if (this.stopped) return;
    this.cancelTick = this.scheduler.schedule(this.config.intervalMs, () => {
      this.cancelTick = null;
      try {
        this.tick();
      } finally {
        this.scheduleTick();
      }
    });
  }

  private tick(): void {
    this.evaluateAll();
    // With a feed that is down, probes would only confirm books that are stale anyway (the feed's
    // reconnect resyncs everything); keep the budget for then.
    if (this.feedState !== null && this.feedState.status !== 'connected') return;
    const now = this.scheduler.now();
    const selection = selectProbes(this.order, this.probeCursor, this.config.maxProbesPerTick, (slug) => {
      const entry = this.entries.get(slug);
      return entry !== undefined && entry.fetch === null && entry.awaitingFrame === null && (entry.invalid || needsProbe(facts(entry), now, this.config));
    });
    this.probeCursor = selection.nextCursor;
    for (const slug of selection.chosen) {
      const entry = this.entries.get(slug);
      // A market without a book, or holding one known to be outdated (rejected update), needs a sync: a
      // difference from REST is expected there and says nothing about the feed.
      if (entry !== undefined) this.startFetch(entry, entry.book.hasSnapshot && !entry.invalid ? 'probe' : 'sync');
    }
  }

  private reasonFor(entry: MarketEntry): MarketStaleReason | null {
    const reason = staleReason(facts(entry), this.feedState, this.scheduler.now(), this.config);
    if (reason !== null) return reason;
    // A socket book of unknown unit is never applied, and while one is pending the REST book may be outdated by
    // it: not quoted on. A market whose book came from REST only (no socket frame yet) has known units.
    if (this.options.units !== undefined && this.options.units.bookSize() === null && entry.unitFrame !== null) return 'units-unsettled';
    return entry.invalid ? 'rejected' : null;
  }

  private evaluateAll(): void {
    for (const entry of this.entries.values()) this.evaluate(entry);
  }

  private evaluate(entry: MarketEntry): void {
    const reason = this.reasonFor(entry);
    const wasStale = entry.reportedReason !== null;
    entry.reportedReason = reason;
    if (wasStale === (reason !== null)) return;
    const stale = reason !== null;
    safeLog(() =>
      stale
        ? this.logger.warn({ market: entry.slug, reason }, 'order book stale')
        : this.logger.info({ market: entry.slug }, 'order book fresh'),
    );
    this.notify(() => this.observer.onStaleChange?.(entry.slug, stale, reason));
    this.staleListeners.emit(entry.slug, stale, reason);
  }

  private warnIfCoverageTooThin(): void {
    if (this.coverageWarned) return;
    const worst = worstCaseConfirmationAgeMs(this.order.length, this.config);
    if (worst < this.config.staleAfterMs) return;
    this.coverageWarned = true;
    safeLog(() =>
      this.logger.warn(
        { markets: this.order.length, worstCaseConfirmationAgeMs: worst, staleAfterMs: this.config.staleAfterMs },
        'watchdog budget too small for this many markets: quiet markets may turn stale; raise maxProbesPerTick or staleAfterMs',
      ),
    );
  }

  private notify(call: () => void): void {
    try {
      call();
    } catch (error) {
      this.onceLog.warnOnce('observer-error', { err: describeError(error) }, 'book store observer threw; continuing');
    }
  }
}
