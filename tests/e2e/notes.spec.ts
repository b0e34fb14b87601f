import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { NoteDto } from '../../src/domain/schemas/note';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import type { TeamDto } from '../../src/domain/schemas/team';
import { addMember, apiAs, axeViolations, createUser, type E2EUser, expect, seedCrew, signIn, test } from './fixtures';
import { MARKDOWN, PAYLOADS } from './xss-payloads';

/**
 * Notes (issue 25): the list at /notes and the collaborative editor at /notes/:id. Real browsers, a real server and
 * its real WebSocket: two (then three) browser contexts of two team members edit one note at once and converge; one
 * goes offline, types, comes back and merges; hostile pastes execute nothing for either viewer; @ mentions and # task
 * chips (whose status follows the task live); versions; axe in both themes; 390 px; the 50-page opening time.
 */

const SHOTS = '/tmp/shots-notes-client';

interface World {
  owner: E2EUser;
  mia: E2EUser;
  team: TeamDto;
  project: ProjectDto;
  task: TaskDto;
}
let world: World;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  const { owner, mia, team } = await seedCrew(request);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Apollo', teamId: team.id });
  const task = await apiAs<TaskDto>(request, owner, 'post', '/api/tasks', {
    title: 'Quokka launch checklist',
    projectId: project.id,
  });
  world = { owner, mia, team, project, task };
  mkdirSync(SHOTS, { recursive: true });
});

const createNote = (request: Parameters<typeof apiAs>[0], user: E2EUser, title: string, extra: object = {}) =>
  apiAs<NoteDto>(request, user, 'post', '/api/notes', { teamId: world.team.id, title, ...extra });

const editorOf = (page: Page) => page.getByRole('textbox', { name: 'Note content' });
const status = (page: Page) =>
  page.getByRole('status').filter({ hasText: /Connected|Connecting|Offline|Reconnecting|deleted|member/ });

/** Opens the note and waits until its socket is connected and the document synced. */
async function openNote(page: Page, id: string) {
  await page.goto(`/notes/${id}`);
  await expect(status(page)).toHaveText('Connected');
  await expect(editorOf(page)).toHaveAttribute('contenteditable', 'true');
}

/** A signed-in page in a context of its own (its own storage: another person, or the same one elsewhere). */
async function personIn(browser: Browser, user: E2EUser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, user);
  return { context, page };
}

/** The caret at the end of the document, in a new paragraph. */
/**
 * Puts the caret at the end of the note. TipTap's `focus` sets the selection at once but focuses the editor a frame
 * later: a key typed before then goes nowhere (CI lost Mia's first letter, 'member 0 wrote', on a loaded machine).
 */
async function focusEnd(page: Page) {
  await page.evaluate(() =>
    (window as unknown as { __noteEditor: { commands: { focus: (at: 'end') => void } } }).__noteEditor.commands.focus('end'),
  );
  await expect(editorOf(page)).toBeFocused();
}

async function newParagraphAtEnd(page: Page) {
  await focusEnd(page);
  await page.keyboard.press('Enter');
}

/** The paragraphs' texts, without the other people's carets (their names). */
const paragraphs = (page: Page) =>
  editorOf(page).evaluate((root) =>
    [...root.querySelectorAll('p')].map((p) => {
      const copy = p.cloneNode(true) as HTMLElement;
      for (const caret of copy.querySelectorAll('.collaboration-carets__caret')) caret.remove();
      return copy.textContent ?? '';
    }),
  );

