/**
 * The doctor's socket checks: the handshake, authenticated like the bot's (HMAC headers over the handshake path), the
 * venue's answer to `subscribe_order_events` (confirmed, or an `exception`: authentication refused), and the unit of
 * the socket's book sizes, settled as the bot settles it (each socket book read both ways by the feed's parsers and
 * compared with the REST book by `bookUnitFromEvidence`).
 *
 * Owns: the connection's life (one connection, no reconnection, closed on every path) and the waits, each bounded by
 * `waitMs`. Invariant: it only subscribes; it never emits anything that changes state on the venue.
 */
import { io as connectSocket, type Socket } from 'socket.io-client';
import { bookUnitFromEvidence, type BookCandidates, type SizeUnit } from '../book/size-units.js';
import type { BookSnapshot } from '../book/snapshot.js';
import type { LiveVenueConfig } from '../config/index.js';
import type { ExchangeApi } from '../exchange/api.js';
import { socketHandshakeHeaders, type ApiCredentials } from '../exchange/auth.js';
import { frameParsers } from '../exchange/socket-wire.js';
import { bookUnitsVerdict, type MarketUnit } from './book-units.js';
import { check, describeError as describe, type CheckResult } from './types.js';

/** How long the authenticated handshake may take to be confirmed (or refused) after connecting. */
const AUTH_CONFIRM_MS = 2_000;
/** REST re-reads per market when a socket book and the REST book differ (the book moved between the two reads). */
const MAX_REST_REREADS = 2;

/** One market's evidence: its latest REST book, its latest socket book read both ways, and the unit once settled. */
interface UnitEvidence {
  rest: BookSnapshot | null;
  restError: string | null;
  candidates: BookCandidates | null;
  rereads: number;
  unit: SizeUnit | null;
}

