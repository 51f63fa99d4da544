/**
 * Versioned schema migrations, tracked by PRAGMA user_version. Each step runs in its own IMMEDIATE
 * transaction together with the version bump, so a crash mid-migration leaves the previous version intact
 * and the next open simply runs the step again. Applying the list to an up-to-date database is a no-op.
 * A database newer than this build is refused rather than written to.
 *
 * Tables are STRICT (SQLite checks column types); every money column is an INTEGER of raw units.
 */
import type { Database } from 'better-sqlite3';
import { LedgerSchemaError } from './errors.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

const V1_SQL = `
CREATE TABLE orders (
  client_order_id TEXT PRIMARY KEY,
  venue_order_id  TEXT UNIQUE,
  market_slug     TEXT NOT NULL,
  slot            TEXT NOT NULL,
  token           TEXT NOT NULL CHECK (token IN ('YES', 'NO')),
  token_id        TEXT NOT NULL,
  side            TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
  order_type      TEXT NOT NULL CHECK (order_type IN ('GTC', 'FAK', 'FOK')),
  post_only       INTEGER NOT NULL CHECK (post_only IN (0, 1)),
  price_ticks     INTEGER NOT NULL CHECK (price_ticks BETWEEN 1 AND 999),
  size_raw        INTEGER NOT NULL CHECK (size_raw > 0),
  remaining_raw   INTEGER NOT NULL CHECK (remaining_raw BETWEEN 0 AND size_raw),
  status          TEXT NOT NULL CHECK (status IN ('pending-new', 'live', 'partially-filled', 'filled',
                                                  'pending-cancel', 'canceled', 'rejected', 'unknown')),
  created_at_ms   INTEGER NOT NULL,
  updated_at_ms   INTEGER NOT NULL
) STRICT;
CREATE INDEX orders_open ON orders (status) WHERE status NOT IN ('filled', 'canceled', 'rejected');
CREATE INDEX orders_updated ON orders (updated_at_ms);

CREATE TABLE order_events (
  event_id        TEXT PRIMARY KEY,
  kind            TEXT NOT NULL,
  payload         TEXT NOT NULL,
  received_at_ms  INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE fills (
  id                  INTEGER PRIMARY KEY,
  trade_event_id      TEXT NOT NULL,
  order_id            TEXT NOT NULL,
  client_order_id     TEXT,
  market_slug         TEXT NOT NULL,
  token               TEXT NOT NULL CHECK (token IN ('YES', 'NO')),
  token_id            TEXT NOT NULL,
  side                TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
  price_ticks         INTEGER CHECK (price_ticks BETWEEN 1 AND 999),
  size_raw            INTEGER NOT NULL CHECK (size_raw > 0),
  collateral_raw      INTEGER NOT NULL CHECK (collateral_raw >= 0),
  fee_raw             INTEGER NOT NULL CHECK (fee_raw >= 0),
  role                TEXT CHECK (role IN ('maker', 'taker')),
  kind                TEXT NOT NULL CHECK (kind IN ('trade', 'adjustment')),
  source              TEXT NOT NULL CHECK (source IN ('venue', 'reconcile')),
  state               TEXT NOT NULL CHECK (state IN ('provisional', 'mined', 'failed')),
  reason              TEXT,
  tx_hash             TEXT,
  at_ms               INTEGER NOT NULL,
  recorded_at_ms      INTEGER NOT NULL,
  updated_at_ms       INTEGER NOT NULL,
  realized_delta_raw  INTEGER NOT NULL DEFAULT 0,
  position_after_raw  INTEGER NOT NULL DEFAULT 0,
  cost_after_raw      INTEGER NOT NULL DEFAULT 0,
  UNIQUE (trade_event_id, order_id),
  CHECK (kind = 'adjustment' OR (price_ticks IS NOT NULL AND role IS NOT NULL))
) STRICT;
CREATE INDEX fills_position ON fills (market_slug, token, at_ms, id);
CREATE INDEX fills_order ON fills (order_id);
CREATE INDEX fills_time ON fills (at_ms);
CREATE INDEX fills_provisional ON fills (market_slug, token) WHERE state = 'provisional';

CREATE TABLE fill_failures (
  trade_event_id  TEXT NOT NULL,
  order_id        TEXT NOT NULL,
  reason          TEXT NOT NULL,
  at_ms           INTEGER NOT NULL,
  PRIMARY KEY (trade_event_id, order_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE positions (
  market_slug     TEXT NOT NULL,
  token           TEXT NOT NULL CHECK (token IN ('YES', 'NO')),
  position_raw    INTEGER NOT NULL,
  cost_raw        INTEGER NOT NULL,
  realized_raw    INTEGER NOT NULL,
  fees_raw        INTEGER NOT NULL,
  volume_raw      INTEGER NOT NULL,
  fill_count      INTEGER NOT NULL,
  last_at_ms      INTEGER NOT NULL,
  last_fill_id    INTEGER NOT NULL,
  updated_at_ms   INTEGER NOT NULL,
  PRIMARY KEY (market_slug, token)
) STRICT, WITHOUT ROWID;

CREATE TABLE resolutions (
  market_slug            TEXT PRIMARY KEY,
  winning_outcome_index  INTEGER CHECK (winning_outcome_index IN (0, 1)),
  payout_yes             INTEGER NOT NULL CHECK (payout_yes >= 0),
  payout_no              INTEGER NOT NULL CHECK (payout_no >= 0),
  resolved_at_ms         INTEGER NOT NULL,
  recorded_at_ms         INTEGER NOT NULL,
  CHECK (payout_yes + payout_no > 0)
) STRICT, WITHOUT ROWID;

CREATE TABLE redemptions (
  redemption_id   TEXT PRIMARY KEY,
  market_slug     TEXT NOT NULL,
  amount_raw      INTEGER NOT NULL CHECK (amount_raw >= 0),
  tx_hash         TEXT,
  at_ms           INTEGER NOT NULL,
  recorded_at_ms  INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX redemptions_market ON redemptions (market_slug);

CREATE TABLE marks (
  market_slug  TEXT PRIMARY KEY,
  mid_micros   INTEGER NOT NULL CHECK (mid_micros BETWEEN 1 AND 999999),
  at_ms        INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE mark_day_open (
  market_slug  TEXT NOT NULL,
  day_start_ms INTEGER NOT NULL,
  mid_micros   INTEGER NOT NULL CHECK (mid_micros BETWEEN 1 AND 999999),
  PRIMARY KEY (market_slug, day_start_ms)
) STRICT, WITHOUT ROWID;

CREATE TABLE kv (
  key            TEXT PRIMARY KEY,
  value          TEXT NOT NULL,
  updated_at_ms  INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
`;

