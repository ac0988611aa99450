/**
 * The Lua scripts that move a message from state to state. Each runs atomically in Redis, checks
 * the state it expects (compare-and-set) and publishes the change, so that no two processes can
 * both send a message, and no outcome can overwrite a later decision.
 *
 * A message is a hash (`state`, `mt`, `gen`, `sends`, `retries`, `inflight`, ...); its receipts a
 * second hash (part number → receipt JSON); a ticket ID points to its key; receipts that arrive
 * before their ticket is known wait under the ticket; `unknown` messages are also in a sorted set.
 */
import type { Redis } from 'ioredis';

const PRELUDE = `
local function publish(channel, key, state, previous, now, ticketId, code)
  redis.call('PUBLISH', channel, cjson.encode({ key = key, state = state, previous = previous or false, at = tonumber(now), ticketId = ticketId, code = code }))
end
`;

/** KEYS: message. ARGV: key, mt, now, channel. → { created (0|1), state, gen } */
const CREATE = `
local state = redis.call('HGET', KEYS[1], 'state')
if state then return { 0, state, redis.call('HGET', KEYS[1], 'gen') } end
redis.call('HSET', KEYS[1], 'state', 'queued', 'mt', ARGV[2], 'gen', '0', 'createdAt', ARGV[3], 'updatedAt', ARGV[3], 'sends', '0', 'retries', '0')
publish(ARGV[4], ARGV[1], 'queued', false, ARGV[3])
return { 1, 'queued', '0' }
`;

/**
 * The in-flight marker. KEYS: message, unknown set, pause end of the account (read only when ARGV[5]
 * is '1': queues without a rate limit check the pause here rather than in a slot reservation).
 * ARGV: key, token, now, channel, check pause.
 * → { 'go', mt, retries } (marked in flight: send it) | { 'later', retryAt } | { 'paused', wait ms }
 * | { 'parked' } (found in flight without an outcome: now unknown) | { 'settled', state } | { 'missing' }
 */
const BEGIN = `
local f = redis.call('HMGET', KEYS[1], 'state', 'retryAt', 'mt', 'retries')
local state = f[1]
if not state then return { 'missing' } end
if state == 'queued' or state == 'retrying' then
  if f[2] and tonumber(f[2]) > tonumber(ARGV[3]) then return { 'later', f[2] } end
  if ARGV[5] == '1' then
    local resume = redis.call('GET', KEYS[3])
    if resume then
      local t = redis.call('TIME')
      local wait = tonumber(resume) - (tonumber(t[1]) * 1000000 + tonumber(t[2]))
      if wait > 0 then return { 'paused', math.ceil(wait / 1000) } end
    end
  end
  redis.call('HSET', KEYS[1], 'state', 'sending', 'inflight', ARGV[2], 'inflightAt', ARGV[3], 'updatedAt', ARGV[3])
  redis.call('HDEL', KEYS[1], 'retryAt')
  redis.call('HINCRBY', KEYS[1], 'sends', 1)
  publish(ARGV[4], ARGV[1], 'sending', state, ARGV[3])
  return { 'go', f[3], f[4] or '0' }
end
if state == 'sending' then
  redis.call('HSET', KEYS[1], 'state', 'unknown', 'reason', 'worker-lost', 'updatedAt', ARGV[3])
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
  publish(ARGV[4], ARGV[1], 'unknown', 'sending', ARGV[3])
  return { 'parked' }
end
return { 'settled', state }
`;

/**
 * The outcome of a send, by the worker that marked it in flight (same token). KEYS: message,
 * unknown set, ticket, early receipts of the ticket, receipts. ARGV: key, token, now, channel,
 * outcome, retention ms, then field/value pairs. → { 'ok', previous, receipts } | { 'stale', state } | { 'missing' }
 */
