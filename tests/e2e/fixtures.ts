import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test as base, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { TASK_STATUS_LABELS, type TaskStatus } from '../../src/domain/constants';
import type { InvitationDto, TeamDto } from '../../src/domain/schemas/team';

export interface E2EUser {
  id: string;
  email: string;
  password: string;
  fullName: string;
  accessToken: string;
}

export const uniqueEmail = (prefix = 'e2e') =>
  `${prefix}.${Date.now().toString(36)}.${randomBytes(4).toString('hex')}@example.com`;

/** Creates a user through the public API (never through store internals). */
export async function createUser(
  request: APIRequestContext,
  overrides: Partial<Pick<E2EUser, 'email' | 'password' | 'fullName'>> = {},
): Promise<E2EUser> {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? 'erin passes 123';
  const fullName = overrides.fullName ?? 'Erin Example';
  const signup = await request.post('/api/auth/signup', { data: { email, password, fullName } });
  expect(signup.status(), await signup.text()).toBe(201);
  const token = await request.post('/api/auth/token?grant_type=password', { data: { email, password } });
  expect(token.status()).toBe(200);
  const session = await token.json();
  return { id: session.user.id, email, password, fullName, accessToken: session.access_token };
}

/** An API call as `user`. */
export async function apiAs<T = unknown>(
  request: APIRequestContext,
  user: E2EUser,
  method: 'get' | 'post' | 'patch' | 'put' | 'delete',
  url: string,
  data?: unknown,
): Promise<T> {
  const res = await request[method](url, { data, headers: { authorization: `Bearer ${user.accessToken}` } });
  expect(res.ok(), `${method.toUpperCase()} ${url} → ${res.status()} ${await res.text()}`).toBeTruthy();
  return (res.status() === 204 ? undefined : await res.json()) as T;
}