/** Pastes through a real paste event with the given clipboard (HTML and/or plain text). */
async function paste(page: Page, data: { html?: string; text?: string }) {
  await editorOf(page).focus();
  await page.evaluate(({ html, text }) => {
    const target = document.querySelector('[aria-label="Note content"]')!;
    const dt = new DataTransfer();
    if (html !== undefined) dt.setData('text/html', html);
    if (text !== undefined) dt.setData('text/plain', text);
    target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, data);
}

test('the list: New Note, pinned first, search, filters in the URL, delete; empty state; ?new=1', async ({ page, request }) => {
  const loner = await createUser(request, { fullName: 'Lone Writer' });
  const lonerTeam = await apiAs<TeamDto>(request, loner, 'post', '/api/teams', { name: 'Solo Crew' });
  await signIn(page, loner);
  await page.goto('/notes');
  await expect(page.getByRole('heading', { level: 1, name: 'Notes' })).toBeVisible();
  await expect(page).toHaveTitle(/^Notes/);
  await expect(page.getByRole('heading', { name: 'No notes yet' })).toBeVisible();

  // New Note from the empty state: a title, the team; the note opens.
  await page.getByRole('button', { name: 'New Note' }).last().click();
  const dialog = page.getByRole('dialog', { name: 'New Note' });
  await dialog.getByRole('button', { name: 'Create Note' }).click();
  await expect(dialog.getByText('Title is required')).toBeVisible();
  await dialog.getByLabel('Title').fill('Runbook: deploys');
  await expect(dialog.getByLabel('Team')).toHaveValue(lonerTeam.id);
  await dialog.getByRole('button', { name: 'Create Note' }).click();
  await expect(page).toHaveURL(/\/notes\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('textbox', { name: 'Note title' })).toHaveValue('Runbook: deploys');
  await expect(status(page)).toHaveText('Connected');

  // Two more through the API; the newest edit first, pinned before all.
  await apiAs(request, loner, 'post', '/api/notes', { teamId: lonerTeam.id, title: 'Meeting 1 (zebra)' });
  const second = await apiAs<NoteDto>(request, loner, 'post', '/api/notes', { teamId: lonerTeam.id, title: 'Meeting 2' });
  await page.goto('/notes');
  const rows = page.getByRole('list', { name: 'Notes' }).getByRole('listitem');
  await expect(rows).toHaveCount(3);
  await expect(rows.first().getByRole('link')).toHaveText('Meeting 2');
  await expect(rows.first()).toContainText('Solo Crew');
  await expect(rows.first()).toContainText(/Edited just now/);
  const runbook = rows.filter({ has: page.getByRole('link', { name: 'Runbook: deploys' }) });
  // The pin shows at once and is saved after: the reload waits for the save's answer.
  const saved = page.waitForResponse(
    (r) => /^\/api\/notes\/[^/]+$/.test(new URL(r.url()).pathname) && r.request().method() === 'PATCH',
  );
  await runbook.getByRole('button', { name: 'Pin note' }).click();
  await expect(runbook.getByRole('button', { name: 'Unpin note' })).toBeVisible();
  await expect(rows.first().getByRole('link')).toHaveText('Runbook: deploys');
  expect((await saved).status()).toBe(200);
  await page.reload();
  await expect(rows.first().getByRole('link')).toHaveText('Runbook: deploys');

  // Search (server side) and the team filter live in the URL.
  await page.getByRole('searchbox', { name: 'Search notes' }).fill('zebra');
  await expect(page).toHaveURL(/[?&]q=zebra/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole('link')).toHaveText('Meeting 1 (zebra)');
  await page.getByRole('button', { name: 'Clear Filters' }).click();
  await expect(rows).toHaveCount(3);
  await page.getByLabel('Team', { exact: true }).selectOption(lonerTeam.id);
  await expect(page).toHaveURL(new RegExp(`team=${lonerTeam.id}`));
  await expect(rows).toHaveCount(3);

  // Delete, confirmed.
  const meeting2 = rows.filter({ has: page.getByRole('link', { name: 'Meeting 2' }) });
  await meeting2.getByRole('button', { name: 'Delete Meeting 2' }).click();
  await page.getByRole('dialog', { name: 'Delete note' }).getByRole('button', { name: 'Delete' }).click();
  await expect(rows).toHaveCount(2);
  const gone = await request.get(`/api/notes/${second.id}`, { headers: { authorization: `Bearer ${loner.accessToken}` } });
  expect(gone.status()).toBe(404);

  // ?new=1 (the palette's New Note) opens the form once.
  await page.goto('/notes?new=1');
  await expect(page.getByRole('dialog', { name: 'New Note' })).toBeVisible();
  await expect(page).toHaveURL(/\/notes$/);
  await page.keyboard.press('Escape');

  // The palette's command.
  await page.keyboard.press('ControlOrMeta+k');
  await page.getByRole('combobox', { name: 'Search or type a command' }).fill('new note');
  await page.getByRole('option', { name: /New Note/ }).click();
  await expect(page.getByRole('dialog', { name: 'New Note' })).toBeVisible();
});

test('the palette finds notes by title and text and opens them', async ({ page, request }) => {
  const note = await createNote(request, world.owner, 'Wombat migration guide');
  await signIn(page, world.mia);
  await openNote(page, note.id);
  await editorOf(page).click();
  await page.keyboard.type('Remember the marsupial checklist');
  // Mia leaves; the server keeps the text for search once it has compacted the edits.
  await page.goto('/dashboard');
  const topSearch = page.getByPlaceholder('Search tasks, projects...');
  await topSearch.click();
  const field = page.getByRole('combobox', { name: 'Search or type a command' });
  await field.fill('wombat');
  const hit = page.getByRole('group', { name: 'Notes' }).getByRole('option', { name: /Wombat migration guide/ });
  await expect(hit).toBeVisible();
  await hit.click();
  await expect(page).toHaveURL(new RegExp(`/notes/${note.id}$`));
  await expect(editorOf(page)).toContainText('Remember the marsupial checklist');
  await topSearch.click();
  await field.fill('marsupial');
  await expect(page.getByRole('group', { name: 'Notes' }).getByRole('option', { name: /Wombat migration guide/ })).toBeVisible({
    timeout: 20_000,
  });
});

test('a stranger, and a missing note, get "Note not found"', async ({ page, request }) => {
  const note = await createNote(request, world.owner, 'Private plans');
  const stranger = await createUser(request, { fullName: 'Stan Stranger' });
  await signIn(page, stranger);
  await page.goto(`/notes/${note.id}`);
  await expect(page.getByRole('heading', { name: 'Note not found' })).toBeVisible();
  await expect(page.getByText('Private plans')).toHaveCount(0);
  await page.goto('/notes/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Note not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to Notes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Notes' })).toBeVisible();
});