const FINISH = `
local f = redis.call('HMGET', KEYS[1], 'state', 'inflight')
local state = f[1]
if not state then return { 'missing' } end
if f[2] ~= ARGV[2] or (state ~= 'sending' and state ~= 'unknown') then return { 'stale', state } end
local outcome = ARGV[5]
redis.call('HDEL', KEYS[1], 'reason', 'code', 'description', 'retryAt', 'httpStatus')
local fields = { 'state', outcome, 'updatedAt', ARGV[3] }
for i = 7, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(fields))
if outcome == 'unknown' then
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
else
  redis.call('HDEL', KEYS[1], 'inflight', 'inflightAt')
  redis.call('ZREM', KEYS[2], ARGV[1])
end
if outcome == 'retrying' then redis.call('HINCRBY', KEYS[1], 'retries', 1) end
local receipts = {}
if outcome == 'accepted' then
  redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[6])
  local early = redis.call('HGETALL', KEYS[4])
  if #early > 0 then
    redis.call('HSET', KEYS[5], unpack(early))
    redis.call('DEL', KEYS[4])
  end
  receipts = redis.call('HVALS', KEYS[5])
end
if outcome == 'accepted' or outcome == 'rejected' then
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  redis.call('PEXPIRE', KEYS[5], ARGV[6])
end
if state ~= outcome then
  local ticketId, code
  for i = 7, #ARGV - 1, 2 do
    if ARGV[i] == 'ticketId' then ticketId = ARGV[i + 1] elseif ARGV[i] == 'code' then code = ARGV[i + 1] end
  end
  publish(ARGV[4], ARGV[1], outcome, state, ARGV[3], ticketId, code)
end
return { 'ok', state, receipts }
`;

/**
 * A receipt of a message whose key is known. KEYS: message, receipts, unknown set, ticket.
 * ARGV: key, ticketId, part, receipt JSON, now, channel, retention ms.
 * → { 'ok', previous, receipts } | { 'other-ticket', state } | { 'missing' }
 * A receipt proves the service took a send of the key: a message still `sending`, `unknown` or
 * `abandoned` (its answer lost) becomes `accepted` with the receipt's ticket.
 */
const RECEIPT = `
local f = redis.call('HMGET', KEYS[1], 'state', 'ticketId')
local state = f[1]
if not state then return { 'missing' } end
if f[2] and f[2] ~= ARGV[2] then
  redis.call('HSET', KEYS[1], 'otherTicketId', ARGV[2])
  return { 'other-ticket', state }
end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
if state == 'sending' or state == 'unknown' or state == 'abandoned' or state == 'queued' or state == 'retrying' then
  redis.call('HSET', KEYS[1], 'state', 'accepted', 'ticketId', ARGV[2], 'acceptedAt', ARGV[5], 'updatedAt', ARGV[5])
  redis.call('HDEL', KEYS[1], 'inflight', 'inflightAt', 'reason', 'code', 'description', 'retryAt', 'httpStatus')
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('SET', KEYS[4], ARGV[1], 'PX', ARGV[7])
  publish(ARGV[6], ARGV[1], 'accepted', state, ARGV[5], ARGV[2])
end
redis.call('PEXPIRE', KEYS[1], ARGV[7])
redis.call('PEXPIRE', KEYS[2], ARGV[7])
return { 'ok', state, redis.call('HVALS', KEYS[2]) }
`;

/**
 * A receipt whose ticket is not known yet waits under the ticket, unless the ticket got known
 * meanwhile (`FINISH` stores the ticket and takes the waiting receipts in one step, so a receipt
 * is never left behind). KEYS: early receipts of the ticket, ticket. ARGV: part, receipt JSON, ttl ms.
 * → { 'waiting' } | { 'known', key }
 */
const EARLY_RECEIPT = `
local key = redis.call('GET', KEYS[2])
if key then return { 'known', key } end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return { 'waiting' }
`;

/** Compare-and-set of the state. KEYS: message, receipts. ARGV: key, expected, new, code, description, now, channel, retention ms. */
const SETTLE = `
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= ARGV[2] then return { 'stale', state or false } end
redis.call('HSET', KEYS[1], 'state', ARGV[3], 'code', ARGV[4], 'description', ARGV[5], 'updatedAt', ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[8])
redis.call('PEXPIRE', KEYS[2], ARGV[8])
publish(ARGV[7], ARGV[1], ARGV[3], state, ARGV[6], redis.call('HGET', KEYS[1], 'ticketId') or nil, tonumber(ARGV[4]))
return { 'ok', state }
`;

