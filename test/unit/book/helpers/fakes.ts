/** Test doubles for the book store: a scriptable feed and a REST snapshot source with deferred answers. */
import type { FeedConnectionState, FeedPort, FeedStatus } from '../../../../src/book/feed-port.js';
import { ListenerSet, type Unsubscribe } from '../../../../src/book/listeners.js';
import type { Scheduler } from '../../../../src/core/clock.js';
import type { BookSnapshot } from '../../../../src/book/snapshot.js';
import type { BookCandidates } from '../../../../src/book/size-units.js';

export class FakeFeed implements FeedPort {
  readonly subscriptions: Array<readonly string[]> = [];
  readonly reconnects: string[] = [];
  private state: FeedConnectionState;
  private readonly books = new ListenerSet<[string, BookSnapshot]>((e) => {
    throw e;
  });
  private readonly states = new ListenerSet<[FeedConnectionState]>((e) => {
    throw e;
  });

  constructor(private readonly scheduler: Scheduler) {
    const now = scheduler.now();
    this.state = { status: 'disconnected', sinceMs: now, downSinceMs: now, lastConnectedAtMs: null, connects: 0, closed: false };
  }

  setMarkets(slugs: readonly string[]): void {
    this.subscriptions.push([...slugs]);
  }

  reconnect(reason: string): void {
    this.reconnects.push(reason);
  }

  connectionState(): FeedConnectionState {
    return this.state;
  }

  onBook(listener: (slug: string, snapshot: BookSnapshot) => void): Unsubscribe {
    return this.books.add(listener);
  }

  onStateChange(listener: (state: FeedConnectionState) => void): Unsubscribe {
    return this.states.add(listener);
  }

  push(slug: string, snapshot: BookSnapshot): void {
    this.books.emit(slug, snapshot);
  }

  setStatus(status: FeedStatus): void {
    const now = this.scheduler.now();
    const prev = this.state;
    const connected = status === 'connected';
    this.state = {
      status,
      sinceMs: now,
      downSinceMs: connected ? null : (prev.downSinceMs ?? now),
      lastConnectedAtMs: connected ? now : prev.lastConnectedAtMs,
      connects: connected ? prev.connects + 1 : prev.connects,
      closed: false,
    };
    this.states.emit(this.state);
  }
}

interface PendingFetch {
  readonly slug: string;
  resolve(snapshot: BookSnapshot): void;
  reject(error: Error): void;
  /** The store's hook: the request left the client's queue. */
  sent(): void;
}

/** `fetchSnapshot` whose answers the test gives explicitly, in call order. */
export class ScriptedRest {
  readonly calls: string[] = [];
  /** The `urgent` flag of each call, in call order. */
  readonly urgent: boolean[] = [];
  /** The purpose of each call ('sync' | 'probe'), in call order. */
  readonly purposes: string[] = [];
  private pending: PendingFetch[] = [];

  readonly fetchSnapshot = (slug: string, request?: { readonly urgent: boolean; readonly purpose?: string; readonly onSent?: () => void }): Promise<BookSnapshot> => {
    this.calls.push(slug);
    this.urgent.push(request?.urgent ?? false);
    this.purposes.push(request?.purpose ?? '');
    return new Promise<BookSnapshot>((resolve, reject) => {
      this.pending.push({ slug, resolve, reject, sent: request?.onSent ?? (() => undefined) });
    });
  };

  /** The oldest pending fetch for `slug` leaves the client's queue now (the store's fetch timeout starts again). */
  send(slug: string): void {
    const found = this.pending.find((p) => p.slug === slug);
    if (found === undefined) throw new Error(`no pending fetch for ${slug}`);
    found.sent();
  }

  inFlight(): string[] {
    return this.pending.map((p) => p.slug);
  }

  /** Answers the oldest pending fetch for `slug`. */
  answer(slug: string, snapshot: BookSnapshot): void {
    this.take(slug).resolve(snapshot);
  }

  fail(slug: string, message = 'HTTP 503'): void {
    this.take(slug).reject(new Error(message));
  }

  private take(slug: string): PendingFetch {
    const index = this.pending.findIndex((p) => p.slug === slug);
    const found = this.pending[index];
    if (found === undefined) throw new Error(`no pending fetch for ${slug}; pending: ${this.inFlight().join(',')}`);
    this.pending.splice(index, 1);
    return found;
  }
}

/** Lets promise callbacks (fetch answers) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/** A feed whose book sizes' unit is unsettled: frames come read both ways (`onUnsettledBook`). */
export class UnitFeed extends FakeFeed {
  private readonly unsettled = new ListenerSet<[string, BookCandidates]>((e) => {
    throw e;
  });
  onUnsettledBook(listener: (slug: string, candidates: BookCandidates) => void): Unsubscribe {
    return this.unsettled.add(listener);
  }
  pushUnsettled(slug: string, candidates: BookCandidates): void {
    this.unsettled.emit(slug, candidates);
  }
}