/**
 * Markouts (src/ledger/markouts-repo.ts): the fills the live bot judges (one row each, with the strategy that quoted
 * and the references it is judged against), and one row per (fill, horizon, reference), written once and never
 * changed: the reference's price at the horizon in millionths, or why it is missing. Fills recorded before this step
 * have no markout rows and keep working as before.
 */
const V2_SQL = `
CREATE TABLE markout_fills (
  fill_id           INTEGER PRIMARY KEY REFERENCES fills (id),
  strategy          TEXT NOT NULL,
  refs              TEXT NOT NULL CHECK (refs IN ('mid', 'mid,model')),
  complete          INTEGER NOT NULL DEFAULT 0 CHECK (complete IN (0, 1)),
  registered_at_ms  INTEGER NOT NULL
) STRICT;
CREATE INDEX markout_fills_open ON markout_fills (fill_id) WHERE complete = 0;

CREATE TABLE fill_markouts (
  fill_id         INTEGER NOT NULL REFERENCES markout_fills (fill_id),
  horizon_ms      INTEGER NOT NULL CHECK (horizon_ms >= 0),
  reference       TEXT NOT NULL CHECK (reference IN ('mid', 'model')),
  ref_micros      INTEGER CHECK (ref_micros BETWEEN 1 AND 999999),
  missing_reason  TEXT,
  sampled_at_ms   INTEGER NOT NULL,
  PRIMARY KEY (fill_id, horizon_ms, reference),
  CHECK ((ref_micros IS NULL) = (missing_reason IS NOT NULL))
) STRICT, WITHOUT ROWID;
`;