test('two people edit at once and converge; a third opens the merged note; offline edits merge', async ({ browser, request }) => {
  const note = await createNote(request, world.owner, 'Launch plan');
  const olive = await personIn(browser, world.owner);
  const mia = await personIn(browser, world.mia);
  try {
    await openNote(olive.page, note.id);
    await openNote(mia.page, note.id);

    // Presence: each sees both.
    for (const p of [olive.page, mia.page]) {
      const here = p.getByRole('list', { name: 'People here' });
      await expect(here.getByRole('img', { name: /Olive Owner/ })).toBeVisible();
      await expect(here.getByRole('img', { name: /Mia Member/ })).toBeVisible();
    }

    await editorOf(olive.page).click();
    await olive.page.keyboard.type('Shared start');
    await expect(editorOf(mia.page)).toContainText('Shared start');

    // Both type at the same moment, each in a new paragraph at the end.
    await newParagraphAtEnd(olive.page);
    await newParagraphAtEnd(mia.page);
    await Promise.all([
      olive.page.keyboard.type('Alpha from Olive, typed while Mia types', { delay: 15 }),
      mia.page.keyboard.type('Bravo from Mia, typed while Olive types', { delay: 15 }),
    ]);
    for (const p of [olive.page, mia.page]) {
      await expect(editorOf(p)).toContainText('Alpha from Olive, typed while Mia types');
      await expect(editorOf(p)).toContainText('Bravo from Mia, typed while Olive types');
    }
    // The same paragraphs in the same order in both.
    await expect.poll(async () => JSON.stringify(await paragraphs(mia.page))).toBe(JSON.stringify(await paragraphs(olive.page)));
    const merged = await paragraphs(olive.page);
    // Each text whole (not interleaved character by character), once.
    const all = merged.join('\n');
    for (const text of ['Alpha from Olive, typed while Mia types', 'Bravo from Mia, typed while Olive types']) {
      expect(all.split(text).length - 1).toBe(1);
    }

    // The other's caret and name are shown.
    await expect(olive.page.locator('.collaboration-carets__label', { hasText: 'Mia Member' })).toBeVisible();

    // A third context, opened later, loads the merged document.
    const third = await personIn(browser, world.mia);
    try {
      await openNote(third.page, note.id);
      await expect.poll(async () => JSON.stringify(await paragraphs(third.page))).toBe(JSON.stringify(merged));
    } finally {
      await third.context.close();
    }

    // Mia goes offline, types; Olive types meanwhile; Mia comes back: both converge.
    await mia.context.setOffline(true);
    await expect(status(mia.page)).toHaveText('Offline — your changes will merge when you reconnect');
    await newParagraphAtEnd(mia.page);
    await mia.page.keyboard.type('Written offline by Mia');
    await newParagraphAtEnd(olive.page);
    await olive.page.keyboard.type('Written online by Olive');
    await expect(editorOf(olive.page)).not.toContainText('Written offline by Mia');
    await mia.context.setOffline(false);
    await expect(status(mia.page)).toHaveText('Connected');
    for (const p of [olive.page, mia.page]) {
      await expect(editorOf(p)).toContainText('Written offline by Mia');
      await expect(editorOf(p)).toContainText('Written online by Olive');
    }
    await expect.poll(async () => JSON.stringify(await paragraphs(mia.page))).toBe(JSON.stringify(await paragraphs(olive.page)));
  } finally {
    await olive.context.close();
    await mia.context.close();
  }
});

