/**
 * The logging port of the market-data layer: a pino-compatible subset, so the composition root passes a
 * pino child logger and tests pass a recorder or nothing.
 *
 * Owns: `OnceLog`, which logs a given kind of problem once (a malformed frame kind, a rejected book field,
 * a failing fetch) instead of once per occurrence; counting every occurrence is the observer's job.
 * Invariant: the set of kinds remembered is bounded (`capacity`); past it the oldest kind is forgotten and
 * may be logged again. Nothing here ever throws into the caller.
 */

export interface MarketDataLogger {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

export const silentLogger: MarketDataLogger = {
  info: () => undefined,
  warn: () => undefined,
};

export class OnceLog {
  private readonly seen = new Set<string>();

  constructor(
    private readonly logger: MarketDataLogger,
    private readonly capacity = 1000,
  ) {}

  /** Logs at warn level unless `key` was logged already. Returns true when it logged. */
  warnOnce(key: string, obj: Record<string, unknown>, msg: string): boolean {
    if (this.seen.has(key)) return false;
    if (this.seen.size >= this.capacity) {
      const oldest = this.seen.values().next();
      if (oldest.done !== true) this.seen.delete(oldest.value);
    }
    this.seen.add(key);
    safeLog(() => this.logger.warn(obj, msg));
    return true;
  }

  /** Forgets `key`, so the next occurrence logs again (e.g. when a failing fetch recovered). */
  reset(key: string): void {
    this.seen.delete(key);
  }
}

/** Calls a logger without letting a failing logger break the caller. */
export function safeLog(write: () => void): void {
  try {
    write();
  } catch {
    // A broken logger must not take market data down with it.
  }
}

/** An error as one line for a log field: `Name: message`, or the value itself. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
