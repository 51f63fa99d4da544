/**
 * Seeded pseudo-random numbers (xoshiro128**, seeded through splitmix32) for everything random in the
 * engine: order and trade ids, tx hashes, synthetic flow. Same seed → same sequence on every platform
 * (32-bit integer arithmetic only; floats are derived from integers). `keyedStream` derives an independent stream per
 * key (a ticker, a market slug) from one base, so a world that lists more markets leaves the common ones' draws alone.
 */
export class Prng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(seed: number) {
    let x = seed >>> 0;
    const split = (): number => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = split();
    this.s1 = split();
    this.s2 = split();
    this.s3 = split();
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** Uniform uint32. */
  nextU32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (this.s1 << 9) >>> 0;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    this.s0 >>>= 0;
    this.s1 >>>= 0;
    this.s2 >>>= 0;
    this.s3 >>>= 0;
    return result;
  }

  /** Uniform in [0, 1) with 53 bits. */
  float(): number {
    const hi = this.nextU32() >>> 5;
    const lo = this.nextU32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    let u = this.float();
    while (u <= Number.EPSILON) u = this.float();
    const v = this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Number of events of a Poisson process with mean `mean` (Knuth; small means only). */
  poisson(mean: number): number {
    if (mean <= 0) return 0;
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.float();
    while (p > limit) {
      k += 1;
      p *= this.float();
    }
    return k;
  }

  /** `bytes` random bytes as lowercase hex. */
  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i += 4) out += hex8(this.nextU32());
    return out.length === bytes * 2 ? out : out.slice(0, bytes * 2);
  }

  /** RFC 4122 version-4 UUID from this stream. */
  uuid(): string {
    const a = hex8(this.nextU32());
    const b = hex8(this.nextU32());
    const c = hex8(this.nextU32());
    const d = hex8(this.nextU32());
    const variant = '89ab'.charAt(this.nextU32() & 3);
    return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(1, 4)}-${c.slice(4, 8)}${d}`;
  }
}

/**
 * A stream of its own for `key` (a ticker, a market slug), from `base` (a uint32 drawn once from a parent stream): the
 * same base and key always give the same stream, whatever other keys exist or in which order they are drawn from.
 */
export function keyedStream(base: number, key: string): Prng {
  // FNV-1a over the key's UTF-16 code units, then mixed with the base (Prng's splitmix does the rest).
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return new Prng((h ^ Math.imul(base >>> 0, 0x9e3779b1)) >>> 0);
}

const BYTE_HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hex8(n: number): string {
  return (
    (BYTE_HEX[(n >>> 24) & 255] ?? '') +
    (BYTE_HEX[(n >>> 16) & 255] ?? '') +
    (BYTE_HEX[(n >>> 8) & 255] ?? '') +
    (BYTE_HEX[n & 255] ?? '')
  );
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