/**
 * Reward and rebate accruals (src/ledger/rewards-repo.ts), every figure an ESTIMATE of what the venue will pay:
 * one row per (market, minute) with the bot's reward score, the others' qualifying score from the book, the bot's
 * share and its estimated part of the minute's pool; one row per maker fill with the taker's fee (from the fill's
 * report or the fee curve) and the rebate estimate; and what the venue itself reports (the portfolio's `rewards`),
 * one row per (UTC day, market or '*' for the total), the day's last reading.
 */
const V3_SQL = `
CREATE TABLE reward_minutes (
  market_slug     TEXT NOT NULL,
  minute_ms       INTEGER NOT NULL CHECK (minute_ms >= 0 AND minute_ms % 60000 = 0),
  strategy        TEXT NOT NULL,
  bot_score       REAL NOT NULL CHECK (bot_score >= 0),
  others_score    REAL NOT NULL CHECK (others_score >= 0),
  share           REAL NOT NULL CHECK (share BETWEEN 0 AND 1),
  pool_raw        INTEGER NOT NULL CHECK (pool_raw >= 0),
  reward_raw      INTEGER NOT NULL CHECK (reward_raw >= 0),
  recorded_at_ms  INTEGER NOT NULL,
  PRIMARY KEY (market_slug, minute_ms)
) STRICT, WITHOUT ROWID;
CREATE INDEX reward_minutes_time ON reward_minutes (minute_ms);

CREATE TABLE maker_rebates (
  fill_id         INTEGER PRIMARY KEY REFERENCES fills (id),
  market_slug     TEXT NOT NULL,
  strategy        TEXT NOT NULL,
  at_ms           INTEGER NOT NULL,
  taker_fee_bps   REAL NOT NULL CHECK (taker_fee_bps >= 0),
  fee_source      TEXT NOT NULL CHECK (fee_source IN ('event', 'curve')),
  taker_fee_raw   INTEGER NOT NULL CHECK (taker_fee_raw >= 0),
  rebate_rate     REAL NOT NULL CHECK (rebate_rate BETWEEN 0 AND 1),
  rebate_raw      INTEGER NOT NULL CHECK (rebate_raw >= 0),
  recorded_at_ms  INTEGER NOT NULL
) STRICT;
CREATE INDEX maker_rebates_time ON maker_rebates (at_ms);

CREATE TABLE venue_rewards (
  day_start_ms    INTEGER NOT NULL CHECK (day_start_ms % 86400000 = 0),
  market_slug     TEXT NOT NULL,
  reward_raw      INTEGER NOT NULL CHECK (reward_raw >= 0),
  read_at_ms      INTEGER NOT NULL,
  PRIMARY KEY (day_start_ms, market_slug)
) STRICT, WITHOUT ROWID;
`;

/**
 * Model calibration (src/ledger/calibration-repo.ts): per priced market and offset before settlement, the model's and
 * the book mid's predictions of YES as they were taken (written once, never changed; a missing value carries its
 * reason), and, once the market resolved, one scored row per (market, offset): the outcome and the log-loss and Brier
 * score of each prediction in millionths (written once: a restart never scores a market twice).
 */