/** `resend`: unknown → queued under a new generation. KEYS: message, unknown set. ARGV: key, now, channel. → { 'ok', gen } | { 'not-unknown', state } | { 'missing' } */
const RESEND = `
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return { 'missing' } end
if state ~= 'unknown' then return { 'not-unknown', state } end
local gen = redis.call('HINCRBY', KEYS[1], 'gen', 1)
redis.call('HSET', KEYS[1], 'state', 'queued', 'updatedAt', ARGV[2])
redis.call('HDEL', KEYS[1], 'inflight', 'inflightAt', 'reason', 'code', 'description', 'retryAt', 'httpStatus')
redis.call('ZREM', KEYS[2], ARGV[1])
publish(ARGV[3], ARGV[1], 'queued', 'unknown', ARGV[2])
return { 'ok', tostring(gen) }
`;

/** A new generation for a `queued` or `retrying` message whose job could not carry it on. KEYS: message. → { 'ok', gen } | { 'stale', state } */
const NEXT_GENERATION = `
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'queued' and state ~= 'retrying' then return { 'stale', state or false } end
return { 'ok', tostring(redis.call('HINCRBY', KEYS[1], 'gen', 1)) }
`;

/** `abandon`: unknown → abandoned. KEYS: message, unknown set, receipts. ARGV: key, now, channel, retention ms. */
const ABANDON = `
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return { 'missing' } end
if state ~= 'unknown' then return { 'not-unknown', state } end
redis.call('HSET', KEYS[1], 'state', 'abandoned', 'updatedAt', ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[3], ARGV[4])
publish(ARGV[3], ARGV[1], 'abandoned', 'unknown', ARGV[2])
return { 'ok' }
`;

/**
 * A job that failed for good: in flight → unknown (`worker-error`); not yet sent → rejected
 * (`queue-error`). KEYS: message, unknown set. ARGV: key, now, channel, description, retention ms.
 */
const JOB_FAILED = `
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return { 'missing' } end
if state == 'sending' then
  redis.call('HSET', KEYS[1], 'state', 'unknown', 'reason', 'worker-error', 'description', ARGV[4], 'updatedAt', ARGV[2])
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
  publish(ARGV[3], ARGV[1], 'unknown', state, ARGV[2])
  return { 'ok', state, 'unknown' }
end
if state == 'queued' or state == 'retrying' then
  redis.call('HSET', KEYS[1], 'state', 'rejected', 'reason', 'queue-error', 'description', ARGV[4], 'updatedAt', ARGV[2])
  redis.call('HDEL', KEYS[1], 'retryAt')
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  publish(ARGV[3], ARGV[1], 'rejected', state, ARGV[2])
  return { 'ok', state, 'rejected' }
end
return { 'settled', state }
`;

/**
 * The send-rate limit of an account (GCRA, in microseconds of Redis' clock, shared by every
 * worker): reserves the next slot and returns the wait before it, or only the wait (nothing
 * reserved) when it is longer than the caller accepts. A pause (`Retry-After`) moves every slot
 * after its end. KEYS: theoretical arrival time, pause end. ARGV: interval µs (0: no rate limit),
 * tolerance µs, longest wait µs. → { reserved (0|1), wait ms }
 */
const RESERVE_SLOT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
local resume = tonumber(redis.call('GET', KEYS[2]) or '0')
if tat < now then tat = now end
if tat < resume then tat = resume end
local wait = tat - tonumber(ARGV[2]) - now
if wait < resume - now then wait = resume - now end
if wait < 0 then wait = 0 end
if wait > tonumber(ARGV[3]) then return { 0, math.ceil(wait / 1000) } end
if interval > 0 then
  redis.call('SET', KEYS[1], string.format('%.0f', tat + interval), 'PX', math.ceil((tat + interval - now) / 1000) + 1000)
