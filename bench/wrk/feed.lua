-- wrk script: GET of the revocation feed (issue 38), counting every answer whose status is not
-- EXPECT (200 by default). With ETAG set, sends If-None-Match: ETAG, the poll of a verifier whose
-- feed has not changed, and EXPECT=304. Usage: ETAG='"..."' EXPECT=304 wrk -s feed.lua URL
local etag = os.getenv("ETAG")
local expect = tonumber(os.getenv("EXPECT") or "200")
wrk.method = "GET"
wrk.headers["Accept"] = "application/json"
if etag and etag ~= "" then
  wrk.headers["If-None-Match"] = etag
end

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  unexpected = 0
  first = ""
end

function response(status, headers, body)
  if status ~= expect then
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
  io.write(string.format("answers other than %d: %d\n", expect, total))
  if first ~= "" then
    io.write("the first of them: " .. first .. "\n")
  end
end
