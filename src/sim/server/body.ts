/**
 * Request bodies: reading with a size cap (413 with the framework body past it) and JSON parsing
 * (400 with the framework body on bad JSON).
 *
 * Invariants: the body is kept byte-exact as a UTF-8 string (it is what the client signed); an oversized
 * body is drained (up to a hard cap) before the 413 is sent so the client can read the answer; nothing
 * here throws anything but HttpError.
 */
import type { IncomingMessage } from 'node:http';
import { frameworkError } from './http-errors.js';
import { errorText } from '../../core/errors.js';

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
/** Past this much, an oversized upload is cut off instead of drained. */
const DRAIN_CAP_BYTES = 64 * 1024 * 1024;

export function payloadTooLarge(limit: number): ReturnType<typeof frameworkError> {
  return frameworkError(413, `request entity too large (limit ${limit} bytes)`, { connection: 'close' });
}

/** Reads the whole body as UTF-8; rejects with a 413 HttpError past `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? '0');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number.isFinite(declared) && declared > limit;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (tooLarge) {
        chunks.length = 0;
        if (size > DRAIN_CAP_BYTES) {
          req.destroy();
          reject(payloadTooLarge(limit));
        }
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => (tooLarge ? reject(payloadTooLarge(limit)) : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', () => reject(frameworkError(400, 'request body could not be read')));
  });
}

/** JSON body → value; '' → undefined. */
export function parseJson(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return value;
  } catch (error) {
    throw frameworkError(400, `Invalid JSON body: ${errorText(error)}`);
  }
}
