import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { axeViolations } from './fixtures';

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

  const doc = (await (await request.get('/api/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
  const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);

  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/api/docs');
  await expect(page).toHaveTitle('Crewboard API reference');
  await expect(page.getByRole('heading', { name: /Crewboard API/ })).toBeVisible();
  // Every operation of the document is on the page (tags expanded: docExpansion 'list').
  await expect(page.locator('.opblock')).toHaveCount(operations);
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
  await page.getByText('Create a task', { exact: true }).click();
  const createTask = page.locator('#operations-tasks-createTask');
  await expect(createTask.getByText('Request body')).toBeVisible();
  expect(await axeViolations(page), 'axe, light, an operation open').toEqual([]);
  await createTask.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/shots-openapi/api-docs.png' });

  // Swagger UI has no dark theme without its top bar's toggle: in a dark system it stays light, and must stay readable.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await expect(page.locator('.opblock')).toHaveCount(operations);
  expect(await axeViolations(page), 'axe, dark').toEqual([]);
  await page.screenshot({ path: '/tmp/shots-openapi/api-docs-dark.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: '/tmp/shots-openapi/api-docs-390.png' });
});
