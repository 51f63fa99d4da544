import type { Level } from '../../src/core/venue-rules/index.js';
/**
 * The contract rules, shared by the recorded answers, the SDK-typed fixtures and the simulator's answers.
 *
 * Owns: two kinds of check. `*ShapeIssues(body)` say how a wire body departs from the shape the live venue was
 * recorded sending (or, for authenticated answers nobody recorded, from the official client's types): an empty list
 * means the body looks like the venue's. `expected*(body)` compute, independently of src/exchange/wire.ts, the values
 * the client must read out of a body (raw integers, ticks, the YES token), for toEqual against what it returned.
 * Invariant: no rule here reads the client's code; each is written from the recordings or the SDK's d.ts.
 */

export type Json = unknown;

function isRecord(value: Json): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const RAW_INTEGER_STRING = /^\d+$/;
const DECIMAL_STRING = /^\d+(?:\.\d+)?$/;
const TOKEN_ID = /^\d{1,78}$/;

/** A price on the 0.001 grid in (0, 1) → ticks; null when it is not one. */
export function ticksOf(price: Json): number | null {
  const value = typeof price === 'number' ? price : typeof price === 'string' && DECIMAL_STRING.test(price) ? Number(price) : Number.NaN;
  if (!Number.isFinite(value)) return null;
  const ticks = Math.round(value * 1000);
  if (Math.abs(value * 1000 - ticks) > 1e-6 || ticks < 1 || ticks > 999) return null;
  return ticks;
}

// ───────────────────────────── orderbook (recorded: rest-orderbook.jsonl) ─────────────────────────────

/**
 * The recorded REST orderbook shape: `bids`/`asks` of `{price (number on the grid), size (raw 1e6 integer, JSON
 * number), side (BUY in bids, SELL in asks)}`, bids best (highest) first, asks best (lowest) first; `tokenId` a
 * decimal string; `maxSpread` a string in price units; `minSize` a string of raw units; `adjustedMidpoint` a number;
 * `lastTradePrice` a number or null.
 */
export function orderbookShapeIssues(body: Json): string[] {
  const issues: string[] = [];
  if (!isRecord(body)) return ['body is not an object'];
  for (const [list, side] of [
    ['bids', 'BUY'],
    ['asks', 'SELL'],
  ] as const) {
    const levels = body[list];
    if (!Array.isArray(levels)) {
      issues.push(`${list} is not an array`);
      continue;
    }
    let previous: number | null = null;
    levels.forEach((level: Json, i) => {
      if (!isRecord(level)) {
        issues.push(`${list}[${i}] is not an object`);
        return;
      }
      const ticks = ticksOf(level['price']);
      if (typeof level['price'] !== 'number' || ticks === null) issues.push(`${list}[${i}].price ${JSON.stringify(level['price'])} is not a JSON number on the 0.001 grid`);
      const size = level['size'];
      if (typeof size !== 'number' || !Number.isSafeInteger(size) || size <= 0) {
        issues.push(`${list}[${i}].size ${JSON.stringify(size)} is not a raw 1e6 integer (JSON number)`);
      }
      if (level['side'] !== side) issues.push(`${list}[${i}].side ${JSON.stringify(level['side'])} is not "${side}"`);
      if (ticks !== null && previous !== null && (list === 'bids' ? ticks >= previous : ticks <= previous)) {
        issues.push(`${list}[${i}] at ${ticks} ticks is out of order (best first)`);
      }
      if (ticks !== null) previous = ticks;
    });
  }
  if (typeof body['tokenId'] !== 'string' || !TOKEN_ID.test(body['tokenId'])) issues.push(`tokenId ${JSON.stringify(body['tokenId'])} is not a decimal string`);
  if (typeof body['maxSpread'] !== 'string' || !DECIMAL_STRING.test(body['maxSpread']) || Number(body['maxSpread']) >= 1) {
    issues.push(`maxSpread ${JSON.stringify(body['maxSpread'])} is not a string in price units`);
  }
  if (typeof body['minSize'] !== 'string' || !RAW_INTEGER_STRING.test(body['minSize'])) issues.push(`minSize ${JSON.stringify(body['minSize'])} is not a string of raw units`);
  if (typeof body['adjustedMidpoint'] !== 'number') issues.push(`adjustedMidpoint ${JSON.stringify(body['adjustedMidpoint'])} is not a number`);
  if (body['lastTradePrice'] !== null && typeof body['lastTradePrice'] !== 'number') issues.push(`lastTradePrice ${JSON.stringify(body['lastTradePrice'])} is neither a number nor null`);
  return issues;
}

export interface ExpectedBook {
  readonly tokenId: string;
  readonly bids: Level[];
  readonly asks: Level[];
  readonly maxSpreadTicks: number;
  readonly minSizeRaw: number;
  readonly adjustedMidpoint: number;
  readonly lastTradePrice: number | null;
}

