import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { TASK_PRIORITIES, TASK_STATUSES } from '../../src/domain/constants';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import type { TeamDto } from '../../src/domain/schemas/team';
import type { TimelineAnswer } from '../../src/domain/schemas/timeline';
import { addDays, localDate } from '../../src/domain/task-filters';
import { apiAs, createUser, type E2EUser, expect, signIn, test } from './fixtures';

/**
 * The timeline at its design size (issue 37, decision 0025: 2,000 dated tasks and 500 dependency arrows), in Chromium,
 * modelled on tasks-perf.spec.ts.
 *
 * Opt-in (it seeds 2,000 tasks and 500 dependencies through the API): TIMELINE_PERF=1. Options:
 * - TIMELINE_PERF_REPEATS: cold loads and drags (default 3); medians are reported.
 * - TIMELINE_PERF_OUT: where the figures go as JSON (default bench/results/browser-latest.json, key `timeline`).
 *
 * At 1440×900 it measures:
 * - cold first screen: a new browser process (new profile, empty cache, nothing compiled) with the stored session,
 *   page.goto('/timeline?teamId=…'); from navigation start to the first bar in the DOM and to the first paint after it.
 *   Target: under 1 s (median).
 * - a bar drag: the pointer down on a bar's middle, moved 10 days (later, or earlier where there is no room) in small
 *   steps and 3 days back, released; the long tasks (PerformanceObserver 'longtask': main-thread tasks over 50 ms)
 *   while the pointer moves, and after the drop until the save has answered; every frame's duration from
 *   requestAnimationFrame. Target: no long task while dragging.
 */

const REPEATS = Math.max(1, Number(process.env.TIMELINE_PERF_REPEATS ?? 3) || 3);
const OUT = process.env.TIMELINE_PERF_OUT ?? 'bench/results/browser-latest.json';
const VIEWPORT = { width: 1440, height: 900 };
const TASKS = 2000;
const DEPENDENCIES = 500;
const BAR = '[aria-roledescription="timeline bar"]';

interface TimelineWatch {
  firstBarAt?: number;
  firstBarPaintedAt?: number;
  longTaskMs: number;
  longTasks: number;
}

/** In the page, before its scripts: notes when the first bar is in the DOM, and the first paint after it. */
function watchTimeline(selector: string) {
  const w = window as unknown as { __timeline: TimelineWatch };
  const watch: TimelineWatch = { longTaskMs: 0, longTasks: 0 };
  w.__timeline = watch;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (watch.firstBarPaintedAt !== undefined) continue;
      watch.longTaskMs += e.duration;
      watch.longTasks += 1;
    }
  }).observe({ type: 'longtask' });
  const obs = new MutationObserver(() => {
    if (!document.querySelector(selector)) return;
    watch.firstBarAt = performance.now();
    obs.disconnect();
    // rAF runs before the frame is painted; a task posted from it runs after that paint.
    requestAnimationFrame(() =>
      setTimeout(() => {
        watch.firstBarPaintedAt = performance.now();
        console.log('crewboard-perf: timeline painted');
      }, 0),
    );
  });
  obs.observe(document, { childList: true, subtree: true });
}

interface LoadFigures {
  firstBarMs: number;
  firstBarPaintedMs: number;
  timelineResponseMs: number | null;
  longTaskMs: number;
  longTasks: number;
  bars: number;
  arrows: number;
  domNodes: number;
}

/** A new browser process, the stored session, straight to the timeline. */
async function coldLoad(
  browser: Browser,
  baseURL: string,
  state: Awaited<ReturnType<BrowserContext['storageState']>>,
  url: string,
) {
  const context = await browser.newContext({ baseURL, storageState: state, viewport: VIEWPORT });
  try {
    await context.addInitScript(watchTimeline, BAR);
    const page = await context.newPage();
    const painted = page.waitForEvent('console', {
      predicate: (m) => m.text() === 'crewboard-perf: timeline painted',
      timeout: 60_000,
    });
    painted.catch(() => {});
    await page.goto(url);
    await painted;
    return await page.evaluate(
      ({ bar }) => {
        const t = (window as unknown as { __timeline: TimelineWatch }).__timeline;
        const answer = performance
          .getEntriesByType('resource')
          .filter((e) => e.name.includes('/api/timeline'))
          .map((e) => (e as PerformanceResourceTiming).responseEnd);
        return {
          firstBarMs: Math.round(t.firstBarAt!),
          firstBarPaintedMs: Math.round(t.firstBarPaintedAt!),
          timelineResponseMs: answer.length ? Math.round(Math.min(...answer)) : null,
          longTaskMs: Math.round(t.longTaskMs),
          longTasks: t.longTasks,
          bars: document.querySelectorAll(bar).length,
          arrows: document.querySelectorAll('path[data-testid="timeline-arrow"]').length,
          domNodes: document.getElementsByTagName('*').length,
        } satisfies LoadFigures;
      },
      { bar: BAR },
    );
  } finally {
    await context.close();
  }
}

