import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { createUser, expect, signIn, test } from './fixtures';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function audit(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(WCAG).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  console.log(`axe ${label}: ${results.violations.length} violations`);
  expect(summary, `axe violations on ${label}`).toEqual([]);
}

const PUBLIC_ROUTES = ['/login', '/signup'];
const APP_ROUTES = ['/dashboard', '/tasks', '/projects', '/teams', '/notes', '/calendar', '/analytics', '/settings', '/notifications'];

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`accessibility (${scheme})`, () => {
    test.use({ colorScheme: scheme });

    test('public pages have no WCAG A/AA violations', async ({ page }) => {
      for (const route of PUBLIC_ROUTES) {
        await page.goto(route);
        await expect(page.getByRole('heading').first()).toBeVisible();
        await audit(page, `${route} (${scheme})`);
      }
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign in with Email' }).click();
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await audit(page, `/login sign-in form with errors (${scheme})`);
      await page.getByRole('button', { name: 'Back to options' }).click();
      await page.getByRole('button', { name: 'Sign up with Email' }).click();
      await audit(page, `/login sign-up form (${scheme})`);
    });

    test('app pages and menus have no WCAG A/AA violations', async ({ page, request }) => {
      const user = await createUser(request);
      await signIn(page, user);
      for (const route of APP_ROUTES) {
        await page.goto(route);
        await expect(page.locator('main h1').first()).toBeVisible();
        await page.waitForLoadState('networkidle');
        await audit(page, `${route} (${scheme})`);
      }
      await page.goto('/dashboard');
      await page.getByRole('button', { name: 'User menu' }).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await audit(page, `user menu (${scheme})`);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: /^Notifications/ }).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await audit(page, `notifications menu (${scheme})`);
      await page.keyboard.press('Escape');
    });
  });
}