/** The login page's email and password, submitted (with two-factor sign-in on, the code step follows). */
export async function submitPassword(page: Page, user: Pick<E2EUser, 'email' | 'password'>) {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with Email' }).click();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Signs in through the login page like a person would, and waits for the dashboard. */
export async function signIn(page: Page, user: Pick<E2EUser, 'email' | 'password'>) {
  await submitPassword(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * Proves "the page asked for nothing more" instead of waiting: after two animation frames (so
 * IntersectionObserver callbacks and the effects they cause have run), the page fetches a sentinel
 * URL; Playwright reports requests in the order the page issues them, so once the sentinel is seen,
 * a `page.on('request')` listener has seen every request issued before it.
 */
export async function requestSentinel(page: Page): Promise<void> {
  const path = `/api/health?sentinel=${randomBytes(4).toString('hex')}`;
  const seen = page.waitForRequest((r) => r.url().endsWith(path));
  await page.evaluate(async (url) => {
    for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
    await fetch(url).then((r) => r.text());
  }, path);
  await seen;
}

/**
 * A gate a routed request waits at until the test opens it, so that what the page shows meanwhile (a
 * loading state, an optimistic move) is asserted while it lasts, instead of making it last a while.
 */
export function gate(): { passed: Promise<void>; open: () => void } {
  let open!: () => void;
  const passed = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { passed, open };
}

/** WCAG 2.2 A and AA, what every axe check of the suite holds the pages to. */
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** axe-core itself, put into a page once (until it navigates) by `axeViolations`. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeWindow {
  axe: {
    run(context: Document | string, options: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
  };
}

/**
 * axe's WCAG A/AA violations on the page as it is now (within `include`, when given), one line each.
 * A colour transition still running (a toggle just pressed, a hover) would be sampled half-way by the
 * contrast check (CI caught the Grid/List toggle of /projects mid-transition, twice): finite animations
 * end first; spinners do not.
 *
 * axe-core runs in the page itself (`axe.run`), put there once per document. `@axe-core/playwright` was
 * 5 to 10 times slower a scan on these pages (it injects axe into every frame at every scan, then opens a
 * new page to merge the results): most of the end-to-end suite's time. The pages have no frames to reach.
 */
export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  const first = await axeScan(page, include);
  if (!first.some((v) => v.startsWith('color-contrast:'))) return first;
  // A theme just switched on a loaded machine can take longer than the frames below to reach every element (the
  // empty column's link was sampled before its dark colours applied, on a machine under load): a contrast
  // finding is checked once more after a pause, and stands only if it is still there.
  await page.waitForTimeout(500);
  return axeScan(page, include);
}

async function axeScan(page: Page, include?: string): Promise<string[]> {
  // Two frames first: a colour scheme just emulated reaches the theme (a media-query listener, then React) a frame or
  // two later, and only then do its colour transitions start (a contrast checked mid-transition failed once in CI).
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    async ({ include, tags }) => {
      const { axe } = window as unknown as AxeWindow;
      const options = { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'], iframes: false };
      return (await axe.run(include ?? document, options)).violations;
    },
    { include, tags: WCAG },
  );
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Where a spec's pictures go (`/tmp/shots-<name>`, made here): null in CI unless E2E_SHOTS=1, and with E2E_SHOTS=0. */
export function shotsDir(name: string): string | null {
  if (process.env.E2E_SHOTS === '0' || (process.env.CI && process.env.E2E_SHOTS !== '1')) return null;
  const dir = `/tmp/shots-${name}`;
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** axe in the light and the dark scheme (ending in light), soft-asserted; a full-page picture of each into `shots`. */
export async function auditBothThemes(page: Page, label: string, shots: string | null): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect.soft(await axeViolations(page), `axe violations on ${label} (${colorScheme})`).toEqual([]);
    if (shots) await page.screenshot({ path: `${shots}/${label}-${colorScheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** `user` joins the team as a member: invited by `owner`, accepted. */
export async function addMember(request: APIRequestContext, owner: E2EUser, teamId: string, user: E2EUser) {
  const inv = await apiAs<InvitationDto>(request, owner, 'post', `/api/teams/${teamId}/invitations`, {
    email: user.email,
    role: 'member',
  });
  await apiAs(request, user, 'post', `/api/invitations/${inv.id}/respond`, { accept: true });
}

/** Olive Owner's team 'Crew One', with Mia Member in it. */
export async function seedCrew(request: APIRequestContext) {
  const owner = await createUser(request, { fullName: 'Olive Owner' });
  const mia = await createUser(request, { fullName: 'Mia Member' });
  const team = await apiAs<TeamDto>(request, owner, 'post', '/api/teams', { name: 'Crew One' });
  await addMember(request, owner, team.id, mia);
  return { owner, mia, team };
}

/** A board column, and a card in it (or anywhere in `scope`). */
export const column = (page: Page, status: TaskStatus) =>
  page.getByRole('region', { name: TASK_STATUS_LABELS[status], exact: true });
export const card = (scope: Page | Locator, title: string) =>
  scope.getByRole('button', { name: title, exact: true }).and(scope.getByTestId('task-card'));

/**
 * Space picks a focused card up (pressed again only if the first press was lost to a busy page), and
 * the board has announced it, so the keyboard sensor is listening for arrows.
 */
export async function pickUp(page: Page, target: Locator, title: string, over: string) {
  await expect(async () => {
    if ((await target.getAttribute('aria-pressed')) !== 'true') {
      await target.focus();
      await page.keyboard.press('Space');
    }
    await expect(target).toHaveAttribute('aria-pressed', 'true', { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(
    page.getByRole('status').getByText(new RegExp(`^(Picked up task ${title}\\.|Task ${title} is over ${over}\\.)$`)),
  ).toBeAttached();
}

/** Drags a card one column at a time by keyboard (Space, arrows, Space). */
export async function dragRight(page: Page, from: Locator, title: string, fromName: string, steps: string[]) {
  await expect(async () => {
    await pickUp(page, card(from, title), title, fromName);
    await page.keyboard.press('ArrowRight');
    await expect(page.getByText(`Task ${title} is over ${steps[0]}.`)).toBeAttached({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  for (const over of steps.slice(1)) {
    await page.keyboard.press('ArrowRight');
    await expect(page.getByText(`Task ${title} is over ${over}.`)).toBeAttached();
  }
  await page.keyboard.press('Space');
}

export const test = base;
export { expect };