const V4_SQL = `
CREATE TABLE calibration_predictions (
  market_slug     TEXT NOT NULL,
  offset_ms       INTEGER NOT NULL CHECK (offset_ms > 0),
  underlying      TEXT NOT NULL,
  cadence         TEXT NOT NULL,
  settles_at_ms   INTEGER NOT NULL,
  model_micros    INTEGER CHECK (model_micros BETWEEN 0 AND 1000000),
  model_missing   TEXT,
  mid_micros      INTEGER CHECK (mid_micros BETWEEN 0 AND 1000000),
  mid_missing     TEXT,
  taken_at_ms     INTEGER NOT NULL,
  PRIMARY KEY (market_slug, offset_ms),
  CHECK ((model_micros IS NULL) = (model_missing IS NOT NULL)),
  CHECK ((mid_micros IS NULL) = (mid_missing IS NOT NULL))
) STRICT, WITHOUT ROWID;
CREATE INDEX calibration_predictions_settles ON calibration_predictions (settles_at_ms);

CREATE TABLE calibration_scores (
  market_slug          TEXT NOT NULL,
  offset_ms            INTEGER NOT NULL,
  underlying           TEXT NOT NULL,
  cadence              TEXT NOT NULL,
  settles_at_ms        INTEGER NOT NULL,
  outcome              INTEGER NOT NULL CHECK (outcome IN (0, 1)),
  model_micros         INTEGER,
  model_log_loss_micro INTEGER CHECK (model_log_loss_micro >= 0),
  model_brier_micro    INTEGER CHECK (model_brier_micro BETWEEN 0 AND 1000000),
  mid_micros           INTEGER,
  mid_log_loss_micro   INTEGER CHECK (mid_log_loss_micro >= 0),
  mid_brier_micro      INTEGER CHECK (mid_brier_micro BETWEEN 0 AND 1000000),
  scored_at_ms         INTEGER NOT NULL,
  PRIMARY KEY (market_slug, offset_ms),
  CHECK ((model_micros IS NULL) = (model_log_loss_micro IS NULL) AND (model_micros IS NULL) = (model_brier_micro IS NULL)),
  CHECK ((mid_micros IS NULL) = (mid_log_loss_micro IS NULL) AND (mid_micros IS NULL) = (mid_brier_micro IS NULL))
) STRICT, WITHOUT ROWID;
CREATE INDEX calibration_scores_settles ON calibration_scores (settles_at_ms);
`;

/** The ledger's schema history. Append only: never edit a released step. */
// Issue 31: the venue's PAID rewards and rebates per epoch (market '*': the account's total), each epoch booked once
// (keyed by market and epoch end); a reward minute scored from several samples (time-weighted: each sample adds its
// share of the minute; samples and the span they cover [covered_from_ms, covered_to_ms) say what the row stands for; NULL: one sample for the whole minute).
const V5_SQL = `
CREATE TABLE venue_payouts (
  market_slug     TEXT NOT NULL,
  epoch_end_ms    INTEGER NOT NULL,
  epoch_start_ms  INTEGER,
  rewards_raw     INTEGER CHECK (rewards_raw >= 0),
  rebates_raw     INTEGER CHECK (rebates_raw >= 0),
  paid_at_ms      INTEGER,
  source          TEXT NOT NULL,
  recorded_at_ms  INTEGER NOT NULL,
  PRIMARY KEY (market_slug, epoch_end_ms),
  CHECK (epoch_start_ms IS NULL OR epoch_start_ms <= epoch_end_ms)
) STRICT, WITHOUT ROWID;
CREATE INDEX venue_payouts_end ON venue_payouts (epoch_end_ms);

ALTER TABLE reward_minutes ADD COLUMN samples INTEGER NOT NULL DEFAULT 1 CHECK (samples >= 1);
ALTER TABLE reward_minutes ADD COLUMN covered_from_ms INTEGER;
ALTER TABLE reward_minutes ADD COLUMN covered_to_ms INTEGER;
`;

