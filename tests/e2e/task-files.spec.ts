import { mkdirSync, readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import type { AttachmentListDto, ChecklistDto } from '../../src/domain/schemas/task-detail';
import type { TeamDto } from '../../src/domain/schemas/team';
import { apiAs, axeViolations, createUser, type E2EUser, expect, gate, signIn, test } from './fixtures';

const SHOTS = '/tmp/shots-files';

const card = (scope: Page | Locator, title: string) =>
  scope.getByRole('button', { name: title, exact: true }).and(scope.getByTestId('task-card'));

// ---- a real PNG, built here so the server reads an image from its bytes ----------------------------------------
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
/** A size x size RGB PNG: a diagonal split of two colours, so a thumbnail is visibly an image. */
function makePng(size: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0);
    for (let x = 0; x < size; x++) rows.push(...(x > y ? [79, 70, 229] : [250, 204, 21]));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const TEXT = Buffer.from('Meeting notes\nline two: ünïcödé ✓\n', 'utf8');
const PNG = makePng(48);

async function seed(request: APIRequestContext) {
  const owner = await createUser(request, { fullName: 'Fiona Files' });
  const team = await apiAs<TeamDto>(request, owner, 'post', '/api/teams', { name: 'File Crew' });
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Archive', teamId: team.id });
  const task = await apiAs<TaskDto>(request, owner, 'post', '/api/tasks', {
    title: 'Collect the paperwork',
    projectId: project.id,
    status: 'todo',
    priority: 'medium',
  });
  return { owner, task };
}

async function openTask(page: Page, title: string): Promise<Locator> {
  await page.goto('/tasks');
  await card(page, title).click();
  await expect(page).toHaveURL(/\/tasks\/[0-9a-f-]{36}/);
  const dialog = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: 'Attachments' }) });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function audit(page: Page, label: string) {
  const found = await axeViolations(page);
  console.log(`axe ${label}: ${found.length} violations`);
  expect.soft(found, `axe violations on ${label}`).toEqual([]);
}

const checklistTitles = (dialog: Locator) =>
  dialog
    .getByRole('list', { name: 'Checklist items' })
    .getByRole('checkbox')
    .evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).labels?.[0]?.textContent ?? ''));

const savedChecklist = async (request: APIRequestContext, user: E2EUser, taskId: string) =>
  (await apiAs<ChecklistDto>(request, user, 'get', `/api/tasks/${taskId}/checklist`)).items.map((i) => i.title);

