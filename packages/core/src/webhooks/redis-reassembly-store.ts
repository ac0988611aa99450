/**
 * A reassembly store shared through Redis, for receivers on several instances: the parts of one
 * message are joined whatever instance each reaches, and survive the restart of any instance.
 * Every step is one Lua script, so it is atomic towards every other instance.
 */
import { DUPLICATE_MARGIN_MS, INBOUND_RETRY_WINDOW_MS } from '../protocol/service-facts.js';
import { storedInboundPart, type InboundCallback } from './decode-callback.js';
import type { RedisCommand } from './duplicate-store.js';
import { reassemblyKey } from './inbound-reassembler.js';
import { DEFAULT_MAX_PENDING_BYTES, type PartAddOutcome, type ReassemblyGroup, type ReassemblyStore } from './reassembly-store.js';
import { checkFunctions, checkPositiveIntegers, checkPositiveNumbers, checkSendCommand, checkStrings } from '../option-checks.js';

/** Options of {@link createRedisReassemblyStore}. */
export interface RedisReassemblyStoreOptions {
  /** Sends a command to Redis (see `RedisCommand`: node-redis and ioredis both fit). */
  readonly sendCommand: RedisCommand;
  /**
   * Prefix of every key (default `smsv4:reassembly:`). Each key goes on with a hash tag of its
   * shard, `<prefix>{<shard>}...`, so that every script touches keys of one slot on Redis Cluster
   * while the messages spread over `shards` slots. A prefix with a hash tag of its own (`{sms}:`)
   * puts every key in that one slot.
   */
  readonly keyPrefix?: string;
  /** How many shards the messages are spread over, each with its own index (default 16); the same on every instance. */
  readonly shards?: number;
  /**
   * The secret of the keyed hash (HMAC-SHA-256) that names a message in Redis, so that key names
   * hold no phone numbers (default a fixed value: the numbers are not in clear, but could be found
   * by trying them). Set a secret of your own, the same on every instance, to keep them unguessable.
   */
  readonly keySecret?: string;
  /**
   * How long past its deadline a message's parts stay in Redis should no instance claim it as an
   * orphan (default the 3-day inbound retry window and an hour): a safety net, never reached while
   * one instance runs.
   */
  readonly retentionMs?: number;
  /**
   * Most bytes the parts waiting for their siblings may take in Redis, as stored (default 32 MiB,
   * `DEFAULT_MAX_PENDING_BYTES`), spread evenly over the shards: each shard holds at most
   * `maxPendingBytes / shards`. A part past it is refused (`full`: the receiver answers 503 with
   * `Retry-After`, and the service retries it), unless it completes its message.
   */
  readonly maxPendingBytes?: number;
  /** The clock, in milliseconds (default `Date.now`); keep the instances' clocks in sync (NTP). */
  readonly now?: () => number;
  /** A unique token per hand-over (default `crypto.randomUUID`). */
  readonly token?: () => string;
}

/** The Redis store, with a count of what it holds. */
export interface RedisReassemblyStore extends ReassemblyStore {
  /** Messages held in Redis (collecting, handed over or claimed as orphans), over every instance. */
  size(): Promise<number>;
  /** Bytes the parts held take in Redis as stored (what `maxPendingBytes` bounds), over every instance. */
  pendingBytes(): Promise<number>;
}

// A group is a hash under <prefix>{<shard>}group:<id>, id the keyed hash of the reassembly key (no phone numbers in key names): n total, t timeout, d deadline, s token of the hand-over or claim ('' none),
// o '1' for an orphan claim, l end of its lease, c parts held, x part numbers taken, and per part
// k<seq> its ticket ID and p<seq> its value. The index is a sorted set of group keys by the time
// they are next due (one per shard); a part handed over leaves a key per ticket for the handed-over
// TTL, holding the token of its hand-over (so that a FINISH sent twice recognises its own). The
// bytes of the parts held are counted per shard in a hash <prefix>{<shard>}bytes: field '#' the
// shard's total, and one field per message (its id) with its own bytes, so that a message removed
// in any way (finished, claimed empty, or found expired by a claim) gives back exactly what it took.

