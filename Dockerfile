# outcome-maker: multi-stage image. Stage 1 builds native modules (better-sqlite3) and compiles TypeScript;
# stage 2 carries only production dependencies and the compiled and bundled output, and runs as a non-root user.
# CI runs the same `npm ci` and `npm run build` outside Docker (.ci/run). Stop with `docker stop -t 15` (or run with
# `--stop-timeout 15`): docker's default 10 s is shorter than the bot's default shutdown budget (10 s + 0.5 s).
# Node 24 (LTS): the Pyth client (@pythnetwork/hermes-client 3.1.0) declares `node ^24`; the code and its tests also run
# on Node 20 and 22 (package.json `engines`), where npm only warns about that client.
FROM node:24-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY strategies ./strategies
COPY bin ./bin
# dist/src/ (tsc), then dist/bundle/ (esbuild, bin/build-bundle.mjs), which bin/outcome-maker.mjs runs.
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
# tini as PID 1: it passes docker stop's SIGTERM (and SIGINT) on to the bot and reaps; node as PID 1 would ignore a
# signal that arrives before the bot has installed its handlers (docs/operations.md, "Signals").
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY config ./config
# The configs keep their ledger at ../data/<name>.db (relative to config/), i.e. /app/data: writable by the bot's
# user, and the volume to keep across containers (the ledger is the record of fills and PnL).
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/config", "/app/data"]
# The metrics port of config/paper.yaml. To scrape from outside the container, the config needs
# `metrics: { host: 0.0.0.0 }` (the default host is 127.0.0.1). OM_METRICS_PORT moves it: `run` serves metrics on
# $OM_METRICS_PORT instead of the config's metrics.port (as `--metrics-port` does), and the health check below asks
# that port, so one variable keeps both in step (`docker run -e OM_METRICS_PORT=9500 -p 9500:9500 …`).
EXPOSE 9464
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.OM_METRICS_PORT||9464)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--", "node", "bin/outcome-maker.mjs"]
CMD ["run", "--config", "config/paper.yaml"]