export async function socketChecks(venue: LiveVenueConfig, api: ExchangeApi, credentials: ApiCredentials, slugs: readonly string[], waitMs: number, now: () => number): Promise<CheckResult[]> {
  const url = `${venue.socketUrl.replace(/\/+$/, '')}${venue.socketNamespace}`;
  // Authenticated like the bot (HMAC headers over the handshake path), so a refused handshake shows here.
  const extraHeaders = socketHandshakeHeaders(credentials, now(), venue.headerPrefix);
  const socket: Socket = connectSocket(url, { transports: ['websocket'], reconnection: false, timeout: waitMs, forceNew: true, extraHeaders });
  let authVerdict: { ok: true } | { ok: false; message: string } | null = null;
  let wake: (() => void) | null = null;
  socket.on('exception', (payload: unknown) => {
    const message: unknown = typeof payload === 'object' && payload !== null ? Reflect.get(payload, 'message') : payload;
    authVerdict ??= { ok: false, message: typeof message === 'string' ? message : JSON.stringify(message) };
    wake?.();
  });
  socket.on('system', (payload: unknown) => {
    if (typeof payload === 'object' && payload !== null && Reflect.get(payload, 'event') === 'subscribe_order_events') authVerdict ??= { ok: true };
    wake?.();
  });

  const evidence = new Map<string, UnitEvidence>(slugs.map((slug) => [slug, { rest: null, restError: null, candidates: null, rereads: 0, unit: null }]));
  const judge = (entry: UnitEvidence): void => {
    if (entry.unit !== null || entry.rest === null || entry.candidates === null) return;
    entry.unit = bookUnitFromEvidence(entry.candidates, entry.rest)?.unit ?? null;
  };
  const readRest = async (slug: string, entry: UnitEvidence): Promise<void> => {
    try {
      entry.rest = await api.getOrderbook(slug);
      entry.restError = null;
    } catch (error) {
      entry.restError = describe(error);
    }
    judge(entry);
    wake?.();
  };
  // Each socket book is read both ways (the parsers of the bot's feed), as the bot does while its unit is unsettled.
  socket.on('orderbookUpdate', (payload: unknown) => {
    const raw = frameParsers({ bookSizeUnit: 'raw' }).parse('orderbookUpdate', payload);
    const shares = frameParsers({ bookSizeUnit: 'shares' }).parse('orderbookUpdate', payload);
    const rawFrame = raw.ok && raw.value.event === 'orderbookUpdate' ? raw.value.frame : null;
    const sharesFrame = shares.ok && shares.value.event === 'orderbookUpdate' ? shares.value.frame : null;
    const slug = rawFrame?.slug ?? sharesFrame?.slug;
    const entry = slug === undefined ? undefined : evidence.get(slug);
    if (slug === undefined || entry === undefined || entry.unit !== null) return;
    entry.candidates = { raw: rawFrame?.snapshot ?? null, shares: sharesFrame?.snapshot ?? null };
    judge(entry);
    if (entry.unit === null && entry.rest !== null && entry.rereads < MAX_REST_REREADS) {
      entry.rereads += 1;
      void readRest(slug, entry);
    }
    wake?.();
  });
  const waitFor = (done: () => boolean, ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        if (!done()) return;
        clearTimeout(timer);
        wake = null;
        resolve();
      };
      wake();
    });

  try {
    const connected = await new Promise<string | null>((resolve) => {
      const timer = setTimeout(() => resolve(`no handshake within ${waitMs} ms`), waitMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(null);
      });
      socket.once('connect_error', (error: Error) => {
        clearTimeout(timer);
        resolve(describe(error));
      });
    });
    if (connected !== null) {
      return [
        check('socket', 'socket handshake', 'fail', `cannot connect to ${url}: ${connected}`, 'check venue.socketUrl and venue.socketNamespace'),
        check('book-units', 'socket book size unit', 'skip', 'skipped: no socket connection'),
      ];
    }
    // Subscribing to the account's order events (read-only) makes the venue confirm or refuse the authentication.
    socket.emit('subscribe_order_events');
    const authWait = Math.min(waitMs, AUTH_CONFIRM_MS);
    await waitFor(() => authVerdict !== null, authWait);
    const auth = authVerdict as { ok: true } | { ok: false; message: string } | null;
    const handshake =
      auth === null
        ? check('socket', 'socket handshake', 'pass', `connected to ${url}; the venue did not confirm the authenticated handshake (no answer to subscribe_order_events within ${authWait} ms)`)
        : auth.ok
          ? check('socket', 'socket handshake', 'pass', `connected to ${url}, authenticated (order events subscribed)`)
          : check('socket', 'socket handshake', 'fail', `connected to ${url}, but the venue refused the authentication: ${auth.message}`, 'the bot would get no order events: check the token, the secret, venue.headerPrefix and the clock');
    if (slugs.length === 0) return [handshake, check('book-units', 'socket book size unit', 'skip', 'no tradable market to compare')];

    await Promise.all([...evidence].map(([slug, entry]) => readRest(slug, entry)));
    socket.emit('subscribe_market_prices', { marketSlugs: [...slugs] });
    await waitFor(() => [...evidence.values()].every((e) => e.unit !== null || e.restError !== null), waitMs);
    const found: MarketUnit[] = [...evidence].map(([slug, e]) => {
      if (e.unit !== null) return { slug, unit: e.unit };
      if (e.restError !== null) return { slug, unit: null, reason: `REST book failed: ${e.restError}` };
      if (e.candidates === null) return { slug, unit: null, reason: `no socket book within ${waitMs} ms` };
      const empty = e.rest !== null && e.rest.bids.length + e.rest.asks.length === 0;
      return { slug, unit: null, reason: empty ? 'the book is empty' : 'the socket and REST books never matched (the book kept moving)' };
    });
    return [handshake, bookUnitsVerdict(found, venue.units.socketBookSize)];
  } finally {
    socket.removeAllListeners();
    socket.disconnect();
  }
}