/**
 * Lua: gives back `n` bytes of message `m` (all it holds when `n` is nil) to the count hash `B`,
 * never more than it took (a message held before the count existed took none); an empty count is
 * removed, so nothing stays in Redis once every message is gone.
 */
const BYTES = `local function release(B,m,n)
local h=tonumber(redis.call('HGET',B,m) or '0')
if n==nil or n>h then n=h end
if n>0 and redis.call('HINCRBY',B,'#',-n)<=0 then redis.call('HDEL',B,'#') end
if h-n<=0 then redis.call('HDEL',B,m) else redis.call('HINCRBY',B,m,-n) end
end`;

/**
 * KEYS: group, index, handed-over key of the ticket, byte count. ARGV: member, sequence, ticket,
 * value, total, now, timeout, lease, token, retention, shard budget. A part past the budget is
 * `full` unless it completes its message (a new message's first part never does); a part that
 * completes it is held past the budget, as it frees its siblings.
 */
const ADD = `
if redis.call('EXISTS', KEYS[3]) == 1 then return {'handed-over'} end
local g = KEYS[1]
local now = tonumber(ARGV[6])
local total = tonumber(ARGV[5])
local size = string.len(ARGV[4])
local over = tonumber(redis.call('HGET', KEYS[4], '#') or '0') + size > tonumber(ARGV[11])
if redis.call('EXISTS', g) == 0 then
  if total > 1 and over then return {'full'} end
  local deadline = now + tonumber(ARGV[7])
  redis.call('HSET', g, 'n', total, 't', ARGV[7], 'd', deadline, 's', '', 'o', '0', 'l', 0, 'c', 0, 'x', '')
  redis.call('PEXPIRE', g, tonumber(ARGV[7]) + tonumber(ARGV[10]))
  redis.call('ZADD', KEYS[2], deadline, ARGV[1])
end
local f = redis.call('HMGET', g, 'c', 's', 'l', 'd')
local leased = f[2] ~= '' and tonumber(f[3]) > now
local count = tonumber(f[1])
local present = redis.call('HGET', g, 'k' .. ARGV[2])
if not present then
  if count + 1 < total and over then return {'full'} end
  redis.call('HSET', g, 'k' .. ARGV[2], ARGV[3], 'p' .. ARGV[2], ARGV[4])
  count = redis.call('HINCRBY', g, 'c', 1)
  redis.call('HINCRBY', KEYS[4], '#', size)
  redis.call('HINCRBY', KEYS[4], ARGV[1], size)
elseif present ~= ARGV[3] then
  return {'duplicate-part'}
elseif leased and f[2] ~= ARGV[9] then
  return {'in-flight'}
end
if count < total then
  if present then return {'held'} end
  return {'stored', count}
end
if leased and f[2] ~= ARGV[9] then return {'stored', count} end
local leaseEnd = now + tonumber(ARGV[8])
local out = {'complete', ARGV[9]}
local taken = {}
for i = 1, total do
  out[#out + 1] = redis.call('HGET', g, 'p' .. i)
  taken[#taken + 1] = i
end
redis.call('HSET', g, 's', ARGV[9], 'o', '0', 'l', leaseEnd, 'x', table.concat(taken, ','))
redis.call('ZADD', KEYS[2], math.max(tonumber(f[4]), leaseEnd), ARGV[1])
return out
`;

