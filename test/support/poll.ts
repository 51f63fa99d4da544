/**
 * Polling for test helpers, never a fixed sleep: `poll` calls a probe every `intervalMs` until it returns something
 * other than undefined. A probe that throws counts as "not yet" (the last error is kept for the failure message);
 * after `timeoutMs` it rejects with the message `failure` builds from that error.
 */
export interface PollOptions {
  readonly timeoutMs: number;
  readonly intervalMs: number;
  /** The message of the timeout error; `lastError` is what the probe threw last (null if it never threw). */
  readonly failure: (lastError: unknown) => string;
}

export async function poll<T>(probe: () => T | undefined | Promise<T | undefined>, options: PollOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(options.failure(lastError));
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
  }
}
