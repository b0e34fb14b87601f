// The writes a person's client makes in bulk, and the peers' comparable work (issue 42): 1,000 cards created through
// the API with 8 in flight (a seeding, cards/s), 1,000 created one at a time (Planka's `POST /api/lists/:id/cards` done
// in turn), and then those 1,000 cards read back with every card field (Planka's `GET /api/boards/:id`: here the two
// 500-task pages of `GET /api/tasks?projectId=…`). Each into a project of its own, made through the API.
import autocannon from 'autocannon';
import { peakSampler } from './load';

export interface CreationRun {
  cards: number;
  inFlight: number;
  seconds: number;
  cardsPerSecond: number;
  p50: number;
  p99: number;
  failed: number;
  /** The server's own CPU per card (user + system). */
  cpuMsPerCard: number;
  rssMaxMb: number;
}

export interface WritesRun {
  seeding: CreationRun;
  oneAtATime: CreationRun;
  /** The 1,000 cards of the seeded project, read with every field: p50 / p99 of the whole read over `reads` reads. */
  boardRead: { cards: number; reads: number; p50: number; p99: number; wireKb: number; plainKb: number };
}

interface Options {
  url: string;
  token: string;
  teamId: string;
  assigneeIds: string[];
  cards: number;
  reads: number;
  rssMb: () => number;
  cpuMs: () => number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : Number.NaN;

async function newProject(o: Options, name: string): Promise<string> {
  const res = await fetch(`${o.url}/api/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, teamId: o.teamId }),
  });
  if (res.status !== 201) throw new Error(`project create: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** `cards` creations with `inFlight` at a time (autocannon's connections, no pipelining), each card as the bench's creates. */
async function create(o: Options, projectId: string, inFlight: number): Promise<CreationRun> {
  const statuses = ['todo', 'in_progress', 'review', 'completed'];
  let n = 0;
  const latencies: number[] = [];
  let failed = 0;
  const rss = peakSampler(o.rssMb);
  const cpu0 = o.cpuMs();
  const started = performance.now();
  const instance = autocannon({
    url: o.url,
    connections: inFlight,
    amount: o.cards,
    timeout: 30,
    headers: { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        path: '/api/tasks',
        setupRequest: (req: { body?: string }) => {
          const i = n++;
          req.body = JSON.stringify({
            title: `Card ${i + 1}`,
            projectId,
            status: statuses[i % 4],
            priority: 'medium',
            assigneeId: o.assigneeIds[i % o.assigneeIds.length],
            dueDate: new Date(Date.now() + (i % 30) * 86_400_000).toISOString().slice(0, 10),
            tags: ['bench'],
          });
          return req;
        },
      },
    ],
  });
  // The clock stops at the last answer: autocannon settles `amount` runs only at its next one-second tick, which would
  // round every run up to whole seconds (1,000 cards in 3.5 s read as 4.0 s).
  let lastAnswerAt = started;
  instance.on('response', (_c: unknown, status: number, _b: number, ms: number) => {
    lastAnswerAt = performance.now();
    latencies.push(ms);
    if (status !== 201) failed++;
  });
  const result = await instance;
  const seconds = (lastAnswerAt - started) / 1000;
  const rssMaxMb = rss.stop();
  latencies.sort((a, b) => a - b);
  return {
    cards: latencies.length,
    inFlight,
    seconds,
    cardsPerSecond: (latencies.length - failed) / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failed: failed + result.errors + result.timeouts,
    cpuMsPerCard: (o.cpuMs() - cpu0) / Math.max(1, latencies.length),
    rssMaxMb,
  };
}

/** The project's cards with every field, as the list view reads them: pages of 500 in turn, compressed as a browser asks. */
async function readAll(o: Options, projectId: string, cards: number) {
  const times: number[] = [];
  let wire = 0;
  let plain = 0;
  let read = 0;
  for (let i = 0; i < o.reads + 2; i++) {
    const started = performance.now();
    let got = 0;
    for (let offset = 0; offset < cards; offset += 500) {
      const res = await fetch(`${o.url}/api/tasks?projectId=${projectId}&limit=500&offset=${offset}`, {
        headers: { authorization: `Bearer ${o.token}`, 'accept-encoding': 'gzip, deflate, br' },
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`board read: ${res.status} ${text.slice(0, 200)}`);
      got += (JSON.parse(text) as { tasks: unknown[] }).tasks.length;
      if (i === 0) {
        plain += Buffer.byteLength(text);
        wire += Number(res.headers.get('content-length') ?? 0);
      }
    }
    read = got;
    // The first two are warm-up.
    if (i >= 2) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    cards: read,
    reads: times.length,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    wireKb: wire / 1024,
    plainKb: plain / 1024,
  };
}

export async function measureWrites(o: Options): Promise<WritesRun> {
  const seeded = await newProject(o, `Bench seeding ${Date.now()}`);
  const seeding = await create(o, seeded, 8);
  const oneAtATime = await create(o, await newProject(o, `Bench one at a time ${Date.now()}`), 1);
  const boardRead = await readAll(o, seeded, o.cards);
  return { seeding, oneAtATime, boardRead };
}
