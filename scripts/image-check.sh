#!/usr/bin/env bash
# Builds the image from the Dockerfile and checks it as a user runs it, with docker or podman
# (docker when its engine runs, else podman; CONTAINER_ENGINE=podman to choose): the health answer and the HEALTHCHECK,
# also after `start --port 5000`; the non-root user; a customer kept across a restart on a named
# volume; a clean exit on `stop`; and the explanation a root-owned bind mount gets.
#
#   scripts/image-check.sh            build card-sandbox:check, check it, remove what it made
#   IMAGE=card-sandbox scripts/image-check.sh --no-build   check an image built already
set -euo pipefail
cd "$(dirname "$0")/.."

# docker when its engine answers (the client alone may be installed), else podman.
engine=${CONTAINER_ENGINE:-$(docker info >/dev/null 2>&1 && echo docker || echo podman)}
command -v "$engine" >/dev/null 2>&1 || { echo "neither a docker engine nor podman is here" >&2; exit 2; }
image=${IMAGE:-card-sandbox:check}
run_id="card-sandbox-check-$$"
volume="$run_id-data"
bind_dir=""
failures=0

pass() { printf '  \033[32mok\033[0m    %s\n' "$1"; }
fail() { printf '  \033[31mFAIL\033[0m  %s\n' "$1"; failures=$((failures + 1)); }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }

cleanup() {
  "$engine" rm -f "$run_id" "$run_id-5000" "$run_id-bind" >/dev/null 2>&1 || true
  "$engine" volume rm -f "$volume" >/dev/null 2>&1 || true
  [ -n "$bind_dir" ] && rm -rf "$bind_dir"
  if [ "${1:-}" != "--no-build" ] && [ -z "${IMAGE:-}" ]; then "$engine" rmi -f "$image" >/dev/null 2>&1 || true; fi
}
trap 'cleanup "${1:-}"' EXIT

echo "engine: $("$engine" --version)"
if [ "${1:-}" != "--no-build" ]; then
  started=$(date +%s)
  # podman's default (OCI) image format has no HEALTHCHECK; the docker format keeps it.
  format=(); [ "$engine" = podman ] && format=(--format docker)
  "$engine" build "${format[@]}" -t "$image" . >/tmp/"$run_id"-build.log 2>&1 || { tail -30 /tmp/"$run_id"-build.log; echo "the image did not build" >&2; exit 1; }
  pass "built $image in $(( $(date +%s) - started )) s"
fi
echo "image: $("$engine" image inspect "$image" --format '{{.Size}}' | awk '{printf "%.0f MB", $1 / 1e6}')"

# The HEALTHCHECK's verdict: podman without systemd runs it only when asked; docker on its timer.
health_status() {
  local name=$1
  if [ "$engine" = podman ]; then
    podman healthcheck run "$name" >/dev/null 2>&1 && echo healthy || echo unhealthy
  else
    "$engine" inspect --format '{{.State.Health.Status}}' "$name"
  fi
}
wait_healthy() {
  local name=$1
  for _ in $(seq 1 60); do
    [ "$(health_status "$name" 2>/dev/null)" = healthy ] && return 0
    sleep 0.5
  done
  return 1
}
host_port() { "$engine" port "$1" 4242 | head -n 1 | sed 's/.*://'; }
json_field() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s)[process.argv[1]];console.log(v??"")})' "$1"; }
api() {
  local port=$1 method=$2 path=$3 body=${4:-}
  local token
  token=$(curl -sf -X POST "http://127.0.0.1:$port/v1/auth/token" -H 'Content-Type: application/json' \
    -d '{"apiKey":"11111111-1111-4111-8111-111111111111","apiSecret":"sandbox-secret"}' | json_field token)
  curl -sf -X "$method" "http://127.0.0.1:$port/v1$path" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' ${body:+-d "$body"}
}

echo "default command, named volume:"
started_ms=$(date +%s%3N)
"$engine" run -d --name "$run_id" -p 127.0.0.1::4242 -v "$volume:/data" "$image" >/dev/null
port=$(host_port "$run_id")
until curl -sf "http://127.0.0.1:$port/_sandbox/health" >/dev/null; do
  [ $(( $(date +%s%3N) - started_ms )) -gt 30000 ] && break
  sleep 0.05
done
check "answers /_sandbox/health $(( $(date +%s%3N) - started_ms )) ms after run" curl -sf "http://127.0.0.1:$port/_sandbox/health" -o /dev/null
check "HEALTHCHECK reports healthy" wait_healthy "$run_id"
check "runs as uid 1000" test "$("$engine" exec "$run_id" id -u)" = 1000
customer=$(api "$port" POST /customers '{"chainId":"eip155:11155111:0x70997970C51812dc3A010C7d01b50e0d17dc79C8","externalId":"image-check"}' | json_field id)
check "creates a customer ($customer)" test -n "$customer"
stop_started=$(date +%s%3N)
"$engine" stop "$run_id" >/dev/null
check "exits 0 on stop, in $(( $(date +%s%3N) - stop_started )) ms" test "$("$engine" inspect --format '{{.State.ExitCode}}' "$run_id")" = 0
"$engine" start "$run_id" >/dev/null
port=$(host_port "$run_id")
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/_sandbox/health" >/dev/null && break; sleep 0.1; done
check "keeps the customer across a restart on the volume" test "$(api "$port" GET "/customers/$customer" | json_field externalId)" = image-check
"$engine" rm -f "$run_id" >/dev/null

echo "start --port 5000:"
"$engine" run -d --name "$run_id-5000" -p 127.0.0.1::5000 "$image" start --host 0.0.0.0 --port 5000 >/dev/null
check "HEALTHCHECK follows the port start was given" wait_healthy "$run_id-5000"
"$engine" rm -f "$run_id-5000" >/dev/null

echo "root-owned bind mount:"
bind_dir=$(mktemp -d)
chmod 755 "$bind_dir"
if [ "$(id -u)" = 0 ] || [ "$(stat -c %u "$bind_dir")" != 1000 ]; then
  "$engine" run --name "$run_id-bind" -v "$bind_dir:/data" "$image" >/dev/null 2>&1 || true
  logs=$("$engine" logs "$run_id-bind" 2>&1)
  check "exits 2 and says the directory is not writable by uid 1000" \
    bash -c "test \"\$($engine inspect --format '{{.State.ExitCode}}' $run_id-bind)\" = 2 && grep -q 'not writable by uid 1000' <<<\"\$1\"" _ "$logs"
  printf '        %s\n' "$(grep -o 'error .*' <<<"$logs" | head -n 1)"
else
  pass "skipped: the temporary directory belongs to uid 1000 here"
fi

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
