import type { Locator, Page } from '@playwright/test';
import { addDays } from '../../src/domain/dates';
import { apiAs, axeViolations, createUser, expect, signIn, test } from './fixtures';

/**
 * Analytics 'Split by' (issue 38): a team's Select field 'Severity' (Low, High, Critical); four tasks completed this
 * week through the CSV import (two Critical, one Low, one without a value). Split by Severity, Throughput and Cycle
 * time show a series per option and 'No value' (legend and table), the choice lives in the URL, and axe passes.
 */

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const showData = (scope: Locator) => scope.getByRole('button', { name: /^Show data/ });

async function tableText(table: Locator): Promise<string[][]> {
  return table
    .locator('tr')
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent?.trim() ?? '')));
}

function thisMondayUtc(): string {
  const today = new Date().toISOString().slice(0, 10);
  return addDays(today, -((new Date().getUTCDay() + 6) % 7));
}

test('Split by Severity shows a series per option in the legend and the tables, and passes axe', async ({ page, request }) => {
  const user = await createUser(request, { fullName: 'Sev Splitter' });
  const team = await apiAs<{ id: string }>(request, user, 'post', '/api/teams', { name: 'Split Crew' });
  const field = await apiAs<{ id: string }>(request, user, 'post', `/api/teams/${team.id}/fields`, {
    name: 'Severity',
    type: 'select',
    options: [
      { name: 'Low', color: '#16a34a' },
      { name: 'High', color: '#ea580c' },
      { name: 'Critical', color: '#dc2626' },
    ],
  });
  await apiAs(request, user, 'post', `/api/teams/${team.id}/import/csv`, {
    csv: [
      'Title,Status,Severity',
      'One,Completed,Critical',
      'Two,Completed,critical',
      'Three,Completed,Low',
      'Four,Completed,',
    ].join('\n'),
    mapping: { Title: 'title', Status: 'status', Severity: `field:${field.id}` },
    projectName: 'Split project',
  });

  await signIn(page, user);
  await page.goto(`/analytics?teamId=${team.id}&weeks=4`);
  const splitBy = page.getByLabel('Split by', { exact: true });
  await expect(splitBy.locator('option')).toHaveText(['Nothing', 'Severity']);
  await splitBy.selectOption({ label: 'Severity' });
  await expect(page).toHaveURL(new RegExp(`splitBy=${field.id}`));

  const throughput = section(page, 'Throughput');
  await expect(throughput.getByRole('img')).toHaveAttribute(
    'aria-label',
    /by Severity: 4 tasks completed.*Low 1, High 0, Critical 2, No value 1/,
  );
  for (const name of ['Low', 'High', 'Critical', 'No value']) {
    await expect(throughput.getByText(name, { exact: true }).first()).toBeVisible();
  }
  await showData(throughput).click();
  const table = throughput.getByRole('table', { name: 'Tasks completed per week by Severity' });
  const shown = await tableText(table);
  expect(shown[0]).toEqual(['Week starting', 'Low', 'High', 'Critical', 'No value', 'Total']);
  expect(shown.at(-1)).toEqual([thisMondayUtc(), '1', '0', '2', '1', '4']);

  const cycle = section(page, 'Cycle time');
  await showData(cycle).click();
  const cycleHeader = (await tableText(cycle.getByRole('table')))[0]!;
  expect(cycleHeader).toContain('Critical: median');
  expect(cycleHeader).toContain('No value: completed');

  // The choice survives a reload; 'Nothing' puts the charts back as they were.
  await page.reload();
  await expect(page.getByLabel('Split by', { exact: true })).toHaveValue(field.id);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveClass(scheme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    await showData(section(page, 'Throughput')).click();
    await expect(section(page, 'Throughput').getByRole('table')).toBeVisible();
    expect(await axeViolations(page), scheme).toEqual([]);
    await page.reload();
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByLabel('Split by', { exact: true }).selectOption({ label: 'Nothing' });
  await expect(page).not.toHaveURL(/splitBy=/);
  await expect(section(page, 'Throughput').getByRole('img')).toHaveAttribute('aria-label', /bar chart: 4 tasks completed/);
});
