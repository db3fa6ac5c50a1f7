-- wrk script for bench/pages.py: counts responses by status code in every thread and,
-- when the run is over, prints one line "WRK-RESULT {json}" with the totals, wrk's
-- socket errors and the latency percentiles (microseconds). The session cookie comes
-- on the command line (-H "Cookie: ..."); nothing here changes the request.

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local merged = {}
  for _, thread in ipairs(threads) do
    local counts = thread:get("statuses") or {}
    for status, n in pairs(counts) do
      merged[status] = (merged[status] or 0) + n
    end
  end
  local parts = {}
  for status, n in pairs(merged) do
    table.insert(parts, string.format('"%d": %d', status, n))
  end
  local e = summary.errors
  io.write(string.format(
    'WRK-RESULT {"requests": %d, "duration_us": %d, "bytes": %d, '
      .. '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, '
      .. '"latency_us": {"min": %d, "mean": %.1f, "max": %d, '
      .. '"p50": %d, "p90": %d, "p95": %d, "p99": %d}, "statuses": {%s}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.min, latency.mean, latency.max,
    latency:percentile(50), latency:percentile(90), latency:percentile(95),
    latency:percentile(99), table.concat(parts, ", ")))
end