test('the XSS payloads pasted as HTML and as text execute nothing, for both viewers', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const note = await createNote(request, world.owner, 'Paste test');
  const olive = await personIn(browser, world.owner);
  const mia = await personIn(browser, world.mia);
  const dialogs: string[] = [];
  try {
    for (const p of [olive.page, mia.page]) {
      p.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await openNote(p, note.id);
    }
    for (const payload of [...PAYLOADS, ...MARKDOWN]) {
      await paste(olive.page, { html: payload });
      await paste(olive.page, { text: payload });
    }
    // A last marker: when Mia has it, she has everything pasted before it.
    await paste(olive.page, { text: 'end-of-payloads' });
    await expect(editorOf(mia.page)).toContainText('end-of-payloads');
    // Markdown pasted as text became rich text (a heading, a table) without its raw HTML.
    await expect(editorOf(mia.page).locator('h1').first()).toBeVisible();
    await expect(editorOf(mia.page).locator('table').first()).toBeVisible();

    for (const p of [olive.page, mia.page]) {
      // Let any image error or focus handler fire.
      await p.evaluate(() => new Promise((r) => setTimeout(r, 500)));
      expect(await p.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
      expect(await p.locator('[data-xss]').count()).toBe(0);
      const found = await editorOf(p).evaluate((root) => {
        const bad: string[] = [];
        for (const el of root.querySelectorAll('*')) {
          if (
            ['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'STYLE', 'BASE', 'FORM', 'SVG', 'MATH'].includes(el.tagName.toUpperCase())
          ) {
            bad.push(el.tagName);
          }
          for (const attr of el.attributes) {
            if (/^on/i.test(attr.name)) bad.push(`${el.tagName}[${attr.name}]`);
            if (
              /^\s*(javascript|data|vbscript):/i.test(attr.value) &&
              ['href', 'src', 'action', 'formaction'].includes(attr.name)
            ) {
              bad.push(`${el.tagName}[${attr.name}=${attr.value}]`);
            }
          }
        }
        return bad;
      });
      expect(found).toEqual([]);
      // Every link left is http(s) or mailto, without the opener.
      for (const a of await editorOf(p).locator('a[href]').all()) {
        const href = (await a.getAttribute('href')) ?? '';
        if (href.startsWith('/tasks/')) continue;
        expect(href).toMatch(/^(https?:|mailto:)/);
        expect(await a.getAttribute('rel')).toContain('noopener');
      }
    }
    expect(dialogs).toEqual([]);
  } finally {
    await olive.context.close();
    await mia.context.close();
  }
});

test('@ mentions a teammate; # links a task whose chip follows its title and status live', async ({ page, request }) => {
  const note = await createNote(request, world.owner, 'Mentions');
  await signIn(page, world.owner);
  await openNote(page, note.id);
  const editor = editorOf(page);
  await editor.click();
  await page.keyboard.type('Ask @Mi');
  const people = page.getByRole('listbox', { name: 'Teammates' });
  await expect(people.getByRole('option', { name: /Mia Member/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(editor.locator('[data-type="mention"]')).toHaveText('@Mia Member');
  await expect(editor.locator('[data-type="mention"]')).toHaveAttribute('data-id', world.mia.id);

  await page.keyboard.type('about #Quokka');
  const tasks = page.getByRole('listbox', { name: 'Tasks' });
  await expect(tasks.getByRole('option', { name: /Quokka launch checklist/ })).toBeVisible();
  await page.keyboard.press('Enter');
  const chip = editor.locator(`[data-task-chip="${world.task.id}"] a`);
  await expect(chip).toContainText('Quokka launch checklist');
  await expect(chip).toContainText('To Do');
  await expect(chip).toHaveAttribute('href', `/tasks/${world.task.id}`);

  // The task changes elsewhere: the chip follows (realtime).
  await apiAs(request, world.mia, 'patch', `/api/tasks/${world.task.id}/status`, { status: 'in_progress' });
  await expect(chip).toContainText('In Progress');
  const fresh = await apiAs<TaskDto>(request, world.owner, 'get', `/api/tasks/${world.task.id}`);
  await apiAs(request, world.owner, 'patch', `/api/tasks/${world.task.id}`, {
    title: 'Quokka launch list v2',
    version: fresh.version,
  });
  await expect(chip).toContainText('Quokka launch list v2');

  // The chip opens the task.
  await chip.click();
  await expect(page).toHaveURL(new RegExp(`/tasks/${world.task.id}$`));
});

test('version history: save a version, preview it, restore it (a new version)', async ({ page, request }) => {
  const note = await createNote(request, world.owner, 'Versions');
  await signIn(page, world.owner);
  await openNote(page, note.id);
  await editorOf(page).click();
  await page.keyboard.type('First draft');
  await page.getByRole('button', { name: 'Version history' }).click();
  let panel = page.getByRole('dialog', { name: 'Version history' });
  await panel.getByRole('button', { name: 'Save version' }).click();
  await expect(page.getByText('Version saved')).toBeVisible();
  await expect(panel.getByRole('list', { name: 'Versions' }).getByRole('listitem')).toHaveCount(1);
  await expect(panel.getByRole('document', { name: 'Version content' })).toContainText('First draft');
  await page.keyboard.press('Escape');

  await editorOf(page).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Second draft replaced everything');
  await expect(editorOf(page)).not.toContainText('First draft');

  await page.getByRole('button', { name: 'Version history' }).click();
  panel = page.getByRole('dialog', { name: 'Version history' });
  await panel.getByRole('listitem').first().getByRole('button').click();
  await expect(panel.getByRole('document', { name: 'Version content' })).toContainText('First draft');
  await panel.getByRole('button', { name: 'Restore this version' }).click();
  await page.getByRole('dialog', { name: 'Restore this version?' }).getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText('Version restored')).toBeVisible();
  await expect(editorOf(page)).toContainText('First draft');
  await expect(editorOf(page)).not.toContainText('Second draft');
  const { versions } = await apiAs<{ versions: { kind: string }[] }>(
    request,
    world.owner,
    'get',
    `/api/notes/${note.id}/versions`,
  );
  expect(versions.map((v) => v.kind)).toContain('restore');
});

test('toolbar: labelled, one tab stop with arrow keys, toggles pressed; Markdown shortcuts', async ({ page, request }) => {
  const note = await createNote(request, world.owner, 'Toolbar');
  await signIn(page, world.owner);
  await openNote(page, note.id);
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  for (const name of [
    'Bold',
    'Italic',
    'Heading 1',
    'Heading 2',
    'Bulleted list',
    'Numbered list',
    'Checklist',
    'Code block',
    'Link',
    'Table',
    'Image',
  ]) {
    await expect(toolbar.getByRole('button', { name, exact: true })).toBeVisible();
  }
  // One tab stop; arrows move.
  await expect(toolbar.locator('button[tabindex="0"]')).toHaveCount(1);
  await toolbar.getByRole('button', { name: 'Bold' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(toolbar.getByRole('button', { name: 'Italic' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(toolbar.getByRole('button', { name: 'Redo' })).toBeFocused();

  await editorOf(page).click();
  await toolbar.getByRole('button', { name: 'Bold' }).click();
  await expect(toolbar.getByRole('button', { name: 'Bold' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.type('strong words');
  await expect(editorOf(page).locator('strong')).toHaveText('strong words');

  // Markdown shortcuts while typing.
  await page.keyboard.press('ControlOrMeta+b');
  await page.keyboard.press('Enter');
  await page.keyboard.type('## A heading');
  await expect(editorOf(page).locator('h2')).toHaveText('A heading');
  await page.keyboard.press('Enter');
  await page.keyboard.type('[ ] a checklist item');
  await expect(editorOf(page).locator('ul[data-type="taskList"] li')).toContainText('a checklist item');
  await expect(toolbar.getByRole('button', { name: 'Checklist' })).toHaveAttribute('aria-pressed', 'true');

  // Link through its dialog: javascript: is refused.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await toolbar.getByRole('button', { name: 'Link' }).click();
  const linkDialog = page.getByRole('dialog', { name: 'Link' });
  await linkDialog.getByLabel('URL').fill('javascript:alert(1)');
  await linkDialog.getByRole('button', { name: 'Apply' }).click();
  await expect(linkDialog.getByText('Enter a web address')).toBeVisible();
  await linkDialog.getByLabel('URL').fill('example.org/docs');
  await linkDialog.getByRole('button', { name: 'Apply' }).click();
  await expect(editorOf(page).locator('a[href="https://example.org/docs"]')).toHaveAttribute(
    'rel',
    'noopener noreferrer nofollow',
  );

  // Table, and its own buttons while inside it.
  await toolbar.getByRole('button', { name: 'Table' }).click();
  await expect(editorOf(page).locator('table')).toBeVisible();
  await expect(toolbar.getByRole('button', { name: 'Add row' })).toBeVisible();

  // An image through the toolbar's file picker: uploaded, then shown from the app's URL.
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  await editorOf(page).locator('p').last().click();
  const chooser = page.waitForEvent('filechooser');
  await toolbar.getByRole('button', { name: 'Image' }).click();
  await (await chooser).setFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: png });
  const img = editorOf(page).locator('img');
  await expect(img).toHaveAttribute('src', new RegExp(`^/api/notes/${note.id}/images/`));
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1);
  // Issue 35, item 4: the link expires, so it is signed when shown (the document keeps the stable path); opened again,
  // the note's image is signed afresh and loads.
  await expect(img).toHaveAttribute('src', new RegExp(`^/api/notes/${note.id}/images/[0-9a-f-]{36}\\?exp=\\d+&sig=`));
  await page.reload();
  const reopened = editorOf(page).locator('img');
  await expect(reopened).toHaveAttribute('src', new RegExp(`^/api/notes/${note.id}/images/[0-9a-f-]{36}\\?exp=\\d+&sig=`));
  await expect.poll(() => reopened.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1);
});

test('axe: the list and the editor, light and dark; the editor at 390 px; screenshots', async ({ page, request }) => {
  const note = await createNote(request, world.owner, 'Design review', { projectId: world.project.id });
  await createNote(request, world.mia, 'Sprint retro');
  await signIn(page, world.owner);
  await openNote(page, note.id);
  await editorOf(page).click();
  await page.keyboard.type('# Design review');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Agenda for the week, with a ');
  await page.keyboard.press('ControlOrMeta+b');
  await page.keyboard.type('bold');
  await page.keyboard.press('ControlOrMeta+b');
  await page.keyboard.type(' word and @Mi');
  await page.keyboard.press('Enter');
  await page.keyboard.type('#Quokka');
  await expect(page.getByRole('listbox', { name: 'Tasks' }).getByRole('option').first()).toBeVisible();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('- first point');
  await page.keyboard.press('Enter');
  await page.keyboard.type('second point');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('[ ] check the contrast');
  await expect(editorOf(page).locator('[data-task-chip] a')).toBeVisible();

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`/notes/${note.id}`);
    await expect(status(page)).toHaveText('Connected');
    await expect(editorOf(page)).toContainText('check the contrast');
    expect(await axeViolations(page), `editor, ${scheme}`).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/editor-${scheme}.png`, fullPage: true });

    await page.getByRole('button', { name: 'Version history' }).click();
    await page.getByRole('dialog', { name: 'Version history' }).getByRole('button', { name: 'Save version' }).click();
    await expect(page.getByRole('document', { name: 'Version content' })).toContainText('check the contrast');
    // The toast is sonner's (checked by the app's own toast tests): the panel is what is checked here.
    await expect(page.getByText('Version saved')).toBeHidden();
    expect(await axeViolations(page), `version history, ${scheme}`).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/versions-${scheme}.png` });
    await page.keyboard.press('Escape');

    await page.goto('/notes');
    await expect(page.getByRole('list', { name: 'Notes' }).getByRole('listitem').first()).toBeVisible();
    expect(await axeViolations(page), `list, ${scheme}`).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/list-${scheme}.png`, fullPage: true });

    await page.getByRole('button', { name: 'New Note' }).first().click();
    await expect(page.getByRole('dialog', { name: 'New Note' })).toBeVisible();
    expect(await axeViolations(page), `new note dialog, ${scheme}`).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/new-note-${scheme}.png` });
    await page.keyboard.press('Escape');
  }

  // 390 px: the toolbar wraps, typing and the toolbar work, nothing scrolls sideways.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/notes/${note.id}`);
  await expect(status(page)).toHaveText('Connected');
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  await expect(toolbar.getByRole('button', { name: 'Image' })).toBeInViewport();
  await editorOf(page).click();
  await newParagraphAtEnd(page);
  await toolbar.getByRole('button', { name: 'Heading 2' }).click();
  await page.keyboard.type('Phone heading');
  await expect(editorOf(page).locator('h2')).toHaveText('Phone heading');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await axeViolations(page), 'editor, 390 px').toEqual([]);
  await page.screenshot({ path: `${SHOTS}/editor-390.png`, fullPage: true });
  await page.goto('/notes');
  await expect(page.getByRole('list', { name: 'Notes' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SHOTS}/list-390.png`, fullPage: true });
});

test('a note of 50 pages opens to editable quickly (median of 5, logged)', async ({ page, request }) => {
  test.setTimeout(240_000);
  const note = await createNote(request, world.owner, 'Fifty pages');
  await signIn(page, world.owner);
  await openNote(page, note.id);
  // ~50 pages: 50 × (a heading, 12 paragraphs of ~480 characters, a 6-item list).
  await page.evaluate(() => {
    const editor = (window as unknown as { __noteEditor: { commands: { setContent: (html: string) => void } } }).__noteEditor;
    const words = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore';
    const para = Array.from({ length: 5 }, () => words).join(' ');
    const pages: string[] = [];
    for (let p = 1; p <= 50; p++) {
      pages.push(`<h2>Page ${p}</h2>`);
      for (let i = 0; i < 12; i++) pages.push(`<p>${p}.${i} ${para}</p>`);
      pages.push(`<ul>${Array.from({ length: 6 }, (_, i) => `<li><p>item ${p}.${i}</p></li>`).join('')}</ul>`);
    }
    pages.push('<p>END-OF-FIFTY-PAGES</p>');
    editor.commands.setContent(pages.join(''));
  });
  await expect(editorOf(page)).toContainText('END-OF-FIFTY-PAGES');
  const chars = await editorOf(page).evaluate((el) => el.textContent?.length ?? 0);
  expect(chars).toBeGreaterThan(150_000);
  // Let the server persist it: a new client sees it whole.
  const probe = await page.context().newPage();
  await openNote(probe, note.id);
  await expect(editorOf(probe)).toContainText('END-OF-FIFTY-PAGES', { timeout: 30_000 });
  await probe.close();

  /** Resolves with performance.now() once the editor is editable and shows the document's last line. */
  const editableAt = () =>
    page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const check = () => {
            const el = document.querySelector('[aria-label="Note content"]');
            if (el?.getAttribute('contenteditable') === 'true' && el.textContent?.includes('END-OF-FIFTY-PAGES')) {
              resolve(performance.now());
            } else requestAnimationFrame(check);
          };
          check();
        }),
    );
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  // A cold load of /notes/:id (the app's start-up included): from the navigation's start.
  const cold: number[] = [];
  for (let run = 0; run < 5; run++) {
    await page.goto('/dashboard');
    await page.goto(`/notes/${note.id}`);
    cold.push(Math.round(await editableAt()));
  }
  // Opening it from the list (the app already running): from the click.
  const inApp: number[] = [];
  for (let run = 0; run < 5; run++) {
    await page.goto('/notes');
    const link = page.getByRole('link', { name: 'Fifty pages' });
    await link.hover();
    const clickedAt = await page.evaluate(() => performance.now());
    await link.click();
    inApp.push(Math.round((await editableAt()) - clickedAt));
  }
  console.log(
    `notes-perf: 50-page note (${chars} characters) → editable. Cold load: ${cold.join(', ')} ms, median ${median(cold)} ms. ` +
      `From the list: ${inApp.join(', ')} ms, median ${median(inApp)} ms`,
  );
  // Generous ceilings only (CI machines are shared); the figures are reported.
  expect(median(cold)).toBeLessThan(5_000);
  expect(median(inApp)).toBeLessThan(3_000);
});

test('the members only: Mia, removed from the team, is told so and can no longer edit', async ({ browser, request }) => {
  const extra = await createUser(request, { fullName: 'Temp Member' });
  await addMember(request, world.owner, world.team.id, extra);
  const note = await createNote(request, world.owner, 'Membership');
  const temp = await personIn(browser, extra);
  try {
    await openNote(temp.page, note.id);
    const team = await apiAs<TeamDto>(request, world.owner, 'get', `/api/teams/${world.team.id}`);
    const membership = team.members.find((m) => m.userId === extra.id)!;
    await apiAs(request, world.owner, 'delete', `/api/teams/${world.team.id}/members/${membership.id}`);
    // The socket closes (4403) and the page says why; the note's own query then answers 404.
    await expect(temp.page.getByText(/^(You are no longer a member of this team|Note not found)$/).first()).toBeVisible({
      timeout: 5_000,
    });
    await expect(temp.page.locator('[aria-label="Note content"][contenteditable="true"]')).toHaveCount(0);
  } finally {
    await temp.context.close();
  }
});

test('two people typing at the same spot of one empty paragraph keep their runs whole, slow and fast, many times', async ({
  browser,
  request,
}) => {
  // Issue 35, item 12: 'Oember wrote …wner wrote …M'. Both carets at the start of the same new, empty paragraph; both
  // type at once, at human speed and fast. Each run must come out whole and contiguous (either order) in both views
  // and in the document the server stored (a browser that opens the note afterwards).
  test.setTimeout(300_000);
  const note = await createNote(request, world.owner, 'Same spot');
  const olive = await personIn(browser, world.owner);
  const mia = await personIn(browser, world.mia);
  const runs: [string, string][] = [];
  try {
    await openNote(olive.page, note.id);
    await openNote(mia.page, note.id);
    await editorOf(olive.page).click();
    await olive.page.keyboard.type('Minutes');
    await expect(editorOf(mia.page)).toContainText('Minutes');

    const rounds = [80, 80, 40, 5, 0, 0, 0, 0];
    for (const [round, delay] of rounds.entries()) {
      // Olive makes a new empty paragraph at the end; once Mia has it, both carets go there.
      await newParagraphAtEnd(olive.page);
      const count = (await paragraphs(olive.page)).length;
      await expect.poll(async () => (await paragraphs(mia.page)).length).toBe(count);
      await focusEnd(mia.page);
      const pair: [string, string] = [`Owner ${round} wrote`, `Omember ${round} wrote`];
      runs.push(pair);
      await Promise.all([olive.page.keyboard.type(pair[0], { delay }), mia.page.keyboard.type(pair[1], { delay })]);
      // Both views the same (read afresh each time), with every letter of both runs in.
      await expect
        .poll(async () => {
          const [o, m] = [await paragraphs(olive.page), await paragraphs(mia.page)];
          return JSON.stringify(o) === JSON.stringify(m) ? (o.at(-1) ?? '').length : -1;
        })
        .toBeGreaterThanOrEqual(pair[0].length + pair[1].length);
      const last = (await paragraphs(olive.page)).at(-1) ?? '';
      expect.soft(last.length, `round ${round} (${delay} ms): ${JSON.stringify(last)}`).toBe(pair[0].length + pair[1].length);
      for (const run of pair) expect.soft(last, `round ${round} (${delay} ms)`).toContain(run);
    }
    const merged = await paragraphs(olive.page);
    console.log(`same spot, ${rounds.length} rounds: ${JSON.stringify(merged.slice(1))}`);

    // The stored document: a third browser opens the note and reads the same paragraphs.
    const third = await personIn(browser, world.owner);
    try {
      await openNote(third.page, note.id);
      await expect.poll(async () => JSON.stringify(await paragraphs(third.page))).toBe(JSON.stringify(merged));
    } finally {
      await third.context.close();
    }
    for (const [i, pair] of runs.entries()) {
      const text = merged[i + 1] ?? '';
      for (const run of pair) expect(text, `round ${i}`).toContain(run);
    }
  } finally {
    await olive.context.close();
    await mia.context.close();
  }
});