// Issue 31: a maker fill's rebate resolved from the public trade feed (GET /markets/{slug}/events, matched by txHash):
// `fee_source` gains 'trade'; `taker_side` is the taker's fee branch (NULL: the prior's blend of both), `match_kind`
// whether the taker traded the maker's token ('same') or the other one ('complementary'; NULL: the prior's blend),
// `prior_share` the share of buying takers the prior assumed (NULL: none), `resolution` pending → trade | unmatched
// (each once), `prior_rebate_raw` the estimate the trade replaced. Rows of earlier versions were same-token estimates.
const V6_SQL = `
CREATE TABLE maker_rebates_v6 (
  fill_id          INTEGER PRIMARY KEY REFERENCES fills (id),
  market_slug      TEXT NOT NULL,
  strategy         TEXT NOT NULL,
  at_ms            INTEGER NOT NULL,
  taker_fee_bps    REAL NOT NULL CHECK (taker_fee_bps >= 0),
  fee_source       TEXT NOT NULL CHECK (fee_source IN ('event', 'curve', 'trade')),
  taker_fee_raw    INTEGER NOT NULL CHECK (taker_fee_raw >= 0),
  rebate_rate      REAL NOT NULL CHECK (rebate_rate BETWEEN 0 AND 1),
  rebate_raw       INTEGER NOT NULL CHECK (rebate_raw >= 0),
  recorded_at_ms   INTEGER NOT NULL,
  taker_side       TEXT CHECK (taker_side IN ('BUY', 'SELL')),
  match_kind       TEXT CHECK (match_kind IN ('same', 'complementary')),
  prior_share      REAL CHECK (prior_share BETWEEN 0 AND 1),
  resolution       TEXT NOT NULL DEFAULT 'pending' CHECK (resolution IN ('pending', 'trade', 'unmatched')),
  prior_rebate_raw INTEGER CHECK (prior_rebate_raw >= 0),
  resolved_at_ms   INTEGER,
  CHECK ((resolution = 'trade') = (fee_source = 'trade')),
  CHECK ((resolution = 'pending') = (resolved_at_ms IS NULL))
) STRICT;
INSERT INTO maker_rebates_v6 (fill_id, market_slug, strategy, at_ms, taker_fee_bps, fee_source, taker_fee_raw, rebate_rate, rebate_raw,
                              recorded_at_ms, taker_side, match_kind)
  SELECT r.fill_id, r.market_slug, r.strategy, r.at_ms, r.taker_fee_bps, r.fee_source, r.taker_fee_raw, r.rebate_rate, r.rebate_raw,
         r.recorded_at_ms, CASE f.side WHEN 'BUY' THEN 'SELL' ELSE 'BUY' END, 'same'
    FROM maker_rebates r JOIN fills f ON f.id = r.fill_id;
DROP TABLE maker_rebates;
ALTER TABLE maker_rebates_v6 RENAME TO maker_rebates;
CREATE INDEX maker_rebates_time ON maker_rebates (at_ms);
CREATE INDEX maker_rebates_pending ON maker_rebates (market_slug) WHERE resolution = 'pending';
`;

// Issue 38: the capital core's on-chain transactions (src/capital/core.ts). A row is written when the transaction is
// sent (status 'sent', with its hash and nonce: found again by hash after a crash, never sent twice), then booked once
// ('booked': block, USDC in, tokens burned, gas) or closed ('reverted', 'dropped'). `request` keeps the market's
// reference and the amount (JSON) so a restart can recover it without the market list.
const V7_SQL = `
CREATE TABLE capital_tx (
  key             TEXT PRIMARY KEY,
  kind            TEXT NOT NULL CHECK (kind IN ('redeem', 'merge')),
  market_slug     TEXT NOT NULL,
  request         TEXT NOT NULL,
  amount_raw      INTEGER NOT NULL CHECK (amount_raw >= 0),
  hash            TEXT NOT NULL UNIQUE,
  nonce           INTEGER NOT NULL CHECK (nonce >= 0),
  status          TEXT NOT NULL CHECK (status IN ('sent', 'booked', 'reverted', 'dropped')),
  block           INTEGER,
  usdc_in_raw     INTEGER CHECK (usdc_in_raw >= 0),
  yes_burned_raw  INTEGER CHECK (yes_burned_raw >= 0),
  no_burned_raw   INTEGER CHECK (no_burned_raw >= 0),
  gas_wei         TEXT,
  gas_usdc_raw    INTEGER CHECK (gas_usdc_raw >= 0),
  detail          TEXT,
  sent_at_ms      INTEGER NOT NULL,
  settled_at_ms   INTEGER,
  CHECK ((status = 'booked') = (usdc_in_raw IS NOT NULL))
) STRICT;
CREATE INDEX capital_tx_market ON capital_tx (market_slug, kind);
CREATE INDEX capital_tx_sent ON capital_tx (status) WHERE status = 'sent';
CREATE INDEX capital_tx_time ON capital_tx (settled_at_ms) WHERE status = 'booked';
`;