interface DragFigures {
  frames: number;
  medianFrameMs: number;
  maxMoveFrameMs: number;
  /** Long tasks while the pointer moved (the target: none), and from the drop until the save answered. */
  moveLongTasks: number;
  longestMoveTaskMs: number;
  dropLongTasks: number;
  longestDropTaskMs: number;
  saveStatus: number;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Drags the `nth` wide bar in view 10 days later and 3 back, or earlier where it has no room (a move: by its middle). */
async function dragOnce(page: Page, nth: number): Promise<DragFigures> {
  const chart = page.getByRole('region', { name: 'Timeline chart' });
  // A bar wide enough to hold by its middle, inside the chart's visible part (right of the sticky task names, about
  // 230 px), with room to move right; the chart scrolled to its start, where the first rows' bars are.
  await chart.evaluate((el) => el.scrollTo({ left: 0, top: 0 }));
  await page.waitForTimeout(300);
  const { index, way, seen } = await chart.evaluate(
    (el, { bar, nth }) => {
      const box = el.getBoundingClientRect();
      const plotLeft = box.left + 240;
      const bars = [...el.querySelectorAll(bar)].map((b) => b.getBoundingClientRect());
      const fits = bars
        .map((r, i) => ({ r, i }))
        .filter(({ r }) => r.width >= 24 && r.left >= plotLeft && r.right <= box.right)
        .filter(({ r }) => r.right + 150 <= box.right || r.left - 150 >= plotLeft)
        .filter(({ r }) => r.top >= box.top + 30 && r.bottom <= box.bottom - 10);
      const seen = `${bars.length} bars, chart ${JSON.stringify(box)}, first ${JSON.stringify(bars.slice(0, 3))}`;
      const pick = fits[nth % Math.max(1, fits.length)];
      // Later when there is room on the right, else earlier.
      const way = pick && pick.r.right + 150 <= box.right ? 1 : -1;
      return { index: pick?.i ?? -1, way, seen };
    },
    { bar: BAR, nth },
  );
  expect(index, `a bar to drag in view (${seen})`).toBeGreaterThanOrEqual(0);
  const bar = chart.locator(BAR).nth(index);
  const box = (await bar.boundingBox())!;
  await page.evaluate(() => {
    const w = window as unknown as { __drag: { t: number[]; long: { at: number; ms: number }[]; run: boolean } };
    const drag: (typeof w)['__drag'] = { t: [], long: [], run: true };
    w.__drag = drag;
    const tick = (now: number) => {
      drag.t.push(now);
      if (drag.run) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) drag.long.push({ at: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask' });
  });
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  // Month zoom: 14 px a day.
  const downAt = await page.evaluate(() => performance.now());
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + way * 140, y, { steps: 60 });
  await page.mouse.move(x + way * 98, y, { steps: 30 });
  const upAt = await page.evaluate(() => performance.now());
  const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && /\/api\/tasks\/[^/]+$/.test(r.url()), {
    timeout: 15_000,
  });
  await page.mouse.up();
  const response = await saved;
  await page.waitForTimeout(300);
  const { t, long } = await page.evaluate(() => {
    const d = (window as unknown as { __drag: { t: number[]; long: { at: number; ms: number }[]; run: boolean } }).__drag;
    d.run = false;
    return d;
  });
  const frames = t.slice(1).map((now, i) => now - t[i]!);
  const moveFrames = frames.filter((_, i) => t[i + 1]! <= upAt);
  const moving = long.filter((l) => l.at >= downAt && l.at < upAt);
  const dropping = long.filter((l) => l.at >= upAt);
  return {
    frames: frames.length,
    medianFrameMs: round1(median(frames)),
    maxMoveFrameMs: round1(Math.max(0, ...moveFrames)),
    moveLongTasks: moving.length,
    longestMoveTaskMs: Math.round(Math.max(0, ...moving.map((l) => l.ms))),
    dropLongTasks: dropping.length,
    longestDropTaskMs: Math.round(Math.max(0, ...dropping.map((l) => l.ms))),
    saveStatus: response.status(),
  };
}

/** Runs `n` jobs, `concurrency` at a time. */
async function inParallel(n: number, job: (i: number) => Promise<unknown>, concurrency = 16) {
  let next = 0;
  const worker = async () => {
    while (next < n) await job(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * 2,000 dated tasks in four projects of one team, overlapping the Month zoom's window (bars, and milestones with a due
 * date only), then 500 dependencies, each task blocked by one made before it (no cycle).
 */
async function seedTimeline(request: APIRequestContext, owner: E2EUser, projectIds: string[]) {
  const today = localDate(new Date());
  const ids: string[] = new Array(TASKS);
  await inParallel(TASKS, async (i) => {
    const start = (i * 37) % 90;
    const milestone = i % 5 === 0;
    const task = await apiAs<TaskDto>(request, owner, 'post', '/api/tasks', {
      title: `Plan ${['launch', 'audit', 'migration', 'review', 'release'][i % 5]} ${String(i).padStart(4, '0')}`,
      projectId: projectIds[i % projectIds.length],
      status: TASK_STATUSES[i % 4],
      priority: TASK_PRIORITIES[i % 4],
      startDate: milestone ? undefined : addDays(today, start - 30),
      dueDate: addDays(today, start - 30 + (milestone ? 0 : 2 + (i % 12))),
    });
    ids[i] = task.id;
  });
  const pairs = new Map<string, [number, number]>();
  for (let k = 0; pairs.size < DEPENDENCIES; k++) {
    const blocked = 1 + ((k * 7919) % (TASKS - 1));
    const blocker = (k * 104_729) % blocked;
    pairs.set(`${blocked} ${blocker}`, [blocked, blocker]);
  }
  const edges = [...pairs.values()];
  await inParallel(DEPENDENCIES, async (k) => {
    const [blocked, blocker] = edges[k]!;
    await apiAs(request, owner, 'post', `/api/tasks/${ids[blocked]}/dependencies`, { blockedBy: ids[blocker] });
  });
  return ids;
}

function writeFigures(figures: unknown) {
  mkdirSync(dirname(OUT), { recursive: true });
  let doc: Record<string, unknown> = {};
  if (existsSync(OUT)) {
    try {
      doc = JSON.parse(readFileSync(OUT, 'utf8'));
    } catch {
      doc = {};
    }
  }
  doc.timeline = figures;
  writeFileSync(OUT, `${JSON.stringify(doc, null, 2)}\n`);
}

// A trace records a DOM snapshot in the page at every action: measure the app, not the recorder.
test.use({ trace: 'off' });

test('timeline at 2,000 tasks and 500 dependencies: cold first screen, and long tasks while dragging a bar', async ({
  page,
  request,
  baseURL,
  playwright,
  launchOptions,
}) => {
  test.skip(!process.env.TIMELINE_PERF, 'set TIMELINE_PERF=1');
  test.setTimeout(600_000);
  const owner = await createUser(request, { fullName: 'Tia Timeline' });
  const team = await apiAs<TeamDto>(request, owner, 'post', '/api/teams', { name: 'Roadmap Crew' });
  const projectIds: string[] = [];
  for (const name of ['Apollo', 'Borealis', 'Cassini', 'Dawn']) {
    projectIds.push((await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name, teamId: team.id })).id);
  }
  const seedStart = Date.now();
  await seedTimeline(request, owner, projectIds);
  const seedMs = Date.now() - seedStart;
  const today = localDate(new Date());
  const answer = await apiAs<TimelineAnswer>(
    request,
    owner,
    'get',
    `/api/timeline?teamId=${team.id}&from=${addDays(today, -60)}&to=${addDays(today, 90)}`,
  );
  expect(answer.tasks).toHaveLength(TASKS);
  expect(answer.dependencies).toHaveLength(DEPENDENCIES);

  await page.setViewportSize(VIEWPORT);
  await signIn(page, owner);
  const state = await page.context().storageState();
  const url = `/timeline?teamId=${team.id}&zoom=month`;

  const cold: LoadFigures[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const own = await playwright.chromium.launch(launchOptions);
    try {
      cold.push(await coldLoad(own, baseURL!, state, url));
    } finally {
      await own.close();
    }
  }

  writeFigures({ freshBrowser: { medianFirstBarPaintedMs: median(cold.map((r) => r.firstBarPaintedMs)), runs: cold } });
  console.log(`timeline cold loads: ${JSON.stringify(cold)}`);

  await page.goto(url);
  const chart = page.getByRole('region', { name: 'Timeline chart' });
  await expect(chart.locator(BAR).first()).toBeVisible();
  await page.waitForTimeout(1000);
  const drags: DragFigures[] = [];
  for (let i = 0; i < REPEATS; i++) {
    drags.push(await dragOnce(page, i));
    await page.waitForTimeout(500);
  }

  const pick = <T extends object>(rows: T[], key: keyof T) => median(rows.map((r) => Number(r[key])));
  const summary = {
    tasks: TASKS,
    dependencies: DEPENDENCIES,
    measuredAt: new Date().toISOString(),
    loadAverage1m: round1(loadavg()[0]!),
    repeats: REPEATS,
    seedMs,
    freshBrowser: {
      medianFirstBarPaintedMs: pick(cold, 'firstBarPaintedMs'),
      minFirstBarPaintedMs: Math.min(...cold.map((r) => r.firstBarPaintedMs)),
      maxFirstBarPaintedMs: Math.max(...cold.map((r) => r.firstBarPaintedMs)),
      medianFirstBarMs: pick(cold, 'firstBarMs'),
      medianTimelineResponseMs: pick(cold, 'timelineResponseMs'),
      medianLongTaskMs: pick(cold, 'longTaskMs'),
      bars: cold[0]!.bars,
      arrows: cold[0]!.arrows,
      domNodes: cold[0]!.domNodes,
      runs: cold,
    },
    drag: {
      moveLongTasks: drags.reduce((sum, d) => sum + d.moveLongTasks, 0),
      longestMoveTaskMs: Math.max(...drags.map((d) => d.longestMoveTaskMs)),
      dropLongTasks: drags.reduce((sum, d) => sum + d.dropLongTasks, 0),
      longestDropTaskMs: Math.max(...drags.map((d) => d.longestDropTaskMs)),
      medianFrameMs: pick(drags, 'medianFrameMs'),
      medianMaxMoveFrameMs: pick(drags, 'maxMoveFrameMs'),
      runs: drags,
    },
  };
  writeFigures(summary);
  console.log(
    `timeline ${TASKS} tasks, ${DEPENDENCIES} dependencies (load ${summary.loadAverage1m}, medians of ${REPEATS}): ` +
      `new browser: first bar painted ${summary.freshBrowser.medianFirstBarPaintedMs} ms ` +
      `(${summary.freshBrowser.minFirstBarPaintedMs}–${summary.freshBrowser.maxFirstBarPaintedMs}; target < 1000), ` +
      `timeline response ${summary.freshBrowser.medianTimelineResponseMs} ms, ${summary.freshBrowser.bars} bars and ` +
      `${summary.freshBrowser.arrows} arrows in the DOM; drag: ${summary.drag.moveLongTasks} long tasks while moving ` +
      `(longest ${summary.drag.longestMoveTaskMs} ms; target none), ${summary.drag.dropLongTasks} after the drop ` +
      `(longest ${summary.drag.longestDropTaskMs} ms), frames median ${summary.drag.medianFrameMs} ms → ${OUT}`,
  );

  // Loose sanity bounds only (shared, busy machines): the targets are read from the report.
  for (const run of cold) {
    expect(run.firstBarMs).toBeGreaterThan(0);
    expect(run.firstBarPaintedMs).toBeGreaterThanOrEqual(run.firstBarMs);
    expect(run.firstBarPaintedMs).toBeLessThan(20_000);
    // Virtualized: far fewer bars in the DOM than tasks.
    expect(run.bars).toBeLessThan(TASKS / 2);
  }
  for (const d of drags) {
    expect(d.saveStatus).toBe(200);
    expect(d.frames).toBeGreaterThan(20);
  }
});
