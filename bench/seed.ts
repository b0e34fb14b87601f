// Synthetic, organisation-sized data written straight into the database in bulk (no API calls):
// 50 users, 5 teams with memberships, 40 projects and N tasks with a realistic spread, created over
// a year, with the status history that brought each to its status (task_activity, issue 24).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../src/server/lib/passwords';
import type { Db } from '../src/server/db/client';
import { insertDefaultStatuses } from '../src/server/db/project-statuses';
import {
  customFields,
  passwordCredentials,
  projects,
  projectStatuses,
  taskActivity,
  taskDependencies,
  tasks,
  teamMembers,
  teams,
  timeEntries,
  users,
} from '../src/server/db/schema';

export const BENCH_PASSWORD = 'bench password 1234';

export interface SeedShape {
  users: number;
  teams: number;
  projects: number;
  tasks: number;
}

export interface SeededUser {
  id: string;
  email: string;
}

export interface SeededProject {
  id: string;
  teamId: string;
  tasks: number;
}

export interface Seeded {
  shape: SeedShape;
  /** users[0] belongs to every team (owner of the first, admin of the others): it sees every task. */
  users: SeededUser[];
  teams: { id: string; memberIds: string[] }[];
  /** projects[0] holds 20% of the tasks (the one-project board); projects[1] takes the writes. */
  projects: SeededProject[];
  /** Some task ids of projects[1], for the status-move benchmark. */
  moveTaskIds: string[];
  /** The team with a custom workflow (WORKFLOW_STATUSES), apart from user 0 (see `seedWorkflowTeam`). */
  workflow: SeededWorkflow;
  /**
   * Custom fields (issue 38, `seedFieldDefs`): every team of `teams` has the same ten fields, three shown on cards,
   * and every task of theirs a value in each. Team 0's select field 'Severity' and its option 'Critical', and its number
   * field 'Points', for the filter and sort reads.
   */
  fields: { severityId: string; criticalId: string; pointsId: string };
  /** The timeline's team: 2,000 dated tasks in a window and 500 dependencies (see `seedTimelineTeam`). */
  timeline: SeededTimeline;
  /** The timesheet's team: 50 members, 5,000 time entries in a month (see `seedTimesheetTeam`). */
  timesheet: SeededTimesheet;
  seconds: number;
}

export interface SeededWorkflow {
  /** Owns the workflow team, and is a plain member of teams[1] (whose projects keep the default four). */
  user: SeededUser;
  project: SeededProject;
}

/**
 * The custom workflow of the board scenarios on per-project statuses (decision 0024): seven statuses in four
 * categories, two WIP limits, and each status's share of the tasks.
 */
export const WORKFLOW_STATUSES = [
  { key: 'backlog', name: 'Backlog', category: 'backlog', weight: 20, wipLimit: null },
  { key: 'todo', name: 'To Do', category: 'unstarted', weight: 15, wipLimit: null },
  { key: 'design', name: 'Design', category: 'started', weight: 8, wipLimit: 5 },
  { key: 'in_progress', name: 'In Progress', category: 'started', weight: 10, wipLimit: 8 },
  { key: 'review', name: 'Review', category: 'started', weight: 5, wipLimit: null },
  { key: 'qa', name: 'QA', category: 'started', weight: 4, wipLimit: null },
  { key: 'done', name: 'Done', category: 'completed', weight: 38, wipLimit: null },
] as const;

/** A small deterministic PRNG (mulberry32), so every run seeds the same spread. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]) => items[int(items.length)]!;
  /** Picks a key with the given weights. */
  const weighted = <T extends string>(weights: Record<T, number>): T => {
    const entries = Object.entries(weights) as [T, number][];
    let r = next() * entries.reduce((s, [, w]) => s + w, 0);
    for (const [k, w] of entries) {
      r -= w;
      if (r < 0) return k;
    }
    return entries[entries.length - 1]![0];
  };
  return { next, int, pick, weighted };
}