/**
 * Migration 8: the account's history as the venue lists it (GET /portfolio/history), one row per entry, keyed by the
 * entry's identity (its transaction hash and what it did); `cash_flow_raw` the USDC it moved that the bot did not
 * book itself (a claim or merge +, a split −; 0 for the bot's own actions and for entries that move no USDC),
 * `own` 1 when the entry is the bot's own action (its fill, its redemption: matched by transaction hash, see
 * src/capital/account-history.ts), `booked` 1 when its cash flow counts in the ledger's balances.
 */
const V8_SQL = `
CREATE TABLE account_history (
  entry_key       TEXT PRIMARY KEY,
  at_ms           INTEGER NOT NULL,
  tx_hash         TEXT,
  kind            TEXT NOT NULL CHECK (kind IN ('claim', 'merge', 'split', 'convert', 'trade', 'other')),
  strategy        TEXT,
  market_slug     TEXT,
  collateral_raw  INTEGER CHECK (collateral_raw >= 0),
  tokens_raw      INTEGER CHECK (tokens_raw >= 0),
  cash_flow_raw   INTEGER NOT NULL,
  own             INTEGER NOT NULL CHECK (own IN (0, 1)),
  booked          INTEGER NOT NULL CHECK (booked IN (0, 1)),
  rule            TEXT NOT NULL,
  recorded_at_ms  INTEGER NOT NULL,
  CHECK (booked = 0 OR own = 0)
) STRICT, WITHOUT ROWID;
CREATE INDEX account_history_time ON account_history (at_ms);
`;

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial ledger schema', sql: V1_SQL },
  { version: 2, name: 'fill markouts', sql: V2_SQL },
  { version: 3, name: 'reward and rebate accruals', sql: V3_SQL },
  { version: 4, name: 'model calibration', sql: V4_SQL },
  { version: 5, name: 'venue payouts and time-weighted reward minutes', sql: V5_SQL },
  { version: 6, name: 'maker rebates resolved from the trade feed', sql: V6_SQL },
  { version: 7, name: 'on-chain capital transactions (redemptions and merges)', sql: V7_SQL },
  { version: 8, name: 'account history: outside cash flows', sql: V8_SQL },
];

export function latestVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return migrations.reduce((max, step) => Math.max(max, step.version), 0);
}

export function schemaVersion(db: Database): number {
  const version: unknown = db.pragma('user_version', { simple: true });
  if (typeof version !== 'number') throw new LedgerSchemaError(db.name, `unreadable user_version ${String(version)}`);
  return version;
}

/**
 * Brings the database to the latest version; returns the versions applied (empty when up to date).
 * Steps must be numbered 1, 2, 3, … in order.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  migrations.forEach((step, index) => {
    if (step.version !== index + 1) {
      throw new LedgerSchemaError(db.name, `migration list out of order at ${step.version} (${step.name})`);
    }
  });
  const target = latestVersion(migrations);
  const applied: number[] = [];
  const current = schemaVersion(db);
  if (current > target) {
    throw new LedgerSchemaError(db.name, `schema version ${current} is newer than this build's ${target}`);
  }
  for (const step of migrations) {
    const run = db.transaction(() => {
      // Re-read inside the write lock: another connection may have migrated meanwhile.
      if (schemaVersion(db) >= step.version) return false;
      db.exec(step.sql);
      db.pragma(`user_version = ${step.version}`);
      return true;
    });
    if (run.immediate()) applied.push(step.version);
  }
  return applied;
}
