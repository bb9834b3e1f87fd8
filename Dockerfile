# syntax=docker/dockerfile:1
# The Plant Store service: built in one stage, run from another that holds only the production
# install and dist/. test/e2e/container-recipe.test.ts runs the runtime stage's steps outside a
# container, so this file cannot drift from the project unnoticed.

FROM node:26-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY core core
COPY wire wire
COPY adapters adapters
COPY apps apps
RUN npm run build

FROM node:26-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
# npm's cache is a build cache mount, so it never lands in the image.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund --ignore-scripts
COPY --from=build /app/dist dist
USER node
EXPOSE 3000
# Node, not npm or a shell, is the process that receives docker stop's SIGTERM, so the drain runs.
# Its stop takes up to SHUTDOWN_DRAIN_MS + SHUTDOWN_GRACE_MS (15 s by default): give the engine
# more before its SIGKILL (`docker run --stop-timeout 30`, compose's stop_grace_period).
# The health check is liveness: a storage outage, which /readyz reports, must not make the engine
# take every container for broken and restart it; readiness is for the load balancer.
HEALTHCHECK --interval=10s --timeout=2s --start-period=5s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/apps/server/main.js"]
