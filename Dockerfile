# card-sandbox image. A build stage installs everything and runs `npm run build`: the CLI bundle,
# which holds every dependency but better-sqlite3, its V8 code cache, and the inspector's static
# files. The runtime stage takes the bundle, its cache, the inspector and better-sqlite3's JavaScript
# with the one prebuilt Node-API addon this platform loads, and runs as the non-root `node` user
# (uid 1000). Both stages run the same Node, so the code cache is used as built.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY bin ./bin
COPY src ./src
COPY ui ./ui
COPY drizzle ./drizzle
COPY fixtures ./fixtures
RUN npm run build
RUN mkdir -p runtime/better-sqlite3/prebuilds \
  && cp -r node_modules/better-sqlite3/package.json node_modules/better-sqlite3/LICENSE node_modules/better-sqlite3/lib runtime/better-sqlite3/ \
  && cp "node_modules/better-sqlite3/prebuilds/linux-$(node -p process.arch).node" runtime/better-sqlite3/prebuilds/

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/runtime ./node_modules
COPY --from=build /app/dist/card-sandbox.cjs /app/dist/card-sandbox.cjs.cache ./dist/
COPY --from=build /app/dist/ui ./dist/ui
COPY package.json README.md LICENSE ./
COPY bin ./bin
COPY drizzle ./drizzle
COPY fixtures ./fixtures
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 4242
# `health` finds the sandbox on whatever port `start` was given (--port, CARD_SANDBOX_PORT).
HEALTHCHECK --interval=5s --timeout=3s --start-period=5s --retries=3 CMD ["node", "bin/card-sandbox.cjs", "health"]
ENTRYPOINT ["node", "bin/card-sandbox.cjs"]
CMD ["start", "--host", "0.0.0.0", "--db", "/data/sandbox.db"]
