/**
 * The ledger's public surface: open it, record orders/events/fills/marks/resolutions/redemptions, read
 * positions and PnL, reconcile with the venue, and produce the report. See docs/ledger.md.
 */
export { openLedger, LedgerStore } from './store.js';
export type { LedgerOptions, CatchUp, LedgerTokenBalance, MarketReportRow, PnlReport, PnlQuery } from './store.js';
export { openLedgerDatabase } from './database.js';
export type { SynchronousMode, OpenDatabaseOptions } from './database.js';
export { MIGRATIONS, migrate, latestVersion, schemaVersion } from './migrations.js';
export type { Migration } from './migrations.js';
export { LedgerInputError, LedgerConflictError, LedgerSchemaError, LedgerAbortedError, ReportArgsError } from './errors.js';
export {
  reconcile,
  repairLedger,
  settleStaleProvisional,
  classifyStaleProvisional,
  diffOrderFills,
  diffPositions,
  DEFAULT_STALE_PROVISIONAL_MS,
} from './reconcile.js';
export { compareAccount, type AccountRow } from './account-compare.js';
export type {
  VenueOrderFill,
  VenuePosition,
  VenueView,
  CompareOptions,
  ReconcileOptions,
  ReconcileResult,
  RepairResult,
  RepairOptions,
  StaleProvisional,
  StaleProvisionalOptions,
  StaleProvisionalResult,
  StaleFill,
  StaleVerdict,
} from './reconcile.js';
export { runReport, parseReportArgs, parseSince, DEFAULT_LEDGER_PATH } from './report.js';
export type { ReportOptions } from './report.js';
export { formatReport, REPORT_FORMATS } from './report-format.js';
export type { ReportFormat } from './report-format.js';
export { KV_LAST_RECONCILIATION } from './kv-repo.js';
export type { MarkInput, MarkOutcome, RedemptionDetails, RedemptionOutcome } from './market-repo.js';
export type { OrderRecordOutcome, OrderUpdateOutcome } from './orders-repo.js';
export * from './pnl.js';
export * from './position-math.js';
export * from './types.js';
export { runAccountReport, formatAccountReport, parseAccountSnapshot, KV_ACCOUNT_POSITIONS } from './report-account.js';
export type { AccountReport, AccountReportOptions, AccountLedger, AccountSnapshot } from './report-account.js';
export { RewardsRepo, MINUTE_MS, VENUE_TOTAL_MARKET } from './rewards-repo.js';
export { PayoutsRepo } from './payouts-repo.js';
export { RebateResolutionRepo } from './rebate-resolution-repo.js';
export type { PendingRebate, RebateResolution, RebateResolutionInput, ResolutionCounts } from './rebate-resolution-repo.js';
export type { VenuePayoutInput, VenuePayoutRow, MinuteEstimateRow, RebateEstimateRow } from './payouts-repo.js';
export type { RewardMinuteInput, RewardSampleInput, MakerRebateInput, VenueRewardInput, UnrebatedFill, AccrualRow, VenueRewardRow, AccrualQuery } from './rewards-repo.js';
export { CashRepo } from './cash-repo.js';
export type { CashFlows } from './cash-repo.js';
