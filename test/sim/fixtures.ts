/**
 * Shared set-up of the simulator conformance suite: a simulator with generated markets and a cast of
 * accounts (demo trader, a counterparty, a read-only token, a partner with managed sub-accounts, an
 * externally-owned wallet), rate limits off unless a test turns them on, small settlement delay.
 *
 * The suite is the specification's own: its simulator answers on the specification's header prefix (`svc-api-key`,
 * `svc-timestamp`, `svc-signature`), and `call` / `connectMarkets` here sign with it unless told otherwise (the
 * simulator's default is the live venue's `lmts`, covered by the client and bot tests).
 */
import type { ApiCredentials } from '../../src/exchange/auth.js';
import { deriveAccountCredentials, startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../src/sim/index.js';
import type { SimMarket } from '../../src/sim/engine/index.js';
import type { Hex } from 'viem';
import { SPEC_HEADER_PREFIX } from '../../src/exchange/auth.js';
import { call as callWithPrefix, type CallOptions, type CallResult } from '../support/sim-http.js';
import { connectMarkets as connectWithPrefix, type ConnectOptions, type SocketRecorder } from '../support/sim-socket.js';
import { signedOrderBody, type SignedOrderInput } from '../support/sim-orders.js';

export interface TestAccount {
  readonly profileId: number;
  readonly address: string;
  readonly privateKey: Hex;
  readonly creds: ApiCredentials;
}

export const SEED = 42;

function account(label: string, profileId: number): TestAccount {
  const c = deriveAccountCredentials(SEED, label, profileId);
  return { profileId, address: c.address, privateKey: c.privateKey, creds: { tokenId: c.tokenId, secret: c.secret } };
}

export const BOB = account('bob', 2);
export const READER = account('reader', 3);
export const EOA = account('eoa', 4);
export const PARTNER = account('partner', 10);
export const SUB = account('sub', 11);
export const OTHER_PARTNER = account('other-partner', 20);
export const OTHER_SUB = account('other-sub', 21);

export interface TestSim {
  readonly sim: RunningSimulator;
  readonly demo: TestAccount;
  /** First single (non-group) market. */
  readonly market: SimMarket;
  /** Second single market. */
  readonly market2: SimMarket;
  readonly groupSlug: string;
}

export async function startTestSim(overrides: StartSimulatorOptions = {}): Promise<TestSim> {
  const usdc = '100000';
  const sim = await startSimulator({
    seed: SEED,
    markets: 6,
    rateLimit: false,
    settlementDelayMs: 20,
    payoutDelayMs: 20,
    feedCoalesceMs: 20,
    accounts: [
      { profileId: BOB.profileId, address: BOB.address, usdc, apiTokens: [{ tokenId: BOB.creds.tokenId, secret: BOB.creds.secret, scopes: ['trading'] }] },
      { profileId: READER.profileId, address: READER.address, usdc, apiTokens: [{ tokenId: READER.creds.tokenId, secret: READER.creds.secret, scopes: [] }] },
      { profileId: EOA.profileId, address: EOA.address, usdc, serverManagedWallet: false, apiTokens: [{ tokenId: EOA.creds.tokenId, secret: EOA.creds.secret, scopes: ['trading'] }] },
      {
        profileId: PARTNER.profileId,
        address: PARTNER.address,
        usdc,
        apiTokens: [{ tokenId: PARTNER.creds.tokenId, secret: PARTNER.creds.secret, scopes: ['trading', 'delegated_signing'] }],
      },
      { profileId: SUB.profileId, address: SUB.address, usdc, partnerProfileId: PARTNER.profileId, serverManagedWallet: true },
      {
        profileId: OTHER_PARTNER.profileId,
        address: OTHER_PARTNER.address,
        usdc,
        apiTokens: [{ tokenId: OTHER_PARTNER.creds.tokenId, secret: OTHER_PARTNER.creds.secret, scopes: ['trading'] }],
      },
      { profileId: OTHER_SUB.profileId, address: OTHER_SUB.address, usdc, partnerProfileId: OTHER_PARTNER.profileId, serverManagedWallet: true },
    ],
    headerPrefix: SPEC_HEADER_PREFIX,
    // The conformance suite's demo trader redeems through the API (a server-managed wallet; the simulator's default
    // demo wallet is externally owned since issue 38); EOA is the externally owned one.
    demo: { serverManagedWallet: true },
    ...overrides,
  });
  const singles = sim.engine.markets().filter((m) => m.groupSlug === undefined);
  const grouped = sim.engine.markets().find((m) => m.groupSlug !== undefined);
  const [market, market2] = singles;
  if (!market || !market2 || !grouped?.groupSlug) throw new Error('fixture: expected two single markets and a group');
  const d = sim.demoAccount;
  return {
    sim,
    demo: { profileId: d.profileId, address: d.address, privateKey: d.privateKey, creds: { tokenId: d.tokenId, secret: d.secret } },
    market,
    market2,
    groupSlug: grouped.groupSlug,
  };
}


export type PlaceArgs = Omit<SignedOrderInput, 'privateKey' | 'ownerId'> & { readonly ownerId?: number; readonly privateKey?: Hex };

/** Signs and POSTs an order as `who` (credentials of `via`, default `who`). */
export async function placeOrder(sim: RunningSimulator, who: TestAccount, args: PlaceArgs, via: TestAccount = who): Promise<CallResult> {
  const body = await signedOrderBody({ ...args, privateKey: args.privateKey ?? who.privateKey, ownerId: args.ownerId ?? who.profileId });
  return call(sim.baseUrl, 'POST', '/orders', { creds: via.creds, body });
}

/** The order id of a 201 placement answer. */
export function placedId(result: CallResult): string {
  if (result.status !== 201) throw new Error(`placement failed: ${result.status} ${result.text}`);
  const body = result.body;
  if (typeof body === 'object' && body !== null && 'order' in body && typeof body.order === 'object' && body.order !== null && 'id' in body.order && typeof body.order.id === 'string') {
    return body.order.id;
  }
  throw new Error(`no order id in ${result.text}`);
}

/** A call signed on the specification's header prefix unless `options.prefix` says otherwise. */
export function call(baseUrl: string, method: string, pathWithQuery: string, options: CallOptions = {}): Promise<CallResult> {
  return callWithPrefix(baseUrl, method, pathWithQuery, { prefix: SPEC_HEADER_PREFIX, ...options });
}

/** A socket connection authenticated on the specification's header prefix unless `options.prefix` says otherwise. */
export function connectMarkets(socketUrl: string, options: ConnectOptions = {}): Promise<SocketRecorder> {
  return connectWithPrefix(socketUrl, { prefix: SPEC_HEADER_PREFIX, ...options });
}
