#!/usr/bin/env bash
# Load measurement of the order service: the same order through the chain (POST /orders) and
# without it (POST /orders/direct), with wrk on loopback. Prints requests/s and p50/p99 latency.
#
#   Integrations/ExampleHTTPService/load.sh            # wrk -t2 -c64 -d10s --latency
#   DURATION=30s CONNECTIONS=128 Integrations/ExampleHTTPService/load.sh
set -euo pipefail
cd "$(dirname "$0")"

THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-10s}
PORT=${PORT:-18080}
METRICS_PORT=${METRICS_PORT:-18090}

if ! command -v wrk >/dev/null; then
    echo "installing wrk (Debian package)"
    apt-get update -qq && apt-get install -y -qq wrk >/dev/null
fi

swift build -c release --product example-http-service >/dev/null
binary="$(swift build -c release --show-bin-path)/example-http-service"

server=
start() {  # environment assignments for the server
    env "$@" "$binary" "$PORT" "$METRICS_PORT" >/tmp/example-http-service.log 2>&1 &
    server=$!
    for _ in $(seq 1 100); do
        grep -q "listening on 127.0.0.1:$PORT" /tmp/example-http-service.log && return
        sleep 0.1
    done
    echo "the server did not start:" >&2
    cat /tmp/example-http-service.log >&2
    exit 1
}
stop() {  # SIGTERM: the graceful shutdown
    kill -TERM "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=
}
trap '[ -z "$server" ] || stop' EXIT

script=$(mktemp --suffix=.lua)
cat >"$script" <<'LUA'
wrk.method = "POST"
wrk.body = '{"sku":"A-1","quantity":1}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-User"] = "load"
LUA

# The server's CPU time so far (user + system), in clock ticks: fields 14 and 15 of its stat
# line, counted after the command's closing parenthesis (the command may contain spaces).
cpu_ticks() {
    local stat
    stat=$(cat "/proc/$server/stat")
    awk '{print $12 + $13}' <<<"${stat##*) }"
}

# The context switches of the server's threads so far, voluntary (a thread parks: nothing to
# run) and not (the kernel preempts it).
switches() {
    cat /proc/"$server"/task/*/status 2>/dev/null | awk '/ctxt_switches/ {n += $2} END {print n + 0}'
}

measure() {  # route label
    local out before after switches_before switches_after
    before=$(cpu_ticks)
    switches_before=$(switches)
    out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$script" "http://127.0.0.1:$PORT$1")
    after=$(cpu_ticks)
    switches_after=$(switches)
    local rps p50 p99 non2xx requests cpu per_request
    rps=$(awk '/^Requests\/sec/ {print $2}' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
    requests=$(awk '/requests in/ {print $1}' <<<"$out")
    # The server's CPU per request, in µs: what the route costs, whatever the queueing that p50
    # also measures (wrk shares the cores).
    cpu=$(awk -v ticks=$((after - before)) -v hz="$(getconf CLK_TCK)" -v n="$requests" \
        'BEGIN { printf "%.1f", (n > 0 ? ticks / hz * 1e6 / n : 0) }')
    per_request=$(awk -v s=$((switches_after - switches_before)) -v n="$requests" \
        'BEGIN { printf "%.2f", (n > 0 ? s / n : 0) }')
    printf '%-20s %-15s %12s req/s  p50 %-9s p99 %-9s cpu %6s µs/req  %5s switches/req  non-2xx %s\n' \
        "$2" "$1" "$rps" "$p50" "$p99" "$cpu" "$per_request" "${non2xx:-0}"
}

echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency, $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg), $(date -u +%Y-%m-%d)"
# Each configuration of the chain against the direct route, in the same server run, each after a
# short warm-up of both routes: the service as shipped (spans, metrics, a 5 s deadline per send),
# then without the deadline, without the tracers, and without either.
for config in "as shipped|" "no deadline|ORDERS_SEND_TIMEOUT=0" "no tracers|ORDERS_SPANS=0 ORDERS_METRICS=0" \
    "neither|ORDERS_SEND_TIMEOUT=0 ORDERS_SPANS=0 ORDERS_METRICS=0"; do
    label=${config%%|*}
    # shellcheck disable=SC2086
    start ${config#*|}
    wrk -t1 -c8 -d2s -s "$script" "http://127.0.0.1:$PORT/orders" >/dev/null
    wrk -t1 -c8 -d2s -s "$script" "http://127.0.0.1:$PORT/orders/direct" >/dev/null
    measure /orders/direct "direct"
    measure /orders "chain: $label"
    stop
done
rm -f "$script"
