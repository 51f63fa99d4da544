/**
 * Local secp256k1 ECDSA over 32-byte digests, byte-identical to viem's `sign` / `account.sign({hash})` (RFC 6979
 * deterministic k with HMAC-SHA256, low-S, `r ‖ s ‖ v` with v = 27/28) and about twice as fast as viem's
 * `signTypedData` path end to end (bench/signing.ts).
 *
 * Owns: k·G for signing and the precomputed base-point table (built once per thread, or adopted from the thread that
 * built it: baseTableBytes / adoptBaseTable, the signing worker's handed to the bot's main thread). Where the time
 * goes and what changed (docs/latency.md): viem calls @noble/curves' stock `secp256k1.sign`, whose k·G splits k with
 * the GLV endomorphism and then runs the constant-time wNAF once per half over the 8-bit base table (2 × 33 complete
 * projective additions, ≈ 12 multiplications each). Here k·G is one pass of the same signed-window method over a 10-bit table of AFFINE points
 * (27 windows of 512 points, ≈ 14k points built once on first use, ≈ 0.1–0.4 s), with mixed Jacobian–affine
 * additions (8M + 3S): about half the cost. The RFC 6979 HMAC-DRBG uses node:crypto's HMAC.
 *
 * Invariants:
 * - exactly one point addition per window whatever the digits (a zero digit adds into a throw-away accumulator),
 *   like noble's constant-time `multiply`; the only data-dependent branches are the exceptional cases of the
 *   addition formula (accumulator at infinity before the first non-zero digit, or equal to ± the table point),
 *   as rare for a random k as in any windowed method. BigInt arithmetic is not constant-time (neither is noble's).
 * - the private key lives only in the closure of the account `localDigestAccount` returns (never a property,
 *   never logged, never in an error); an invalid key is refused when the account is made.
 * - signatures equal viem's for the same key and digest (test/unit/exchange/ecdsa.test.ts: seeded random keys and
 *   digests, and orders against `signTypedData`).
 */
