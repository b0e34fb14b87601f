import { mkdirSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { axeViolations } from './fixtures';

/**
 * Swagger UI draws a long document's operations as they scroll into view (and drops those that leave it: past 127
 * operations, only the first six were in the page at once). So: scroll from the top to the end, a screen at a time,
 * collecting the operation ids drawn, until they are the document's.
 */
async function expectEveryOperationDrawn(page: Page, operations: string[]) {
  await expect
    .poll(
      async () => {
        const seen = new Set<string>();
        await page.evaluate(() => window.scrollTo(0, 0));
        for (let atEnd = false; !atEnd; ) {
          await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
          for (const id of await page.locator('.opblock').evaluateAll((els) => els.map((el) => el.id))) seen.add(id);
          atEnd = await page.evaluate(() => {
            const before = window.scrollY;
            window.scrollBy(0, window.innerHeight * 0.8);
            return window.scrollY === before;
          });
        }
        await page.evaluate(() => window.scrollTo(0, 0));
        return [...seen].sort();
      },
      { timeout: 60_000 },
    )
    .toEqual(operations);
}

/** Scrolls down a screen at a time until Swagger UI has drawn the operation with this element id, then to it. */
async function scrollToOperation(page: Page, id: string) {
  const operation = page.locator(`#${id}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect
    .poll(
      async () => {
        if ((await operation.count()) > 0) return true;
        await page.evaluate(() => window.scrollBy(0, window.innerHeight * 0.8));
        return false;
        // A screen a step: the document grows with every issue, so the walk may take many steps (not a time limit).
      },
      { timeout: 60_000, intervals: [100] },
    )
    .toBe(true);
  await operation.scrollIntoViewIfNeeded();
}

/**
 * /api/docs in a real browser: Swagger UI renders the document from files of this server, under its CSP (a blocked
 * script or style would leave the page empty or log a violation), and reaches no other origin.
 */
test('the API reference renders every operation, locally and under the CSP', async ({ page, request, baseURL }) => {
  mkdirSync('/tmp/shots-openapi', { recursive: true });
  const violations: string[] = [];
  const consoleErrors: string[] = [];
  const foreign: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.protocol.startsWith('http') && url.origin !== new URL(baseURL ?? '').origin) foreign.push(req.url());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { cspViolations: string[] }).cspViolations ??= [];
      (window as unknown as { cspViolations: string[] }).cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });

  const doc = (await (await request.get('/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, { operationId: string; tags: string[] }>>;
  };
  // Swagger UI's element id of each operation: operations-<its tag>-<its operationId>.
  const operations = Object.values(doc.paths)
    .flatMap((item) => Object.values(item).map((op) => `operations-${op.tags[0]}-${op.operationId}`))
    .sort();

  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/api/docs');
  await expect(page).toHaveTitle('Crewboard API reference');
  await expect(page.getByRole('heading', { name: /Crewboard API/ })).toBeVisible();
  // Every operation of the document is on the page (tags expanded: docExpansion 'list').
  await expectEveryOperationDrawn(page, operations);
  await scrollToOperation(page, 'operations-tasks-createTask');
  await expect(page.getByText('Create a task', { exact: true })).toBeVisible();
  // The bearer scheme, with both kinds of token, behind 'Authorize'.
  await page
    .getByRole('button', { name: /Authorize/ })
    .first()
    .click();
  const authorize = page.locator('.dialog-ux');
  await expect(authorize.getByText('bearerAuth (http, Bearer)')).toBeVisible();
  await expect(authorize.getByText(/Authorization: Bearer cb_/)).toBeVisible();
  await page.screenshot({ path: '/tmp/shots-openapi/api-docs-authorize.png' });
  await page.keyboard.press('Escape');

  violations.push(...((await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations)) ?? []));
  expect(violations, 'CSP violations').toEqual([]);
  expect(consoleErrors.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
  expect(foreign, 'requests to other origins').toEqual([]);

  // Accessible in both colour schemes, folded and with an operation open (the theme: openapi.theme.ts).
  expect(await axeViolations(page), 'axe, light').toEqual([]);
  await scrollToOperation(page, 'operations-tasks-createTask');
  await page.getByText('Create a task', { exact: true }).click();
  const createTask = page.locator('#operations-tasks-createTask');
  await expect(createTask.getByText('Request body')).toBeVisible();
  expect(await axeViolations(page), 'axe, light, an operation open').toEqual([]);
  await createTask.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/shots-openapi/api-docs.png' });

  // Swagger UI has no dark theme without its top bar's toggle: in a dark system it stays light, and must stay readable.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await expectEveryOperationDrawn(page, operations);
  expect(await axeViolations(page), 'axe, dark').toEqual([]);
  await page.screenshot({ path: '/tmp/shots-openapi/api-docs-dark.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: '/tmp/shots-openapi/api-docs-390.png' });
});
