/**
 * A typed set of listeners for one kind of notification (book changed, stale changed, feed state…).
 *
 * Owns: registration (returning an unsubscribe function) and delivery. Invariant: a listener that throws
 * never stops delivery to the others and never propagates into the caller (a socket handler or a timer);
 * the error goes to the `onError` callback given at construction, which must not throw itself.
 */

export type Unsubscribe = () => void;

export class ListenerSet<Args extends unknown[]> {
  private readonly listeners = new Set<(...args: Args) => void>();

  constructor(private readonly onError: (error: unknown) => void) {}

  add(listener: (...args: Args) => void): Unsubscribe {
    // Wrap so the same function registered twice gets two independent registrations.
    const entry = (...args: Args): void => listener(...args);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  get size(): number {
    return this.listeners.size;
  }

  emit(...args: Args): void {
    for (const listener of this.listeners) {
      try {
        listener(...args);
      } catch (error) {
        try {
          this.onError(error);
        } catch {
          // The error sink failed too; nothing sensible is left to do but keep delivering.
        }
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
