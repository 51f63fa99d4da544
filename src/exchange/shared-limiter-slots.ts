/**
 * The fallback schedule of a shared limiter whose coordinator (Redis) is unreachable: pure time arithmetic.
 *
 * Every process on the token took a distinct slot index while Redis was up (shared-limiter.ts). Wall-clock time is
 * cut into rounds of `slots` slots of `slotMs` each; a process may start one request only in the first `windowMs`
 * of its own slot. Two starts of different processes are then at least `slotMs - windowMs` apart (≥ minTimeMs when
 * slotMs = minTimeMs + guardMs and windowMs ≤ guardMs minus the send delay and the hosts' clock skew), and each
 * process starts at most once per round: a conservative share of the budget without any coordination.
 *
 * Owns: which instant a fallback start may happen. Invariants: pure; a slot is used at most once (`lastSlot`).
 */

export interface SlotPlan {
  /** Length of one slot (minTimeMs + a guard). */
  readonly slotMs: number;
  /** How far into its slot a start may still begin. */
  readonly windowMs: number;
  /** Slots per round (≥ the number of processes on the token). */
  readonly slots: number;
  /** This process's slot, 0 ≤ index < slots. */
  readonly index: number;
}

/** The absolute slot number containing `atMs`. */
export function slotNumberAt(atMs: number, slotMs: number): number {
  return Math.floor(atMs / slotMs);
}

/**
 * When this process may next start, at or after `nowMs`: `{ atMs, slot }` where `slot` is the absolute slot number
 * (pass it back as `lastSlot` once used). `atMs === nowMs` means now.
 */
export function nextSlotStart(nowMs: number, plan: SlotPlan, lastSlot: number | null): { readonly atMs: number; readonly slot: number } {
  const { slotMs, windowMs, slots } = plan;
  const index = ((plan.index % slots) + slots) % slots;
  let slot = slotNumberAt(nowMs, slotMs);
  // The current slot, if it is ours, unused, and its window is still open.
  if (slot % slots === index && slot !== lastSlot && nowMs - slot * slotMs < windowMs) return { atMs: nowMs, slot };
  // Otherwise the next slot of ours after the current one.
  slot += 1;
  slot += (index - (slot % slots) + slots) % slots;
  if (slot === lastSlot) slot += slots;
  return { atMs: slot * slotMs, slot };
}

/** A stable slot guess for a process that never reached the coordinator (collisions possible: logged by the caller). */
export function guessSlotIndex(seed: string, slots: number): number {
  let hash = 2166136261;
  for (let i = 0; i < seed.length; i++) hash = Math.imul(hash ^ seed.charCodeAt(i), 16777619) >>> 0;
  return hash % slots;
}
