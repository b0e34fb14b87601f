import { type SQL, and, eq, sql } from 'drizzle-orm';
import type { TaskPriority } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { lockFor } from '../../db/locks';
import { mailOutbox, projects, tasks, users } from '../../db/schema';
import { seesProject } from '../../db/visibility';

/** The time zones of the people who take the digest ('' for none: UTC). */
export async function listDigestZones(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .selectDistinct({ zone: sql<string>`coalesce(${users.timeZone}, '')` })
    .from(users)
    .where(and(eq(users.digestEnabled, true), eq(users.isActive, true)));
  return rows.map((r) => r.zone);
}

/** Serializes the digest's check-and-queue across instances, until the transaction ends. */
export async function lockDigestQueue(tx: DbOrTx): Promise<void> {
  await lockFor(tx, 'digest');
}

export interface DigestTaskRow {
  userId: string;
  email: string;
  fullName: string;
  timeZone: string | null;
  day: string;
  title: string;
  dueDate: string;
  priority: TaskPriority;
  projectName: string;
  /** How many tasks the person's digest has in all (only the first `perUser` rows are read). */
  total: number;
}

/**
 * The open tasks due on or before each zone's local day, per person whose 08:00 has come (`windows`), who takes the
 * digest, is still a member of the task's team, and has no digest queued since their local midnight. People with
 * no such task get no row (no mail). With `provenOnly`, only verified addresses.
 */
export async function listDueDigestTasks(
  db: DbOrTx,
  windows: readonly { zone: string; day: string; since: Date }[],
  options: { provenOnly: boolean; perUser: number },
): Promise<DigestTaskRow[]> {
  if (windows.length === 0) return [];
  const zones: SQL = sql.join(
    windows.map((w) => sql`(${w.zone}, ${w.day}::date, ${w.since.toISOString()}::timestamptz)`),
    sql`, `,
  );
  const result = (await db.execute(sql`
    with z(zone, day, since) as (values ${zones}),
    due as (
      select u.id as "userId", u.email, u.full_name as "fullName", u.time_zone as "timeZone", z.day::text as day,
             t.title, t.due_date::text as "dueDate", t.priority, p.name as "projectName",
             row_number() over (partition by u.id order by t.due_date, t.title, t.id) as n,
             count(*) over (partition by u.id) as total
      from z
      join ${users} u on coalesce(u.time_zone, '') = z.zone
      join ${tasks} t on t.assignee_id = u.id
      join ${projects} p on p.id = t.project_id
      where u.digest_enabled and u.is_active ${options.provenOnly ? sql`and u.email_verified` : sql``}
        and t.status_category not in ('completed', 'canceled') and t.due_date <= z.day
        and ${seesProject(sql`p.team_id`, sql`p.id`, sql`u.id`)}
        and not exists (
          select 1 from ${mailOutbox} o where o.kind = 'digest' and o.to_email = u.email and o.created_at >= z.since
        )
    )
    select * from due where n <= ${options.perUser} order by "userId", n
  `)) as unknown as { rows: (Omit<DigestTaskRow, 'total'> & { total: number | string })[] };
  return result.rows.map((r) => ({ ...r, total: Number(r.total) }));
}