test.describe('task files and checklist', () => {
  test('attach, download, preview, delete; a checklist counted on the card; keyboard reorder; axe both themes', async ({
    page,
    request,
  }) => {
    test.setTimeout(240_000);
    mkdirSync(SHOTS, { recursive: true });
    const { owner, task } = await seed(request);
    await signIn(page, owner);
    const dialog = await openTask(page, task.title);
    const files = dialog.getByRole('region', { name: /^Attachments/ });
    await expect(files.getByText('No files yet.', { exact: false })).toBeVisible();

    // Two files at once through the 'Attach files' button's file input.
    await dialog.getByLabel('Attach files').setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: TEXT },
      { name: 'swatch.png', mimeType: 'image/png', buffer: PNG },
    ]);
    await expect(files.getByTestId('attachment')).toHaveCount(2);
    const textRow = files.getByTestId('attachment').filter({ hasText: 'notes.txt' });
    await expect(textRow).toContainText(`${TEXT.length} B`);
    await expect(textRow).toContainText('Fiona Files');
    await expect(textRow).toContainText('Just now');

    // The text file downloads byte for byte.
    const downloading = page.waitForEvent('download');
    await files.getByRole('link', { name: 'Download notes.txt' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('notes.txt');
    expect(readFileSync(await download.path())).toEqual(TEXT);

    // The image has a loaded thumbnail and opens a preview that Escape closes (the task stays open).
    const thumb = files.getByRole('button', { name: 'Preview swatch.png' });
    await expect(thumb.locator('img')).toHaveJSProperty('naturalWidth', 48);
    await expect(thumb.locator('img')).toHaveCSS('object-fit', 'cover');
    await thumb.click();
    const preview = page.getByRole('dialog', { name: 'swatch.png' });
    await expect(preview.getByRole('img', { name: 'swatch.png' })).toHaveJSProperty('naturalWidth', 48);
    await preview.screenshot({ path: `${SHOTS}/preview-light.png` });
    await page.keyboard.press('Escape');
    await expect(preview).toBeHidden();
    await expect(dialog).toBeVisible();

    // A checklist of three, one ticked.
    const add = dialog.getByRole('textbox', { name: 'Add an item' });
    for (const title of ['Scan the receipts', 'File the forms', 'Email the accountant']) {
      await add.fill(title);
      await add.press('Enter');
      await expect(dialog.getByRole('checkbox', { name: title })).toBeEnabled();
    }
    await dialog.getByRole('checkbox', { name: 'File the forms' }).check();
    await expect(dialog.getByTestId('checklist-progress').locator('[aria-hidden]')).toHaveText('1/3');
    await expect(dialog.getByTestId('checklist-progress')).toContainText('1 of 3 checklist items done');

    // Keyboard reorder: 'Email the accountant' up twice, with the focus kept on the button.
    const up = dialog.getByRole('button', { name: 'Move Email the accountant up' });
    await up.focus();
    await page.keyboard.press('Enter');
    await expect(up).toBeFocused();
    await page.keyboard.press('Enter');
    await expect.poll(() => checklistTitles(dialog)).toEqual(['Email the accountant', 'Scan the receipts', 'File the forms']);
    await expect(dialog.getByRole('button', { name: 'Move Email the accountant down' })).toBeFocused();
    await expect
      .poll(() => savedChecklist(request, owner, task.id))
      .toEqual(['Email the accountant', 'Scan the receipts', 'File the forms']);

    // Rename in place: Escape leaves the field (the dialog stays), Enter saves.
    await dialog.getByRole('button', { name: 'Rename Scan the receipts' }).click();
    const rename = dialog.getByRole('textbox', { name: 'Rename Scan the receipts' });
    await rename.fill('Scan every receipt');
    await rename.press('Escape');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('checkbox', { name: 'Scan the receipts' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Rename Scan the receipts' }).click();
    await rename.fill('Scan every receipt');
    await rename.press('Enter');
    await expect(dialog.getByRole('checkbox', { name: 'Scan every receipt' })).toBeVisible();

    // axe on the panel with files and a checklist, light then dark; screenshots of both, and at 390 px.
    await audit(page, 'task panel with attachments and checklist (light)');
    await dialog.screenshot({ path: `${SHOTS}/panel-light.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveClass(/dark/);
    await audit(page, 'task panel with attachments and checklist (dark)');
    await dialog.screenshot({ path: `${SHOTS}/panel-dark.png` });
    await thumb.click();
    await page.getByRole('dialog', { name: 'swatch.png' }).screenshot({ path: `${SHOTS}/preview-dark.png` });
    await audit(page, 'image preview (dark)');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/panel-390-dark.png` });
    await files.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/panel-390-files-dark.png` });
    await dialog.getByRole('heading', { name: 'Checklist' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/panel-390-checklist-dark.png` });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: `${SHOTS}/panel-390-checklist-light.png` });
    await page.setViewportSize({ width: 1280, height: 720 });

    // Delete a file, after a confirmation; focus lands on 'Attach files'.
    await files.getByRole('button', { name: 'Delete notes.txt' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete file' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toBeHidden();
    await expect(files.getByTestId('attachment')).toHaveCount(1);
    await expect(dialog.getByLabel('Attach files')).toBeFocused();
    await expect
      .poll(async () =>
        (await apiAs<AttachmentListDto>(request, owner, 'get', `/api/tasks/${task.id}/attachments`)).attachments.map(
          (a) => a.fileName,
        ),
      )
      .toEqual(['swatch.png']);

    // Close: the card counts 1 of 3 checklist items and one file.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    const taskCard = card(page, task.title);
    await expect(taskCard).toContainText('1/3');
    await expect(taskCard.getByText('1 of 3 checklist items done')).toBeAttached();
    await expect(taskCard.getByText('1 attachments')).toBeAttached();
    await taskCard.screenshot({ path: `${SHOTS}/card-light.png` });
  });

  test('a failed upload shows its reason beside the others, which go through', async ({ page, request }) => {
    const { owner, task } = await seed(request);
    await signIn(page, owner);
    // The server answers 413 for one file (as it does past MAX_UPLOAD_MB); the others are really uploaded, one of
    // them held until the test has seen its progress bar.
    const held = gate();
    await page.route(`**/api/tasks/${task.id}/attachments`, async (route) => {
      const body = route.request().postDataBuffer();
      if (route.request().method() === 'POST' && body?.includes('filename="slow.txt"')) await held.passed;
      if (route.request().method() === 'POST' && body?.includes('filename="huge.bin"')) {
        await route.fulfill({
          status: 413,
          contentType: 'application/json',
          body: JSON.stringify({
            error: { code: 'payload_too_large', reason: 'file_too_large', message: 'This file is too large' },
          }),
        });
        return;
      }
      await route.continue();
    });
    const dialog = await openTask(page, task.title);
    await dialog.getByLabel('Attach files').setInputFiles([
      { name: 'huge.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(2048, 1) },
      { name: 'small.txt', mimeType: 'text/plain', buffer: Buffer.from('small') },
      { name: 'slow.txt', mimeType: 'text/plain', buffer: Buffer.from('slow') },
    ]);
    await expect(dialog.getByRole('alert').filter({ hasText: 'huge.bin: This file is too large' })).toBeVisible();
    await expect(dialog.getByTestId('attachment').filter({ hasText: 'small.txt' })).toBeVisible();
    await expect(dialog.getByRole('progressbar', { name: 'Uploading slow.txt' })).toBeVisible();
    mkdirSync(SHOTS, { recursive: true });
    await dialog.getByRole('region', { name: /^Attachments/ }).screenshot({ path: `${SHOTS}/uploads-light.png` });
    held.open();
    await expect(dialog.getByRole('progressbar', { name: 'Uploading slow.txt' })).toBeHidden();
    await expect(dialog.getByTestId('attachment')).toHaveCount(2);
    await dialog.getByRole('button', { name: 'Dismiss huge.bin' }).click();
    await expect(dialog.getByRole('alert').filter({ hasText: 'huge.bin' })).toHaveCount(0);
  });

  test('a pasted image and dropped files are uploaded', async ({ page, request }) => {
    const { owner, task } = await seed(request);
    await signIn(page, owner);
    const dialog = await openTask(page, task.title);
    // Paste an image while focus is in the panel.
    await dialog.getByRole('textbox', { name: 'Add an item' }).focus();
    await page.evaluate(
      (bytes) => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(bytes)], 'image.png', { type: 'image/png' }));
        const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
        document.activeElement?.dispatchEvent(event);
      },
      [...PNG],
    );
    await expect(dialog.getByRole('button', { name: 'Preview image.png' })).toBeVisible();

    // Drag files over the panel: the drop target shows; drop them.
    const transfer = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(['dropped one'], 'dropped.txt', { type: 'text/plain' }));
      return data;
    });
    await dialog.dispatchEvent('dragenter', { dataTransfer: transfer });
    await expect(dialog.getByText('Drop files to attach them')).toBeVisible();
    mkdirSync(SHOTS, { recursive: true });
    await dialog.screenshot({ path: `${SHOTS}/drop-target-light.png` });
    await dialog.dispatchEvent('drop', { dataTransfer: transfer });
    await expect(dialog.getByText('Drop files to attach them')).toBeHidden();
    await expect(dialog.getByTestId('attachment').filter({ hasText: 'dropped.txt' })).toBeVisible();
  });
});
