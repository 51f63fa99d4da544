/**
 * How the market feed reads the venue's word on its authentication: the auth state of an authenticated feed, which
 * notice is a refusal (`isAuthFailureNotice`: an `exception` naming authentication, or `authenticated: false`), and
 * which frame shows the account authenticated (`authEvidence`: an order event, a positions frame, or a `system`
 * frame with `authenticated: true`).
 *
 * Owns: these two readings. Invariants: pure; never reads or logs a secret.
 */
import type { NoticeFrame, ParsedFrame } from './socket-wire.js';

/** Authentication of an authenticated feed: `ok` until the venue refuses it, `failed` until it is accepted again. */
export type FeedAuthState = 'ok' | 'failed';

/** Is this venue notice a refusal of the connection's authentication? */
export function isAuthFailureNotice(frame: NoticeFrame): boolean {
  const payload = frame.payload;
  if (payload !== null && typeof payload === 'object' && Reflect.get(payload, 'authenticated') === false) return true;
  const message = frame.message ?? '';
  return /auth|unauthori[sz]ed|forbidden|signature|expired|invalid (api )?(key|token)/i.test(message);
}

/**
 * The refusal as a person reads it: the venue's message when it names the refusal, else what the frame says (a
 * `system` frame `{message: 'Connected', authenticated: false}` is a connection accepted WITHOUT authentication, not
 * "authentication refused: Connected").
 */
export function authRefusalText(event: string, frame: NoticeFrame): string {
  const message = frame.message ?? '';
  const payload = frame.payload;
  const unauthenticated = payload !== null && typeof payload === 'object' && Reflect.get(payload, 'authenticated') === false;
  if (unauthenticated && !/auth|unauthori[sz]ed|forbidden|signature|expired|invalid/i.test(message)) {
    return `the venue connected the feed unauthenticated (${event} frame: authenticated: false${message === '' ? '' : `, "${message.slice(0, 80)}"`}): it did not accept the handshake's credentials`;
  }
  return message === '' ? `${event} frame with no message` : message;
}

/** A frame only an authenticated connection gets, or a `system` frame saying the connection is authenticated. */
export function authEvidence(parsed: ParsedFrame): boolean {
  if (parsed.event === 'orderEvent' || parsed.event === 'positions') return true;
  if (parsed.event !== 'system') return false;
  const payload = parsed.frame.payload;
  return payload !== null && typeof payload === 'object' && Reflect.get(payload, 'authenticated') === true;
}
