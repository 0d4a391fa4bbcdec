-- wrk script for the docId service's load test (bench/service/load.sh).
--
-- Each request posts a ~2 KB article to /v1/docid with a url never sent
-- before. 70% carry a new content: 8 paragraphs drawn at random from a
-- pool of 2,000 (2000^8 combinations, so contents do not repeat and are
-- ~32 bits apart). 30% repeat the content of one of this thread's last
-- 1,000 articles: half exactly, half with a source line appended (a near
-- copy a few bits away). Titles are 6 random words. Everything is built
-- from tables made in init(), so a request costs a few concatenations.
--
--   wrk -t1 -c16 -d30s --latency -s bench/service/docid.lua http://127.0.0.1:8080 -- <seed> <duplicate %>

local words, paragraphs = {}, {}
local recent, recent_n, recent_next = {}, 0, 1
local counter, thread_tag = 0, "0"
local duplicate_percent = 30

local function make_word(rng)
  local consonants, vowels = "bdfgklmnprstvz", "aeiou"
  local w = {}
  for s = 1, 3 do
    local c = math.floor(rng() * 14) + 1
    local v = math.floor(rng() * 5) + 1
    w[#w + 1] = consonants:sub(c, c) .. vowels:sub(v, v)
  end
  return table.concat(w)
end

-- Each wrk thread gets its own number: urls never collide across threads.
local threads_made = 0
function setup(thread)
  threads_made = threads_made + 1
  thread:set("thread_number", threads_made)
end

function init(args)
  local seed = tonumber(args[1] or "1")
  duplicate_percent = tonumber(args[2] or "30")
  thread_tag = seed .. "-" .. tostring(thread_number or 0)
  math.randomseed(20260 + seed)  -- paragraphs: the same pool in every thread...
  local rng = math.random
  for i = 1, 4000 do words[i] = make_word(rng) end
  for p = 1, 2000 do
    local t = {}
    for i = 1, 40 do t[i] = words[math.random(1, #words)] end
    paragraphs[p] = table.concat(t, " ") .. "."
  end
  math.randomseed(seed * 7919 + (thread_number or 0) * 104729)  -- ...and each thread's own draws
end

local function new_content()
  local t = {}
  for i = 1, 8 do t[i] = paragraphs[math.random(1, #paragraphs)] end
  return table.concat(t, " ")
end

function request()
  counter = counter + 1
  local content
  if recent_n > 0 and math.random(1, 100) <= duplicate_percent then
    content = recent[math.random(1, recent_n)]
    if math.random(1, 2) == 1 then content = content .. " Source: site " .. math.random(1, 50) .. "." end
  else
    content = new_content()
    recent[recent_next] = content
    recent_next = recent_next % 1000 + 1
    if recent_n < 1000 then recent_n = recent_n + 1 end
  end
  local title = {}
  for i = 1, 6 do title[i] = words[math.random(1, #words)] end
  local body = '{"url":"http://bench.example/' .. thread_tag .. '/' .. counter .. '","title":"' ..
               table.concat(title, " ") .. '","content":"' .. content .. '","media":"bench"}'
  return wrk.format("POST", "/v1/docid", {["Content-Type"] = "application/json"}, body)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"seconds":%.3f,"requests_per_second":%.1f,"latency_us":{"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d,"mean":%.1f},"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}\n',
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    latency.max, latency.mean, e.connect, e.read, e.write, e.status, e.timeout))
end
