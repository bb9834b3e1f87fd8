-- wrk script for the HTTP benchmark: POST /plants with a fresh id on every request.
-- Arguments after `--`: first id, thread count, responses per thread before the thread stops
-- (0: run for the whole duration), bearer token.
-- Thread i sends ids first + i, first + i + threads, ...: unique across threads and requests.

local threads = 0

function setup(thread)
  thread:set("index", threads)
  threads = threads + 1
end

function init(args)
  next_id = tonumber(args[1]) + index
  step = tonumber(args[2])
  limit = tonumber(args[3])
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

function request()
  local id = string.format("%d", next_id)
  next_id = next_id + step
  return wrk.format(nil, nil, nil, '{"id":' .. id .. ',"name":"Plant ' .. id .. '","tag":"bench"}')
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH-RESULT {"requests":%d,"durationUs":%d,"non2xx":%d,"socketErrors":%d,"p50Us":%d,"p99Us":%d}\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
