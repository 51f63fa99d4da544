/**
 * A one-shot signal: a promise resolved by the first `fire()` (later calls do nothing). Used for "started", "stopped"
 * and "first plan done" moments that several waiters await.
 *
 * Invariants: `promise` never rejects; `fire()` is idempotent.
 */
export function signal(): { readonly promise: Promise<void>; fire(): void } {
  let fire: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { promise, fire: () => fire() };
}
