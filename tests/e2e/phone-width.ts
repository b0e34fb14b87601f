import type { Browser, Page, TestInfo } from '@playwright/test';
import { axeViolations, expect } from './fixtures';

type Scheme = 'light' | 'dark';

interface PhoneCheck {
  /** The section axe looks at (a CSS selector, e.g. '#api-tokens'). */
  section: string;
  /** Names the section in the failures: '<label> at 390 px (dark)'. */
  label: string;
  /** Signs in on the new page and brings the section to the state to check (e.g. a token just created). */
  prepare: (page: Page, scheme: Scheme) => Promise<void>;
  /** A picture of it. */
  picture: (page: Page, scheme: Scheme) => Promise<unknown>;
}

/**
 * A section on a phone, in the light and then the dark scheme: each in a new context 390 px wide (loaded there, as on a
 * phone), once `prepare` has done its part and the toasts have gone: the main area is no wider than the screen, and axe
 * finds nothing in the section.
 */
export async function checkAtPhoneWidth(browser: Browser, testInfo: TestInfo, check: PhoneCheck): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({
      baseURL: testInfo.project.use.baseURL,
      viewport: { width: 390, height: 844 },
      colorScheme: scheme,
    });
    try {
      const page = await context.newPage();
      await check.prepare(page, scheme);
      await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
      const where = `${check.label} at 390 px (${scheme})`;
      const overflow = await page.evaluate(() => {
        const main = document.getElementById('main')!;
        return main.scrollWidth - main.clientWidth;
      });
      expect(overflow, `${where} is wider than the screen`).toBeLessThanOrEqual(0);
      expect(await axeViolations(page, check.section), where).toEqual([]);
      await check.picture(page, scheme);
    } finally {
      await context.close();
    }
  }
}