/** KEYS: group, index, byte count, then the handed-over key of each part taken. ARGV: member, token, now, handed-over TTL, retention. */
const FINISH = `${BYTES}
local g = KEYS[1]
if redis.call('HGET', g, 's') ~= ARGV[2] then
  if #KEYS > 3 and redis.call('GET', KEYS[4]) == ARGV[2] then return 1 end
  return 0
end
for seq in string.gmatch(redis.call('HGET', g, 'x'), '[^,]+') do
  local n = redis.call('HSTRLEN', g, 'p' .. seq)
  if redis.call('HDEL', g, 'k' .. seq, 'p' .. seq) > 0 then
    redis.call('HINCRBY', g, 'c', -1)
    release(KEYS[3], ARGV[1], n)
  end
end
for i = 4, #KEYS do redis.call('SET', KEYS[i], ARGV[2], 'PX', ARGV[4]) end
if tonumber(redis.call('HGET', g, 'c')) <= 0 then
  redis.call('DEL', g)
  redis.call('ZREM', KEYS[2], ARGV[1])
  release(KEYS[3], ARGV[1], nil)
else
  local t = tonumber(redis.call('HGET', g, 't'))
  local deadline = tonumber(ARGV[3]) + t
  redis.call('HSET', g, 's', '', 'o', '0', 'l', 0, 'x', '', 'd', deadline)
  redis.call('PEXPIRE', g, t + tonumber(ARGV[5]))
  redis.call('ZADD', KEYS[2], deadline, ARGV[1])
end
return 1
`;

/** KEYS: group, index. ARGV: member, token. */
const RESTORE = `
if redis.call('HGET', KEYS[1], 's') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 's', '', 'o', '0', 'l', 0, 'x', '')
redis.call('ZADD', KEYS[2], tonumber(redis.call('HGET', KEYS[1], 'd')), ARGV[1])
return 1
`;

/** KEYS: group, index, byte count. ARGV: member, now, lease, token. Replies {} (not due, or gone) or {token, value...}. */
const CLAIM = `${BYTES}
local g = KEYS[1]
if redis.call('EXISTS', g) == 0 then
  redis.call('ZREM', KEYS[2], ARGV[1])
  release(KEYS[3], ARGV[1], nil)
  return {}
end
local now = tonumber(ARGV[2])
local f = redis.call('HMGET', g, 'd', 's', 'l', 'n')
local due = tonumber(f[1])
if f[2] ~= '' then due = math.max(due, tonumber(f[3])) end
if due > now then
  redis.call('ZADD', KEYS[2], due, ARGV[1])
  return {}
end
local out = {ARGV[4]}
local taken = {}
for i = 1, tonumber(f[4]) do
  local value = redis.call('HGET', g, 'p' .. i)
  if value then
    out[#out + 1] = value
    taken[#taken + 1] = i
  end
end
if #taken == 0 then
  redis.call('DEL', g)
  redis.call('ZREM', KEYS[2], ARGV[1])
  release(KEYS[3], ARGV[1], nil)
  return {}
end
local leaseEnd = now + tonumber(ARGV[3])
redis.call('HSET', g, 's', ARGV[4], 'o', '1', 'l', leaseEnd, 'x', table.concat(taken, ','))
redis.call('ZADD', KEYS[2], leaseEnd, ARGV[1])
return out
`;

const isNoScript = (e: unknown): boolean => /NOSCRIPT/i.test(e instanceof Error ? e.message : String(e));

const hex = (bytes: ArrayBuffer): string => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
const utf8 = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text);
/** The SHA-1 of a script, as Redis names it for `EVALSHA`. */
const scriptSha = async (source: string): Promise<string> => hex(await globalThis.crypto.subtle.digest('SHA-1', utf8(source)));

/** The shard, and the mark of the ids, of messages held under the key layout of earlier versions (one index, no hash tag). */
const LEGACY = '~';

/** Most hand-overs in doubt remembered (see `doubtful`). */
const MAX_DOUBTFUL = 10_000;

/** The default secret of the keyed hash of message names (see `keySecret`). */
const DEFAULT_KEY_SECRET = 'smsv4 reassembly key';

