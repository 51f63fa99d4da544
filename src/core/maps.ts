/**
 * Map helpers. Owns nothing; `getOrInsert` is the get-or-create step that per-key state (per market, per slug)
 * otherwise spells out by hand each time.
 */

/** The value under `key`, created with `create()` and stored first when the map has none. */
export function getOrInsert<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  const existing = map.get(key);
  if (existing !== undefined) return existing;
  const value = create();
  map.set(key, value);
  return value;
}

/** `items` cut into consecutive pieces of at most `size` (≥ 1) items. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const step = Math.max(1, Math.floor(size));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += step) out.push(items.slice(i, i + step));
  return out;
}
