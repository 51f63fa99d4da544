/**
 * Doctor's pricing lines: for each traded market, the settlement rule the bot read (or why it cannot price it); and
 * for Pyth Hermes, whether the API key is set and accepted and every priced feed answers, with the age of its price.
 *
 * Owns: these checks (one latest-price read of every feed in ONE request: Hermes allows 10 per 10 s). Invariants:
 * read-only; the key is never part of a message (the variable's name is); a market that is not a crypto market passes
 * (it is quoted from its book), a recognised crypto market the model cannot price warns.
 */
import { HermesClient } from '@pythnetwork/hermes-client';
import type { AppConfig, Environment } from '../config/index.js';
import type { Market } from '../exchange/wire.js';
import { describeTerms, readMarketTerms, termsInputOf } from '../pricing/terms.js';
import type { MarketTerms } from '../pricing/types.js';
import { check, describeError as describe, type CheckResult } from './types.js';

export async function pricingChecks(config: AppConfig, markets: readonly Market[], env: Environment, now: () => number): Promise<CheckResult[]> {
  const checks: CheckResult[] = [];
  const priced: MarketTerms[] = [];
  for (const market of markets) {
    const result = readMarketTerms(termsInputOf(market), config.pricing.feedIds);
    const id = `pricing:${market.slug}`;
    const title = `pricing ${market.slug}`;
    if (result.ok) {
      priced.push(result.terms);
      checks.push(check(id, title, 'pass', `priced from the model: ${describeTerms(result.terms)}`, undefined, { rule: result.terms.rule, feedId: result.terms.feedId }));
    } else if (result.recognisedCrypto) {
      const policy = config.pricing.pricer.unpricedCrypto === 'skip' ? 'it will not be quoted (pricing.unpriced: skip)' : 'it will be quoted from its book (pricing.unpriced: book)';
      checks.push(check(id, title, 'warn', `a ${result.ticker ?? 'crypto'} market the model cannot price: ${result.reason}; ${policy}`, 'see docs/pricing.md'));
    } else {
      checks.push(check(id, title, 'pass', `not a crypto market: quoted from its book (${result.reason})`));
    }
  }
  if (priced.length === 0 || !config.pricing.sources.includes('hermes')) return checks;
  const { endpoint, apiKeyEnv } = config.pricing.hermes;
  const key = env[apiKeyEnv];
  if (key === undefined || key === '') {
    checks.push(check('hermes', 'Pyth Hermes', 'warn', `$${apiKeyEnv} is not set: Pyth requires an API key; the bot will price from the venue's oracle frames only`, `export ${apiKeyEnv}=<your Pyth API key>, or remove hermes from pricing.sources`));
    return checks;
  }
  const feeds = new Map(priced.flatMap((t) => (t.feedId === null ? [] : [[t.feedId.slice(2), t.ticker] as const])));
  try {
    const client = new HermesClient(endpoint, { accessToken: key, httpRetries: 0, timeout: 5_000 });
    const update = await client.getLatestPriceUpdates([...feeds.keys()], { parsed: true });
    const seen = new Map((update.parsed ?? []).map((p) => [p.id.toLowerCase().replace(/^0x/, ''), p.price] as const));
    const missing = [...feeds].filter(([id]) => !seen.has(id)).map(([, ticker]) => ticker);
    const staleMs = config.pricing.pricer.staleMs;
    const ages = [...feeds].flatMap(([id, ticker]) => {
      const p = seen.get(id);
      return p === undefined ? [] : [{ ticker, price: Number(p.price) * 10 ** p.expo, ageMs: now() - p.publish_time * 1000 }];
    });
    const text = ages.map((a) => `${a.ticker} ${a.price.toFixed(a.price < 10 ? 4 : 2)} (${(a.ageMs / 1000).toFixed(1)} s old)`).join(', ');
    if (missing.length > 0) checks.push(check('hermes', 'Pyth Hermes', 'fail', `no price for ${missing.join(', ')} at ${endpoint}`, 'check pricing.feedIds'));
    else if (ages.some((a) => a.ageMs > staleMs)) checks.push(check('hermes', 'Pyth Hermes', 'warn', `the key in $${apiKeyEnv} is accepted, but a price is older than pricing.staleSec: ${text}`, 'check the endpoint (pricing.hermes.endpoint)'));
    else checks.push(check('hermes', 'Pyth Hermes', 'pass', `the key in $${apiKeyEnv} is accepted; every feed answers: ${text}`));
  } catch (error) {
    const text = describe(error).split(key).join('[redacted]');
    if (/\b(401|403)\b/.test(text)) checks.push(check('hermes', 'Pyth Hermes', 'fail', `Pyth Hermes refused the API key in $${apiKeyEnv} at ${endpoint}`, `set a valid key in $${apiKeyEnv}`));
    else checks.push(check('hermes', 'Pyth Hermes', 'fail', `${endpoint} did not answer: ${text}`, 'check pricing.hermes.endpoint and the network'));
  }
  return checks;
}