/**
 * A {@link ReassemblyStore} shared through Redis. Client-agnostic, like the duplicate store: it
 * only needs a function that sends one command (`EVALSHA`, `EVAL`, `ZRANGEBYSCORE`, `ZCARD`, `HGET`). Each
 * message is a hash under `<prefix>{<shard>}group:<id>` (`id` a keyed hash of its reference and
 * numbers: no phone number in a key name) whose TTL covers the reassembly timeout and the inbound
 * retry window; a sorted set per shard `<prefix>{<shard>}deadlines` indexes the messages by
 * deadline, so any instance finds the orphans, and claims each one atomically (so it is reported
 * once). Adding a part and taking the complete message is one script: two instances adding the
 * last two parts at once get one message between them, never two and never none. The parts held
 * are bounded in bytes (`maxPendingBytes`, counted per shard in `<prefix>{<shard>}bytes`): past it
 * a part is refused (`full`, answered 503 so that the service retries), unless it completes its message.
 *
 * Redis Cluster: every script touches the keys of one shard, which share a hash tag; the shards
 * spread the messages over the cluster's nodes. Scripts run by SHA (`EVALSHA`) and, when the node
 * does not have them (`NOSCRIPT`: a restart, a failover, `SCRIPT FLUSH`), by source (`EVAL`) on
 * that same node. Writes survive a lost reply: an add sent twice gets the same answer, a finish
 * sent twice recognises its own hand-over (no false "handed over twice").
 *
 * @example
 * import Redis from 'ioredis';
 * const redis = new Redis(process.env.REDIS_URL);
 * const reassemblyStore = createRedisReassemblyStore({ sendCommand: ([name, ...args]) => redis.call(name, ...args) });
 */