const FIRST = [
  'Ada',
  'Bruno',
  'Chloé',
  'Dmitri',
  'Elif',
  'Femi',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kaia',
  'Liam',
  'Maya',
  'Nils',
  'Olga',
  'Priya',
  'Quinn',
  'Rosa',
  'Sami',
  'Tomás',
  'Uma',
  'Viktor',
  'Wen',
  'Ximena',
  'Yusuf',
  'Zoë',
];
const LAST = [
  'Lovelace',
  'Silva',
  'Martin',
  'Petrov',
  'Kaya',
  'Adeyemi',
  'Hopper',
  'Tanaka',
  'García',
  'Berg',
  'Nakamura',
  'Murphy',
  'Cohen',
  'Larsen',
  'Ivanova',
  'Sharma',
];
const VERBS = [
  'Fix',
  'Design',
  'Write',
  'Review',
  'Refactor',
  'Test',
  'Document',
  'Deploy',
  'Migrate',
  'Investigate',
  'Plan',
  'Prototype',
];
const NOUNS = [
  'login flow',
  'billing page',
  'search index',
  'onboarding email',
  'API docs',
  'mobile layout',
  'export to CSV',
  'audit log',
  'dark mode',
  'release notes',
  'cache layer',
  'error reporting',
  'invoice PDF',
  'settings screen',
];
const TAGS = [
  'frontend',
  'backend',
  'bug',
  'feature',
  'design',
  'docs',
  'infra',
  'security',
  'ux',
  'performance',
  'research',
  'qa',
];
const TEAM_NAMES = ['Platform', 'Growth', 'Mobile', 'Design', 'Operations'];
const PROJECT_STATUSES = ['planning', 'active', 'active', 'active', 'on_hold', 'completed'] as const;

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Share of the tasks in each project: the first holds 20%, the others a random, uneven rest. */
function projectShares(count: number, rand: ReturnType<typeof prng>): number[] {
  const weights = Array.from({ length: count - 1 }, () => 0.3 + rand.next() * 1.7);
  const sum = weights.reduce((a, b) => a + b, 0);
  return [0.2, ...weights.map((w) => (0.8 * w) / sum)];
}

async function insertChunked<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

type Status = 'todo' | 'in_progress' | 'review' | 'completed';
type HistoryRow = typeof taskActivity.$inferInsert;
const HOUR = 3_600_000;

/**
 * The status moves that brought each task to its status, at realistic times after its creation (a year of history
 * for the Analytics page): picked up after about 2 days, in progress about 3, in review about a day; some tasks
 * moved back from review, some completed ones reopened (and completed again, or left open), a few created
 * in progress or completed (no row). Moves that would fall after `now` are squeezed into the time the task has had.
 * Its own generator, so the tasks themselves are the same as before the history existed.
 */
function statusHistory(taskRows: (typeof tasks.$inferInsert)[], now: number): HistoryRow[] {
  const rand = prng(20241124);
  // Exponential-ish waits (hours), capped at 8 times their mean.
  const wait = (meanHours: number) => Math.min(-Math.log(1 - rand.next()) * meanHours, 8 * meanHours) + 0.1;
  const rows: HistoryRow[] = [];
  for (const task of taskRows) {
    const created = (task.createdAt as Date).getTime();
    const status = task.status as Status;
    let path: Status[];
    const r = rand.next();
    if (status === 'todo') path = r < 0.08 ? ['todo', 'in_progress', 'review', 'completed', 'todo'] : ['todo'];
    else if (status === 'in_progress') path = r < 0.05 ? ['in_progress'] : ['todo', 'in_progress'];
    else if (status === 'review')
      path = r < 0.1 ? ['todo', 'in_progress', 'review', 'in_progress', 'review'] : ['todo', 'in_progress', 'review'];
    else if (r < 0.03) path = ['completed'];
    else if (r < 0.06) path = ['in_progress', 'review', 'completed'];
    else if (r < 0.14) path = ['todo', 'in_progress', 'review', 'in_progress', 'review', 'completed'];
    else if (r < 0.19) path = ['todo', 'in_progress', 'review', 'completed', 'in_progress', 'review', 'completed'];
    else if (r < 0.25) path = ['todo', 'completed'];
    else path = ['todo', 'in_progress', 'review', 'completed'];
    if (path.length < 2) continue;
    const mean = { todo: 48, in_progress: 72, review: 24, completed: 240 } as const;
    const gaps = path.slice(0, -1).map((from) => wait(mean[from]));
    const total = gaps.reduce((a, b) => a + b, 0) * HOUR;
    // Squeezed into the time since creation (less a minute) when the moves would run past now.
    const room = now - created - 60_000;
    const scale = total > room ? (Math.max(room, 1000) / total) * (0.5 + 0.45 * rand.next()) : 1;
    let at = created;
    for (let i = 1; i < path.length; i++) {
      at += gaps[i - 1]! * HOUR * scale;
      rows.push({
        taskId: task.id!,
        actorId: task.assigneeId ?? task.creatorId,
        field: 'status',
        oldValue: path[i - 1]!,
        newValue: path[i]!,
        createdAt: new Date(Math.round(at)),
      });
    }
  }
  return rows;
}