function expectedLevels(levels: Json, descending: boolean): Level[] {
  const byPrice = new Map<number, number>();
  for (const level of Array.isArray(levels) ? levels : []) {
    if (!isRecord(level)) throw new Error('level is not an object');
    const ticks = ticksOf(level['price']);
    const size = level['size'];
    if (ticks === null || typeof size !== 'number') throw new Error(`unreadable level ${JSON.stringify(level)}`);
    if (size > 0) byPrice.set(ticks, (byPrice.get(ticks) ?? 0) + size);
  }
  return [...byPrice.entries()]
    .map(([priceTicks, sizeRaw]) => ({ priceTicks, sizeRaw }))
    .sort((a, b) => (descending ? b.priceTicks - a.priceTicks : a.priceTicks - b.priceTicks));
}

/** What the client must read from a book of the recorded shape: sizes exactly as sent (they are raw), prices in ticks. */
export function expectedOrderbook(body: Json): ExpectedBook {
  if (!isRecord(body)) throw new Error('book is not an object');
  const spread = ticksOf(body['maxSpread']);
  const minSize = body['minSize'];
  const mid = body['adjustedMidpoint'];
  const last = body['lastTradePrice'];
  if (typeof body['tokenId'] !== 'string' || spread === null || typeof minSize !== 'string' || typeof mid !== 'number') {
    throw new Error('book lacks tokenId, maxSpread, minSize or adjustedMidpoint');
  }
  return {
    tokenId: body['tokenId'],
    bids: expectedLevels(body['bids'], true),
    asks: expectedLevels(body['asks'], false),
    maxSpreadTicks: spread,
    minSizeRaw: Number(minSize),
    adjustedMidpoint: mid,
    lastTradePrice: typeof last === 'number' ? last : null,
  };
}

// ───────────────────────────── market (recorded: rest-markets-active-items.jsonl) ─────────────────────────────

/**
 * The recorded market shape: nullable `logo`, `proxyTitle`, `venue` (and `venue.adapter` null for a simple CLOB
 * market), `status` a string (FUNDED when tradable), `expirationTimestamp` in ms, CLOB markets with `tokens` and
 * `settings` {minSize raw string, maxSpread number in price units, dailyReward, rewardsEpoch and c strings}.
 */
export function marketShapeIssues(body: Json): string[] {
  const issues: string[] = [];
  if (!isRecord(body)) return ['market is not an object'];
  if (typeof body['id'] !== 'number') issues.push(`id ${JSON.stringify(body['id'])} is not a number`);
  if (typeof body['slug'] !== 'string' || body['slug'] === '') issues.push('slug missing');
  if (typeof body['status'] !== 'string') issues.push(`status ${JSON.stringify(body['status'])} is not a string`);
  const expiry = body['expirationTimestamp'];
  if (typeof expiry !== 'number' || expiry < 1e11) issues.push(`expirationTimestamp ${JSON.stringify(expiry)} is not in milliseconds`);
  for (const key of ['logo', 'proxyTitle'] as const) {
    if (key in body && body[key] !== null && typeof body[key] !== 'string') issues.push(`${key} is neither a string nor null`);
  }
  const venue = body['venue'];
  if (venue !== null && venue !== undefined) {
    if (!isRecord(venue) || typeof venue['exchange'] !== 'string') issues.push('venue.exchange missing');
    else if (venue['adapter'] !== null && typeof venue['adapter'] !== 'string') issues.push('venue.adapter is neither an address nor null');
  }
  if (body['tradeType'] === 'clob') {
    const tokens = body['tokens'];
    if (!isRecord(tokens) || typeof tokens['yes'] !== 'string' || typeof tokens['no'] !== 'string') issues.push('a CLOB market without tokens.yes/no strings');
    const settings = body['settings'];
    if (settings !== undefined && settings !== null) {
      if (!isRecord(settings)) issues.push('settings is not an object');
      else {
        if (typeof settings['minSize'] !== 'string' || !RAW_INTEGER_STRING.test(settings['minSize'])) issues.push(`settings.minSize ${JSON.stringify(settings['minSize'])} is not a raw-unit string`);
        if (typeof settings['maxSpread'] !== 'number' || settings['maxSpread'] >= 1) issues.push(`settings.maxSpread ${JSON.stringify(settings['maxSpread'])} is not a number in price units`);
        for (const key of ['dailyReward', 'rewardsEpoch', 'c'] as const) {
          if (typeof settings[key] !== 'string') issues.push(`settings.${key} ${JSON.stringify(settings[key])} is not a string`);
        }
      }
    }
  }
  return issues;
}

