// Takes screenshots of the main pages for the README and for looking at what we build.
// Usage: BASE_URL=http://127.0.0.1:3000 node scripts/screenshots.mjs [outDir]
import { mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumOrExit } from './find-chromium.mjs';

const base = process.env.BASE_URL || 'http://127.0.0.1:3000';
const out = process.argv[2] || 'docs/screenshots';
mkdirSync(out, { recursive: true });

const email = `screenshot.${Date.now()}@example.com`;
const password = 'screenshot passes 123';
const post = async (path, body, token) => {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} → ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
};

await post('/api/auth/signup', { email, password, fullName: 'Alex Morgan' });
const session = await post('/api/auth/token?grant_type=password', { email, password });
const token = session.access_token;
// Sample data, so the pages show something; the screenshots are taken without it if the server refuses.
try {
  const team = await post('/api/teams', { name: 'Product Team', description: 'Builds the product' }, token);
  const project = await post(
    '/api/projects',
    { name: 'Website Redesign', teamId: team.id, status: 'active', description: 'New marketing site' },
    token,
  );
  const today = new Date();
  const day = (n) => new Date(today.getTime() + n * 86400000).toISOString().slice(0, 10);
  const tasks = [
    { title: 'Design the landing page', status: 'todo', priority: 'high', dueDate: day(1), tags: ['design', 'web'] },
    { title: 'Write launch copy', status: 'in_progress', priority: 'medium', dueDate: day(3), tags: ['content'] },
    { title: 'Set up analytics', status: 'review', priority: 'low', tags: ['infra'] },
    {
      title: 'Fix signup bug',
      status: 'completed',
      priority: 'urgent',
      dueDate: day(-1),
      tags: ['bug', 'auth', 'web', 'urgent'],
    },
  ];
  for (const t of tasks) await post('/api/tasks', { ...t, projectId: project.id }, token);
} catch (error) {
  console.warn('sample data skipped:', error.message);
}

const browser = await chromium.launch({ executablePath: await chromiumOrExit(), args: CHROMIUM_ARGS });

async function shoot(name, path, { width = 1280, height = 800, scheme = 'light', signedIn = true } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme: scheme });
  const page = await context.newPage();
  if (signedIn) {
    await page.goto(`${base}/login`);
    await page.getByRole('button', { name: 'Sign in with Email' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/dashboard');
  }
  await page.goto(base + path);
  await page.waitForTimeout(1200);
  await page.screenshot({ path: `${out}/${name}.png` });
  await context.close();
  console.log(`${out}/${name}.png`);
}

const only = process.env.ONLY?.split(',');
const shots = [
  ['login', '/login', { signedIn: false }],
  ['signup', '/signup', { signedIn: false, scheme: 'dark' }],
  ['dashboard', '/dashboard', {}],
  ['dashboard-dark', '/dashboard', { scheme: 'dark' }],
  ['tasks', '/tasks', {}],
  ['tasks-dark', '/tasks', { scheme: 'dark' }],
  ['projects', '/projects', {}],
  ['teams', '/teams', {}],
  ['dashboard-phone', '/dashboard', { width: 390, height: 844 }],
  ['tasks-phone', '/tasks', { width: 390, height: 844, scheme: 'dark' }],
];
for (const [name, path, opts] of shots) {
  if (!only || only.includes(name)) await shoot(name, path, opts);
}
await browser.close();