export function createRedisReassemblyStore({
  sendCommand,
  keyPrefix = 'smsv4:reassembly:',
  shards = 16,
  keySecret = DEFAULT_KEY_SECRET,
  retentionMs = INBOUND_RETRY_WINDOW_MS + DUPLICATE_MARGIN_MS,
  maxPendingBytes = DEFAULT_MAX_PENDING_BYTES,
  now = Date.now,
  token = () => globalThis.crypto.randomUUID(),
}: RedisReassemblyStoreOptions): RedisReassemblyStore {
  checkSendCommand(sendCommand);
  checkStrings({ keyPrefix });
  if (!Number.isSafeInteger(shards) || shards < 1 || shards > 1024) throw new TypeError(`shards must be an integer from 1 to 1024, got ${String(shards)}`);
  if (typeof keySecret !== 'string' || keySecret === '') throw new TypeError('keySecret must be a non-empty string');
  checkPositiveNumbers({ retentionMs });
  checkPositiveIntegers({ maxPendingBytes });
  const shardBudget = String(Math.max(1, Math.floor(maxPendingBytes / shards)));
  checkFunctions({ now, token });
  // A message's id is `<shard>.<hash>`: its keys, and the shard's index, follow from it alone. An
  // id of LEGACY is a message held under the layout of earlier versions (no shard), still claimed.
  const shardOf = (id: string): string => (id.startsWith(LEGACY) ? LEGACY : id.slice(0, id.indexOf('.')));
  const tag = (shard: string): string => (shard === LEGACY ? keyPrefix : `${keyPrefix}{${shard}}`);
  const indexOf = (shard: string): string => `${tag(shard)}deadlines`;
  const bytesOf = (shard: string): string => `${tag(shard)}bytes`;
  const groupKey = (id: string): string => `${tag(shardOf(id))}group:${id.startsWith(LEGACY) ? id.slice(LEGACY.length) : id}`;
  const handedOverKey = (id: string, ticketId: string): string => `${tag(shardOf(id))}handed-over:${ticketId}`;
  const ms = (value: number): string => String(Math.max(1, Math.ceil(value)));

  let hmacKey: Promise<CryptoKey> | undefined;
  const idOf = async (key: string): Promise<string> => {
    hmacKey ??= globalThis.crypto.subtle.importKey('raw', utf8(keySecret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const digest = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', await hmacKey, utf8(key)));
    const shard = (((digest[0] as number) << 8) | (digest[1] as number)) % shards;
    return `${shard}.${hex(digest.buffer.slice(0, 16))}`;
  };

  // The SHA of each script, computed here: nothing is loaded ahead, so no node can miss what another was given.
  const shas = new Map<string, Promise<string>>();
  const run = async (source: string, keys: readonly string[], args: readonly string[]): Promise<unknown> => {
    let sha = shas.get(source);
    if (sha === undefined) {
      sha = scriptSha(source);
      shas.set(source, sha);
    }
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await sendCommand(['EVALSHA', await sha, ...tail]);
    } catch (e) {
      if (!isNoScript(e)) throw e;
      // Sent where the keys live (the same routing as EVALSHA), and cached there by Redis.
      return sendCommand(['EVAL', source, ...tail]);
    }
  };

  const encode = (part: InboundCallback): string => JSON.stringify([part.format, part.message]);
  const decode = (value: unknown): InboundCallback => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(value));
    } catch {
      parsed = undefined;
    }
    const part = Array.isArray(parsed) ? storedInboundPart(parsed[1], parsed[0]) : undefined;
    if (part === undefined) throw new TypeError(`a value under ${keyPrefix} is not a part of a multipart inbound message: is another program writing under this prefix?`);
    return part;
  };

  const groupOf = (id: string, reply: readonly unknown[], from: number): ReassemblyGroup => {
    const parts = reply.slice(from).map(decode);
    const first = parts[0];
    const c = first?.concatenation;
    if (c === undefined) throw new TypeError(`the message ${id} was claimed without parts`);
    return { key: id, token: String(reply[from - 1]), concatenation: { reference: c.reference, referenceBits: c.referenceBits, total: c.total }, parts };
  };

  const claimIn = async (shard: string, leaseMs: number, limit: number, claimed: ReassemblyGroup[], failures: unknown[]): Promise<void> => {
    const index = indexOf(shard);
    const due = await sendCommand(['ZRANGEBYSCORE', index, '-inf', String(now()), 'LIMIT', '0', String(limit)]);
    if (!Array.isArray(due)) return;
    for (const member of due) {
      const id = shard === LEGACY ? LEGACY + String(member) : String(member);
      try {
        const reply = await run(CLAIM, [groupKey(id), index, bytesOf(shard)], [String(member), String(now()), ms(leaseMs), token()]);
        if (Array.isArray(reply) && reply.length > 1) claimed.push(groupOf(id, reply, 1));
      } catch (e) {
        // One message that cannot be read must not hold back the others: it is claimed again after its lease.
        failures.push(e);
      }
    }
  };

  // Hand-over tokens in doubt, by message: an add whose reply was lost may have taken the message
  // under its token; the next add of that message in this process uses the same token, so it is
  // recognised, and a restore queued behind the add gives the message back to any other instance.
  // That next add waits for the restore to settle: a restore landing after it would give back a
  // message this process is handing over, and another instance would take it a second time. The
  // token goes to one add at a time (`taken`): two adds under one token would both take the
  // message, and the late one's restore would give back the other's hand-over. Adds sent meanwhile
  // take tokens of their own (the message under way: `in-flight`, or their part held).
  const doubtful = new Map<string, { readonly token: string; readonly restored: Promise<unknown>; taken: boolean }>();
  const doubt = (id: string, handOver: string): void => {
    doubtful.delete(id);
    const restored = run(RESTORE, [groupKey(id), indexOf(shardOf(id))], [id, handOver]).then(
      () => {
        if (doubtful.get(id)?.token === handOver) doubtful.delete(id);
      },
      () => undefined,
    );
    doubtful.set(id, { token: handOver, restored, taken: false });
    if (doubtful.size > MAX_DOUBTFUL) doubtful.delete(doubtful.keys().next().value as string);
  };

  const memberOf = (id: string): string => (id.startsWith(LEGACY) ? id.slice(LEGACY.length) : id);
  // The legacy index last: messages an earlier version held are claimed once due, never lost on upgrade.
  const shardNames = [...Array.from({ length: shards }, (_, i) => String(i)), LEGACY];
  // The shard the next sweep starts with: every shard gets its turn when a sweep fills its limit early.
  let nextShard = 0;

  return {
    async add(part, { timeoutMs, leaseMs }) {
      const c = part.concatenation;
      if (c === undefined) throw new TypeError('add takes one part of a multipart message (a callback with a concatenation element)');
      const id = await idOf(reassemblyKey(part));
      const waiting = doubtful.get(id);
      if (waiting !== undefined) await waiting.restored;
      // Still in doubt once the restore settled (it failed): the first add takes the token, the others their own.
      const inDoubt = doubtful.get(id);
      const reused = inDoubt !== undefined && !inDoubt.taken;
      if (reused) inDoubt.taken = true;
      const handOver = reused ? inDoubt.token : token();
      let reply: unknown;
      try {
        reply = await run(
          ADD,
          [groupKey(id), indexOf(shardOf(id)), handedOverKey(id, part.message.ticketId), bytesOf(shardOf(id))],
          [id, String(c.sequence), part.message.ticketId, encode(part), String(c.total), String(now()), ms(timeoutMs), ms(leaseMs), handOver, ms(retentionMs), shardBudget],
        );
      } catch (e) {
        doubt(id, handOver);
        throw e;
      }
      // Its reply came: the token it took is out of doubt. A token in doubt that another add holds,
      // or that none took yet (its restore failed), stays so: the next add may recognise its claim.
      if (reused && doubtful.get(id) === inDoubt) doubtful.delete(id);
      if (!Array.isArray(reply)) throw new TypeError(`unexpected reply of the reassembly script: ${String(reply)}`);
      const status = String(reply[0]);
      if (status === 'stored') return { status, received: Number(reply[1]), total: c.total } satisfies PartAddOutcome;
      if (status === 'held' || status === 'in-flight' || status === 'duplicate-part' || status === 'handed-over' || status === 'full') return { status };
      if (status === 'complete') return { status, group: groupOf(id, reply, 2) };
      throw new TypeError(`unexpected reply of the reassembly script: ${status}`);
    },
    async finish(group, { handedOverTtlMs }) {
      const shard = shardOf(group.key);
      const keys = [groupKey(group.key), indexOf(shard), bytesOf(shard), ...group.parts.map((p) => handedOverKey(group.key, p.message.ticketId))];
      const reply = await run(FINISH, keys, [memberOf(group.key), group.token, String(now()), ms(handedOverTtlMs), ms(retentionMs)]);
      return Number(reply) === 1;
    },
    async restore(group) {
      await run(RESTORE, [groupKey(group.key), indexOf(shardOf(group.key))], [memberOf(group.key), group.token]);
    },
    async claimExpired({ leaseMs, limit }) {
      const most = Math.max(1, Math.floor(limit));
      const claimed: ReassemblyGroup[] = [];
      const failures: unknown[] = [];
      const start = nextShard;
      nextShard = (nextShard + 1) % shardNames.length;
      for (let i = 0; i < shardNames.length && claimed.length < most; i++) {
        const shard = shardNames[(start + i) % shardNames.length] as string;
        try {
          await claimIn(shard, leaseMs, most - claimed.length, claimed, failures);
        } catch (e) {
          failures.push(e);
        }
      }
      if (claimed.length === 0 && failures.length > 0) throw failures.length === 1 ? failures[0] : new AggregateError(failures, 'claiming orphans failed');
      return claimed;
    },
    async size() {
      let total = 0;
      for (const shard of shardNames) total += Number(await sendCommand(['ZCARD', indexOf(shard)]));
      return total;
    },
    async pendingBytes() {
      let total = 0;
      for (const shard of shardNames) total += Number((await sendCommand(['HGET', bytesOf(shard), '#'])) ?? 0);
      return total;
    },
  };
}