export interface ExpectedMarket {
  readonly id: number;
  readonly slug: string;
  readonly status: string;
  readonly expirationMs: number;
  /** `createdAt` (an ISO string in every recorded item) in ms. */
  readonly createdAtMs: number | null;
  readonly tokens: { readonly yes: string; readonly no: string } | null;
  readonly adapter: string | null;
  /** Normalised reward settings, or null when the market has none. */
  readonly reward: { readonly minSizeRaw: number; readonly maxSpreadTicks: number; readonly dailyRewardRaw: number; readonly c: number } | null;
}

/** What the client must read from a recorded market. dailyReward is whole USDC (its epoch share is dailyReward/1440). */
export function expectedMarket(body: Json): ExpectedMarket {
  if (!isRecord(body)) throw new Error('market is not an object');
  const tokens = isRecord(body['tokens']) ? body['tokens'] : null;
  const venue = isRecord(body['venue']) ? body['venue'] : null;
  const settings = isRecord(body['settings']) ? body['settings'] : null;
  const yes = tokens?.['yes'];
  const no = tokens?.['no'];
  const adapter = venue?.['adapter'];
  return {
    id: Number(body['id']),
    slug: String(body['slug']),
    status: String(body['status']),
    expirationMs: Number(body['expirationTimestamp']),
    createdAtMs: typeof body['createdAt'] === 'string' ? Date.parse(body['createdAt']) : null,
    tokens: typeof yes === 'string' && typeof no === 'string' ? { yes, no } : null,
    adapter: typeof adapter === 'string' ? adapter : null,
    reward: settings
      ? {
          minSizeRaw: Number(settings['minSize']),
          maxSpreadTicks: ticksOf(settings['maxSpread']) ?? Number.NaN,
          dailyRewardRaw: Math.round(Number(settings['dailyReward']) * 1e6),
          c: Number(settings['c']),
        }
      : null,
  };
}

// ───────────────────────────── authenticated answers (the official client's types) ─────────────────────────────

const TOTALS_KEYS = ['contractsGross', 'contractsNet', 'contractsFee', 'usdGross', 'usdNet', 'usdFee'] as const;

/** OrderResponse: `order` (CreatedOrder: id, makerAmount/takerAmount numbers, side 0/1, tokenId), `execution.totalsRaw` raw strings. */
export function placementShapeIssues(body: Json): string[] {
  const issues: string[] = [];
  if (!isRecord(body)) return ['placement answer is not an object'];
  const order = body['order'];
  if (!isRecord(order)) return ['order missing'];
  if (typeof order['id'] !== 'string') issues.push('order.id is not a string');
  for (const key of ['makerAmount', 'takerAmount'] as const) {
    if (typeof order[key] !== 'number' || !Number.isSafeInteger(order[key])) issues.push(`order.${key} ${JSON.stringify(order[key])} is not a raw integer number`);
  }
  if (order['side'] !== 0 && order['side'] !== 1) issues.push(`order.side ${JSON.stringify(order['side'])} is not 0 or 1`);
  if (typeof order['tokenId'] !== 'string') issues.push('order.tokenId is not a string');
  const execution = body['execution'];
  if (execution !== undefined) {
    if (!isRecord(execution)) issues.push('execution is not an object');
    else {
      if (typeof execution['matched'] !== 'boolean') issues.push('execution.matched is not a boolean');
      if (typeof execution['settlementStatus'] !== 'string') issues.push('execution.settlementStatus is not a string');
      const totals = execution['totalsRaw'];
      if (!isRecord(totals)) issues.push('execution.totalsRaw missing');
      else {
        for (const key of TOTALS_KEYS) {
          const value = totals[key];
          if (typeof value !== 'string' || !RAW_INTEGER_STRING.test(value)) issues.push(`execution.totalsRaw.${key} ${JSON.stringify(value)} is not a raw integer string`);
        }
      }
    }
  }
  return issues;
}

/** PortfolioPositionsResponse: `clob`, `group` and `amm` arrays; CLOB balances raw integer strings. */
export function positionsShapeIssues(body: Json): string[] {
  if (!isRecord(body)) return ['positions answer is not an object'];
  const issues: string[] = [];
  for (const list of ['clob', 'group', 'amm'] as const) if (!Array.isArray(body[list])) issues.push(`${list} is not an array`);
  const clob = body['clob'];
  (Array.isArray(clob) ? clob : []).forEach((entry: Json, i) => {
    if (!isRecord(entry) || !isRecord(entry['market']) || typeof entry['market']['slug'] !== 'string') {
      issues.push(`clob[${i}].market.slug missing`);
      return;
    }
    const balance = entry['tokensBalance'];
    if (!isRecord(balance)) issues.push(`clob[${i}].tokensBalance missing`);
    else {
      for (const key of ['yes', 'no'] as const) {
        const value = balance[key];
        if (typeof value !== 'string' || !RAW_INTEGER_STRING.test(value)) issues.push(`clob[${i}].tokensBalance.${key} ${JSON.stringify(value)} is not a raw integer string`);
      }
    }
  });
  return issues;
}
