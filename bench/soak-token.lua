-- wrk script for the soak: client_secret_post token requests at a moderate, fixed pace.
-- CLIENT_ID and CLIENT_SECRET from the environment; DELAY_MS between requests per connection.
local function enc(s)
  return (s:gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end
local id = os.getenv("CLIENT_ID") or error("CLIENT_ID not set")
local secret = os.getenv("CLIENT_SECRET") or error("CLIENT_SECRET not set")
local pause = tonumber(os.getenv("DELAY_MS") or "20")
wrk.method = "POST"
wrk.body = "grant_type=client_credentials&client_id=" .. enc(id) .. "&client_secret=" .. enc(secret)
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
function delay()
  return pause
end
