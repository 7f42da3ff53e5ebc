-- wrk script: OAuth 2.0 client_credentials token request, client_secret_basic (RFC 6749 §2.3.1).
-- BASIC from the environment: base64 of form-encoded "client_id:client_secret" (bench/run.sh makes
-- it), so one script serves every system. Usage: BASIC=... wrk -s token-basic.lua URL
local basic = os.getenv("BASIC") or error("BASIC not set")
wrk.method = "POST"
wrk.body = "grant_type=client_credentials"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["Accept"] = "application/json"
wrk.headers["Authorization"] = "Basic " .. basic
