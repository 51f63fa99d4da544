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