/** The ten fields each team gets (issue 38's bench: "10 fields, 3 shown on cards"); options by name. */
const FIELD_SHAPES = [
  { name: 'Severity', type: 'select', options: ['Low', 'High', 'Critical'], showOnCard: true },
  { name: 'Points', type: 'number', showOnCard: true },
  { name: 'Sprint', type: 'select', options: ['Sprint 1', 'Sprint 2', 'Sprint 3', 'Sprint 4', 'Sprint 5'], showOnCard: true },
  { name: 'Customer', type: 'text' },
  { name: 'Review on', type: 'date' },
  { name: 'Approved', type: 'checkbox' },
  { name: 'Reviewer', type: 'person' },
  { name: 'Platforms', type: 'multi_select', options: ['Web', 'iOS', 'Android', 'Desktop'] },
  { name: 'Spec', type: 'url' },
  { name: 'Estimate', type: 'number' },
] as const;
const CUSTOMERS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne', 'Tyrell'];

/**
 * Each team's ten custom fields (FIELD_SHAPES), and a maker of a task's values for a team: every field gets one, from a
 * generator of its own (so the rest of the seed is the same data as before fields existed).
 */
function seedFieldDefs(teamIds: readonly string[], memberList: readonly string[][]) {
  const rand = prng(38038);
  const rows: (typeof customFields.$inferInsert)[] = [];
  const byTeam = teamIds.map((teamId) =>
    FIELD_SHAPES.map((shape, position) => {
      const options =
        'options' in shape
          ? shape.options.map((name, i) => ({
              id: randomUUID(),
              name,
              color: ['#64748b', '#ca8a04', '#dc2626', '#2563eb', '#16a34a'][i % 5]!,
            }))
          : [];
      const row = {
        id: randomUUID(),
        teamId,
        name: shape.name,
        type: shape.type,
        options,
        position,
        showOnCard: 'showOnCard' in shape,
      };
      rows.push(row);
      return row;
    }),
  );
  const valuesFor = (team: number, today: number): Record<string, string | number | boolean | string[]> => {
    const values: Record<string, string | number | boolean | string[]> = {};
    for (const field of byTeam[team]!) {
      switch (field.type) {
        case 'select':
          values[field.id] = rand.pick(field.options).id;
          break;
        case 'multi_select':
          values[field.id] = field.options.filter(() => rand.next() < 0.4).map((o) => o.id);
          if ((values[field.id] as string[]).length === 0) values[field.id] = [field.options[0]!.id];
          break;
        case 'number':
          values[field.id] = rand.int(field.name === 'Points' ? 21 : 400) / (field.name === 'Points' ? 1 : 4);
          break;
        case 'text':
          values[field.id] = rand.pick(CUSTOMERS);
          break;
        case 'date':
          values[field.id] = isoDay(today + (rand.int(120) - 60) * DAY);
          break;
        case 'checkbox':
          values[field.id] = true;
          break;
        case 'person':
          values[field.id] = rand.pick(memberList[team]!);
          break;
        case 'url':
          values[field.id] = `https://specs.example.com/${rand.int(100_000)}`;
          break;
      }
    }
    return values;
  };
  const team0 = byTeam[0]!;
  return {
    rows,
    valuesFor,
    seeded: {
      severityId: team0[0]!.id,
      criticalId: team0[0]!.options[2]!.id,
      pointsId: team0[1]!.id,
    },
  };
}