end
return { 1, math.ceil(wait / 1000) }
`;

/**
 * The last second of an account's sends (a sliding window log, on Redis' clock): admits a send
 * while fewer than the most allowed left within the last second, else tells the wait until the
 * oldest leaves the window. It keeps a process that was stalled, and wakes several sends at once,
 * from sending more than the limit in any second. KEYS: the log. ARGV: window µs, most sends in
 * the window, a unique member. → { admitted (0|1), wait ms }
 */
const ADMIT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%.0f', now - window))
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], string.format('%.0f', now), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000) + 1000)
  return { 1, 0 }
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local wait = tonumber(oldest[2]) + window - now
if wait < 1000 then wait = 1000 end
return { 0, math.ceil(wait / 1000) }
`;

/** Pauses an account's sends (`Retry-After`). KEYS: pause end. ARGV: ms. */
const PAUSE = `
local t = redis.call('TIME')
local resume = tonumber(t[1]) * 1000000 + tonumber(t[2]) + tonumber(ARGV[1]) * 1000
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if resume > current then redis.call('SET', KEYS[1], string.format('%.0f', resume), 'PX', tonumber(ARGV[1]) + 1000) end
return 1
`;

type Reply = (string | number | null | Reply[])[];
type Command = (...args: (string | number)[]) => Promise<Reply>;

/** The scripts, bound to a connection (names prefixed so that they cannot clash on a shared one). */
export interface Scripts {
  create: Command;
  begin: Command;
  finish: Command;
  receipt: Command;
  earlyReceipt: Command;
  settle: Command;
  resend: Command;
  nextGeneration: Command;
  abandon: Command;
  jobFailed: Command;
  reserveSlot: Command;
  admit: Command;
  pause: Command;
}

const DEFINITIONS: Readonly<Record<keyof Scripts, { readonly keys: number; readonly lua: string; readonly publishes: boolean }>> = {
  create: { keys: 1, lua: CREATE, publishes: true },
  begin: { keys: 3, lua: BEGIN, publishes: true },
  finish: { keys: 5, lua: FINISH, publishes: true },
  receipt: { keys: 4, lua: RECEIPT, publishes: true },
  earlyReceipt: { keys: 2, lua: EARLY_RECEIPT, publishes: false },
  settle: { keys: 2, lua: SETTLE, publishes: true },
  resend: { keys: 2, lua: RESEND, publishes: true },
  nextGeneration: { keys: 1, lua: NEXT_GENERATION, publishes: false },
  abandon: { keys: 3, lua: ABANDON, publishes: true },
  jobFailed: { keys: 2, lua: JOB_FAILED, publishes: true },
  reserveSlot: { keys: 2, lua: RESERVE_SLOT, publishes: false },
  admit: { keys: 1, lua: ADMIT, publishes: false },
  pause: { keys: 1, lua: PAUSE, publishes: false },
};

const commandName = (name: string): string => `smsv4Queue${name[0]?.toUpperCase()}${name.slice(1)}`;

/** Defines the scripts on a connection (ioredis runs them with EVALSHA, loading them once). */
export function defineScripts(redis: Redis): Scripts {
  const bound = {} as Record<keyof Scripts, Command>;
  for (const [name, { keys, lua, publishes }] of Object.entries(DEFINITIONS) as [keyof Scripts, (typeof DEFINITIONS)[keyof Scripts]][]) {
    const command = commandName(name);
    if (typeof (redis as unknown as Record<string, unknown>)[command] !== 'function') {
      redis.defineCommand(command, { numberOfKeys: keys, lua: publishes ? PRELUDE + lua : lua });
    }
    const method = (redis as unknown as Record<string, Command>)[command] as Command;
    bound[name] = (...args) => method.apply(redis, args);
  }
  return bound;
}

/** The name of a script's command on a connection or pipeline (for batching with `pipeline()`). */
export function scriptCommand(name: keyof Scripts): string {
  return commandName(name);
}
