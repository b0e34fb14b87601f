import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TeamDto } from '../../src/domain/schemas/team';
import { TASK_PRIORITIES, TASK_STATUSES } from '../../src/domain/constants';
import { addDays, localDate } from '../../src/domain/task-filters';
import { apiAs, createUser, expect, signIn, test } from './fixtures';

/**
 * The board with 2,000 tasks: how long it takes to show and whether dragging stays smooth.
 * Slow (it seeds 2,000 tasks through the API), so it runs only with TASKS_PERF=1.
 * Screenshots of the page in light, dark and at 390 px wide with TASKS_SHOTS=1.
 */
test.describe('tasks board at scale', () => {
  test.skip(!process.env.TASKS_PERF && !process.env.TASKS_SHOTS, 'set TASKS_PERF=1 or TASKS_SHOTS=1');
  test.setTimeout(600_000);

  test('2,000 tasks: time to show the board, and frame times while dragging', async ({ page, request }) => {
    const n = process.env.TASKS_PERF ? 2000 : 40;
    const owner = await createUser(request, { fullName: 'Pat Perf' });
    const mate = await createUser(request, { fullName: 'Quinn Mate' });
    const team = await apiAs<TeamDto>(request, owner, 'post', '/api/teams', { name: 'Scale Crew' });
    const inv = await apiAs<{ id: string }>(request, owner, 'post', `/api/teams/${team.id}/invitations`, { email: mate.email, role: 'member' });
    await apiAs(request, mate, 'post', `/api/invitations/${inv.id}/respond`, { accept: true });
    const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Big Board', teamId: team.id });
    const today = localDate(new Date());
    const started = Date.now();
    const body = (i: number) => ({
      title: `Task ${String(i).padStart(4, '0')} ${['Fix', 'Build', 'Review', 'Plan'][i % 4]} the ${['login', 'board', 'api', 'docs', 'tests'][i % 5]}`,
      description: i % 3 ? `Description of task ${i}, long enough to wrap onto a second line of the card and be clamped there.` : undefined,
      projectId: project.id,
      status: TASK_STATUSES[i % 4],
      priority: TASK_PRIORITIES[i % 4],
      assigneeId: i % 2 ? mate.id : undefined,
      dueDate: i % 5 ? addDays(today, (i % 30) - 10) : undefined,
      tags: i % 4 ? ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].slice(0, i % 6) : [],
    });
    for (let i = 0; i < n; i += 20) {
      await Promise.all(Array.from({ length: Math.min(20, n - i) }, (_, k) => apiAs(request, owner, 'post', '/api/tasks', body(i + k))));
    }
    console.log(`seeded ${n} tasks in ${Date.now() - started} ms`);

    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, owner);

    // In-app navigation from the dashboard (lazy chunk + 4 column requests + render).
    await expect(page.getByText('Welcome back!').first()).toBeVisible();
    // Let the dashboard settle (the realtime stream keeps the network busy, so no 'networkidle').
    await page.waitForTimeout(2000);
    // In the page: when the 200th card is in the DOM, and how much main-thread time long tasks took.
    const clickAt = await page.evaluate((want) => {
      const w = window as unknown as { __boardAt?: number; __busy: number };
      w.__busy = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__busy += e.duration;
      }).observe({ type: 'longtask' });
      const obs = new MutationObserver(() => {
        if (document.querySelectorAll('[data-testid="task-card"]').length >= want) {
          w.__boardAt = performance.now();
          obs.disconnect();
        }
      });
      obs.observe(document.body, { childList: true, subtree: true });
      return performance.now();
    }, Math.min(200, n));
    let t0 = Date.now();
    await page.getByRole('link', { name: 'Tasks' }).first().click();
    const perColumn = Math.min(50, n / 4);
    for (const s of ['todo', 'in_progress', 'review', 'completed']) {
      await expect(page.getByTestId(`column-${s}`).getByTestId('task-card')).toHaveCount(perColumn);
    }
    const navMs = Date.now() - t0;
    const inPage = await page.evaluate((from) => {
      const w = window as unknown as { __boardAt?: number; __busy: number };
      return { cardsInDomMs: Math.round((w.__boardAt ?? Number.NaN) - from), longTaskMs: Math.round(w.__busy) };
    }, clickAt);
    // When the four column responses had arrived, from the click.
    const apiDoneMs = await page.evaluate(
      (from) =>
        Math.round(
          Math.max(
            ...performance
              .getEntriesByType('resource')
              .filter((e) => e.name.includes('/api/tasks?') && e.startTime >= from)
              .map((e) => (e as PerformanceResourceTiming).responseEnd - from),
          ),
        ),
      clickAt,
    );
    await expect(page.getByTestId('column-todo').getByTestId('column-count')).toHaveText(`${n / 4} tasks`);

    // A full reload of /tasks.
    t0 = Date.now();
    await page.reload();
    for (const s of ['todo', 'in_progress', 'review', 'completed']) {
      await expect(page.getByTestId(`column-${s}`).getByTestId('task-card')).toHaveCount(perColumn);
    }
    const reloadMs = Date.now() - t0;
    const payload = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('/api/tasks?'))
        .map((e) => Math.round((e as PerformanceResourceTiming).transferSize)),
    );

    // 'Show more' in a column.
    t0 = Date.now();
    if (n > 200) {
      await page.getByTestId('column-todo').getByRole('button', { name: /Show more/ }).click();
      await expect(page.getByTestId('column-todo').getByTestId('task-card')).toHaveCount(100);
    }
    const moreMs = Date.now() - t0;

    // Frame times while dragging a card across the board with the mouse.
    await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __long: number[]; __run: boolean };
      w.__frames = [];
      w.__long = [];
      w.__run = true;
      let last = performance.now();
      const tick = (now: number) => {
        w.__frames.push(now - last);
        last = now;
        if (w.__run) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__long.push(e.duration);
      }).observe({ type: 'longtask', buffered: false });
    });
    await page.getByTestId('column-todo').getByTestId('task-card').nth(3).scrollIntoViewIfNeeded();
    const cardBox = await page.getByTestId('column-todo').getByTestId('task-card').nth(3).boundingBox();
    const column = await page.getByTestId('column-in_progress').boundingBox();
    // The drop point: the In Progress column, level with the card (the page may be scrolled).
    const target = { x: column!.x, y: cardBox!.y - 100, width: column!.width };
    const dragStart = Date.now();
    await page.mouse.move(cardBox!.x + 40, cardBox!.y + 20);
    await page.mouse.down();
    await page.mouse.move(cardBox!.x + 60, cardBox!.y + 30, { steps: 4 });
    await page.mouse.move(target.x + 100, target.y + 200, { steps: 60 });
    await page.mouse.move(cardBox!.x + 100, cardBox!.y + 250, { steps: 60 });
    await page.mouse.move(target.x + 120, target.y + 150, { steps: 60 });
    await page.mouse.up();
    const dragMs = Date.now() - dragStart;
    const { frames, longTasks } = await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __long: number[]; __run: boolean };
      w.__run = false;
      return { frames: w.__frames.slice(1), longTasks: w.__long };
    });
    const sorted = [...frames].sort((a, b) => a - b);
    const p = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;
    const report = {
      tasks: n,
      inAppNavigationToBoardMs: navMs,
      columnResponsesDoneMs: apiDoneMs,
      allCardsInDomMs: inPage.cardsInDomMs,
      mainThreadLongTaskMsDuringLoad: inPage.longTaskMs,
      reloadToBoardMs: reloadMs,
      showMoreMs: moreMs,
      columnResponseBytes: payload,
      drag: {
        durationMs: dragMs,
        frames: frames.length,
        medianFrameMs: p(0.5),
        p95FrameMs: p(0.95),
        maxFrameMs: p(1),
        framesOver50ms: frames.filter((f) => f > 50).length,
        longTasks: longTasks.length,
        longestTaskMs: Math.round(Math.max(0, ...longTasks)),
      },
    };
    console.log(JSON.stringify(report, null, 2));
    await expect(page.getByTestId('column-in_progress').getByTestId('column-count')).toHaveText(`${n / 4 + 1} tasks`);
    // Loose bounds: this runs on shared, busy machines.
    expect(inPage.cardsInDomMs).toBeLessThan(10_000);
    expect(report.drag.medianFrameMs).toBeLessThanOrEqual(34);
  });

  test('screenshots: board and list, light and dark, 390 px', async ({ page, request }) => {
    test.skip(!process.env.TASKS_SHOTS, 'set TASKS_SHOTS=1');
    const owner = await createUser(request, { fullName: 'Sky Shots' });
    const team = await apiAs<TeamDto>(request, owner, 'post', '/api/teams', { name: 'Shots' });
    const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Website', teamId: team.id });
    const today = localDate(new Date());
    const tasks = [
      { title: 'Design the landing page', description: 'Hero, pricing table, footer and a contact form that really sends mail to the inbox of the team.', priority: 'high', tags: ['design', 'web', 'marketing', 'q1'], dueDate: addDays(today, 3), assigneeId: owner.id },
      { title: 'Fix login redirect', priority: 'urgent', status: 'in_progress', dueDate: addDays(today, -2), tags: ['bug'] },
      { title: 'Write API docs', priority: 'low', status: 'review', description: 'OpenAPI is generated; add examples.' },
      { title: 'Set up CI', status: 'todo', priority: 'medium', dueDate: today },
    ];
    for (const t of tasks) await apiAs(request, owner, 'post', '/api/tasks', { projectId: project.id, ...t });
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, owner);
    await page.goto('/tasks');
    await expect(page.getByTestId('task-card')).toHaveCount(4);
    await page.screenshot({ path: '/tmp/t5-board-light.png' });
    await page.getByRole('button', { name: 'More Filters' }).click();
    await page.getByLabel('Priority', { exact: true }).selectOption('urgent');
    await expect(page.getByTestId('task-card')).toHaveCount(1);
    await page.screenshot({ path: '/tmp/t5-filters-light.png' });
    await page.getByRole('button', { name: 'Clear All' }).click();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: '/tmp/t5-board-dark.png' });
    await page.getByRole('button', { name: 'List' }).click();
    await page.getByRole('table').getByRole('button', { name: 'Priority' }).click();
    await page.screenshot({ path: '/tmp/t5-list-dark.png' });
    await page.getByRole('table').getByRole('button', { name: 'Design the landing page' }).click();
    await page.screenshot({ path: '/tmp/t5-modal-dark.png' });
    await page.keyboard.press('Escape');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    const collapse = page.getByRole('button', { name: 'Collapse sidebar' });
    if (await collapse.isVisible()) await collapse.click();
    await page.getByRole('button', { name: 'Board' }).click();
    await page.screenshot({ path: '/tmp/t5-board-390.png', fullPage: true });
    await page.getByRole('button', { name: 'New Task' }).click();
    await page.screenshot({ path: '/tmp/t5-modal-390.png' });
  });
});
