// Lint configuration: typescript-eslint's type-aware recommended rules over every TypeScript file, and the import
// boundaries between layers (docs/architecture.md, "Layers and their boundaries"), held by ESLint's own
// no-restricted-imports; test/unit/lint/import-boundaries.test.ts checks that they fire.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** An import path ending in one of these modules (with or without .js), at any depth. */
const modulePath = (...modules) => `(^|/)(${modules.join('|')})(\\.js)?$`;
/** An import path inside one of these folders of src/, at any depth. */
const folderPath = (...folders) => `(^|/)(${folders.join('|')})/`;

/** The wire parsers: wire.ts and its parts (wire-*.ts), socket-wire.ts and its parts, every other *-wire.ts of src/exchange. */
const WIRE_PARSERS = {
  regex: modulePath('exchange/([a-z-]+-)?wire(-[a-z-]+)?'),
  message: 'The wire parsers belong to the bot\'s exchange client: take the venue\'s rules from src/core/venue-rules and the engine\'s typed events directly.',
};
const STRATEGY_CONTRACT = {
  regex: modulePath('strategy/contract'),
  message: 'The simulator does not know the bot\'s strategy contract: take Level and the venue\'s rules from src/core/venue-rules.',
};
/** The bot: what the simulator must never import (it is the venue the bot trades against). */
const BOT = {
  regex: folderPath('orders', 'strategy', 'app', 'markets', 'capital', 'booking', 'venue', 'operator', 'risk', 'ledger', 'pricing', 'book', 'config', 'metrics', 'backtest', 'replay', 'doctor', 'markouts', 'calibration', 'rehearse', 'rewards'),
  message: 'The simulator is the venue: it imports nothing from the bot (src/orders, strategy, app, risk, ledger, pricing, book, config, …).',
};
/** The composition root: only the process shell (cli.ts, app.ts) and the commands that open a bot's resources import it. */
const COMPOSITION = {
  regex: folderPath('app'),
  message: 'src/app/ composes and runs the process: a room (markets, rewards, capital, booking, venue, operator, …) never imports it; take what you need from the room that owns it.',
};
/** The strategy contract's names the backtest may use: it hosts a strategy (Level and venue facts come from venue-rules). */
const BACKTEST_CONTRACT_NAMES = ['Strategy', 'StrategyModule', 'MarketInfo', 'PositionView'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**', '**/*.cjs', '**/*.mjs', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true, allowNullish: true }],
    },
  },
  {
    // Every room of src/ but the composition root and the process shell (docs/architecture.md, "The rooms of src/").
    files: ['src/**/*.ts'],
    ignores: ['src/app/**', 'src/app.ts', 'src/cli.ts', 'src/replay/record-command.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [COMPOSITION] }],
    },
  },
  {
    files: ['src/core/venue-rules/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./', message: 'src/core/venue-rules is the bottom layer: it imports nothing of the project outside itself.' }] }],
    },
  },
  {
    files: ['src/sim/**/*.ts'],
    ignores: ['src/sim/engine/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [STRATEGY_CONTRACT, WIRE_PARSERS, BOT] }],
    },
  },
  {
    files: ['src/sim/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            STRATEGY_CONTRACT,
            WIRE_PARSERS,
            BOT,
            { regex: folderPath('exchange', 'server'), message: 'The engine is transport-free: no exchange client, no server; venue rules come from src/core/venue-rules.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/backtest/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            COMPOSITION,
            {
              regex: folderPath('exchange'),
              message: 'The backtest speaks no wire: nothing of src/exchange/ (the feed\'s order events, pickFee and every venue fact come from src/core/venue-rules).',
            },
            {
              regex: modulePath('strategy/contract'),
              allowImportNames: BACKTEST_CONTRACT_NAMES,
              message: `The backtest takes venue facts (Level, …) from src/core/venue-rules; from the strategy contract only ${BACKTEST_CONTRACT_NAMES.join(', ')}.`,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
