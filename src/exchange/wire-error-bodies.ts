/**
 * The REST error bodies (spec, Errors section) → typed errors: trading-mode, validation, framework and message-only
 * bodies, in that order; anything else is an UnexpectedResponseError with an excerpt.
 *
 * Owns: which typed error an error status and its (already scrubbed) body become. Pure.
 *
 * Part of the REST wire format (wire.ts re-exports every part; callers import wire.ts). Rules of every part: extra
 * fields are tolerated (and dropped); numbers sent as strings are accepted; wrong types are rejected with a
 * ResponseValidationError naming the field path and value (parseAnswer); prices become integer ticks and amounts raw
 * 1e6 integers wherever the bot signs, books or compares them.
 */
import { z } from 'zod';
import { FrameworkError, MessageError, ExchangeTradingModeError, UnexpectedResponseError, ValidationError, type EndpointRef, type HttpStatusError } from './errors.js';
import { integer, orNull } from './wire-fields.js';

const TradingModeBody = z.object({
  code: z.string(),
  message: z.string(),
  mode: z.string(),
  resumeAt: z.string().nullish(),
});
const ValidationBody = z.object({
  message: z.array(
    z.union([
      z.object({ field: z.string(), message: z.string() }),
      z.string().transform((message) => ({ field: '', message })),
    ]),
  ),
  error: z.string(),
  statusCode: integer,
});
const FrameworkBody = z.object({ message: z.string(), error: z.string(), statusCode: integer });
const MessageBody = z.object({ message: z.string() });

/** True when `body` has the trading-mode shape `{code, message, mode, resumeAt}`. */
export function isTradingModeBody(body: unknown): boolean {
  return TradingModeBody.safeParse(body).success;
}

/**
 * The typed error for an error status and its (already scrubbed) body text: the spec's body shapes in order
 * trading-mode, validation, framework, message-only; anything else is UnexpectedResponseError with an excerpt.
 */
export function errorFromBody(status: number, endpoint: EndpointRef, bodyText: string): HttpStatusError {
  let json: unknown;
  try {
    json = bodyText === '' ? undefined : JSON.parse(bodyText);
  } catch {
    json = undefined;
  }
  const tradingMode = TradingModeBody.safeParse(json);
  if (tradingMode.success) {
    return new ExchangeTradingModeError(status, endpoint, { ...tradingMode.data, resumeAt: orNull(tradingMode.data.resumeAt) });
  }
  const validation = ValidationBody.safeParse(json);
  if (validation.success) return new ValidationError(status, endpoint, validation.data);
  const framework = FrameworkBody.safeParse(json);
  if (framework.success) return new FrameworkError(status, endpoint, framework.data);
  const message = MessageBody.safeParse(json);
  if (message.success) return new MessageError(status, endpoint, { message: message.data.message });
  return new UnexpectedResponseError(status, endpoint, bodyText.length > 300 ? `${bodyText.slice(0, 300)}…` : bodyText);
}
