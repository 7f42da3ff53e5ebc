-- wrk script: RFC 7662 introspection of one active token, the caller authenticated by
-- client_secret_basic, counting every answer that is not a 200 saying "active":true, so one script
-- serves every system. TOKEN and BASIC (base64 of form-encoded "client_id:client_secret") from the
-- environment. Usage: TOKEN=... BASIC=... wrk -s introspect.lua URL
local token = os.getenv("TOKEN") or error("TOKEN not set")
local basic = os.getenv("BASIC") or error("BASIC not set")
wrk.method = "POST"
wrk.body = "token=" .. token
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["Accept"] = "application/json"
wrk.headers["Authorization"] = "Basic " .. basic

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  unexpected = 0
  first = ""
end

function response(status, headers, body)
  if status ~= 200 or not string.find(body, '"active"%s*:%s*true') then
    unexpected = unexpected + 1
    if first == "" then
      first = status .. " " .. string.sub(body, 1, 300)
    end
  end
end

function done(summary, latency, requests)
  local total, first = 0, ""
  for _, thread in ipairs(threads) do
    total = total + thread:get("unexpected")
    if first == "" then
      first = thread:get("first")
    end
  end
  io.write(string.format("answers not active: %d\n", total))
  if first ~= "" then
    io.write("the first of them: " .. first .. "\n")
  end
end
