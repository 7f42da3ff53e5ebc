-- wrk script: a stranger flood at POST /oauth/token (issue 42): every request names a random,
-- well-formed client_id that no account has, with a random secret (client_secret_post), so every
-- answer is a refusal: 401 invalid_client while the failure budgets last, then 429. With
-- ADDRESSES=many it also sends a random X-Forwarded-For (10.x.y.z), believed only by a launcher
-- that lists 127.0.0.1 in identity/trustedProxies, so each request comes from "another address";
-- without it every request has the connection's address, 127.0.0.1. Counts the answers by status
-- and prints them after wrk's summary ("status 401: N"). Usage: [ADDRESSES=many] wrk -s stranger-flood.lua URL
local many = os.getenv("ADDRESSES") == "many"
local threads = {}

function setup(thread)
  thread:set("seed", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  math.randomseed(os.time() * 1000 + seed)
  counts = {}
end

local function hex(n)
  local s = {}
  for i = 1, n do s[i] = string.format("%x", math.random(0, 15)) end
  return table.concat(s)
end

function request()
  local id = hex(8) .. "-" .. hex(4) .. "-4" .. hex(3) .. "-a" .. hex(3) .. "-" .. hex(12)
  local headers = {["Content-Type"] = "application/x-www-form-urlencoded", ["Accept"] = "application/json"}
  if many then
    headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.random(0, 255),
      math.random(0, 255), math.random(1, 254))
  end
  return wrk.format("POST", nil, headers,
    "grant_type=client_credentials&client_id=" .. id .. "&client_secret=" .. hex(32))
end

function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    local c = thread:get("counts")
    for status, n in pairs(c) do total[status] = (total[status] or 0) + n end
  end
  local statuses = {}
  for status in pairs(total) do table.insert(statuses, status) end
  table.sort(statuses)
  for _, status in ipairs(statuses) do io.write(string.format("status %d: %d\n", status, total[status])) end
end
