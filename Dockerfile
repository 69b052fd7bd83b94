# card-sandbox image. A build stage installs everything and runs `npm run build`: the CLI bundle,
# which holds every dependency, its V8 code cache, the inspector's static files and SQLite's
# prebuilt Node-API addons. The runtime stage takes the bundle, its cache, the inspector, the one
# addon this platform loads (no node_modules at all) and the manual that `card-sandbox mcp` serves
# (README.md, docs/*.md), and runs as the non-root `node` user (uid 1000). Both stages run the same Node, so the code cache is used as built.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json tsconfig.declarations.json ./
COPY scripts ./scripts
COPY bin ./bin
COPY src ./src
COPY ui ./ui
COPY drizzle ./drizzle
COPY fixtures ./fixtures
RUN npm run build
RUN mkdir -p runtime/prebuilds && cp "dist/prebuilds/linux-$(node -p process.arch).node" runtime/prebuilds/

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/runtime/prebuilds ./dist/prebuilds
COPY --from=build /app/dist/card-sandbox.cjs /app/dist/card-sandbox.cjs.cache /app/dist/migrated.sqlite /app/dist/mcp.cjs /app/dist/otel.cjs ./dist/
COPY --from=build /app/dist/ui ./dist/ui
COPY package.json README.md SKILL.md LICENSE ./
COPY docs/*.md ./docs/
COPY bin ./bin
COPY drizzle ./drizzle
COPY fixtures ./fixtures
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 4242
# The sandbox binds 0.0.0.0 inside the container: publish it on the host's loopback,
# `docker run -p 127.0.0.1:4242:4242 …`, unless the network is meant to reach it — then give it
# --admin-token and credentials of its own (docs/reliability.md: Open to a network).
# `health` finds the sandbox on whatever port `start` was given (--port, CARD_SANDBOX_PORT).
HEALTHCHECK --interval=5s --timeout=3s --start-period=5s --retries=3 CMD ["node", "bin/card-sandbox.cjs", "health"]
ENTRYPOINT ["node", "bin/card-sandbox.cjs"]
CMD ["start", "--host", "0.0.0.0", "--db", "/data/sandbox.db"]
