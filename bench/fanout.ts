// Realtime fan-out (issue 27): many open event streams on one instance, one change, how long until every stream has it.
// People sign up and join one team through the API (invitation and acceptance, as users do), each opens up to the
// per-user cap of streams (tabs), the team's owner creates a project — an event every member may see — and the time
// from sending that request to each stream reading its event is taken. Repeated a few times; p50/p99 over every
// (change, stream) pair, with the server's RSS sampled throughout.
import { request, type ClientRequest, Agent } from 'node:http';

export interface FanoutRun {
  streams: number;
  people: number;
  changes: number;
  /** Streams that received every change (all of them, or the run is wrong). */
  complete: number;
  p50: number;
  p99: number;
  max: number;
  rssIdleMb: number;
  rssMaxMb: number;
  /** Opening every stream: from the first request to the last 'ready'. */
  openSeconds: number;
}

const PASSWORD = 'Fanout-bench-password-1';
/** The server's cap per user and instance (modules/realtime/realtime.service.ts). */
const STREAMS_PER_PERSON = 20;

async function call<T>(base: string, method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? null : await res.json()) as T;
}

async function person(base: string, tag: string, n: number): Promise<{ email: string; token: string }> {
  const email = `fanout-${tag}-${n}@bench.example`;
  await call(base, 'POST', '/api/auth/signup', null, { email, password: PASSWORD, fullName: `Fanout Person ${n}` });
  const session = await call<{ access_token: string }>(base, 'POST', '/api/auth/token?grant_type=password', null, {
    email,
    password: PASSWORD,
  });
  return { email, token: session.access_token };
}

interface Stream {
  req: ClientRequest;
  /** Resolves when the stream has its 'ready' event. */
  ready: Promise<void>;
  /** Called with each event name as it arrives. */
  onEvent: (name: string, at: number) => void;
}

function openStream(base: string, token: string, agent: Agent, onEvent: (name: string, at: number) => void): Stream {
  let resolveReady!: () => void;
  let rejectReady!: (e: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  const stream: Stream = { req: null as unknown as ClientRequest, ready, onEvent };
  const req = request(`${base}/api/events`, {
    agent,
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
  });
  stream.req = req;
  req.on('response', (res) => {
    if (res.statusCode !== 200) {
      rejectReady(new Error(`/api/events answered ${res.statusCode}`));
      res.resume();
      return;
    }
    res.setEncoding('utf8');
    let buffer = '';
    res.on('data', (chunk: string) => {
      const at = performance.now();
      buffer += chunk;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        // Named events ('ready', 'resync') carry an event line; domain events are data only, their type inside.
        const name = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (name === 'ready') resolveReady();
        else if (name) stream.onEvent(name, at);
        else if (data) stream.onEvent((JSON.parse(data) as { type?: string }).type ?? '', at);
        end = buffer.indexOf('\n\n');
      }
    });
  });
  req.on('error', (e) => rejectReady(e));
  req.end();
  return stream;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : Number.NaN;

export async function measureFanout(opts: {
  url: string;
  streams: number;
  changes: number;
  rssMb: () => number;
  tag?: string;
}): Promise<FanoutRun> {
  const tag = opts.tag ?? `${Date.now().toString(36)}`;
  const people = Math.ceil(opts.streams / STREAMS_PER_PERSON);
  const owner = await person(opts.url, tag, 0);
  const team = await call<{ id: string }>(opts.url, 'POST', '/api/teams', owner.token, { name: `Fanout ${tag}` });
  const members: { email: string; token: string }[] = [];
  for (let n = 1; n < people; n++) {
    const p = await person(opts.url, tag, n);
    const invitation = await call<{ id: string }>(opts.url, 'POST', `/api/teams/${team.id}/invitations`, owner.token, {
      email: p.email,
      role: 'member',
    });
    await call(opts.url, 'POST', `/api/invitations/${invitation.id}/respond`, p.token, { accept: true });
    members.push(p);
  }
  const everyone = [owner, ...members];

  const rssIdleMb = opts.rssMb();
  let rssMaxMb = rssIdleMb;
  const sampler = setInterval(() => {
    rssMaxMb = Math.max(rssMaxMb, opts.rssMb());
  }, 100);
  const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  // Each change's project name, and when each stream saw it.
  let current: { sentAt: number; seen: number[] } | null = null;
  const latencies: number[] = [];
  let complete = 0;
  const streams: Stream[] = [];
  const openedAt = performance.now();
  try {
    for (let i = 0; i < opts.streams; i++) {
      const who = everyone[i % everyone.length]!;
      const index = i;
      streams.push(
        openStream(opts.url, who.token, agent, (name, at) => {
          if (name === 'project.created' && current && current.seen[index] === undefined)
            current.seen[index] = at - current.sentAt;
        }),
      );
    }
    await Promise.all(streams.map((s) => s.ready));
    const openSeconds = (performance.now() - openedAt) / 1000;
    const counts = new Array<number>(opts.streams).fill(0);
    for (let c = 0; c < opts.changes; c++) {
      current = { sentAt: performance.now(), seen: [] };
      await call(opts.url, 'POST', '/api/projects', owner.token, { name: `Fanout change ${c}`, teamId: team.id });
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && current.seen.filter((v) => v !== undefined).length < opts.streams) {
        await new Promise((r) => setTimeout(r, 5));
      }
      current.seen.forEach((ms, i) => {
        if (ms !== undefined) {
          latencies.push(ms);
          counts[i]!++;
        }
      });
      await new Promise((r) => setTimeout(r, 200));
    }
    complete = counts.filter((n) => n === opts.changes).length;
    latencies.sort((a, b) => a - b);
    return {
      streams: opts.streams,
      people,
      changes: opts.changes,
      complete,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? Number.NaN,
      rssIdleMb,
      rssMaxMb,
      openSeconds,
    };
  } finally {
    clearInterval(sampler);
    for (const s of streams) s.req.destroy();
    agent.destroy();
  }
}
