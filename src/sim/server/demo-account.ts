/**
 * The ready-to-use demo account the simulator prints at start: API token id, base64 secret, wallet
 * private key and address, profile id, all derived deterministically from the seed (same seed → same
 * credentials), so scripts and tests can be written once.
 *
 * Invariants: the private key is a valid secp256k1 scalar; the secret is base64 of 32 bytes; the token id
 * has the UUID v4 layout. These are simulator credentials: never use them on a real venue.
 */
import { keccak256, stringToHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

export interface DemoAccount {
  readonly profileId: number;
  readonly tokenId: string;
  /** Base64 HMAC secret. */
  readonly secret: string;
  readonly privateKey: Hex;
  /** EIP-55. */
  readonly address: string;
  readonly scopes: readonly ('trading' | 'delegated_signing')[];
}

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function derive(seed: number, label: string): Hex {
  return keccak256(stringToHex(`outcome-maker-sim/${label}/${seed}`));
}

/** A deterministic valid private key for `label` under `seed`. */
export function derivePrivateKey(seed: number, label: string): Hex {
  let candidate = derive(seed, `${label}/key`);
  for (let round = 1; BigInt(candidate) === 0n || BigInt(candidate) >= SECP256K1_N; round++) {
    candidate = derive(seed, `${label}/key/${round}`);
  }
  return candidate;
}

function uuidV4Layout(hex: Hex): string {
  const h = hex.slice(2, 34).split('');
  h[12] = '4';
  h[16] = ((parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

/** Credentials for a simulator account named `label` (the demo account uses `demo`). */
export function deriveAccountCredentials(seed: number, label: string, profileId: number): DemoAccount {
  const privateKey = derivePrivateKey(seed, label);
  return {
    profileId,
    tokenId: uuidV4Layout(derive(seed, `${label}/token`)),
    secret: Buffer.from(derive(seed, `${label}/secret`).slice(2), 'hex').toString('base64'),
    privateKey,
    address: privateKeyToAccount(privateKey).address,
    scopes: ['trading', 'delegated_signing'],
  };
}

export const DEMO_PROFILE_ID = 1;

export function demoAccount(seed: number, profileId: number = DEMO_PROFILE_ID): DemoAccount {
  return deriveAccountCredentials(seed, 'demo', profileId);
}