/** Seeds an empty (migrated) database. */
export async function seed(db: Db, shape: SeedShape, today = new Date()): Promise<Seeded> {
  const started = performance.now();
  const rand = prng(20240601);
  const passwordHash = await hashPassword(BENCH_PASSWORD); // hashed once, shared by every user

  const userRows = Array.from({ length: shape.users }, (_, i) => ({
    id: randomUUID(),
    email: `bench.user${i}@bench.example.com`,
    fullName: `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`,
    emailVerified: true,
  }));
  await db.insert(users).values(userRows);
  await db.insert(passwordCredentials).values(userRows.map((u) => ({ userId: u.id, passwordHash })));

  // Teams: owner i; user 0 is in every team; the others are spread so each sits in one or two teams.
  const teamRows = Array.from({ length: shape.teams }, (_, i) => ({
    id: randomUUID(),
    name: TEAM_NAMES[i % TEAM_NAMES.length]!,
    description: `The ${TEAM_NAMES[i % TEAM_NAMES.length]} team`,
    ownerId: userRows[i]!.id,
  }));
  await db.insert(teams).values(teamRows);
  const memberRows: (typeof teamMembers.$inferInsert)[] = [];
  const teamMembersOf = teamRows.map(() => new Set<string>());
  const addMember = (t: number, userId: string, role: 'owner' | 'admin' | 'member') => {
    if (teamMembersOf[t]!.has(userId)) return;
    teamMembersOf[t]!.add(userId);
    memberRows.push({ teamId: teamRows[t]!.id, userId, role });
  };
  for (let t = 0; t < teamRows.length; t++) addMember(t, userRows[t]!.id, 'owner');
  for (let t = 0; t < teamRows.length; t++) addMember(t, userRows[0]!.id, 'admin');
  for (let i = 1; i < userRows.length; i++) {
    const home = i % teamRows.length;
    addMember(home, userRows[i]!.id, i % 9 === 0 ? 'admin' : 'member');
    if (rand.next() < 0.4) addMember(rand.int(teamRows.length), userRows[i]!.id, 'member');
  }
  await db.insert(teamMembers).values(memberRows);
  const memberList = teamMembersOf.map((s) => [...s]);

  const projectRows = Array.from({ length: shape.projects }, (_, i) => {
    const team = i % teamRows.length;
    const start = today.getTime() - (30 + rand.int(300)) * DAY;
    return {
      id: randomUUID(),
      name: `${TEAM_NAMES[team % TEAM_NAMES.length]} project ${i + 1}`,
      description: i % 3 === 0 ? null : `Everything about ${NOUNS[i % NOUNS.length]}`,
      status: PROJECT_STATUSES[i % PROJECT_STATUSES.length]!,
      ownerId: teamRows[team]!.ownerId,
      teamId: teamRows[team]!.id,
      startDate: isoDay(start),
      endDate: isoDay(start + (60 + rand.int(300)) * DAY),
    };
  });
  await db.insert(projects).values(projectRows);
  await insertDefaultStatuses(
    db,
    projectRows.map((p) => p.id),
  );

  // Custom fields first: the tasks' values name them (the values table's trigger reads their types).
  const fieldDefs = seedFieldDefs(
    teamRows.map((t) => t.id),
    memberList,
  );
  await db.insert(customFields).values(fieldDefs.rows);

  // Tasks, in bulk.
  const shares = projectShares(shape.projects, rand);
  const perProject = shares.map((s) => Math.floor(s * shape.tasks));
  perProject[0]! += shape.tasks - perProject.reduce((a, b) => a + b, 0);
  const taskRows: (typeof tasks.$inferInsert)[] = [];
  const moveTaskIds: string[] = [];
  projectRows.forEach((project, p) => {
    const members = memberList[p % teamRows.length]!;
    for (let k = 0; k < perProject[p]!; k++) {
      const id = randomUUID();
      const status = rand.weighted({ todo: 30, in_progress: 20, review: 10, completed: 40 });
      const created = today.getTime() - rand.int(365 * DAY);
      const tagCount = rand.weighted({ 0: 30, 1: 35, 2: 25, 3: 10 });
      const tagSet = new Set<string>();
      for (let t = 0; t < Number(tagCount); t++) tagSet.add(rand.pick(TAGS));
      taskRows.push({
        id,
        title: `${rand.pick(VERBS)} ${rand.pick(NOUNS)} #${k + 1}`,
        description: rand.next() < 0.5 ? null : `Make sure the ${rand.pick(NOUNS)} works for every team before the next release.`,
        status,
        priority: rand.weighted({ low: 20, medium: 45, high: 25, urgent: 10 }),
        assigneeId: rand.next() < 0.15 ? null : rand.pick(members),
        projectId: project.id,
        creatorId: rand.pick(members),
        dueDate: rand.next() < 0.3 ? null : isoDay(today.getTime() + (rand.int(90) - 30) * DAY),
        tags: [...tagSet],
        createdAt: new Date(created),
        updatedAt: new Date(created + rand.int(20) * DAY),
        fields: fieldDefs.valuesFor(p % teamRows.length, today.getTime()),
      });
      if (p === 1 && moveTaskIds.length < 2000) moveTaskIds.push(id);
    }
  });
  await insertChunked(taskRows, 2000, (chunk) => db.insert(tasks).values(chunk));
  const historyRows = statusHistory(taskRows, today.getTime());
  await insertChunked(historyRows, 5000, (chunk) => db.insert(taskActivity).values(chunk));
  const workflow = await seedWorkflowTeam(db, shape, teamRows[1]!.id, passwordHash, today);
  const timeline = await seedTimelineTeam(db, passwordHash, today);
  const timesheet = await seedTimesheetTeam(db, passwordHash, today);

  // The task triggers counted the tasks; then the steady state autovacuum would reach (visibility
  // map for index-only scans, planner statistics).
  await db.execute(sql`vacuum analyze`);

  return {
    shape,
    users: userRows.map((u) => ({ id: u.id, email: u.email })),
    teams: teamRows.map((t, i) => ({ id: t.id, memberIds: memberList[i]! })),
    projects: projectRows.map((p, i) => ({ id: p.id, teamId: p.teamId, tasks: perProject[i]! })),
    moveTaskIds,
    workflow,
    fields: fieldDefs.seeded,
    timeline,
    timesheet,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * A team of its own with one project on a seven-status workflow (WORKFLOW_STATUSES) and a fifth of `shape.tasks`
 * tasks (as many as the one-project board's), for the board's per-project reads (decision 0024). User 0 is not in it,
 * so the other scenarios' boards stay the default four (today's statement); its owner is also a plain member of
 * `mixedTeamId`, so their All Projects board mixes workflows (category columns). Its tasks were created 1 to 2 years
 * ago, before every other task, so the newest-first reads of the other boards never walk past them; its own generator,
 * so the rest of the data is the same as without it.
 */
async function seedWorkflowTeam(
  db: Db,
  shape: SeedShape,
  mixedTeamId: string,
  passwordHash: string,
  today: Date,
): Promise<SeededWorkflow> {
  const rand = prng(20261128);
  const user = { id: randomUUID(), email: 'bench.workflow@bench.example.com', fullName: 'Wanda Workflow', emailVerified: true };
  await db.insert(users).values(user);
  await db.insert(passwordCredentials).values({ userId: user.id, passwordHash });
  const team = { id: randomUUID(), name: 'Workflow', description: 'The team with its own workflow', ownerId: user.id };
  await db.insert(teams).values(team);
  await db.insert(teamMembers).values([
    { teamId: team.id, userId: user.id, role: 'owner' },
    { teamId: mixedTeamId, userId: user.id, role: 'member' },
  ]);
  const project = { id: randomUUID(), name: 'Workflow project', status: 'active' as const, ownerId: user.id, teamId: team.id };
  await db.insert(projects).values(project);
  await db.insert(projectStatuses).values(
    WORKFLOW_STATUSES.map(({ key, name, category, wipLimit }, position) => ({
      projectId: project.id,
      key,
      name,
      category,
      color: '#7c3aed',
      position,
      wipLimit,
    })),
  );
  const count = Math.floor(shape.tasks / 5);
  const weights = Object.fromEntries(WORKFLOW_STATUSES.map((s) => [s.key, s.weight])) as Record<string, number>;
  const rows = Array.from({ length: count }, (_, k) => {
    const created = today.getTime() - (366 + rand.int(365)) * DAY;
    return {
      title: `${rand.pick(VERBS)} ${rand.pick(NOUNS)} #${k + 1}`,
      description: rand.next() < 0.5 ? null : `Make sure the ${rand.pick(NOUNS)} works for every team before the next release.`,
      status: rand.weighted(weights),
      priority: rand.weighted({ low: 20, medium: 45, high: 25, urgent: 10 }),
      assigneeId: rand.next() < 0.15 ? null : user.id,
      projectId: project.id,
      creatorId: user.id,
      dueDate: rand.next() < 0.3 ? null : isoDay(today.getTime() + (rand.int(90) - 30) * DAY),
      tags: rand.next() < 0.5 ? [] : [rand.pick(TAGS)],
      createdAt: new Date(created),
      updatedAt: new Date(created + rand.int(20) * DAY),
    };
  });
  await insertChunked(rows, 2000, (chunk) => db.insert(tasks).values(chunk));
  return { user: { id: user.id, email: user.email }, project: { id: project.id, teamId: team.id, tasks: count } };
}

export interface SeededTimeline {
  /** Owns the timeline team (and is in no other team). */
  user: SeededUser;
  teamId: string;
  /** The window the scenario asks for: `TIMELINE_SHAPE.inWindow` dated tasks overlap it. */
  from: string;
  to: string;
}

/** What the timeline's team holds, whatever the dataset's size (issue 37: "up to 2,000 dated tasks and 500 dependencies"). */
export const TIMELINE_SHAPE = {
  projects: 4,
  /** Dated tasks overlapping the window, sub-tasks included. */
  inWindow: 2000,
  /** Of those, sub-tasks (of a task of the window, in the same project). */
  subtasks: 200,
  /** Dependencies among the tasks of the window (acyclic: a task is only blocked by one made before it). */
  dependencies: 500,
  /** Dated tasks before the window, which the read must skip. */
  before: 1000,
  /** Tasks with neither date: open ones (the unscheduled list), then closed ones. */
  unscheduledOpen: 150,
  unscheduledClosed: 100,
  /** The window: from 30 days ago to 60 days ahead. */
  windowDays: [-30, 60],
} as const;

/**
 * A team of its own for the timeline read (decision 0025): `TIMELINE_SHAPE` — four projects, 2,000 dated tasks
 * overlapping a 90-day window (bars with both dates, milestones with one, some spanning the whole window), 200 of them
 * sub-tasks, 500 dependencies among them, 1,000 older dated tasks and 250 undated ones. Its owner is in no other team,
 * so the other scenarios read the same data as without it; its own generator, so the rest of the data is the same too.
 */
async function seedTimelineTeam(db: Db, passwordHash: string, today: Date): Promise<SeededTimeline> {
  const rand = prng(20261129);
  const shape = TIMELINE_SHAPE;
  const user = { id: randomUUID(), email: 'bench.timeline@bench.example.com', fullName: 'Tim Line', emailVerified: true };
  await db.insert(users).values(user);
  await db.insert(passwordCredentials).values({ userId: user.id, passwordHash });
  const team = { id: randomUUID(), name: 'Timeline', description: 'The team of the timeline read', ownerId: user.id };
  await db.insert(teams).values(team);
  await db.insert(teamMembers).values({ teamId: team.id, userId: user.id, role: 'owner' });
  const projectRows = Array.from({ length: shape.projects }, (_, i) => ({
    id: randomUUID(),
    name: `Roadmap ${String.fromCharCode(65 + i)}`,
    status: 'active' as const,
    ownerId: user.id,
    teamId: team.id,
  }));
  await db.insert(projects).values(projectRows);
  await insertDefaultStatuses(
    db,
    projectRows.map((p) => p.id),
  );

  const day = (offset: number) => isoDay(today.getTime() + offset * DAY);
  const [first, last] = shape.windowDays;
  const task = (k: number, dates: { startDate: string | null; dueDate: string | null }, status?: Status) => {
    const created = today.getTime() - (30 + rand.int(300)) * DAY;
    return {
      id: randomUUID(),
      title: `${rand.pick(VERBS)} ${rand.pick(NOUNS)} #${k + 1}`,
      status: status ?? rand.weighted<Status>({ todo: 35, in_progress: 30, review: 10, completed: 25 }),
      priority: rand.weighted({ low: 20, medium: 45, high: 25, urgent: 10 }),
      assigneeId: rand.next() < 0.2 ? null : user.id,
      projectId: projectRows[rand.int(projectRows.length)]!.id,
      creatorId: user.id,
      ...dates,
      createdAt: new Date(created),
      updatedAt: new Date(created),
    };
  };
  /** Dates overlapping the window: 60% bars, 25% milestones (due only), 10% start only, 5% spanning it all. */
  const inWindow = () => {
    const r = rand.next();
    const start = first - 20 + rand.int(last - first + 20);
    if (r < 0.05) return { startDate: day(first - 10 - rand.int(30)), dueDate: day(last + 5 + rand.int(30)) };
    if (r < 0.15) return { startDate: day(first + rand.int(last - first)), dueDate: null };
    if (r < 0.4) return { startDate: null, dueDate: day(first + rand.int(last - first)) };
    return { startDate: day(start), dueDate: day(Math.max(start + 1 + rand.int(25), first)) };
  };
  const top = Array.from({ length: shape.inWindow - shape.subtasks }, (_, k) => task(k, inWindow()));
  const older = Array.from({ length: shape.before }, (_, k) => {
    const due = first - 1 - rand.int(300);
    return task(k, { startDate: rand.next() < 0.5 ? null : day(due - 1 - rand.int(20)), dueDate: day(due) });
  });
  const undated = [
    ...Array.from({ length: shape.unscheduledOpen }, (_, k) => task(k, { startDate: null, dueDate: null }, 'todo')),
    ...Array.from({ length: shape.unscheduledClosed }, (_, k) => task(k, { startDate: null, dueDate: null }, 'completed')),
  ];
  await insertChunked([...top, ...older, ...undated], 2000, (chunk) => db.insert(tasks).values(chunk));
  // Sub-tasks after their parents (the parent rule's trigger reads the parent's row), within the parent's dates.
  const positions = new Map<string, number>();
  const subtasks = Array.from({ length: shape.subtasks }, (_, k) => {
    const parent = top[rand.int(top.length)]!;
    const position = positions.get(parent.id) ?? 0;
    positions.set(parent.id, position + 1);
    const dates = parent.startDate && parent.dueDate ? { startDate: parent.startDate, dueDate: parent.dueDate } : inWindow();
    return { ...task(k, dates), projectId: parent.projectId, parentId: parent.id, subtaskPosition: position };
  });
  await db.insert(tasks).values(subtasks);

  // Dependencies among the window's tasks, blocked by one made earlier: no cycle, and no pair twice.
  const window = [...top, ...subtasks];
  const edges = new Map<string, { taskId: string; blockedById: string; createdBy: string }>();
  while (edges.size < shape.dependencies) {
    const a = 1 + rand.int(window.length - 1);
    const b = rand.int(a);
    const taskId = window[a]!.id;
    const blockedById = window[b]!.id;
    edges.set(`${taskId} ${blockedById}`, { taskId, blockedById, createdBy: user.id });
  }
  await db.insert(taskDependencies).values([...edges.values()]);
  return { user: { id: user.id, email: user.email }, teamId: team.id, from: day(first), to: day(last) };
}

export interface SeededTimesheet {
  /** Owns the timesheet team (and is in no other team): reads any member's entries. */
  user: SeededUser;
  teamId: string;
  /** A member whose week is read, and that week (Monday to Sunday, inside the month). */
  memberId: string;
  week: { from: string; to: string };
  /** The month of entries: the 30 days up to today. */
  month: { from: string; to: string };
}

/** What the timesheet's team holds, whatever the dataset's size (issue 39: "a team of 50 with 5,000 entries in a month"). */
export const TIMESHEET_SHAPE = { members: 50, projects: 4, tasks: 400, entries: 5000, days: 30 } as const;

/**
 * A team of its own for /timesheet (issue 39, decision 0027): `TIMESHEET_SHAPE` — 50 members (the owner one of them),
 * four projects of 400 tasks made a year ago, and 5,000 entries spread over the members and the 30 days up to today
 * (15 to 240 minutes, a third with a note). Nobody of the other teams is in it, so the other scenarios read the same
 * data as without it; its own generator, so the rest of the data is the same too.
 */
async function seedTimesheetTeam(db: Db, passwordHash: string, today: Date): Promise<SeededTimesheet> {
  const rand = prng(20261130);
  const shape = TIMESHEET_SHAPE;
  const people = Array.from({ length: shape.members }, (_, i) => ({
    id: randomUUID(),
    email: `bench.timesheet.${i}@bench.example.com`,
    fullName: `${FIRST[i % FIRST.length]} Timesheet ${i}`,
    emailVerified: true,
  }));
  await db.insert(users).values(people);
  await db.insert(passwordCredentials).values(people.map((u) => ({ userId: u.id, passwordHash })));
  const owner = people[0]!;
  const team = { id: randomUUID(), name: 'Timesheet', description: 'The team of the timesheet read', ownerId: owner.id };
  await db.insert(teams).values(team);
  await db
    .insert(teamMembers)
    .values(people.map((u, i) => ({ teamId: team.id, userId: u.id, role: i === 0 ? ('owner' as const) : ('member' as const) })));
  const projectRows = Array.from({ length: shape.projects }, (_, i) => ({
    id: randomUUID(),
    name: `Client ${String.fromCharCode(65 + i)}`,
    status: 'active' as const,
    ownerId: owner.id,
    teamId: team.id,
  }));
  await db.insert(projects).values(projectRows);
  await insertDefaultStatuses(
    db,
    projectRows.map((p) => p.id),
  );
  const taskRows = Array.from({ length: shape.tasks }, (_, k) => {
    const created = today.getTime() - (300 + rand.int(60)) * DAY;
    return {
      id: randomUUID(),
      title: `${rand.pick(VERBS)} ${rand.pick(NOUNS)} #${k + 1}`,
      status: rand.weighted<Status>({ todo: 35, in_progress: 35, review: 10, completed: 20 }),
      projectId: projectRows[k % projectRows.length]!.id,
      creatorId: owner.id,
      assigneeId: rand.pick(people).id,
      createdAt: new Date(created),
      updatedAt: new Date(created),
    };
  });
  await insertChunked(taskRows, 2000, (chunk) => db.insert(tasks).values(chunk));
  const first = today.getTime() - (shape.days - 1) * DAY;
  const entries = Array.from({ length: shape.entries }, () => ({
    taskId: rand.pick(taskRows).id,
    userId: rand.pick(people).id,
    date: isoDay(first + rand.int(shape.days) * DAY),
    minutes: 15 * (1 + rand.int(16)),
    note: rand.next() < 0.33 ? `Worked on the ${rand.pick(NOUNS)}` : null,
  }));
  await insertChunked(entries, 2000, (chunk) => db.insert(timeEntries).values(chunk));
  // A week wholly inside the month: the one of the day two weeks ago, Monday to Sunday.
  const twoWeeksAgo = new Date(today.getTime() - 14 * DAY);
  const monday = twoWeeksAgo.getTime() - ((twoWeeksAgo.getUTCDay() + 6) % 7) * DAY;
  return {
    user: { id: owner.id, email: owner.email },
    teamId: team.id,
    memberId: people[1]!.id,
    week: { from: isoDay(monday), to: isoDay(monday + 6 * DAY) },
    month: { from: isoDay(first), to: isoDay(today.getTime()) },
  };
}
