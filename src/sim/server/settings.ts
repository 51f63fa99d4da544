/**
 * The simulator's venue-behaviour settings: choices where the live venue's rule is not confirmed, so a client can be
 * tested against each possibility. Set at start (`startSimulator({settings})`, the `sim` command's flags) and at run
 * time (`PUT /_sim/settings`, `control.updateSettings`); every reader asks the store at the moment it decides.
 *
 * - `lifecycleAuth`: whether `subscribe_market_lifecycle` needs an authenticated connection (`public`, the default:
 *   the official client lists market lifecycle events among its public subscriptions; unconfirmed on the venue).
 * - `marketResolvedAudience`: who gets `marketResolved`: `all` connections (the default, the simulator's behaviour
 *   so far) or only `subscribers` (lifecycle subscribers and the market's `subscribe_market_prices` subscribers).
 * - `cancelReplaceBatchMarkets`: `mixed` (the default: a batch's operations may name different
 *   `replacement.marketSlug`s) or `single` (a batch mixing markets is refused as a whole, 400 naming
 *   `operations.{i}.replacement.marketSlug`): whether the venue accepts mixed batches is unconfirmed.
 * - `cancelReplaceUnknownTarget`: what an operation whose cancel target `{clientOrderId}` names no order gets:
 *   `failure` (the default: cancel FAILURE ORDER_NOT_FOUND, the mode decides the replacement) or `refuse` (the whole
 *   request is refused, 400 naming `[operations.{i}.]cancel.clientOrderId`): the venue's behaviour is unconfirmed.
 * - `placementModeRefusal`: how `POST /orders` is refused in `cancel_only` or `disabled` (a non-post-only order in
 *   `post_only` gets the specification's 425 in every setting): `503` (the default: the venue's API reference, "Maintenance mode", says POST
 *   /orders answers 503 in those modes; its body is not shown, so the framework's `{message, error, statusCode}`
 *   without the mode), `503-with-mode` (503 with the trading-mode body) or `425` (the specification's trading-mode
 *   error). Cancels refused by `disabled` answer the specification's 425 in every setting.
 * - `batchCancelMarkets`: whether one `POST /orders/batch-cancel` may name orders of several markets: `mixed` (the
 *   default: the API reference sets no such rule) or `single` (refused as a whole, 400 naming `orderIds` or
 *   `clientOrderIds`, as the older `cancel-batch` does): the venue's behaviour is unconfirmed.
 * - `historyAmounts`: how `GET /portfolio/history` writes `collateralAmount` and `outcomeTokenAmount(s)`: `raw` (the
 *   default: 1e6 integer strings, the shape the venue's API reference documents for the sibling GET
 *   /portfolio/positions) or `decimal` (human units with a decimal point, "12.5"): no answer of the live venue is
 *   recorded, so a client can be tested against both.
 *
 * Invariants: the settings are always a complete, valid record; a bad update is a SettingsInputError naming the field
 * and the value, and changes nothing.
 */

export const LIFECYCLE_AUTH_MODES = ['public', 'authenticated'] as const;
export const RESOLVED_AUDIENCES = ['all', 'subscribers'] as const;
export const BATCH_MARKET_RULES = ['mixed', 'single'] as const;
export const UNKNOWN_TARGET_RULES = ['failure', 'refuse'] as const;
export const PLACEMENT_MODE_REFUSALS = ['503', '503-with-mode', '425'] as const;
export const BATCH_CANCEL_MARKET_RULES = ['mixed', 'single'] as const;
export const HISTORY_AMOUNT_FORMS = ['raw', 'decimal'] as const;

export interface SimSettings {
  readonly lifecycleAuth: (typeof LIFECYCLE_AUTH_MODES)[number];
  readonly marketResolvedAudience: (typeof RESOLVED_AUDIENCES)[number];
  readonly cancelReplaceBatchMarkets: (typeof BATCH_MARKET_RULES)[number];
  readonly cancelReplaceUnknownTarget: (typeof UNKNOWN_TARGET_RULES)[number];
  readonly placementModeRefusal: (typeof PLACEMENT_MODE_REFUSALS)[number];
  readonly batchCancelMarkets: (typeof BATCH_CANCEL_MARKET_RULES)[number];
  readonly historyAmounts: (typeof HISTORY_AMOUNT_FORMS)[number];
}

export const DEFAULT_SIM_SETTINGS: SimSettings = {
  lifecycleAuth: 'public',
  marketResolvedAudience: 'all',
  cancelReplaceBatchMarkets: 'mixed',
  cancelReplaceUnknownTarget: 'failure',
  placementModeRefusal: '503',
  batchCancelMarkets: 'mixed',
  historyAmounts: 'raw',
};

const ALLOWED: { readonly [K in keyof SimSettings]: readonly SimSettings[K][] } = {
  lifecycleAuth: LIFECYCLE_AUTH_MODES,
  marketResolvedAudience: RESOLVED_AUDIENCES,
  cancelReplaceBatchMarkets: BATCH_MARKET_RULES,
  cancelReplaceUnknownTarget: UNKNOWN_TARGET_RULES,
  placementModeRefusal: PLACEMENT_MODE_REFUSALS,
  batchCancelMarkets: BATCH_CANCEL_MARKET_RULES,
  historyAmounts: HISTORY_AMOUNT_FORMS,
};

export class SettingsInputError extends Error {
  override readonly name = 'SettingsInputError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${reason} (got ${JSON.stringify(value) ?? String(value)})`);
  }
}

function isSetting(key: string): key is keyof SimSettings {
  return Object.hasOwn(ALLOWED, key);
}

/** `value` if it is one of `allowed`, else undefined. */
function pick<T extends string>(allowed: readonly T[], value: unknown): T | undefined {
  return allowed.find((a) => a === value);
}

export class SimSettingsStore {
  private settings: SimSettings;

  constructor(initial: Partial<SimSettings> = {}) {
    this.settings = SimSettingsStore.merge(DEFAULT_SIM_SETTINGS, initial);
  }

  get current(): SimSettings {
    return this.settings;
  }

  /** Applies a partial update (all or nothing) and returns the settings now in force. */
  update(partial: Partial<SimSettings>): SimSettings {
    this.settings = SimSettingsStore.merge(this.settings, partial);
    return this.settings;
  }

  private static merge(base: SimSettings, partial: Partial<SimSettings>): SimSettings {
    for (const key of Object.keys(partial)) {
      if (!isSetting(key)) throw new SettingsInputError(key, key, `is not a setting (settings: ${Object.keys(ALLOWED).join(', ')})`);
    }
    const value = <K extends keyof SimSettings>(key: K): SimSettings[K] => {
      const given: unknown = partial[key];
      if (given === undefined) return base[key];
      const chosen = pick(ALLOWED[key], given);
      if (chosen === undefined) throw new SettingsInputError(key, given, `must be one of ${ALLOWED[key].join(', ')}`);
      return chosen;
    };
    return {
      lifecycleAuth: value('lifecycleAuth'),
      marketResolvedAudience: value('marketResolvedAudience'),
      cancelReplaceBatchMarkets: value('cancelReplaceBatchMarkets'),
      cancelReplaceUnknownTarget: value('cancelReplaceUnknownTarget'),
      placementModeRefusal: value('placementModeRefusal'),
      batchCancelMarkets: value('batchCancelMarkets'),
      historyAmounts: value('historyAmounts'),
    };
  }
}
