# outcome-maker: multi-stage image. Stage 1 builds native modules (better-sqlite3) and compiles TypeScript;
# stage 2 carries only production dependencies and the compiled output, and runs as a non-root user.
# The same steps run in CI outside Docker: `npm ci`, `npm run build`, `npm prune --omit=dev`.
FROM node:22-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY strategies ./strategies
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY config ./config
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/app/config", "/data"]
EXPOSE 9464
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.OM_METRICS_PORT||9464)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "bin/outcome-maker.mjs"]
CMD ["run", "--config", "config/paper.yaml"]
