/**
 * The market lifecycle channel of the `/markets` namespace (the official client's `subscribe_market_lifecycle` /
 * `unsubscribe_market_lifecycle`, no payload; exchange-facts §5): a subscriber gets `marketCreated {slug, title,
 * type, groupSlug?, categoryIds, createdAt}` for every market listed after it subscribed (recurring successors, the
 * admin's `POST /_sim/markets`), and `marketResolved` on each resolution. Confirmations are `system` events; a
 * subscription on a public connection while the `lifecycleAuth` setting is `authenticated` answers `exception`.
 *
 * `marketResolved` goes to every connection (setting `marketResolvedAudience: all`, the default) or only to lifecycle
 * subscribers and the market's `subscribe_market_prices` subscribers (`subscribers`); either way each socket gets it
 * once.
 *
 * Owns: the lifecycle room. Invariants: membership lives in a Socket.IO room, so a disconnect forgets it like every
 * other subscription; a payload other than none or `{}` answers `exception` and changes nothing.
 */
import type { MarketCreatedFrame, MarketResolvedFrame } from '../engine/index.js';
import type { SimSettings } from './settings.js';

export const LIFECYCLE_ROOM = 'lifecycle';
export const SUBSCRIBE_LIFECYCLE = 'subscribe_market_lifecycle';
export const UNSUBSCRIBE_LIFECYCLE = 'unsubscribe_market_lifecycle';

/** What the channel needs of a socket (a Socket.IO socket of the namespace). */
export interface LifecycleSocket {
  readonly data: { readonly profileId: number | null };
  join(room: string): unknown;
  leave(room: string): unknown;
  emit(event: string, payload: unknown): unknown;
}

/** What the channel needs of the namespace. */
export interface LifecycleNamespace {
  emit(event: string, payload: unknown): unknown;
  to(rooms: string | string[]): { emit(event: string, payload: unknown): unknown };
}

/** No payload, or an empty object (the official client sends `{}`). */
function isEmptyPayload(payload: unknown): boolean {
  return payload === undefined || payload === null || (typeof payload === 'object' && !Array.isArray(payload) && Object.keys(payload).length === 0);
}

export class LifecycleChannel {
  constructor(
    private readonly nsp: LifecycleNamespace,
    private readonly settings: () => SimSettings,
    private readonly counted: (event: string) => void,
  ) {}

  subscribe(socket: LifecycleSocket, payload: unknown): void {
    if (!isEmptyPayload(payload)) {
      socket.emit('exception', { status: 'error', message: `${SUBSCRIBE_LIFECYCLE}: takes no payload` });
      return;
    }
    if (this.settings().lifecycleAuth === 'authenticated' && socket.data.profileId === null) {
      socket.emit('exception', { status: 'error', message: `${SUBSCRIBE_LIFECYCLE} requires an authenticated connection` });
      return;
    }
    void socket.join(LIFECYCLE_ROOM);
    socket.emit('system', { message: 'Subscribed to market lifecycle', event: SUBSCRIBE_LIFECYCLE });
  }

  unsubscribe(socket: LifecycleSocket, payload: unknown): void {
    if (!isEmptyPayload(payload)) {
      socket.emit('exception', { status: 'error', message: `${UNSUBSCRIBE_LIFECYCLE}: takes no payload` });
      return;
    }
    this.leave(socket);
    socket.emit('system', { message: 'Unsubscribed from market lifecycle', event: UNSUBSCRIBE_LIFECYCLE });
  }

  leave(socket: LifecycleSocket): void {
    void socket.leave(LIFECYCLE_ROOM);
  }

  pushCreated(frame: MarketCreatedFrame): void {
    this.nsp.to(LIFECYCLE_ROOM).emit('marketCreated', frame);
    this.counted('marketCreated');
  }

  /** `pricesRoom`: the room of the market's `subscribe_market_prices` subscribers. */
  pushResolved(frame: MarketResolvedFrame, pricesRoom: string): void {
    if (this.settings().marketResolvedAudience === 'all') this.nsp.emit('marketResolved', frame);
    else this.nsp.to([LIFECYCLE_ROOM, pricesRoom]).emit('marketResolved', frame);
    this.counted('marketResolved');
  }
}