import { createHmac } from 'node:crypto';
import { invert } from '@noble/curves/abstract/modular';
import { secp256k1 } from '@noble/curves/secp256k1';
import type { Address, Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

/** Field prime and group order of secp256k1. */
const P = secp256k1.CURVE.Fp.ORDER;
const N = secp256k1.CURVE.n;
const HALF_N = N >> 1n;

/** Window of the base-point table: 10 bits → 27 windows of 512 affine points. */
export const BASE_POINT_WINDOW_BITS = 10;
const W = BASE_POINT_WINDOW_BITS;
const HALF_WINDOW = 2 ** (W - 1);
const FULL_WINDOW = 2 ** W;
const WINDOWS = Math.ceil(256 / W) + 1;
const WINDOW_MASK = BigInt(FULL_WINDOW - 1);
const W_BITS = BigInt(W);

interface BaseTable {
  /** x and y of j·2^(W·w)·G at index w·HALF_WINDOW + j − 1, j = 1…HALF_WINDOW (filled on demand from `bytes` when adopted). */
  readonly xs: (bigint | undefined)[];
  readonly ys: (bigint | undefined)[];
  /** An adopted table's encoding (baseTableBytes): each point's x then y, 32 bytes each, big-endian. */
  readonly bytes: Uint8Array | null;
}

/** Points in the table: WINDOWS windows of HALF_WINDOW points. */
const TABLE_POINTS = WINDOWS * HALF_WINDOW;
/** Bytes of an encoded table: 64 per point. */
export const BASE_TABLE_BYTES = TABLE_POINTS * 64;

let table: BaseTable | null = null;

/** Builds (once) the affine table of every window's multiples of G, unless this thread adopted one. */
export function baseTable(): BaseTable {
  if (table !== null) return table;
  const Point = secp256k1.ProjectivePoint;
  const points: InstanceType<typeof Point>[] = [];
  let windowBase = Point.BASE;
  for (let w = 0; w < WINDOWS; w++) {
    let multiple = windowBase;
    points.push(multiple);
    for (let j = 1; j < HALF_WINDOW; j++) {
      multiple = multiple.add(windowBase);
      points.push(multiple);
    }
    windowBase = multiple.double(); // HALF_WINDOW · 2^(W·w) · G doubled = 2^(W·(w+1)) · G
  }
  const affine = Point.normalizeZ(points);
  table = { xs: affine.map((p) => p.px), ys: affine.map((p) => p.py), bytes: null };
  return table;
}

/** Whether this thread has a table (built or adopted): signing here then costs no table build. */
export function hasBaseTable(): boolean {
  return table !== null;
}

/** This thread's table (built if need be), encoded for another thread: BASE_TABLE_BYTES bytes (baseTableBytes → adoptBaseTable). */
export function baseTableBytes(): Uint8Array<ArrayBuffer> {
  const { xs, ys, bytes } = baseTable();
  if (bytes !== null) return bytes.slice();
  const out = new Uint8Array(BASE_TABLE_BYTES);
  for (let i = 0; i < TABLE_POINTS; i++) {
    out.set(bigintTo32(coordinate(xs, null, i, 0)), i * 64);
    out.set(bigintTo32(coordinate(ys, null, i, 32)), i * 64 + 32);
  }
  return out;
}

/**
 * A table encoded by baseTableBytes (the signing worker's, built once there), decoded point by point as signing reads
 * it: the thread that adopts it never builds its own (0.1–0.4 s of CPU, on the bot's main thread a stall). Returns
 * whether it was adopted: false when this thread has a table already. Throws RangeError for an encoding of the wrong
 * length or whose first point is not G (a table that is not the base point's would make every signature invalid).
 */
export function adoptBaseTable(bytes: Uint8Array): boolean {
  const decoded = decodeBaseTable(bytes);
  if (table !== null) return false;
  table = decoded;
  return true;
}

/** The table an encoding holds (decoded lazily), checked as adoptBaseTable says. */
export function decodeBaseTable(bytes: Uint8Array): BaseTable {
  if (bytes.length !== BASE_TABLE_BYTES) throw new RangeError(`a base-point table is ${BASE_TABLE_BYTES} bytes, got ${bytes.length}`);
  const decoded: BaseTable = { xs: new Array<bigint | undefined>(TABLE_POINTS), ys: new Array<bigint | undefined>(TABLE_POINTS), bytes };
  const g = secp256k1.ProjectivePoint.BASE;
  if (coordinate(decoded.xs, bytes, 0, 0) !== g.px || coordinate(decoded.ys, bytes, 0, 32) !== g.py) throw new RangeError('the base-point table does not start at G');
  return decoded;
}

/** Coordinate `index` of a table's xs or ys (`at`: 0 for x, 32 for y in the encoding), decoded on first read. */
function coordinate(values: (bigint | undefined)[], bytes: Uint8Array | null, index: number, at: number): bigint {
  const known = values[index];
  if (known !== undefined) return known;
  if (bytes === null) throw new RangeError(`base-point table index ${index} out of range`);
  const value = bytesToBigint(bytes.subarray(index * 64 + at, index * 64 + at + 32));
  values[index] = value;
  return value;
}

const modP = (a: bigint): bigint => {
  const r = a % P;
  return r < 0n ? r + P : r;
};

/** Jacobian point (X/Z², Y/Z³); Z = 0 is infinity. */
interface Jacobian {
  x: bigint;
  y: bigint;
  z: bigint;
}

/** dbl-2009-l (a = 0). */
function double(p: Jacobian): Jacobian {
  if (p.z === 0n || p.y === 0n) return { x: 0n, y: 1n, z: 0n };
  const a = (p.x * p.x) % P;
  const b = (p.y * p.y) % P;
  const c = (b * b) % P;
  const xb = p.x + b;
  const d = modP(2n * ((xb * xb) % P) - 2n * a - 2n * c);
  const e = (3n * a) % P;
  const f = (e * e) % P;
  const x3 = modP(f - 2n * d);
  const y3 = modP(e * modP(d - x3) - 8n * c);
  const z3 = (2n * p.y * p.z) % P;
  return { x: x3, y: y3, z: z3 };
}

/** p + (x2, y2) with (x2, y2) affine: 8M + 3S, with the exceptional cases handled. */
function addAffine(p: Jacobian, x2: bigint, y2: bigint): Jacobian {
  if (p.z === 0n) return { x: x2, y: y2, z: 1n };
  const z1z1 = (p.z * p.z) % P;
  const u2 = (x2 * z1z1) % P;
  const s2 = (((y2 * p.z) % P) * z1z1) % P;
  const h = modP(u2 - p.x);
  const r = modP(s2 - p.y);
  if (h === 0n) return r === 0n ? double(p) : { x: 0n, y: 1n, z: 0n };
  const hh = (h * h) % P;
  const hhh = (h * hh) % P;
  const v = (p.x * hh) % P;
  const x3 = modP(r * r - hhh - 2n * v);
  const y3 = modP(r * modP(v - x3) - p.y * hhh);
  return { x: x3, y: y3, z: (p.z * h) % P };
}

/** k·G in affine coordinates, for 1 ≤ k < n: one addition per window (signed digits, fake add on a zero digit), over this thread's table or `from`. */
export function multiplyBase(k: bigint, from: BaseTable = baseTable()): { readonly x: bigint; readonly y: bigint } {
  if (k <= 0n || k >= N) throw new RangeError('scalar out of range');
  const { xs, ys, bytes } = from;
  let acc: Jacobian = { x: 0n, y: 1n, z: 0n };
  let fake: Jacobian = { x: 0n, y: 1n, z: 0n };
  let rest = k;
  for (let w = 0; w < WINDOWS; w++) {
    let digit = Number(rest & WINDOW_MASK);
    rest >>= W_BITS;
    if (digit > HALF_WINDOW) {
      digit -= FULL_WINDOW;
      rest += 1n;
    }
    const offset = w * HALF_WINDOW;
    if (digit === 0) {
      fake = addAffine(fake, coordinate(xs, bytes, offset, 0), coordinate(ys, bytes, offset, 32));
    } else {
      const index = offset + Math.abs(digit) - 1;
      const y = coordinate(ys, bytes, index, 32);
      acc = addAffine(acc, coordinate(xs, bytes, index, 0), digit < 0 ? P - y : y);
    }
  }
  if (acc.z === 0n) throw new RangeError('k·G is the point at infinity');
  const zInv = invert(acc.z, P);
  const zInv2 = (zInv * zInv) % P;
  return { x: (acc.x * zInv2) % P, y: (((acc.y * zInv2) % P) * zInv) % P };
}

function bytesToBigint(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`);
}

function bigintTo32(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
}

const ZERO = Buffer.from([0x00]);
const ONE = Buffer.from([0x01]);

function hmac(key: Buffer, ...parts: Buffer[]): Buffer {
  const mac = createHmac('sha256', key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/** The low-S signature (r, s) and recovery bit of a 32-byte digest: RFC 6979 §3.2 k, then ECDSA (SEC 1 §4.1.3). */
export function signDigestWith(privateKey: bigint, digest: Uint8Array): { readonly r: bigint; readonly s: bigint; readonly recovery: number } {
  if (digest.length !== 32) throw new DigestSigningError(`digest must be 32 bytes, got ${digest.length}`);
  const d = privateKey;
  let m = bytesToBigint(digest);
  if (m >= N) m -= N;
  const seed = Buffer.concat([bigintTo32(d), bigintTo32(m)]);
  let v: Buffer = Buffer.alloc(32, 0x01);
  let key: Buffer = Buffer.alloc(32, 0x00);
  key = hmac(key, v, ZERO, seed);
  v = hmac(key, v);
  key = hmac(key, v, ONE, seed);
  v = hmac(key, v);
  for (;;) {
    v = hmac(key, v);
    const k = bytesToBigint(v);
    if (k > 0n && k < N) {
      const point = multiplyBase(k);
      const r = point.x % N;
      if (r !== 0n) {
        const s = (invert(k, N) * ((m + ((r * d) % N)) % N)) % N;
        if (s !== 0n) {
          let recovery = (point.x === r ? 0 : 2) | Number(point.y & 1n);
          if (s > HALF_N) {
            recovery ^= 1;
            return { r, s: N - s, recovery };
          }
          return { r, s, recovery };
        }
      }
    }
    key = hmac(key, v, ZERO);
    v = hmac(key, v);
  }
}

const DIGEST = /^0x[0-9a-fA-F]{64}$/;

export class DigestSigningError extends Error {
  override readonly name = 'DigestSigningError';
}

/** What OrderSigner needs of a key: its address and a signer of 32-byte hashes (viem's account shape). */
export interface DigestSigningAccount {
  readonly address: Address;
  sign(parameters: { hash: Hex }): Promise<Hex>;
  /** The same signature, synchronously, from the digest bytes. */
  signDigest(digest: Uint8Array): Hex;
}

/**
 * An account over `privateKey` (0x + 64 hex, either case). Throws (without the key) when it is not a valid
 * secp256k1 scalar. Builds the base-point table on first use (not here), so constructing it stays cheap.
 */
export function localDigestAccount(privateKey: Hex): DigestSigningAccount {
  // The range first: viem's own refusal of a key out of range prints the key (in decimal).
  const scalar = /^0x[0-9a-fA-F]{64}$/.test(privateKey) ? BigInt(privateKey) : 0n;
  if (scalar <= 0n || scalar >= N) throw new DigestSigningError('private key is not a valid secp256k1 scalar');
  const address = privateKeyToAddress(privateKey);
  const signDigest = (digest: Uint8Array): Hex => {
    const { r, s, recovery } = signDigestWith(scalar, digest);
    // viem: v = recovery ? 28 : 27, serialized as 1b / 1c.
    return `0x${r.toString(16).padStart(64, '0')}${s.toString(16).padStart(64, '0')}${recovery === 0 ? '1b' : '1c'}`;
  };
  return {
    address,
    signDigest,
    sign({ hash }) {
      if (!DIGEST.test(hash)) return Promise.reject(new DigestSigningError('hash must be 0x followed by 64 hex digits'));
      try {
        return Promise.resolve(signDigest(Uint8Array.from(Buffer.from(hash.slice(2), 'hex'))));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new DigestSigningError(String(error)));
      }
    },
  };
}
