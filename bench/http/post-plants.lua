-- wrk script for the HTTP benchmark: POST /plants, with a fresh id on every request or, in the
-- mixed workload, some requests sending again a plant sent long before (a replay) or its id with
-- another name (a conflict).
-- Arguments after `--`: first id, thread count, responses per thread before the thread stops
-- (0: run for the whole duration), bearer token, replay percent, conflict percent, lag.
-- Thread i sends fresh ids first + i, first + i + threads, ...: unique across threads and requests.
-- The n-th request of a thread is a replay when n % 100 < replay percent and a conflict when the
-- next conflict-percent values follow; either repeats the id of the fresh request sent `lag`
-- fresh requests earlier, long answered (a connection has one request in flight), and is sent
-- only once the thread has sent that many fresh ones: bench/http/workload.ts states the mix once.

local threads = 0

function setup(thread)
  thread:set("index", threads)
  threads = threads + 1
end

function init(args)
  next_id = tonumber(args[1]) + index
  step = tonumber(args[2])
  limit = tonumber(args[3])
  replays = tonumber(args[5])
  conflicts = tonumber(args[6])
  lag = tonumber(args[7])
  sent = 0
  fresh = 0
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = "Bearer " .. args[4]
  if limit > 0 then
    -- Only a bounded run counts answers: defining response() makes wrk parse every one.
    local answered = 0
    response = function()
      answered = answered + 1
      if answered == limit then
        io.write("BENCH-THREAD-DONE\n")
        io.flush()
        wrk.thread:stop()
      end
    end
  end
end

local function body(id, name)
  return wrk.format(nil, nil, nil, '{"id":' .. id .. ',"name":"' .. name .. ' ' .. id .. '","tag":"bench"}')
end

function request()
  local slot = sent % 100
  sent = sent + 1
  if fresh >= lag and slot < replays + conflicts then
    local id = string.format("%d", next_id - lag * step)
    if slot < replays then
      return body(id, "Plant")
    end
    return body(id, "Other")
  end
  local id = string.format("%d", next_id)
  next_id = next_id + step
  fresh = fresh + 1
  return body(id, "Plant")
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH-RESULT {"requests":%d,"durationUs":%d,"non2xx":%d,"socketErrors":%d,"p50Us":%d,"p99Us":%d}\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
